package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// checkLinks compares the two ends of every link.
func (c *checker) checkLinks() {
	for _, l := range c.f.Links {
		a, okA := c.resolve(l.A)
		b, okB := c.resolve(l.B)
		if !okA || !okB {
			continue // an unresolved end is a lowering error already
		}
		if a.port == nil && b.port != nil {
			a, b = b, a // switch end first
		}
		switch {
		case a.port != nil && b.port != nil:
			c.checkSwitchSwitch(a, b)
		case a.port != nil:
			c.checkSwitchHost(a, b)
		default:
			c.checkHostHost(a, b)
		}
	}
}

// checkSpeed reports ends whose speeds differ (0 means not set).
func (c *checker) checkSpeed(a, b end, sa, sb int) {
	if sa == 0 || sb == 0 || sa == sb {
		return
	}
	c.errorf("Link speed mismatch",
		fmt.Sprintf("%s runs at %s but its link peer %s runs at %s; a link comes up only when both ends use the same speed. Set the same speed on both.", a.name(), speedText(sa), b.name(), speedText(sb)),
		a.path("speed"), rel(fmt.Sprintf("%s speed %s", b.name(), speedText(sb)), b.path("speed")...))
}

// checkSwitchSwitch compares two switch ports cabled together.
func (c *checker) checkSwitchSwitch(a, b end) {
	pa, pb := a.port, b.port
	c.checkSpeed(a, b, pa.SpeedMbps, pb.SpeedMbps)
	c.checkSwitchMTU(a, b)
	c.checkSwitchVLANs(a, b)
	if !slices.Equal(pa.PFCPriorities, pb.PFCPriorities) {
		c.errorf("Link PFC priorities mismatch",
			fmt.Sprintf("%s has PFC on priorities %s but its link peer %s on %s; a priority paused on one end only is not lossless. Enable PFC on the same priorities on both ends.", a.name(), intsText(pa.PFCPriorities), b.name(), intsText(pb.PFCPriorities)),
			a.path("pfc"), rel(fmt.Sprintf("%s PFC priorities %s", b.name(), intsText(pb.PFCPriorities)), b.path("pfc")...))
	}
	if pa.Trust != pb.Trust {
		c.errorf("Link trust mismatch",
			fmt.Sprintf("%s trusts %s%s but its link peer %s trusts %s%s; the two ends classify the same packets into different priorities. Use the same trust on both ends: trust = %q (or %q) in both port blocks.", a.name(), pa.Trust, c.defaultNote(a, "trust"), b.name(), pb.Trust, c.defaultNote(b, "trust"), pa.Trust, pb.Trust),
			a.path("trust"), rel(fmt.Sprintf("%s trust %s", b.name(), pb.Trust), b.path("trust")...))
	}
}

// checkSwitchMTU compares the MTUs of two cabled switch ports by what
// each limits. On a routed port the mtu is the IP MTU of what it routes,
// and the two ends must agree. Between two switchports (access or trunk)
// only bridged frames cross, and platforms differ there: Onyx and
// Cumulus Linux drop a bridged frame above the port's mtu, but on EOS
// the mtu is the Layer 3 MTU of routed interfaces and SVIs ("MTU is
// independently configurable on all routable interfaces": Arista EOS
// User Manual, "Support for Layer 3 MTU on 7280R3/7500R3/7800R3"), and
// a switchport bridges frames up to its fixed L2 MTU whatever its mtu
// (`show interfaces ethernet N l2 mtu`, 9234 bytes: a tagged frame of
// the largest Onyx and Cumulus IP MTU, 9216). The two are separate
// settings, `mtu` ("Maximum transmission unit in bytes") and, where the
// platform has it, `l2 mtu` ("L2 MTU (bytes)") in the EOS CLI help: 9234
// does not follow from the 9214 default, whose routed packet leaves in a
// frame of 9214 + 14 B (9232 B with a tag). So two EOS switchports
// are not compared, and an EOS switchport's peer only needs to take the
// IP packets of the size the EOS end's mtu says: its default 9214
// against the Onyx and Cumulus default 9216 is no mistake.
func (c *checker) checkSwitchMTU(a, b end) {
	eosA, eosB := a.sw.Platform == model.PlatformEOS, b.sw.Platform == model.PlatformEOS
	switch {
	case !switchport(a.port) || !switchport(b.port) || !eosA && !eosB:
		if ipMTU(a) != ipMTU(b) {
			c.errorf("Link MTU mismatch",
				fmt.Sprintf("%s has %s but its link peer %s has %s; IP packets larger than the smaller MTU are dropped. %s", a.name(), c.mtuText(a), b.name(), c.mtuText(b), mtuFix(a, b)),
				a.path("mtu"), rel(fmt.Sprintf("%s MTU %d", b.name(), b.port.MTU), b.path("mtu")...))
		}
	case eosA && eosB:
		// Neither end applies its mtu to the bridged frames.
	default:
		eos, other := a, b
		if eosB {
			eos, other = b, a
		}
		if ipMTU(other) >= ipMTU(eos) {
			return
		}
		c.errorf("Link MTU mismatch",
			fmt.Sprintf("%s has %s but its link peer %s, an EOS %s port, has %s. EOS applies its mtu to routed traffic only and bridges frames up to its fixed L2 MTU (9234 bytes), so IP packets of up to %d bytes reach %s, which drops those above %d. Set mtu = %d on %s, the largest %s takes (or at least %d).",
				other.name(), c.mtuText(other), eos.name(), eos.port.Mode, c.mtuText(eos), ipMTU(eos), other.name(), ipMTU(other),
				platforms[other.sw.Platform].portMaxMTU(), other.name(), platformTitle(other.sw.Platform), ipMTU(eos)+mtuMeaning(other).HeaderBytes),
			other.path("mtu"), rel(fmt.Sprintf("%s MTU %d", eos.name(), eos.port.MTU), eos.path("mtu")...))
	}
}

