package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// checkPathMTUs compares MTUs beyond the two ends of one link: every
// switch-to-switch port against the RoCE packets that may cross it
// (checkRoCEHops), and every routed host link against the packets other
// hosts may route to it (checkRoutedNICMTUs). Both ask the cabling's
// connected components: traffic stays inside its component.
func (c *checker) checkPathMTUs() {
	c.checkRoCEHops()
	c.checkRoutedNICMTUs()
}

// nicMTU is one NIC with its IP MTU, as the path checks name it.
type nicMTU struct {
	e  end
	ip int
}

// widest is the NIC of each component (by root) with the largest
// size, the first in model order on a tie; a NIC of size 0 is left out.
func (c *checker) widest(size func(end) int) map[string]nicMTU {
	widest := map[string]nicMTU{}
	for i := range c.f.Hosts {
		h := &c.f.Hosts[i]
		for j := range h.NICs {
			e := end{host: h, nic: &h.NICs[j]}
			n := size(e)
			if n == 0 {
				continue
			}
			root := c.comp.find(nicNode(h.Name, e.nic.Name))
			if w, ok := widest[root]; !ok || n > size(w.e) {
				widest[root] = nicMTU{e, ipMTU(e)}
			}
		}
	}
	return widest
}

// rocePathMTU is a RoCE NIC's RoCE path MTU (model.RoCEPathMTU), 0 for
// another NIC.
func rocePathMTU(e end) int {
	if e.nic.Transport != model.TransportRoCE {
		return 0
	}
	return model.RoCEPathMTU(e.nic.MTU)
}

// checkRoCEHops reports a link between two switches with an end whose
// MTU is below the largest RoCE packet of its component. A NIC runs RoCE
// at the path MTU iboe_get_mtu picks from its MTU (include/rdma/ib_addr.h:
// the largest of 256-4096 B not above the MTU less 96 B of RoCE headers),
// and its RoCE IP packets are up to that path MTU plus those 96 B. The
// path MTU comes from the NICs' MTUs only: RoCE does no path MTU
// discovery, so a hop with a smaller MTU drops every larger packet while
// connection setup and small messages pass. Any RoCE NIC's traffic may
// cross any switch-to-switch link of its component (routing and ECMP
// choose the hop, and the lossless class is the same everywhere), so each
// such link is held to the component's largest RoCE packet. Host ports
// need no more than the link check: a NIC's RoCE packets are within its
// own MTU, which must not exceed its port's.
//
// The mtu compared is the one the port applies (checkSwitchMTU): the IP
// MTU on a routed port and on an Onyx or Cumulus switchport, which drop
// bridged frames above it; an EOS switchport bridges frames up to its
// fixed L2 MTU whatever its mtu, and is left out. One error per link, at
// its first end below.
func (c *checker) checkRoCEHops() {
	widest := c.widest(rocePathMTU)
	for _, l := range c.f.Links {
		a, okA := c.resolve(l.A)
		b, okB := c.resolve(l.B)
		if !okA || !okB || a.port == nil || b.port == nil {
			continue
		}
		w, ok := widest[c.comp.find(switchNode(a.sw.Name))]
		if !ok {
			continue
		}
		packet := model.RoCEPathMTU(w.e.nic.MTU) + model.RoCEHeaderBytes
		var below []end
		for _, e := range []end{a, b} {
			if !e.port.Shutdown && !(e.sw.Platform == model.PlatformEOS && switchport(e.port)) && ipMTU(e) < packet {
				below = append(below, e)
			}
		}
		if len(below) > 0 {
			c.roceHopTooSmall(a, b, below, w, packet)
		}
	}
}

