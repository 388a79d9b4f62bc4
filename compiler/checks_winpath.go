package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// checkWindowsDSCPPaths carries checkWindowsDSCP past the first hop. A
// Windows NIC whose driver documents no DSCP setting for RDMA packets
// (windowsNoDSCP) is classified by its 802.1p priority only where a port
// trusts PCP; on a switch-to-switch link its RoCE arrives with the
// driver's own DSCP (fabricc configures no DSCP remark from the switch
// priority), so a link port that classifies by DSCP may put it in a lossy
// priority even where the edge port trusts PCP as checkWindowsDSCP
// advises. The walk follows the NIC's VLAN along the links that carry it
// (the graph checkVLANPaths builds), on the shortest paths from the NIC's
// switch to the switches of the VLAN's other RoCE NICs, and warns once for
// each link port where such RoCE enters and is classified by DSCP,
// naming the NICs. The edge port is a host port, never a link port, so
// the first hop stays checkWindowsDSCP's alone.
func (c *checker) checkWindowsDSCPPaths(g *vlanGraph) {
	type finding struct {
		at    end
		from  end
		first []string // the first five NICs, described
		count int
	}
	var order []*finding
	byPort := map[*model.Port]*finding{}
	paths := map[[2]int][]ingress{}
	targets := g.roceSwitches()
	for i := range g.nics {
		n := &g.nics[i]
		if !windowsNoDSCPRoCE(n.h) {
			continue
		}
		nic := n.h.nic
		desc := fmt.Sprintf("%s (%s, driver %s, DSCP %d of VLAN %d)", n.h.name(), nic.Model, nic.Driver, nic.RoCE.DSCP, n.vlan)
		// NICs on one switch in one VLAN share their paths.
		key := [2]int{n.sw, n.vlan}
		ports, ok := paths[key]
		if !ok {
			ports = g.ingressPorts(i, targets[n.vlan])
			paths[key] = ports
		}
		for _, in := range ports {
			f := byPort[in.at.port]
			if f == nil {
				f = &finding{at: in.at, from: in.from}
				byPort[in.at.port] = f
				order = append(order, f)
			}
			if f.count++; len(f.first) < 5 {
				f.first = append(f.first, desc)
			}
		}
	}
	for _, f := range order {
		c.warnWindowsDSCPPath(f.at, f.from, f.first, f.count)
	}
}

// windowsNoDSCPRoCE reports a Windows RoCE v2 NIC whose driver documents
// no DSCP setting for RDMA packets (see checkWindowsDSCP).
func windowsNoDSCPRoCE(e end) bool {
	n := e.nic
	_, ok := windowsNoDSCP[n.Driver]
	return ok && e.host.OS == model.OSWindows && n.Transport == model.TransportRoCE && n.RoCE.Mode == "v2"
}

// trustText names a port's trust for a RoCE v2 warning: "both" says that
// it classifies RoCE v2 by DSCP.
func trustText(p *model.Port) string {
	if p.Trust == model.TrustBoth {
		return string(p.Trust) + " (DSCP for IP packets, which RoCE v2 is)"
	}
	return string(p.Trust)
}

// warnWindowsDSCPPath reports one link port (at, cabled to from) that
// classifies by DSCP the RoCE of the Windows NICs named in nics.
func (c *checker) warnWindowsDSCPPath(at, from end, first []string, count int) {
	p := at.port
	trust := trustText(p)
	what := "NIC " + first[0]
	if count > 1 {
		what = "NICs " + strings.Join(first, ", ")
		if count > len(first) {
			what += fmt.Sprintf(" and %d more", count-len(first))
		}
	}
	c.warnf("Windows RoCE DSCP not settable past the first hop",
		fmt.Sprintf("switch port %s, cabled to %s, trusts %s and so classifies by DSCP the RoCE of %s, whose driver documents no setting for the DSCP of RDMA packets (see the warning windows-roce-dscp-not-settable): that RoCE reaches this port with the driver's own DSCP, since fabricc configures no DSCP remark from the switch priority, and this port may map it to a lossy priority even where the NIC's own switch port classifies it by PCP. Set trust = \"pcp\" on %s and %s, with every RoCE sender on the VLAN tagging its priority (a NIC with a vlan; Windows and Linux NICs then also trust = \"pcp\" on their own ports); or set the DSCP by hand, check it in a captured RoCE packet at this port and accept this warning.",
			at.name(), from.name(), trust, what, at.name(), from.name()),
		at.path("trust"), rel(fmt.Sprintf("%s trust %s", from.name(), from.port.Trust), from.path("trust")...))
}

// ingress is a link port where a NIC's traffic enters (at), and the port
// at the link's other end (from).
type ingress struct {
	at, from end
	name     string // at.name(), the sort key
}

// roceSwitches lists, by VLAN, the switches with a RoCE NIC in it, each once.
func (g *vlanGraph) roceSwitches() map[int][]int {
	out := map[int][]int{}
	seen := map[[2]int]bool{}
	for i := range g.nics {
		o := &g.nics[i]
		if o.h.nic.Transport != model.TransportRoCE || seen[[2]int{o.sw, o.vlan}] {
			continue
		}
		seen[[2]int{o.sw, o.vlan}] = true
		out[o.vlan] = append(out[o.vlan], o.sw)
	}
	return out
}

// ingressPorts returns the link ports that classify by DSCP where the
// traffic of g.nics[k] enters a switch on its way to the other RoCE NICs
// of its VLAN: the far end of every link on a shortest path (by links
// carrying the VLAN) from the NIC's switch to theirs, by port name.
func (g *vlanGraph) ingressPorts(k int, targets []int) []ingress {
	n := &g.nics[k]
	adj := g.adjacency()
	dist := g.vlanDistances(n.sw, n.vlan)
	// Walk back from every switch with another RoCE NIC of the VLAN along
	// the links one step closer to the NIC's switch.
	onPath := make([]bool, len(adj))
	var stack []int
	for _, sw := range targets {
		if sw != n.sw && dist[sw] > 0 && !onPath[sw] {
			onPath[sw] = true
			stack = append(stack, sw)
		}
	}
	var out []ingress
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, li := range adj[y] {
			l := g.links[li]
			if !carries(l, n.vlan) {
				continue
			}
			at, from, x := l.a, l.b, int(l.ib)
			if int(l.ia) != y {
				at, from, x = l.b, l.a, int(l.ia)
			}
			if x == y || dist[x] != dist[y]-1 {
				continue
			}
			if at.port.Trust == model.TrustDSCP || at.port.Trust == model.TrustBoth {
				out = append(out, ingress{at: at, from: from, name: at.name()})
			}
			if !onPath[x] {
				onPath[x] = true
				stack = append(stack, x)
			}
		}
	}
	sortIngress(out)
	return out
}

// vlanDistances returns, by switch index, the number of links carrying
// VLAN v between switch src and each switch (-1: not reached).
func (g *vlanGraph) vlanDistances(src, v int) []int {
	adj := g.adjacency()
	dist := make([]int, len(adj))
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, li := range adj[x] {
			l := g.links[li]
			y := int(l.ia)
			if y == x {
				y = int(l.ib)
			}
			if dist[y] == -1 && carries(l, v) {
				dist[y] = dist[x] + 1
				queue = append(queue, y)
			}
		}
	}
	return dist
}

// sortIngress orders ingress ports by name, so that the order of the
// walk from several switches does not show.
func sortIngress(in []ingress) {
	slices.SortFunc(in, func(a, b ingress) int { return strings.Compare(a.name, b.name) })
}