// switchport reports an access or trunk port.
func switchport(p *model.Port) bool {
	return p.Mode == model.ModeAccess || p.Mode == model.ModeTrunk
}

// mtuFix names the mtu values that make two switch ends agree: the
// largest IP MTU both platforms take, written on the ends that differ
// from it, or the smaller of the two on the larger end.
func mtuFix(a, b end) string {
	best := min(mtuMeaning(a).IPMTU(platforms[a.sw.Platform].portMaxMTU()), mtuMeaning(b).IPMTU(platforms[b.sw.Platform].portMaxMTU()))
	var set []string
	for _, e := range []end{a, b} {
		if ipMTU(e) != best {
			set = append(set, fmt.Sprintf("mtu = %d on %s", best+mtuMeaning(e).HeaderBytes, e.name()))
		}
	}
	fix := fmt.Sprintf("Set the same IP MTU on both ends: %s, the largest both platforms take", strings.Join(set, " and "))
	lo, hi := a, b
	if ipMTU(b) < ipMTU(a) {
		lo, hi = b, a
	}
	if ipMTU(lo) != best {
		fix += fmt.Sprintf("; or mtu = %d on %s, to keep the smaller", ipMTU(lo)+mtuMeaning(hi).HeaderBytes, hi.name())
	}
	return fix + "."
}

// checkSwitchVLANs compares what two cabled switch ports do with each
// VLAN. A VLAN both carry must be tagged on both or untagged on both: an
// access port and a trunk's native VLAN send it untagged, the other
// VLANs of a trunk go tagged (IEEE 802.1Q; the platform manuals cited at
// checkTagging), and untagged frames arriving at a trunk belong to its
// native VLAN, not to the VLAN the sender meant. Then both must carry
// the same VLANs; when one end is an access port whose VLAN the other
// tags, its mode is the mistake, and the lists are not blamed as well.
func (c *checker) checkSwitchVLANs(a, b end) {
	pa, pb := a.port, b.port
	mixed := false
	for _, v := range pa.CarriedVLANs() {
		if !slices.Contains(pb.CarriedVLANs(), v) || (pa.UntaggedVLAN() == v) == (pb.UntaggedVLAN() == v) {
			continue
		}
		mixed = true
		if pa.UntaggedVLAN() == v {
			c.taggingMismatch(a, b, v)
		} else {
			c.taggingMismatch(b, a, v)
		}
	}
	if mixed && (pa.Mode == model.ModeAccess || pb.Mode == model.ModeAccess) {
		return
	}
	if va, vb := pa.CarriedVLANs(), pb.CarriedVLANs(); !slices.Equal(va, vb) {
		c.errorf("Link VLAN mismatch",
			fmt.Sprintf("%s carries %s but its link peer %s carries %s; traffic in a VLAN one end does not carry is dropped. Carry the same VLANs on both ends.", a.name(), vlansText(pa), b.name(), vlansText(pb)),
			a.path("vlans"), rel(fmt.Sprintf("%s VLANs %s", b.name(), intsText(vb)), b.path("vlans")...))
	}
}

