package compiler

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// A VLAN is one broadcast domain only where the switches carrying it are
// joined by links that carry it too (IEEE 802.1Q: a bridge forwards a
// VLAN's frames only out of ports that are members of it). checkVLANPaths
// works out, for each VLAN, the islands of switches it spans: two
// switches cabled together are in one island for VLAN v when their ports
// carry v, tagged or untagged. Hosts in one IP subnet reach each other
// without a router (by ARP, then directly), so NICs that share a VLAN and
// a subnet on two islands cannot talk. That is a warning, not an error:
// the islands are cabled together within the description, whose trunks
// fabricc writes, but an overlay fabricc does not describe (EVPN-VXLAN
// over routed uplinks) stretches a VLAN across them, and a fabric built
// that way says so with overlay = "vxlan" in the VLAN's block, which
// silences the warning for that VLAN (checkOverlayMTUs then checks what
// the encapsulation needs). Islands no cable
// of the description joins are not compared (the network between them,
// a core or another fabric, is not described). NICs of one VLAN on two
// islands in different subnets are the routed design (the same rack VLAN
// on every leaf, routed uplinks, as bench/fabric) and are not reported.
// NICs of one subnet in two VLANs are a warning: the hosts expect to ARP
// for each other, which no switch of two VLANs forwards, but a router
// answering for the subnet (proxy ARP) can make it work.
//
// The walk is linear: one union-find over (switch, VLAN) pairs joined by
// the switch-switch links, then one pass over the NICs on switch ports
// with one map keyed by VLAN and subnet. Paths between islands are
// searched only for a VLAN found split.
func (c *checker) checkVLANPaths() {
	g := newVLANGraph(c)
	if len(g.nics) == 0 {
		return
	}
	c.checkSubnetVLANs(g)
	c.checkWindowsDSCPPaths(g)
	c.checkSubnetMTUs(g)
	c.checkBridgedMTUs(g)
	c.checkOverlayMTUs(g)
	for _, s := range g.splits() {
		if v := c.f.VLAN(s.vlan); v != nil && v.Overlay != "" {
			continue // the overlay says what joins the islands
		}
		c.reportSplit(g, s)
	}
}

// vlanNIC is a NIC on a switch port, with the VLAN its traffic is in
// and the IP subnets of its addresses, parsed once.
type vlanNIC struct {
	sw      int // index in f.Switches
	s, h    end
	vlan    int
	node    int32
	subnets []netip.Prefix // masked; unparsable addresses are an error of their own
	// root and cable are the NIC's island and cabled component, set by
	// the first pass of splits for its second.
	root, cable int32
}

// vlanGraph is the union-find over (switch, VLAN) pairs and the NICs on
// switch ports.
type vlanGraph struct {
	c      *checker
	index  map[string]int // switch name -> index in f.Switches
	nodes  map[[2]int]int32
	parent []int32
	nics   []vlanNIC
	// prefixes backs the NICs' subnets, one allocation for them all.
	prefixes []netip.Prefix
	// links are the switch-switch links, for the path search.
	links []vlanLink
	// adj lists, by switch index, the indexes in links of the switch's
	// links; built on the first split (see adjacency).
	adj [][]int
	// cabled is a union-find over the switches joined by any cable,
	// whatever it carries.
	cabled []int32
}

// vlanLink is a switch-switch link, with the indexes in f.Switches of
// its switches.
type vlanLink struct {
	a, b   end
	ia, ib int32
}

// newVLANGraph joins the (switch, VLAN) pairs along the switch-switch
// links and collects the NICs cabled to switch ports.
func newVLANGraph(c *checker) *vlanGraph {
	g := &vlanGraph{c: c, index: make(map[string]int, len(c.f.Switches)), nodes: map[[2]int]int32{},
		cabled: make([]int32, len(c.f.Switches))}
	for i := range c.f.Switches {
		g.index[c.f.Switches[i].Name] = i
		g.cabled[i] = int32(i)
	}
	nics, addrs := 0, 0
	for i := range c.f.Hosts {
		nics += len(c.f.Hosts[i].NICs)
		for j := range c.f.Hosts[i].NICs {
			addrs += len(c.f.Hosts[i].NICs[j].Addresses)
		}
	}
	g.nics = make([]vlanNIC, 0, nics)
	g.prefixes = make([]netip.Prefix, 0, addrs)
	// The ports' peers give each link from its switch end, so only the
	// far end of a switch-switch link is looked up, once per link.
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		for j := range sw.Ports {
			p := &sw.Ports[j]
			if p.Peer != nil {
				g.addPeer(end{sw: sw, port: p}, i)
			}
		}
	}
	return g
}

