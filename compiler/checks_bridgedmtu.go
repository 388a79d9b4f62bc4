package compiler

import (
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/model"
)

// checkBridgedMTUs warns about a link between two switches that bridges
// a VLAN whose NICs, on two or more of the VLAN island's switches, send
// larger IP packets than an end of the link passes. Hosts of one VLAN
// reach each other through bridges only, so they send packets up to
// their own MTU (TCP picks its segment size from the two NICs' MTUs, RFC
// 9293 §3.7.1), and a bridge drops a frame above its port's MTU without
// the ICMP "fragmentation needed" that path MTU discovery waits for (RFC
// 1191 §1: only a router sends it): large transfers between hosts on the
// two sides stall while small ones pass. The RoCE packets that cross the
// link have their own error (checkRoCEHops); this is about the rest of
// the hosts' traffic. An EOS switchport bridges frames up to its fixed
// L2 MTU whatever its mtu, and is left out, as in checkRoCEHops. One
// warning per link end, naming the VLANs and the widest NIC.
func (c *checker) checkBridgedMTUs(g *vlanGraph) {
	widest, spread := g.islandWidest()
	for _, l := range g.links {
		if l.a.port.Shutdown || l.b.port.Shutdown {
			continue
		}
		for _, e := range []struct {
			e end
			i int32
		}{{l.a, l.ia}, {l.b, l.ib}} {
			if e.e.sw.Platform == model.PlatformEOS && switchport(e.e.port) {
				continue
			}
			var vlans []int
			var w *vlanNIC
			for _, v := range e.e.port.CarriedVLANs() {
				root := g.find(g.node(int(e.i), v))
				n, ok := widest[root]
				if !ok || !spread[root] || ipMTU(e.e) >= ipMTU(n.h) || ipMTU(e.e) < roceFloor(n.h) {
					continue
				}
				vlans = append(vlans, v)
				if w == nil || ipMTU(n.h) > ipMTU(w.h) {
					w = n
				}
			}
			if len(vlans) > 0 {
				c.warnBridgedMTU(e.e, vlans, w)
			}
		}
	}
}

// roceFloor is the IP MTU below which checkRoCEHops already reports a
// hop for NIC e's RoCE packets (0 for a NIC without RoCE).
func roceFloor(e end) int {
	if p := rocePathMTU(e); p > 0 {
		return p + model.RoCEHeaderBytes
	}
	return 0
}

// islandWidest is, per VLAN island (the root of its union-find node),
// the NIC with the largest IP MTU, the first in model order on a tie,
// and whether the island's NICs sit on two switches or more, so that
// its hosts' traffic crosses switch-to-switch links.
func (g *vlanGraph) islandWidest() (map[int32]*vlanNIC, map[int32]bool) {
	widest := map[int32]*vlanNIC{}
	spread := map[int32]bool{}
	for i := range g.nics {
		n := &g.nics[i]
		root := g.find(n.node)
		w, ok := widest[root]
		if ok && w.sw != n.sw {
			spread[root] = true
		}
		if !ok || ipMTU(n.h) > ipMTU(w.h) {
			widest[root] = n
		}
	}
	return widest, spread
}

// warnBridgedMTU reports switch port e, which bridges vlans at an IP MTU
// below NIC w's.
func (c *checker) warnBridgedMTU(e end, vlans []int, w *vlanNIC) {
	slices.Sort(vlans)
	which := "VLAN " + intsText(vlans)
	if len(vlans) > 1 {
		which = "VLANs " + intsText(vlans)
	}
	roce := ""
	if p := rocePathMTU(w.h); p > 0 {
		roce = fmt.Sprintf("; RoCE's packets (path MTU %s B) fit", thousands(p))
	}
	c.warnf("Bridged switch link MTU below host MTU",
		fmt.Sprintf("Switch port %s has %s and bridges %s to another switch, but NIC %s in VLAN %d has IP MTU %d, and hosts of one VLAN send each other packets up to their own MTU (TCP takes its segment size from the two NICs' MTUs). A bridge drops a frame above its port's MTU and sends no ICMP \"fragmentation needed\" (only a router does, RFC 1191), so large transfers between hosts on either side of this link stall while small ones pass%s. Set mtu = %d or more on %s and its link peer, or give the VLAN's NICs mtu = %d or less.",
			e.name(), c.mtuText(e), which, w.h.name(), w.vlan, ipMTU(w.h), roce,
			ipMTU(w.h)+mtuMeaning(e).HeaderBytes, e.name(), ipMTU(e)),
		e.path("mtu"), rel(fmt.Sprintf("%s MTU %d", w.h.name(), w.h.nic.MTU), w.h.path("mtu")...))
}