// taggingMismatch reports VLAN v, which switch port u sends untagged and
// its link peer t tagged.
func (c *checker) taggingMismatch(u, t end, v int) {
	how, at := fmt.Sprintf("an access port in VLAN %d", v), u.path("mode")
	if u.port.Mode == model.ModeTrunk {
		how, at = fmt.Sprintf("a trunk whose native_vlan is %d", v), u.path("native_vlan")
	}
	there := fmt.Sprintf("has no native_vlan, so they are not in VLAN %d there", v)
	if nv := t.port.NativeVLAN; t.port.Mode == model.ModeTrunk && nv != 0 {
		there = fmt.Sprintf("puts them in its native VLAN %d", nv)
	}
	c.errorf("Link VLAN tagging mismatch",
		fmt.Sprintf("%s sends VLAN %d untagged (%s) but its link peer %s sends VLAN %d tagged (a trunk listing it in vlans). The untagged frames reach %s, which %s: VLAN %d does not cross the link as one VLAN. Send VLAN %d the same way on both ends: tagged on both (mode = \"trunk\" with %d in vlans, not as native_vlan) or untagged on both (mode = \"access\" with vlans = [%d], or native_vlan = %d on a trunk).",
			u.name(), v, how, t.name(), v, t.name(), there, v, v, v, v, v),
		at, rel(fmt.Sprintf("%s sends VLAN %d tagged", t.name(), v), t.path("vlans")...))
}

// vlansText says which VLANs a port carries and how: "VLANs 20,30
// (20 untagged, as its native VLAN)", "VLAN 20 (an access port,
// untagged)", "no VLAN (a routed port)".
func vlansText(p *model.Port) string {
	vs := p.CarriedVLANs()
	switch {
	case len(vs) == 0 && p.Mode == model.ModeRouted:
		return "no VLAN (a routed port)"
	case len(vs) == 0:
		return "no VLAN"
	case p.Mode == model.ModeAccess:
		return fmt.Sprintf("VLAN %d (an access port, untagged)", p.AccessVLAN)
	}
	word := "VLANs"
	if len(vs) == 1 {
		word = "VLAN"
	}
	if p.NativeVLAN != 0 {
		return fmt.Sprintf("%s %s (%d untagged, as its native VLAN)", word, intsText(vs), p.NativeVLAN)
	}
	return fmt.Sprintf("%s %s", word, intsText(vs))
}

// mtuMeaning is what the mtu of an end counts (model.PortMTU,
// model.NICMTU): the same data the OpenConfig renderer converts by.
func mtuMeaning(e end) model.MTUMeaning {
	if e.port != nil {
		return e.sw.Platform.PortMTU()
	}
	return e.host.OS.NICMTU()
}

// ipMTU is the largest IP packet an end carries, the one unit both ends
// of a link are compared in.
func ipMTU(e end) int {
	if e.port != nil {
		return mtuMeaning(e).IPMTU(e.port.MTU)
	}
	return mtuMeaning(e).IPMTU(e.nic.MTU)
}

// mtuText states an end's MTU as the IP MTU, with the number written
// when the device counts it otherwise and where it came from: "IP MTU
// 9214 (the EOS default, not written)".
func (c *checker) mtuText(e end) string {
	mtu, who := 0, ""
	if e.port != nil {
		mtu, who = e.port.MTU, platformTitle(e.sw.Platform)
	} else {
		mtu, who = e.nic.MTU, string(e.host.OS)
	}
	m := mtuMeaning(e)
	text := fmt.Sprintf("IP MTU %d", m.IPMTU(mtu))
	if m.HeaderBytes != 0 {
		text += fmt.Sprintf(" (mtu %d, which %s counts with the %d-byte Ethernet header)", mtu, who, m.HeaderBytes)
	}
	return text + c.defaultNote(e, "mtu")
}

// portVLANs is the set of VLANs a port carries, ascending.
func portVLANs(p *model.Port) []int {
	switch p.Mode {
	case model.ModeTrunk:
		return p.TrunkVLANs
	case model.ModeAccess:
		if p.AccessVLAN != 0 {
			return []int{p.AccessVLAN}
		}
	}
	return nil
}