// addPeer records what switch end a (switch index i) is cabled to: a
// NIC, or another switch's port, seen from the end whose switch comes
// first (by index, then port name) so that each link counts once.
func (g *vlanGraph) addPeer(a end, i int) {
	peer := a.port.Peer
	switch peer.Kind {
	case "host":
		if h := g.c.hosts[peer.Device]; h != nil {
			if n := h.NIC(peer.Port); n != nil {
				g.addNIC(a, i, end{host: h, nic: n})
			}
		}
	case "switch":
		k, ok := g.index[peer.Device]
		if !ok || k < i || k == i && peer.Port <= a.port.Name {
			return
		}
		sw := &g.c.f.Switches[k]
		if p := sw.Port(peer.Port); p != nil {
			b := end{sw: sw, port: p}
			g.links = append(g.links, vlanLink{a: a, b: b, ia: int32(i), ib: int32(k)})
			unionIn(g.cabled, int32(i), int32(k))
			g.joinLink(a, b, i, k)
		}
	}
}

// joinLink joins the two switches of a link (switch indexes ia and ib)
// for every VLAN either end carries. A VLAN only one end carries is the
// link's "Link VLAN mismatch" error already, whose fix (carry it on
// both) also joins the islands; a second error for the split would only
// repeat it.
func (g *vlanGraph) joinLink(a, b end, ia, ib int) {
	if a.port.Shutdown || b.port.Shutdown {
		return // a shut port forwards nothing
	}
	for _, v := range a.port.CarriedVLANs() {
		g.union(g.node(ia, v), g.node(ib, v))
	}
	for _, v := range b.port.CarriedVLANs() {
		if !a.port.CarriesVLAN(v) {
			g.union(g.node(ia, v), g.node(ib, v))
		}
	}
}

// addNIC records the NIC h on switch port s (of switch index i), in the
// VLAN its traffic is in: its own vlan, or the port's untagged VLAN for
// an untagged NIC. A NIC whose tagging the port does not take is an
// error of its own (checkTagging) and is left out here.
func (g *vlanGraph) addNIC(s end, i int, h end) {
	v := h.nic.VLAN
	if v == 0 {
		v = s.port.UntaggedVLAN()
	}
	if v == 0 || !s.port.CarriesVLAN(v) || s.port.Shutdown {
		return
	}
	g.nics = append(g.nics, vlanNIC{sw: i, s: s, h: h, vlan: v, node: g.node(i, v), subnets: g.subnets(h.nic)})
}

// subnets returns the IP subnet of each of a NIC's addresses, in order
// (unparsable addresses are an error of their own), in g.prefixes.
func (g *vlanGraph) subnets(n *model.NIC) []netip.Prefix {
	start := len(g.prefixes)
	for _, a := range n.Addresses {
		if p, err := netip.ParsePrefix(a); err == nil {
			g.prefixes = append(g.prefixes, p.Masked())
		}
	}
	return g.prefixes[start:len(g.prefixes):len(g.prefixes)]
}

// node is the union-find id of switch i in VLAN v, made on first use.
func (g *vlanGraph) node(i, v int) int32 {
	k := [2]int{i, v}
	if n, ok := g.nodes[k]; ok {
		return n
	}
	n := int32(len(g.parent))
	g.nodes[k] = n
	g.parent = append(g.parent, n)
	return n
}

// find returns the root of node x.
func (g *vlanGraph) find(x int32) int32 { return findIn(g.parent, x) }

// union joins the islands of a and b.
func (g *vlanGraph) union(a, b int32) { unionIn(g.parent, a, b) }

// findIn returns the root of x in the union-find parent, halving the
// path.
func findIn(parent []int32, x int32) int32 {
	for parent[x] != x {
		parent[x] = parent[parent[x]]
		x = parent[x]
	}
	return x
}

