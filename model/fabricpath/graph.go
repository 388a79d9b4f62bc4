package fabricpath

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// graph is the fabric's switches with each one's tier in the Clos.
type graph struct {
	f        *model.Fabric
	switches map[string]*model.Switch
	tier     map[string]int
}

// newGraph ranks the switches: tier 0 for a switch a host NIC is cabled
// to, then one more per switch-to-switch cable away from the nearest of
// them (breadth first). A switch no leaf reaches has no tier.
func newGraph(f *model.Fabric) *graph {
	g := &graph{f: f, switches: map[string]*model.Switch{}, tier: map[string]int{}}
	for i := range f.Switches {
		g.switches[f.Switches[i].Name] = &f.Switches[i]
	}
	var frontier []string
	for _, h := range f.Hosts {
		for i := range h.NICs {
			if n := &h.NICs[i]; g.cabled(n) {
				if _, seen := g.tier[n.Peer.Device]; !seen {
					g.tier[n.Peer.Device] = 0
					frontier = append(frontier, n.Peer.Device)
				}
			}
		}
	}
	for t := 1; len(frontier) > 0; t++ {
		var next []string
		for _, name := range frontier {
			sw := g.switches[name]
			for i := range sw.Ports {
				if peer := g.switchPeer(&sw.Ports[i]); peer != nil {
					if _, seen := g.tier[peer.Name]; !seen {
						g.tier[peer.Name] = t
						next = append(next, peer.Name)
					}
				}
			}
		}
		frontier = next
	}
	return g
}

// switchPeer is the switch at the far end of p's cable, or nil.
func (g *graph) switchPeer(p *model.Port) *model.Switch {
	if p.Peer == nil || p.Peer.Kind != "switch" {
		return nil
	}
	return g.switches[p.Peer.Device]
}

// cable is one switch-to-switch cable, from its lower end up.
type cable struct {
	low, high         *model.Switch
	lowPort, highPort *model.Port
}

// uplinks are sw's cables to switches one tier higher, in port order,
// those to a switch outside keep left out (keep nil: none left out).
func (g *graph) uplinks(sw *model.Switch, keep map[string]bool) []cable {
	var out []cable
	for i := range sw.Ports {
		p := &sw.Ports[i]
		peer := g.switchPeer(p)
		if peer == nil || g.tier[peer.Name] != g.tier[sw.Name]+1 || (keep != nil && !keep[peer.Name]) {
			continue
		}
		if far := peer.Port(p.Peer.Port); far != nil {
			out = append(out, cable{low: sw, high: peer, lowPort: p, highPort: far})
		}
	}
	return out
}

// tierName names the switches of tier t: leaf, spine, super-spine.
func tierName(t int) string {
	switch t {
	case 0:
		return "leaf"
	case 1:
		return "spine"
	case 2:
		return "super-spine"
	}
	return "tier-" + strconv.Itoa(t)
}