// checkSwitchHost compares a switch port with the host NIC cabled to it.
func (c *checker) checkSwitchHost(s, h end) {
	p, n := s.port, h.nic
	c.checkSpeed(h, s, n.SpeedMbps, p.SpeedMbps)
	if n.MTU != 0 && ipMTU(h) > ipMTU(s) {
		c.errorf("Host MTU above switch port MTU",
			fmt.Sprintf("%s has %s but its switch port %s has %s, so the port drops the host's largest IP packets. Lower the NIC MTU or raise the port MTU.", h.name(), c.mtuText(h), s.name(), c.mtuText(s)),
			h.path("mtu"), rel(fmt.Sprintf("%s MTU %d", s.name(), p.MTU), s.path("mtu")...))
	}
	c.checkTagging(s, h)
	if n.Transport == model.TransportRoCE {
		c.checkNICAgainstPort(s, h)
	}
}

// checkTagging compares the NIC's tagging with what its switch port
// sends and takes. An access port and a trunk's native VLAN carry their
// VLAN untagged, the other VLANs of a trunk tagged, and a routed port no
// VLAN (IEEE 802.1Q; Cumulus Linux 5.9 user guide, VLAN-aware Bridge Mode,
// untagged; Arista EOS User Manual, VLANs, "switchport trunk native
// vlan"; NVIDIA Onyx User Manual, VLANs, access, trunk and hybrid modes).
// An EOS trunk without a native VLAN takes untagged frames into VLAN 1
// and drops them unless its vlans list VLAN 1; the other platforms drop
// them, so fabricc asks for a native_vlan on every platform.
func (c *checker) checkTagging(s, h end) {
	p, n := s.port, h.nic
	vlans := intsText(portVLANs(p))
	switch {
	case n.VLAN == 0:
		if p.Mode == model.ModeTrunk && p.NativeVLAN == 0 {
			c.errorf("Untagged NIC on trunk port without native VLAN",
				fmt.Sprintf("%s sends untagged frames (it has no vlan), but switch port %s is a trunk without native_vlan, which forwards only frames tagged with VLANs %s and drops every frame the NIC sends. Give the NIC a vlan the trunk carries (%s), or give the port a native_vlan for the NIC's untagged frames.", h.name(), s.name(), vlans, vlans),
				h.path("vlan"), rel(fmt.Sprintf("%s trunk VLANs %s, no native_vlan", s.name(), vlans), s.path("vlans")...))
		}
	case !p.CarriesVLAN(n.VLAN):
		fix := fmt.Sprintf("Add VLAN %d to the port's vlans or change the NIC's vlan.", n.VLAN)
		switch p.Mode {
		case model.ModeAccess:
			fix = fmt.Sprintf("An access port carries one VLAN, untagged: remove the NIC's vlan to send untagged frames into VLAN %d, or make the port mode = \"trunk\" with VLAN %d in its vlans.", p.AccessVLAN, n.VLAN)
		case model.ModeRouted:
			fix = fmt.Sprintf("A routed port carries no VLAN: remove the NIC's vlan, or make the port mode = \"trunk\" with VLAN %d in its vlans.", n.VLAN)
		}
		c.errorf("VLAN not allowed on switch port",
			fmt.Sprintf("%s tags its traffic with VLAN %d, but switch port %s (%s) carries VLANs %s. %s", h.name(), n.VLAN, s.name(), p.Mode, vlans, fix),
			h.path("vlan"), rel(fmt.Sprintf("%s VLANs %s", s.name(), vlans), s.path("vlans")...))
	case p.Mode == model.ModeAccess || p.NativeVLAN == n.VLAN:
		how, fix := "an access port", fmt.Sprintf("make the port mode = \"trunk\" with vlans = [%d]", n.VLAN)
		at := s.path("mode")
		if p.Mode == model.ModeTrunk {
			how, fix = "a trunk whose native_vlan it is", fmt.Sprintf("remove native_vlan from the port so that it carries VLAN %d tagged", n.VLAN)
			at = s.path("native_vlan")
		}
		c.errorf("Tagged NIC on untagged VLAN",
			fmt.Sprintf("%s tags its traffic with VLAN %d, but switch port %s sends VLAN %d untagged (%s), so the switch's frames reach the NIC without a tag and the host does not deliver them to its VLAN %d interface: address resolution and RDMA connections fail. Remove the NIC's vlan, or %s.", h.name(), n.VLAN, s.name(), n.VLAN, how, n.VLAN, fix),
			h.path("vlan"), rel(fmt.Sprintf("%s sends VLAN %d untagged", s.name(), n.VLAN), at...))
	}
}