// unionIn joins the sets of a and b; the smaller id stays the root, so
// the result does not depend on link order.
func unionIn(parent []int32, a, b int32) {
	ra, rb := findIn(parent, a), findIn(parent, b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	parent[rb] = ra
}

// checkSubnetVLANs warns once for each subnet and VLAN pair where NICs
// of one subnet are in a VLAN other than the subnet's first NIC's.
func (c *checker) checkSubnetVLANs(g *vlanGraph) {
	first := map[netip.Prefix]int{}
	type pair struct {
		p netip.Prefix
		v int
	}
	warned := map[pair]bool{}
	for i := range g.nics {
		n := &g.nics[i]
		for _, p := range n.subnets {
			j, ok := first[p]
			if !ok {
				first[p] = i
				continue
			}
			o := &g.nics[j]
			if o.vlan == n.vlan || warned[pair{p, n.vlan}] || bothV1(n.h.nic, o.h.nic) {
				continue
			}
			warned[pair{p, n.vlan}] = true
			c.warnf("IP subnet in two VLANs",
				fmt.Sprintf("%s has an address in %s and is in VLAN %d (through %s), but %s, in the same subnet, is in VLAN %d (through %s). Hosts in one subnet reach each other directly, by ARP, which no switch forwards from one VLAN to another, so these NICs cannot talk unless a router answers for the subnet. Put both in VLAN %d, or give %s an address in a subnet of its own VLAN.",
					n.h.name(), p, n.vlan, n.s.name(), o.h.name(), o.vlan, o.s.name(), o.vlan, n.h.name()),
				n.h.path("addresses"), rel(fmt.Sprintf("%s, VLAN %d", o.h.name(), o.vlan), o.h.path("addresses")...),
				rel(fmt.Sprintf("%s carries VLAN %d", n.s.name(), n.vlan), n.s.path("vlans")...))
		}
	}
}

// bothV1 reports two RoCE v1 NICs, whose different VLANs are the "RoCE
// v1 across subnets" error already (checkTransports).
func bothV1(a, b *model.NIC) bool {
	v1 := func(n *model.NIC) bool { return n.Transport == model.TransportRoCE && n.RoCE.Mode == "v1" }
	return v1(a) && v1(b)
}

// vlanSplit is one VLAN and subnet whose NICs sit on more than one
// island: the NICs by island root, islands in the order first met.
type vlanSplit struct {
	vlan    int
	subnet  netip.Prefix
	roots   []int32
	islands map[int32][]int // root -> indexes in g.nics
}

// splits finds the VLAN and subnet pairs whose NICs are on two or more
// islands, in the order of their first NIC.
func (g *vlanGraph) splits() []*vlanSplit {
	// Islands that no cable joins at all are not compared: the network
	// between them (a core, another fabric's spines) is not in the
	// description, and may well carry the VLAN or route the subnet.
	type key struct {
		v     int
		p     netip.Prefix
		cable int32
	}
	firstRoot := map[key]int32{}
	split := map[key]*vlanSplit{}
	var order []*vlanSplit
	for i := range g.nics {
		n := &g.nics[i]
		n.root, n.cable = g.find(n.node), findIn(g.cabled, int32(n.sw))
		for _, p := range n.subnets {
			k := key{n.vlan, p, n.cable}
			r, ok := firstRoot[k]
			if !ok {
				firstRoot[k] = n.root
				continue
			}
			if r != n.root && split[k] == nil {
				s := &vlanSplit{vlan: n.vlan, subnet: p, islands: map[int32][]int{}}
				split[k] = s
				order = append(order, s)
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	for i := range g.nics {
		n := &g.nics[i]
		for _, p := range n.subnets {
			s := split[key{n.vlan, p, n.cable}]
			if s == nil {
				continue
			}
			if _, ok := s.islands[n.root]; !ok {
				s.roots = append(s.roots, n.root)
			}
			s.islands[n.root] = append(s.islands[n.root], i)
		}
	}
	return order
}

// islandText describes an island by its switches with NICs of the split
// and a few of those NICs: "leaf1 (node1:roce0, node2:roce0)".
func (g *vlanGraph) islandText(nics []int) string {
	var sws, names []string
	seen := map[int]bool{}
	for _, i := range nics {
		n := &g.nics[i]
		if !seen[n.sw] {
			seen[n.sw] = true
			sws = append(sws, n.s.sw.Name)
		}
		if len(names) < 3 {
			names = append(names, n.h.name())
		}
	}
	text := strings.Join(names, ", ")
	if len(nics) > len(names) {
		text += fmt.Sprintf(" and %d more", len(nics)-len(names))
	}
	return fmt.Sprintf("%s (%s)", listText(sws), text)
}

// reportSplit reports one split VLAN and subnet at the first link that
// would join the islands when it carried the VLAN (cables join them all:
// see splits).
func (c *checker) reportSplit(g *vlanGraph, s *vlanSplit) {
	var islands []string
	for k, r := range s.roots {
		islands = append(islands, fmt.Sprintf("%d. %s", k+1, g.islandText(s.islands[r])))
	}
	joins := g.joiningLinks(s)
	if len(joins) == 0 {
		return // no path found: nothing to name
	}
	first, second := &g.nics[s.islands[s.roots[0]][0]], &g.nics[s.islands[s.roots[1]][0]]
	names := make([]string, len(joins))
	for i, l := range joins {
		names[i] = l.a.name() + " - " + l.b.name()
	}
	detail := fmt.Sprintf("VLAN %d holds NICs of subnet %s on %d islands of switches that no link carrying VLAN %d joins: %s. Hosts in one subnet reach each other directly, by ARP, so RoCE between the islands fails. Carry VLAN %d on both ends of %s (add %d to their vlans); or, if the islands are meant to be routed apart, give each its own subnet; or, if EVPN-VXLAN stretches VLAN %d between them, write overlay = \"vxlan\" in its vlan block, which checks the MTU the encapsulation needs and sets the outer DSCP where the switch takes it.",
		s.vlan, s.subnet, len(s.roots), s.vlan, strings.Join(islands, "; "), s.vlan, strings.Join(names, ", "), s.vlan, s.vlan)
	rels := []related{
		rel(fmt.Sprintf("%s, VLAN %d, island 1", first.h.name(), s.vlan), first.h.path("addresses")...),
		rel(fmt.Sprintf("%s, VLAN %d, island 2", second.h.name(), s.vlan), second.h.path("addresses")...),
	}
	for _, l := range joins[1:] {
		rels = append(rels, rel(fmt.Sprintf("%s does not carry VLAN %d", l.a.name(), s.vlan), l.a.path("vlans")...))
	}
	c.warnf("VLAN split between switches", detail, joins[0].a.path("vlans"), rels...)
}

// carries reports whether a switch-switch link joins its switches for
// VLAN v (see joinLink).
func carries(l vlanLink, v int) bool {
	return (l.a.port.CarriesVLAN(v) || l.b.port.CarriesVLAN(v)) && !l.a.port.Shutdown && !l.b.port.Shutdown
}

// adjacency returns, by switch index, the indexes in g.links of the
// switch's links, built once on first use.
func (g *vlanGraph) adjacency() [][]int {
	if g.adj == nil {
		g.adj = make([][]int, len(g.c.f.Switches))
		for i, l := range g.links {
			g.adj[l.ia] = append(g.adj[l.ia], i)
			g.adj[l.ib] = append(g.adj[l.ib], i)
		}
	}
	return g.adj
}

// joiningLinks finds, for each island after the first, the fewest links
// that would join it to the first if they carried the VLAN (a 0-1
// breadth-first search over the switch cabling: a link that carries it
// costs nothing), in path order and each once. The islands are all in
// one cabled component (see splits).
func (g *vlanGraph) joiningLinks(s *vlanSplit) (joins []vlanLink) {
	adj := g.adjacency()
	dist := make([]int, len(adj))
	via := make([]int, len(adj)) // link index reached by; -1 for a source
	for i := range dist {
		dist[i], via[i] = -1, -1
	}
	var cur, next []int // the switches at the current distance, and the next
	for _, n := range s.islands[s.roots[0]] {
		if sw := g.nics[n].sw; dist[sw] != 0 {
			dist[sw] = 0
			cur = append(cur, sw)
		}
	}
	done := make([]bool, len(adj))
	for len(cur) > 0 {
		for i := 0; i < len(cur); i++ {
			x := cur[i]
			if done[x] {
				continue
			}
			done[x] = true
			for _, li := range adj[x] {
				l := g.links[li]
				y := int(l.ia)
				if y == x {
					y = int(l.ib)
				}
				w := 1
				if carries(l, s.vlan) {
					w = 0
				}
				if dist[y] != -1 && dist[y] <= dist[x]+w {
					continue
				}
				dist[y], via[y] = dist[x]+w, li
				if w == 0 {
					cur = append(cur, y)
				} else {
					next = append(next, y)
				}
			}
		}
		cur, next = next, cur[:0]
	}
	used := map[int]bool{}
	for _, r := range s.roots[1:] {
		target := -1
		for _, n := range s.islands[r] {
			if sw := g.nics[n].sw; dist[sw] != -1 && (target == -1 || dist[sw] < dist[target]) {
				target = sw
			}
		}
		if target == -1 {
			continue // not in one cabled component: splits keeps none
		}
		var path []int
		for x := target; via[x] != -1; {
			li := via[x]
			path = append(path, li)
			if l := g.links[li]; int(l.ia) == x {
				x = int(l.ib)
			} else {
				x = int(l.ia)
			}
		}
		for i := len(path) - 1; i >= 0; i-- {
			li := path[i]
			if !used[li] && !carries(g.links[li], s.vlan) {
				used[li] = true
				joins = append(joins, g.links[li])
			}
		}
	}
	return joins
}
