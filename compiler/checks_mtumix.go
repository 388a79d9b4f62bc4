package compiler

import (
	"fmt"
	"net/netip"

	"github.com/fabricc/fabricc/model"
)

// checkSubnetMTUs warns where NICs in one IP subnet and one VLAN island
// (one broadcast domain: see checkVLANPaths) have different MTUs. Hosts of
// one subnet send each other packets directly, up to their own MTU, with
// no router between them to fragment or answer "fragmentation needed", so
// a packet above the smaller MTU (UDP, ICMP; TCP agrees on the smaller
// segment by its MSS option) may be dropped by the receiving NIC. RoCE is
// unaffected while both MTUs give the same RoCE path MTU. The warning names the NIC whose MTU differs from the first
// NIC's of its subnet, once for each subnet, island and MTU. A NIC whose
// MTU is above its switch port's has that error and is left out.
func (c *checker) checkSubnetMTUs(g *vlanGraph) {
	type domain struct {
		p    netip.Prefix
		root int32
	}
	type seen struct {
		domain
		mtu int
	}
	first := map[domain]int{}
	warned := map[seen]bool{}
	for i := range g.nics {
		n := &g.nics[i]
		if n.h.nic.MTU > n.s.port.MTU {
			continue // the link's MTU error already names this NIC's MTU
		}
		root := g.find(n.node)
		for _, p := range n.subnets {
			d := domain{p, root}
			j, ok := first[d]
			if !ok {
				first[d] = i
				continue
			}
			o := &g.nics[j]
			mtu := n.h.nic.MTU
			if mtu == o.h.nic.MTU || warned[seen{d, mtu}] {
				continue
			}
			warned[seen{d, mtu}] = true
			c.warnMTUMix(n.h, o.h, p, n.vlan)
		}
	}
}

// warnMTUMix reports NIC n, whose MTU differs from NIC o's in subnet p and
// VLAN v.
func (c *checker) warnMTUMix(n, o end, p netip.Prefix, v int) {
	c.warnf("NICs of one subnet with different MTUs",
		fmt.Sprintf("NIC %s has MTU %d%s and an address in %s, in VLAN %d, but NIC %s, in the same subnet and VLAN, has MTU %d%s. Hosts of one subnet send each other packets directly, up to their own MTU, with no router between them to say the packet is too big, so a packet above the smaller MTU (UDP, ICMP; TCP agrees on the smaller segment by its MSS option) may be dropped by the receiving NIC; RoCE is unaffected while the RoCE path MTUs agree.%s%s Give every NIC of the subnet the same mtu, or accept this warning.",
			n.name(), n.nic.MTU, c.defaultNote(n, "mtu"), p, v, o.name(), o.nic.MTU, c.defaultNote(o, "mtu"), windowsFrameNote(n), windowsFrameNote(o)),
		n.path("mtu"), rel(fmt.Sprintf("%s MTU %d", o.name(), o.nic.MTU), o.path("mtu")...))
}

// windowsFrameNote explains a Windows NIC's MTU of 9014: the figure
// Windows guides give for *JumboPacket is a frame size, the 14-byte
// Ethernet header included (IP MTU 9000), while a nic's mtu is the IP MTU
// the host runs (the Windows script sets *JumboPacket from it and checks
// the IP MTU, NlMtu).
func windowsFrameNote(e end) string {
	if e.host.OS != model.OSWindows || e.nic.MTU != 9014 {
		return ""
	}
	return fmt.Sprintf(" The 9014 of NIC %s is the *JumboPacket frame size Windows guides give, the 14-byte Ethernet header included (IP MTU 9000); a nic's mtu is the IP MTU, so mtu = 9000 is what those guides mean.", e.name())
}