// checkNICAgainstPort checks the host side of the lossless contract
// against the switch port that classifies the NIC's traffic.
func (c *checker) checkNICAgainstPort(s, h end) {
	p, r := s.port, h.nic.RoCE
	q := c.f.QoS
	if c.pfcOff(s) {
		// The port's own "PFC disabled" error covers the lossless
		// contract; restating it from the NIC side adds only noise.
		c.checkCNP(s, h, p.Trust == model.TrustDSCP || p.Trust == model.TrustBoth)
		return
	}
	if !p.Lossless(r.Priority) {
		c.errorf("RoCE priority not lossless",
			fmt.Sprintf("%s sends RoCE on priority %d, but switch port %s has PFC on priorities %s, so RoCE would be dropped under congestion. Use a lossless priority on the NIC (its class's priority) or enable PFC for priority %d on the port.", h.name(), r.Priority, s.name(), intsText(p.PFCPriorities), r.Priority),
			h.path("priority"), rel(fmt.Sprintf("%s PFC priorities %s", s.name(), intsText(p.PFCPriorities)), s.path("pfc")...))
	}
	c.checkPCPUntagged(s, h)
	c.checkUntaggedToPCPOnly(s, h)
	trustsDSCP := p.Trust == model.TrustDSCP || p.Trust == model.TrustBoth
	if trustsDSCP && validDSCP(q, r.DSCP) && !p.Lossless(q.DSCPToPriority[r.DSCP]) {
		prio := q.DSCPToPriority[r.DSCP]
		c.errorf("RoCE DSCP maps to lossy priority",
			fmt.Sprintf("%s marks RoCE with DSCP %d; switch port %s trusts %s and maps DSCP %d to priority %d, which has no PFC (lossless: %s). Mark RoCE with a DSCP of the lossless class or add DSCP %d to it.", h.name(), r.DSCP, s.name(), p.Trust, r.DSCP, prio, intsText(p.PFCPriorities), r.DSCP),
			h.path("dscp"), rel(fmt.Sprintf("%s trusts %s", s.name(), p.Trust), s.path("trust")...))
	}
	if !slices.Equal(r.PFCPriorities, p.PFCPriorities) {
		c.errorf("NIC PFC priorities differ from switch port",
			fmt.Sprintf("%s has PFC on priorities %s but switch port %s on %s; both ends of a link must pause the same priorities. Set the NIC's pfc_priorities to %s.", h.name(), intsText(r.PFCPriorities), s.name(), intsText(p.PFCPriorities), intsText(p.PFCPriorities)),
			h.path("pfc_priorities"), rel(fmt.Sprintf("%s PFC priorities %s", s.name(), intsText(p.PFCPriorities)), s.path("pfc")...))
	}
	if r.Trust != "" && r.Trust != p.Trust && !c.driverTrust(h) {
		c.errorf("Link trust mismatch",
			fmt.Sprintf("%s trusts %s%s but its switch port %s trusts %s%s; the two ends classify the same packets into different priorities. Use the same trust on both ends: trust = %q in the nic block, or trust = %q in the port block.", h.name(), r.Trust, c.defaultNote(h, "trust"), s.name(), p.Trust, c.defaultNote(s, "trust"), p.Trust, r.Trust),
			h.path("trust"), rel(fmt.Sprintf("%s trust %s", s.name(), p.Trust), s.path("trust")...))
	}
	c.checkCNP(s, h, trustsDSCP)
}

// checkPCPUntagged reports a switch port that classifies a NIC's RoCE by
// PCP (trust pcp; trust both for RoCE v1, which has no IP header and so
// no DSCP) while the NIC sends it untagged. PCP is a field of the 802.1Q
// VLAN tag (IEEE 802.1Q, Tag Control Information), and the ConnectX
// drivers put the priority in the tag of a VLAN interface (Mellanox OFED
// for Linux User Manual, Quality of Service Mapping: "In case of VLAN
// interface, the UP ... is also used in the VLAN tag of the traffic"):
// untagged frames take the port's default switch priority, 0 (Cumulus
// Linux 5.9 user guide, Quality of Service, port-default-sp). When the two
// ends' trust differs, the trust mismatch error is the one reported.
func (c *checker) checkPCPUntagged(s, h end) {
	p, r := s.port, h.nic.RoCE
	if !pcpUntagged(s, h) {
		return
	}
	trust := fmt.Sprintf("trusts %s", p.Trust)
	switch {
	case p.Trust == model.TrustBoth:
		trust += " (DSCP for IP packets, PCP for the rest, and RoCE v1 has no IP header)"
	case !c.src.Has(s.path("trust")...):
		trust += " (the default toward a RoCE v1 NIC, not written)"
	}
	fix := `trust = "dscp" on both ends`
	if r.Mode == "v1" {
		fix = `roce_mode = "v2" with trust = "dscp" on both ends`
	}
	lossy := ""
	if !p.Lossless(0) {
		lossy = "; priority 0 has no PFC, so RoCE would be dropped under congestion"
	}
	rels := []related{rel(fmt.Sprintf("%s trust %s", s.name(), p.Trust), s.path("trust")...)}
	if r.Mode == "v1" {
		rels = append(rels, rel(fmt.Sprintf("%s roce_mode v1", h.name()), h.path("roce_mode")...))
	}
	c.errorf("PCP trust toward untagged NIC",
		fmt.Sprintf("%s sends RoCE untagged (it has no vlan), but switch port %s %s. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the port puts the NIC's RoCE in its default priority 0 instead of priority %d%s. Give the NIC a vlan that the port carries tagged (mode = \"trunk\" with that VLAN in vlans), or use %s.", h.name(), s.name(), trust, r.Priority, lossy, fix),
		h.path("vlan"), rels...)
}

