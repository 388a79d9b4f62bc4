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
	var l2 *l2Domains // built for the first iWARP NIC in a RoCE fabric
	for _, h := range c.f.Hosts {
		for _, n := range h.NICs {
			root := c.comp.find(nicNode(h.Name, n.Name))
			switch {
			case n.Transport == model.TransportIWARP:
				if _, ok := c.comp.roce[root]; ok {
					if l2 == nil {
						l2 = newL2Domains(c)
					}
					r, shared := l2.roceBeside(h.Name, n.Name)
					if !shared {
						continue // in VLANs without RoCE: separated at layer 2
					}
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

// l2Domains are the layer-2 domains of the NICs on switch ports (the
// (switch, VLAN) union-find of checkVLANPaths), for the transport check.
type l2Domains struct {
	g *vlanGraph
	// roce is the first RoCE NIC ("host:nic") of each domain root.
	roce map[int32]string
}

// newL2Domains builds the domains and records their RoCE NICs.
func newL2Domains(c *checker) *l2Domains {
	d := &l2Domains{g: newVLANGraph(c), roce: map[int32]string{}}
	for _, vn := range d.g.nics {
		if vn.h.nic.Transport != model.TransportRoCE {
			continue
		}
		if r := d.g.find(vn.node); d.roce[r] == "" {
			d.roce[r] = vn.h.host.Name + ":" + vn.h.nic.Name
		}
	}
	return d
}

// roceBeside returns a RoCE NIC in the layer-2 domain of NIC host:nic
// and true, or false when it has none. A NIC that is on no switch port's
// VLAN (cabled to a NIC, or in a VLAN its port does not carry) counts as
// sharing its cabled component's RoCE NIC, as before VLANs were looked at.
func (d *l2Domains) roceBeside(host, nic string) (string, bool) {
	found := false
	for _, vn := range d.g.nics {
		if vn.h.host.Name != host || vn.h.nic.Name != nic {
			continue
		}
		found = true
		if r := d.roce[d.g.find(vn.node)]; r != "" {
			return r, true
		}
	}
	if !found {
		r, ok := d.g.c.comp.roce[d.g.c.comp.find(nicNode(host, nic))]
		return r, ok
	}
	return "", false
}