// roceHopTooSmall reports the link of switch ports a and b, whose ends
// below have an IP MTU under packet, the largest RoCE packet of NIC w.
func (c *checker) roceHopTooSmall(a, b end, below []end, w nicMTU, packet int) {
	pmtu := model.RoCEPathMTU(w.e.nic.MTU)
	peer := a
	if below[0] == a {
		peer = b
	}
	has := fmt.Sprintf("%s has %s and its link peer %s has %s", below[0].name(), c.mtuText(below[0]), peer.name(), c.mtuText(peer))
	set := fmt.Sprintf("mtu = %d or more on %s", packet+mtuMeaning(below[0]).HeaderBytes, below[0].name())
	if len(below) == 2 {
		set += fmt.Sprintf(" and on %s", b.name())
	}
	both := min(mtuMeaning(a).IPMTU(platforms[a.sw.Platform].portMaxMTU()), mtuMeaning(b).IPMTU(platforms[b.sw.Platform].portMaxMTU()))
	rels := []related{rel(fmt.Sprintf("%s MTU %d", w.e.name(), w.e.nic.MTU), w.e.path("mtu")...)}
	if len(below) == 2 {
		rels = append(rels, rel(fmt.Sprintf("%s MTU %d", b.name(), b.port.MTU), b.path("mtu")...))
	}
	c.errorf("Switch link MTU below RoCE packets",
		fmt.Sprintf("On the link between switch ports %s and %s, %s, but NIC %s has MTU %d and runs RoCE at a path MTU of %s B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less %d B of RoCE headers), so its RoCE packets are up to %s B, and any RoCE NIC's traffic may cross any link between the fabric's switches. The port drops each larger packet; RoCE does no path MTU discovery (its path MTU comes from the NICs' MTUs only), so connections come up and small messages pass while every larger transfer retries until it fails, with no error anywhere. Set %s (IP MTU %d, the largest both ends take, is usual)%s.",
			a.name(), b.name(), has, w.e.name(), w.e.nic.MTU, thousands(pmtu), model.RoCEHeaderBytes, thousands(packet),
			set, both, lowerNICsText(ipMTU(below[0]))),
		below[0].path("mtu"), rels...)
}

// lowerNICsText is the other fix for a hop of IP MTU hop: the largest
// NIC MTU whose RoCE packets still fit it, "" when none runs RoCE.
func lowerNICsText(hop int) string {
	fits := model.RoCEPathMTU(hop)
	if fits == 0 {
		return ""
	}
	// A NIC keeps path MTU fits up to one byte below the MTU that gives
	// the next larger one, twice fits plus the headers.
	return fmt.Sprintf(", or give every RoCE NIC of the fabric mtu = %d or less, for a RoCE path MTU of %s B", 2*fits+model.RoCEHeaderBytes-1, thousands(fits))
}

// checkRoutedNICMTUs warns about a host NIC below the MTU of the routed
// switch port it is cabled to, when another NIC of its component has a
// larger MTU. The port and the NIC are the two ends of one IP link (RFC
// 4861 §6.3.4: the nodes of a link use one MTU): the switch routes to the
// NIC packets up to its own MTU and sends no ICMP "fragmentation needed"
// for them (RFC 1191 §4: only a router that cannot forward a packet
// does), so the NIC drops the ones above its MTU without a trace. Only a
// NIC of a larger MTU sends such packets, so a fabric whose NICs share
// one MTU (the 9000 default below the 9216 or 9214 port default) is not
// reported. A NIC above its port's MTU has the link's error.
func (c *checker) checkRoutedNICMTUs() {
	widest := c.widest(ipMTU)
	for _, l := range c.f.Links {
		s, okS := c.resolve(l.A)
		h, okH := c.resolve(l.B)
		if !okS || !okH {
			continue
		}
		if s.port == nil {
			s, h = h, s
		}
		if s.port == nil || h.nic == nil || s.port.Mode != model.ModeRouted || h.nic.MTU == 0 || ipMTU(h) >= ipMTU(s) {
			continue
		}
		w, ok := widest[c.comp.find(nicNode(h.host.Name, h.nic.Name))]
		if !ok || w.ip <= ipMTU(h) {
			continue
		}
		c.warnRoutedNICMTU(s, h, w)
	}
}

// warnRoutedNICMTU reports NIC h, below the MTU of its routed switch port
// s, where NIC w of a larger MTU can send it packets through s.
func (c *checker) warnRoutedNICMTU(s, h end, w nicMTU) {
	lost := min(w.ip, ipMTU(s))
	c.warnf("Routed NIC MTU below port",
		fmt.Sprintf("NIC %s has %s but its routed switch port %s has %s. The port and the NIC are the two ends of one IP link, so the switch routes packets of up to %d B from NIC %s (MTU %d) to the NIC, which drops those above %d B; the switch sends no ICMP \"fragmentation needed\" for them (it sends one only for a packet above its own MTU), so UDP and ICMP of that size are lost without a trace. TCP agrees on the smaller segment by its MSS option, and RoCE takes its path MTU from the NICs' MTUs. Set mtu = %d on %s (its IP MTU, the NIC's), or mtu = %d on the NIC, or accept this warning.",
			h.name(), c.mtuText(h), s.name(), c.mtuText(s), lost, w.e.name(), w.e.nic.MTU, ipMTU(h), ipMTU(h)+mtuMeaning(s).HeaderBytes, s.name(), ipMTU(s)),
		h.path("mtu"), rel(fmt.Sprintf("%s MTU %d", s.name(), s.port.MTU), s.path("mtu")...))
}