// pcpUntagged reports whether switch port s classifies the RoCE of NIC h
// by PCP while h sends it untagged, what checkPCPUntagged reports.
func pcpUntagged(s, h end) bool {
	p, r := s.port, h.nic.RoCE
	// An EOS port has no "both" (checkTrustOnPlatform reports it): it
	// would trust DSCP only, so it never classifies by PCP.
	both := p.Trust == model.TrustBoth && s.sw.Platform != model.PlatformEOS
	byPCP := p.Trust == model.TrustPCP || both && r.Mode == "v1"
	return byPCP && h.nic.VLAN == 0 && r.Priority != 0 && (r.Trust == "" || r.Trust == p.Trust)
}

// pcpOnly is what the driver of a NIC end classifies by and lets the host
// set (model.NICDriverQoS).
func pcpOnly(h end) (model.DriverQoS, bool) {
	d := model.NICDriverQoS(h.host.OS, h.nic.Driver)
	return d, d.PCPOnly
}

// driverTrust reports whether a NIC end's trust is its driver's one
// trust rather than a choice: a PCP-only driver with no trust written.
// Its trust is not compared with its link peer's: the frames it receives
// need a tag whatever the peer trusts (checkUntaggedToPCPOnly), and the
// peer may classify what it sends by DSCP.
func (c *checker) driverTrust(h end) bool {
	_, only := pcpOnly(h)
	return only && !c.src.Has(h.path("trust")...)
}

// driverText names a NIC's driver: "driver mlx4en (ConnectX-3 Pro on
// freebsd)".
func driverText(h end) string {
	return fmt.Sprintf("driver %s (%s on %s)", h.nic.Driver, h.nic.Model, h.host.OS)
}

// driverRel is the related place of a NIC end's driver: its driver
// attribute, or its model, which chose the driver, when none is written.
func (c *checker) driverRel(h end) related {
	attr := "driver"
	if !c.src.Has(h.path(attr)...) {
		attr = "model"
	}
	return rel(fmt.Sprintf("%s %s", h.name(), driverText(h)), h.path(attr)...)
}

// priorityZeroText says what becomes of RoCE that a NIC receives in
// priority 0 instead of its own priority prio.
func priorityZeroText(n *model.NIC, prio int) string {
	if slices.Contains(n.RoCE.PFCPriorities, 0) {
		return fmt.Sprintf("so it is paused and queued as priority 0 traffic, not as priority %d", prio)
	}
	return fmt.Sprintf("which has no PFC: PFC on priority %d never pauses it, a NIC running PFC has 802.3x global pause off, so nothing pauses it and the NIC drops it when its receive buffer fills", prio)
}

