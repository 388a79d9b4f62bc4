package compiler

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// checkOverlayMTUs reports the underlay ports too small for the VXLAN
// packets of a VLAN with overlay = "vxlan". A leaf that is a VTEP for the
// VLAN puts each of its hosts' frames, Ethernet header included, in
// VXLAN, UDP and an outer IP header (RFC 7348 §5, the VXLAN frame
// format): 50 B more than the host's IP packet with an IPv4 outer header,
// 70 B with IPv6. fabricc does not describe the underlay's addresses and
// assumes IPv4. VTEPs must not fragment VXLAN packets (RFC 7348 §4.3),
// so a packet above the uplink's MTU is dropped without a trace:
// small packets and RoCE at a 4096 B path MTU pass, full-size TCP and UDP
// between the racks do not.
//
// Any host of the VLAN may send to any other, so every switch that
// carries the VLAN (a VTEP for it) encapsulates or decapsulates packets
// of the VLAN's largest NIC, and the underlay may route them over any
// switch link between two VTEPs: one hop to a spine, or on through a
// super-spine or a router that fabricc does not see as a VTEP. Every
// port cabled to another switch, in the part of the switch cabling the
// VTEPs belong to, that does not bridge the VLAN itself (the underlay:
// routed uplinks, or links carrying other VLANs), and its far end, needs
// an IP MTU of at least that NIC's IP MTU plus 50. As in checkRoCEHops,
// an EOS switchport bridges frames up to its fixed L2 MTU whatever its
// mtu and is left out. One error per VLAN, at its overlay, naming every
// port below.
func (c *checker) checkOverlayMTUs(g *vlanGraph) {
	for _, v := range c.f.VLANs {
		if v.Overlay != model.OverlayVXLAN {
			continue
		}
		w, ok := widestInVLAN(g, v.ID)
		if !ok {
			continue
		}
		need := w.ip + model.VXLANOverheadIPv4
		vteps, underlay := c.underlayOf(v.ID)
		if below := c.underlayBelow(v.ID, underlay, need); len(below) > 0 {
			c.overlayMTUTooSmall(v, w, need, vteps, below)
		}
	}
}

// widestInVLAN is the NIC of VLAN v with the largest IP MTU, the first
// in model order on a tie.
func widestInVLAN(g *vlanGraph, v int) (nicMTU, bool) {
	var w nicMTU
	found := false
	for i := range g.nics {
		n := &g.nics[i]
		if n.vlan != v {
			continue
		}
		if ip := ipMTU(n.h); !found || ip > w.ip {
			w, found = nicMTU{e: n.h, ip: ip}, true
		}
	}
	return w, found
}

// underlayBelow lists, in model order and each once, the underlay ports
// of the switches in underlay (see checkOverlayMTUs) and their far ends
// whose IP MTU is below need.
func (c *checker) underlayBelow(v int, underlay map[string]bool, need int) []end {
	var below []end
	seen := map[string]bool{}
	add := func(e end) {
		if seen[e.name()] || e.port.Shutdown || e.sw.Platform == model.PlatformEOS && switchport(e.port) || ipMTU(e) >= need {
			return
		}
		seen[e.name()] = true
		below = append(below, e)
	}
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		if !underlay[sw.Name] {
			continue
		}
		for j := range sw.Ports {
			p := &sw.Ports[j]
			if p.Peer == nil || p.Peer.Kind != "switch" || p.CarriesVLAN(v) {
				continue
			}
			add(end{sw: sw, port: p})
			if far := c.switches[p.Peer.Device]; far != nil {
				if fp := far.Port(p.Peer.Port); fp != nil {
					add(end{sw: far, port: fp})
				}
			}
		}
	}
	return below
}

// underlayOf returns the VTEPs of VLAN v (the switches that carry it), in
// model order, and the set of switches a chain of switch-to-switch links
// joins to one of them. A VXLAN packet goes from VTEP to VTEP wherever
// the underlay's routing sends it, which fabricc does not describe, so
// any link of that set may carry it: a spine's link to a super-spine as
// much as a leaf's uplink. A link with a shut-down end carries nothing.
func (c *checker) underlayOf(v int) ([]string, map[string]bool) {
	var vteps []string
	underlay := map[string]bool{}
	var queue []*model.Switch
	for i := range c.f.Switches {
		if sw := &c.f.Switches[i]; carriesAny(sw, v) {
			vteps = append(vteps, sw.Name)
			underlay[sw.Name] = true
			queue = append(queue, sw)
		}
	}
	for len(queue) > 0 {
		sw := queue[0]
		queue = queue[1:]
		for j := range sw.Ports {
			far := c.cabledSwitch(&sw.Ports[j])
			if far != nil && !underlay[far.Name] {
				underlay[far.Name] = true
				queue = append(queue, far)
			}
		}
	}
	return vteps, underlay
}

