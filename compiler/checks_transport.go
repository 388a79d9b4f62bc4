package compiler

import (
	"fmt"
	"net/netip"

	"github.com/fabricc/fabricc/model"
)

// components are the connected pieces of the cabling. Nodes are switches
// and NICs (a host does not bridge its NICs), keyed "s:<switch>" and
// "n:<host>/<nic>".
type components struct {
	parent map[string]string
	// roce is the first RoCE NIC ("host:nic") of each root.
	roce map[string]string
}

// switchNode and nicNode are the node keys.
func switchNode(name string) string   { return "s:" + name }
func nicNode(host, nic string) string { return "n:" + host + "/" + nic }
func endpointNode(e model.Endpoint) string {
	if e.Kind == "switch" {
		return switchNode(e.Device)
	}
	return nicNode(e.Device, e.Port)
}

// buildComponents joins the ends of every link and records the first
// RoCE NIC of each component, in model order.
func buildComponents(f *model.Fabric) *components {
	c := &components{parent: map[string]string{}, roce: map[string]string{}}
	for _, l := range f.Links {
		c.union(endpointNode(l.A), endpointNode(l.B))
	}
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			if n.Transport != model.TransportRoCE {
				continue
			}
			root := c.find(nicNode(h.Name, n.Name))
			if _, ok := c.roce[root]; !ok {
				c.roce[root] = h.Name + ":" + n.Name
			}
		}
	}
	return c
}

// find returns the root of a node, compressing the path.
func (c *components) find(x string) string {
	p, ok := c.parent[x]
	if !ok || p == x {
		return x
	}
	r := c.find(p)
	c.parent[x] = r
	return r
}

// union joins the components of a and b; the smaller key becomes the
// root so the result does not depend on link order.
func (c *components) union(a, b string) {
	ra, rb := c.find(a), c.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	c.parent[ra] = ra
	c.parent[rb] = ra
}

// hasRoCE reports whether a node's component holds a RoCE NIC.
func (c *components) hasRoCE(node string) bool {
	_, ok := c.roce[c.find(node)]
	return ok
}

// firstRoCE names the first RoCE NIC of a node's component.
func (c *components) firstRoCE(node string) string { return c.roce[c.find(node)] }

// checkTransports reports RoCE v1 NICs that would have to talk across
// subnets or VLANs, and iWARP NICs cabled into a RoCE fabric.
func (c *checker) checkTransports() {
	type v1Group struct {
		host, nic string
		key       string
	}
	firstV1 := map[string]v1Group{}
	for _, h := range c.f.Hosts {
		for _, n := range h.NICs {
			root := c.comp.find(nicNode(h.Name, n.Name))
			switch {
			case n.Transport == model.TransportIWARP:
				if r, ok := c.comp.roce[root]; ok {
					rh, rn := splitDevice(r)
					c.errorf("iWARP NIC linked to RoCE NIC",
						fmt.Sprintf("%s:%s runs iWARP but is cabled (directly or through switches) to RoCE NIC %s; RoCE and iWARP cannot talk to each other (StarWind blog, 2018, \"SMB Direct - The State of RDMA for use with SMB 3 traffic (Part III)\": mixing them creates RDMA silos). Use the same transport on both, or separate the fabrics.", h.Name, n.Name, r),
						nicPath(h.Name, n.Name, "transport"), rel("RoCE NIC "+r, nicPath(rh, rn, "transport")...))
				}
			case n.Transport == model.TransportRoCE && n.RoCE.Mode == "v1":
				g := v1Group{h.Name, n.Name, v1Key(n)}
				first, ok := firstV1[root]
				if !ok {
					firstV1[root] = g
					continue
				}
				if first.key != g.key {
					c.errorf("RoCE v1 across subnets",
						fmt.Sprintf("%s:%s (%s) and %s:%s (%s) run RoCE v1 and are connected, but v1 is a plain Ethernet frame and is not routed: they must share a VLAN and an IP subnet. Put them in one VLAN and subnet, or use RoCE v2.", h.Name, n.Name, g.key, first.host, first.nic, first.key),
						nicPath(h.Name, n.Name, "roce_mode"), rel(fmt.Sprintf("%s:%s (%s)", first.host, first.nic, first.key), nicPath(first.host, first.nic, "addresses")...))
				}
			}
		}
	}
}

// v1Key is the L2 domain of a NIC: its VLAN and the subnet of its first
// address.
func v1Key(n model.NIC) string {
	subnet := "no address"
	if len(n.Addresses) > 0 {
		if p, err := netip.ParsePrefix(n.Addresses[0]); err == nil {
			subnet = p.Masked().String()
		}
	}
	return fmt.Sprintf("VLAN %d, subnet %s", n.VLAN, subnet)
}

// splitDevice splits "host:nic".
func splitDevice(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}