// checkUntaggedToPCPOnly reports a switch port that sends its VLAN
// untagged (an access port, a trunk's native VLAN, a routed port) to a
// NIC whose driver classifies received frames by PCP only
// (model.DriverQoS.PCPOnly): the frames carry no PCP (IEEE 802.1Q, Tag
// Control Information), so the NIC receives the fabric's RoCE in priority
// 0. A trunk without a native VLAN, which drops the untagged frames, and
// a port that itself classifies the NIC's untagged RoCE by PCP
// (checkPCPUntagged, the same fix) have their own errors.
func (c *checker) checkUntaggedToPCPOnly(s, h end) {
	p, n := s.port, h.nic
	_, only := pcpOnly(h)
	if !only || n.VLAN != 0 || n.RoCE.Priority == 0 || pcpUntagged(s, h) {
		return
	}
	how, at := "a routed port, which carries no VLAN", s.path("mode")
	switch {
	case p.Mode == model.ModeAccess:
		how = fmt.Sprintf("an access port in VLAN %d", p.AccessVLAN)
	case p.Mode == model.ModeTrunk && p.NativeVLAN != 0:
		how, at = fmt.Sprintf("a trunk whose native_vlan is %d", p.NativeVLAN), s.path("native_vlan")
	case p.Mode == model.ModeTrunk:
		return // "Untagged NIC on trunk port without native VLAN"
	}
	c.errorf("Untagged RoCE to a NIC that classifies by PCP",
		fmt.Sprintf("Switch port %s sends the frames of %s untagged (%s), but the NIC's %s classifies received frames by their 802.1Q PCP only and has no DSCP trust. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the NIC puts the RoCE it receives on priority %d in priority 0, %s. Make the port a trunk carrying a VLAN tagged (mode = \"trunk\" with the VLAN in vlans, not as native_vlan) and give the NIC that vlan, so that RoCE reaches it tagged with its priority.",
			s.name(), h.name(), how, driverText(h), n.RoCE.Priority, priorityZeroText(n, n.RoCE.Priority)),
		at, rel(fmt.Sprintf("%s has no vlan", h.name()), h.path("vlan")...),
		c.driverRel(h))
}

// checkCNP compares the NIC's CNP marking with the CNP class.
func (c *checker) checkCNP(s, h end, trustsDSCP bool) {
	q, r := c.f.QoS, h.nic.RoCE
	cnp := q.CNP()
	if cnp == nil {
		return
	}
	classPath := []string{"qos", "class", cnp.Name}
	if r.CNPPriority != cnp.Priority {
		c.errorf("CNP priority mismatch",
			fmt.Sprintf("%s sends congestion notification packets on priority %d, but class %q carries CNPs on priority %d. Set the NIC's cnp_priority to %d.", h.name(), r.CNPPriority, cnp.Name, cnp.Priority, cnp.Priority),
			h.path("cnp_priority"), rel(fmt.Sprintf("class %s priority %d", cnp.Name, cnp.Priority), append(classPath, "priority")...))
	}
	if trustsDSCP && validDSCP(q, r.CNPDSCP) && q.DSCPToPriority[r.CNPDSCP] != cnp.Priority {
		c.errorf("CNP DSCP mismatch",
			fmt.Sprintf("%s marks congestion notification packets with DSCP %d, which switch port %s maps to priority %d, not to class %q (priority %d, DSCP %s). Set the NIC's cnp_dscp to %d.", h.name(), r.CNPDSCP, s.name(), q.DSCPToPriority[r.CNPDSCP], cnp.Name, cnp.Priority, intsText(cnp.DSCP), cnp.MarkDSCP),
			h.path("cnp_dscp"), rel(fmt.Sprintf("class %s DSCP %s", cnp.Name, intsText(cnp.DSCP)), append(classPath, "dscp")...))
	}
}

// validDSCP reports whether d indexes the DSCP map.
func validDSCP(q model.QoS, d int) bool { return d >= 0 && d < len(q.DSCPToPriority) }

// checkHostHost compares two NICs cabled back to back.
func (c *checker) checkHostHost(a, b end) {
	na, nb := a.nic, b.nic
	c.checkSpeed(a, b, na.SpeedMbps, nb.SpeedMbps)
	if ipMTU(a) != ipMTU(b) {
		c.errorf("Link MTU mismatch",
			fmt.Sprintf("%s has %s but its link peer %s has %s. Set the same MTU on both NICs.", a.name(), c.mtuText(a), b.name(), c.mtuText(b)),
			a.path("mtu"), rel(fmt.Sprintf("%s MTU %d", b.name(), nb.MTU), b.path("mtu")...))
	}
	if na.VLAN != nb.VLAN {
		c.errorf("Link VLAN mismatch",
			fmt.Sprintf("%s tags VLAN %d but its link peer %s tags VLAN %d. Use the same VLAN on both NICs.", a.name(), na.VLAN, b.name(), nb.VLAN),
			a.path("vlan"), rel(fmt.Sprintf("%s VLAN %d", b.name(), nb.VLAN), b.path("vlan")...))
	}
	if na.Transport != model.TransportRoCE || nb.Transport != model.TransportRoCE {
		return
	}
	ra, rb := na.RoCE, nb.RoCE
	fields := []struct {
		attr   string
		va, vb string
	}{
		{"priority", fmt.Sprint(ra.Priority), fmt.Sprint(rb.Priority)},
		{"dscp", fmt.Sprint(ra.DSCP), fmt.Sprint(rb.DSCP)},
		{"cnp_priority", fmt.Sprint(ra.CNPPriority), fmt.Sprint(rb.CNPPriority)},
		{"cnp_dscp", fmt.Sprint(ra.CNPDSCP), fmt.Sprint(rb.CNPDSCP)},
		{"pfc_priorities", intsText(ra.PFCPriorities), intsText(rb.PFCPriorities)},
		{"trust", string(ra.Trust), string(rb.Trust)},
	}
	driverTrust := c.driverTrust(a) || c.driverTrust(b)
	for _, fl := range fields {
		if fl.attr == "trust" && driverTrust {
			continue // checkUntaggedPCPLink covers what the driver's trust asks of the link
		}
		if fl.va != fl.vb {
			c.errorf("RoCE settings differ between NICs",
				fmt.Sprintf("%s has %s %s but the NIC it is cabled to, %s, has %s %s; back-to-back NICs must mark and pause RoCE the same way. Set the same %s on both.", a.name(), fl.attr, fl.va, b.name(), fl.attr, fl.vb, fl.attr),
				a.path(fl.attr), rel(fmt.Sprintf("%s %s %s", b.name(), fl.attr, fl.vb), b.path(fl.attr)...))
		}
	}
	if na.VLAN == 0 && nb.VLAN == 0 && (driverTrust || ra.Trust == rb.Trust) {
		c.checkUntaggedPCPLink(a, b)
	}
}