// upPath walks NIC n of host h from its leaf up to the top of the Clos.
func (g *graph) upPath(h *model.Host, n *model.NIC) Path {
	nic := nicOf(g.f, h, n)
	leaf := g.switches[n.Peer.Device]
	p := Path{From: nic, Ports: g.leafPorts(leaf, n, nic)}
	stages := [][]string{{leaf.Name}}
	for level := []*model.Switch{leaf}; ; {
		var next []*model.Switch
		for _, sw := range level {
			for _, c := range g.uplinks(sw, nil) {
				p.Ports = append(p.Ports, g.cablePorts(c, true, nic)...)
				if !slices.Contains(next, c.high) {
					next = append(next, c.high)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		slices.SortFunc(next, func(a, b *model.Switch) int { return model.NaturalCompare(a.Name, b.Name) })
		stages = append(stages, sortedNames(next))
		level = next
	}
	p.Summary = summary(stages, len(stages)-1)
	return p
}

// leafPorts is the leaf's port facing NIC n, checked against nics.
func (g *graph) leafPorts(leaf *model.Switch, n *model.NIC, nics ...NIC) []Port {
	lp := leaf.Port(n.Peer.Port)
	if lp == nil {
		return nil
	}
	pt := portOf("leaf", false, leaf, lp, nics...)
	if n.VLAN != 0 && !lp.CarriesVLAN(n.VLAN) {
		pt.Problems = append(pt.Problems, fmt.Sprintf("does not carry the NIC's VLAN %d", n.VLAN))
	}
	return []Port{pt}
}

// cablePorts is a cable's two ends, checked against nics: the lower end
// first going up, the upper end first going down.
func (g *graph) cablePorts(c cable, up bool, nics ...NIC) []Port {
	lowTier, highTier := tierName(g.tier[c.low.Name]), tierName(g.tier[c.high.Name])
	if up {
		stage := lowTier + "-" + highTier
		return []Port{portOf(stage, true, c.low, c.lowPort, nics...), portOf(stage, true, c.high, c.highPort, nics...)}
	}
	stage := highTier + "-" + lowTier
	return []Port{portOf(stage, true, c.high, c.highPort, nics...), portOf(stage, true, c.low, c.lowPort, nics...)}
}

// pairPath is the equal-cost paths from NIC na of host a to NIC nb of
// host b.
func (g *graph) pairPath(a *model.Host, na *model.NIC, b *model.Host, nb *model.NIC) Path {
	from, to := nicOf(g.f, a, na), nicOf(g.f, b, nb)
	p := Path{From: from, To: &to, Problems: pairProblems(g.f, from, to, na, nb)}
	if why := unwalked(g.f, from, to, na, nb); why != "" {
		// No hop list a packet cannot take.
		p.Summary, p.Ports, p.Unwalked = "none", []Port{}, why
		return p
	}
	la, lb := g.switches[na.Peer.Device], g.switches[nb.Peer.Device]
	if la == lb {
		p.Summary = la.Name + " (one switch)"
		p.Ports = append(g.leafPorts(la, na, from, to), g.leafPorts(lb, nb, from, to)...)
		return p
	}
	if vlan, trunks := g.bridges(la, lb, na, nb); len(trunks) > 0 {
		p.Ports = g.leafPorts(la, na, from, to)
		for _, c := range trunks {
			p.Ports = append(p.Ports, portOf("leaf-leaf", false, c.low, c.lowPort, from, to), portOf("leaf-leaf", false, c.high, c.highPort, from, to))
		}
		p.Ports = append(p.Ports, g.leafPorts(lb, nb, from, to)...)
		p.Summary = fmt.Sprintf("%s -> %s (bridged in VLAN %d)", la.Name, lb.Name, vlan)
		return p
	}
	upA, upB := g.ancestors(la), g.ancestors(lb)
	top := -1
	for t := 1; t < len(upA) && t < len(upB); t++ {
		if meet := intersect(upA[t], upB[t]); len(meet) > 0 {
			top = t
			upA[t], upB[t] = meet, meet
			break
		}
	}
	if top < 0 {
		p.Summary = la.Name + " -> ? -> " + lb.Name
		p.Problems = append(p.Problems, fmt.Sprintf("no switch above %s reaches %s: the fabric cables no path between them", la.Name, lb.Name))
		return p
	}
	keepA, keepB := g.towards(upA, top), g.towards(upB, top)
	p.Ports = g.leafPorts(la, na, from, to)
	var stages [][]string
	for t := 0; t < top; t++ {
		stages = append(stages, sortedKeys(keepA[t]))
		for _, name := range sortedKeys(keepA[t]) {
			for _, c := range g.uplinks(g.switches[name], keepA[t+1]) {
				p.Ports = append(p.Ports, g.cablePorts(c, true, from, to)...)
			}
		}
	}
	stages = append(stages, sortedKeys(keepA[top]))
	for t := top - 1; t >= 0; t-- {
		stages = append(stages, sortedKeys(keepB[t]))
		for _, c := range g.downlinks(keepB[t+1], keepB[t]) {
			p.Ports = append(p.Ports, g.cablePorts(c, false, from, to)...)
		}
	}
	p.Ports = append(p.Ports, g.leafPorts(lb, nb, from, to)...)
	p.Summary = summary(stages, top)
	return p
}

// bridges are the cables straight from leaf la to leaf lb whose two
// ends carry the VLAN that NICs na (on la) and nb (on lb) share with
// their subnet, in la's port order, and that VLAN: the frames between
// the two NICs are bridged across such a trunk, not routed through the
// spines. None when the NICs are in no one VLAN or subnet.
func (g *graph) bridges(la, lb *model.Switch, na, nb *model.NIC) (int, []cable) {
	vlan := accessVLAN(g.f, na)
	if vlan == 0 || vlan != accessVLAN(g.f, nb) || !sameSubnet(na, nb) {
		return 0, nil
	}
	var out []cable
	for i := range la.Ports {
		p := &la.Ports[i]
		if g.switchPeer(p) != lb || !p.CarriesVLAN(vlan) {
			continue
		}
		if far := lb.Port(p.Peer.Port); far != nil && far.CarriesVLAN(vlan) {
			out = append(out, cable{low: la, high: lb, lowPort: p, highPort: far})
		}
	}
	return vlan, out
}

// downlinks are the cables from the switches of high down to those of
// low, by upper switch name, then the upper switch's port order.
func (g *graph) downlinks(high, low map[string]bool) []cable {
	var out []cable
	for _, name := range sortedKeys(high) {
		sw := g.switches[name]
		for i := range sw.Ports {
			p := &sw.Ports[i]
			peer := g.switchPeer(p)
			if peer == nil || !low[peer.Name] || g.tier[peer.Name] != g.tier[name]-1 {
				continue
			}
			if far := peer.Port(p.Peer.Port); far != nil {
				out = append(out, cable{low: peer, high: sw, lowPort: far, highPort: p})
			}
		}
	}
	return out
}

// ancestors are the switches leaf reaches going up, by tier.
func (g *graph) ancestors(leaf *model.Switch) []map[string]bool {
	out := []map[string]bool{{leaf.Name: true}}
	for {
		next := map[string]bool{}
		for _, name := range sortedKeys(out[len(out)-1]) {
			for _, c := range g.uplinks(g.switches[name], nil) {
				next[c.high.Name] = true
			}
		}
		if len(next) == 0 {
			return out
		}
		out = append(out, next)
	}
}

// towards keeps, tier by tier below top, the switches of up that have an
// uplink to a switch kept one tier higher: those on an equal-cost path
// to the switches of tier top.
func (g *graph) towards(up []map[string]bool, top int) []map[string]bool {
	keep := make([]map[string]bool, top+1)
	keep[top] = up[top]
	for t := top - 1; t >= 0; t-- {
		keep[t] = map[string]bool{}
		for name := range up[t] {
			if len(g.uplinks(g.switches[name], keep[t+1])) > 0 {
				keep[t][name] = true
			}
		}
	}
	return keep
}

// pairProblems is what keeps two NICs from one lossless path: they mark
// RoCE with another priority or DSCP (the far end's switch classes it
// elsewhere), or no route joins them (different subnets without a
// gateway, or one subnet split between VLANs).
func pairProblems(f *model.Fabric, from, to NIC, na, nb *model.NIC) []string {
	var out []string
	if from.Priority != to.Priority || from.DSCP != to.DSCP {
		out = append(out, fmt.Sprintf("RoCE marks differ: %s %s priority %d DSCP %d, %s %s priority %d DSCP %d",
			from.Host, from.NIC, from.Priority, from.DSCP, to.Host, to.NIC, to.Priority, to.DSCP))
	}
	if sameSubnet(na, nb) {
		if va, vb := accessVLAN(f, na), accessVLAN(f, nb); va != vb {
			out = append(out, fmt.Sprintf("one subnet in two VLANs: %s %s in %s, %s %s in %s",
				from.Host, from.NIC, vlanName(va), to.Host, to.NIC, vlanName(vb)))
		}
		return out
	}
	if why := noRoute(from, to, na, nb); why != "" {
		out = append(out, why)
	}
	if why := noRoute(to, from, nb, na); why != "" {
		out = append(out, why)
	}
	return out
}

// unwalked is why no packet between NICs x and y crosses the fabric: a
// subnet split between two VLANs, which no frame crosses, or another
// subnet that one of them has no route to (a host sends off its subnet
// only through a gateway, RFC 1122 §3.3.1); "" when one can.
func unwalked(f *model.Fabric, sx, sy NIC, x, y *model.NIC) string {
	switch {
	case !sameSubnet(x, y) && (noRoute(sx, sy, x, y) != "" || noRoute(sy, sx, y, x) != ""):
		return "no route joins their subnets"
	case sameSubnet(x, y) && accessVLAN(f, x) != accessVLAN(f, y):
		return "one subnet in two VLANs, which no frame crosses"
	}
	return ""
}

// noRoute says that NIC x (its summary sx) has no route to y in another
// subnet: no gateway of its own and none of its routes holds y's
// address; "" when it has one.
func noRoute(sx, sy NIC, x, y *model.NIC) string {
	if x.Route != nil || routes(x, y) {
		return ""
	}
	return fmt.Sprintf("no route from %s %s (%s) to %s %s (%s): another subnet, and the fabric gives %s %s no gateway",
		sx.Host, sx.NIC, strings.Join(x.Addresses, ", "), sy.Host, sy.NIC, strings.Join(y.Addresses, ", "), sx.Host, sx.NIC)
}

// accessVLAN is the VLAN NIC n's frames are in on its leaf: its tag, or
// the leaf port's untagged VLAN; 0 on a routed port.
func accessVLAN(f *model.Fabric, n *model.NIC) int {
	if n.VLAN != 0 {
		return n.VLAN
	}
	if sw := f.Switch(n.Peer.Device); sw != nil {
		if p := sw.Port(n.Peer.Port); p != nil {
			return p.UntaggedVLAN()
		}
	}
	return 0
}

// vlanName is "VLAN 10", or "no VLAN" for 0.
func vlanName(id int) string {
	if id == 0 {
		return "no VLAN"
	}
	return "VLAN " + strconv.Itoa(id)
}

// summary is the stages from..to as "leaf1 -> 2 spines: spine1, spine2
// -> leaf2"; a stage's tier is its index up to top, then down again.
func summary(stages [][]string, top int) string {
	parts := make([]string, len(stages))
	for i, names := range stages {
		t := i
		if i > top {
			t = 2*top - i
		}
		parts[i] = stageText(t, names)
	}
	return strings.Join(parts, " -> ")
}

// stageText is "leaf1" or "2 spines: spine1, spine2".
func stageText(tier int, names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return fmt.Sprintf("%d %ss: %s", len(names), tierName(tier), strings.Join(names, ", "))
}

// intersect is the names in both sets.
func intersect(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}

// sortedKeys is the set's names in natural order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, model.NaturalCompare)
	return out
}

// sortedNames is the switches' names in natural order.
func sortedNames(sws []*model.Switch) []string {
	out := make([]string, len(sws))
	for i, sw := range sws {
		out[i] = sw.Name
	}
	slices.SortFunc(out, model.NaturalCompare)
	return out
}