// cabledSwitch is the switch at the far end of port p when p is cabled to
// a switch and neither end is shut down, nil otherwise.
func (c *checker) cabledSwitch(p *model.Port) *model.Switch {
	if p.Shutdown || p.Peer == nil || p.Peer.Kind != "switch" {
		return nil
	}
	far := c.switches[p.Peer.Device]
	if far == nil {
		return nil
	}
	if fp := far.Port(p.Peer.Port); fp == nil || fp.Shutdown {
		return nil
	}
	return far
}

// carriesAny reports whether a port of sw carries VLAN v.
func carriesAny(sw *model.Switch, v int) bool {
	for i := range sw.Ports {
		if sw.Ports[i].CarriesVLAN(v) {
			return true
		}
	}
	return false
}

// overlayMTUTooSmall reports the underlay ports below (IP MTU under
// need) of overlay VLAN v, whose largest NIC is w and whose VTEPs are
// vteps.
func (c *checker) overlayMTUTooSmall(v model.VLAN, w nicMTU, need int, vteps []string, below []end) {
	var names []string
	lowest, fits := below[0], true
	for _, e := range below {
		names = append(names, fmt.Sprintf("%s, %s", e.name(), c.mtuText(e)))
		if ipMTU(e) < ipMTU(lowest) {
			lowest = e
		}
		fits = fits && mtuMeaning(e).IPMTU(platforms[e.sw.Platform].portMaxMTU()) >= need
	}
	nicFix := fmt.Sprintf("give the NICs of VLAN %d mtu = %d or less", v.ID, ipMTU(lowest)-model.VXLANOverheadIPv4+mtuMeaning(w.e).HeaderBytes)
	fix := "G" + nicFix[1:] + " (the switches take no larger mtu)"
	if fits {
		fix = fmt.Sprintf("Set mtu = %d or more on %s (IP MTU %d), or %s", need+mtuMeaning(below[0]).HeaderBytes, joinAnd(endNames(below)), need, nicFix)
	}
	rels := []related{rel(fmt.Sprintf("%s MTU %d", w.e.name(), w.e.nic.MTU), w.e.path("mtu")...)}
	for _, e := range below {
		rels = append(rels, rel(fmt.Sprintf("%s MTU %d", e.name(), e.port.MTU), e.path("mtu")...))
	}
	c.errorf("Underlay MTU below VXLAN packets",
		fmt.Sprintf("VLAN %d has overlay \"vxlan\", so its switches carry its hosts' frames in VXLAN over the underlay, which adds %d B to each IP packet (the inner Ethernet header, VXLAN, UDP and an outer IPv4 header, RFC 7348 §5; fabricc assumes an IPv4 underlay, an IPv6 one adds 20 B more). NIC %s has %s, so its packets cross the underlay as IP packets of up to %s B, but %s, on the switch links %s, %s below that: %s. VTEPs do not fragment VXLAN packets (RFC 7348 §4.3), so each larger packet is dropped without a trace while small ones, and RoCE at a smaller path MTU, pass. %s.",
			v.ID, model.VXLANOverheadIPv4, w.e.name(), c.mtuText(w.e), thousands(need), plural(len(below), "this underlay port", "these underlay ports"), vtepsText(vteps), plural(len(below), "is", "are"), strings.Join(names, "; "), fix),
		[]string{"vlan", strconv.Itoa(v.ID), "overlay"}, rels...)
}

// vtepsText names where the VXLAN packets of a VLAN go, for the
// message: "joining its VTEPs A and B", or "of its VTEP A" for one.
func vtepsText(vteps []string) string {
	if len(vteps) == 1 {
		return "of its VTEP " + vteps[0]
	}
	return "joining its VTEPs " + joinAnd(vteps)
}

// endNames are the ends' "device:port" names.
func endNames(ends []end) []string {
	names := make([]string, len(ends))
	for i, e := range ends {
		names[i] = e.name()
	}
	return names
}

// plural is one for n == 1, more otherwise.
func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}