// byPCP reports whether NIC end r classifies the RoCE that NIC end s
// sends it by PCP: its driver has no other way (model.DriverQoS.PCPOnly),
// it trusts pcp, or it trusts both and the RoCE is v1, which has no IP
// header.
func byPCP(r, s end) bool {
	_, only := pcpOnly(r)
	t := r.nic.RoCE.Trust
	return only || t == model.TrustPCP || t == model.TrustBoth && s.nic.RoCE.Mode == "v1"
}

// checkUntaggedPCPLink reports two NICs cabled back to back without a
// vlan where one of them classifies the other's RoCE by PCP: an untagged
// frame carries no PCP (IEEE 802.1Q, Tag Control Information), so that NIC
// receives the RoCE in priority 0. Reported once per link, at the
// receiving NIC whose driver classifies by PCP only, else at the first.
func (c *checker) checkUntaggedPCPLink(a, b end) {
	recv, send := a, b
	switch {
	case byPCP(a, b) && byPCP(b, a):
		if _, only := pcpOnly(b); only {
			recv, send = b, a
		}
	case byPCP(b, a):
		recv, send = b, a
	case !byPCP(a, b):
		return
	}
	prio := send.nic.RoCE.Priority
	if prio == 0 {
		return
	}
	why, fix := fmt.Sprintf(" trusts %s", recv.nic.RoCE.Trust), `, or trust = "dscp" on both NICs`
	rels := []related{rel(fmt.Sprintf("%s has no vlan", send.name()), send.path("vlan")...)}
	if _, only := pcpOnly(recv); only {
		why, fix = fmt.Sprintf("'s %s classifies received frames by their 802.1Q PCP only and has no DSCP trust", driverText(recv)), ""
		rels = append(rels, c.driverRel(recv))
	} else {
		if recv.nic.RoCE.Trust == model.TrustBoth {
			why += " (DSCP for IP packets, PCP for the rest, and RoCE v1 has no IP header)"
		}
		if send.nic.RoCE.Mode == "v1" {
			fix = `, or roce_mode = "v2" with trust = "dscp" on both NICs`
		}
		rels = append(rels, rel(fmt.Sprintf("%s trust %s", recv.name(), recv.nic.RoCE.Trust), recv.path("trust")...))
	}
	c.errorf("Untagged RoCE to a NIC that classifies by PCP",
		fmt.Sprintf("%s and the NIC it is cabled to, %s, have no vlan, so RoCE crosses the link untagged, but %s%s. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so %s puts the RoCE %s sends on priority %d in priority 0, %s. Give both NICs the same vlan, so that RoCE crosses the link tagged with its priority%s.",
			recv.name(), send.name(), recv.name(), why, recv.name(), send.name(), prio, priorityZeroText(recv.nic, prio), fix),
		recv.path("vlan"), rels...)
}

// pfcOff reports whether a switch end has PFC off because pfc = false
// was written for it.
func (c *checker) pfcOff(s end) bool {
	// A port with PFC priorities is not off, and most are: the record
	// of sources is asked only about the rest.
	return len(s.port.PFCPriorities) == 0 && c.src.Has(s.path("pfc")...)
}
