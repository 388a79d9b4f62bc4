package linux

import (
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// Driver stacks of a Linux NIC (model.NIC.Driver).
const (
	driverOFED  = "mlnx_ofed"
	driverInbox = "inbox"
	driverQede  = "qede"
)

// Packages named when a tool is missing.
const (
	pkgIproute = "iproute2"
	// pkgDcb: the inbox steps run `dcb app`, `dcb dcbx` and `dcb -N`,
	// which iproute2 gained in v5.12.0 (iproute2 git: "dcb: Add a
	// subtool for the DCB APP object", "... for the DCBX object", "dcb:
	// Support -N to suppress translation to human-readable names"); `dcb`
	// itself came in v5.11.0. Debian 11 ships iproute2 5.10, which has
	// iproute2 installed and no dcb, so "install iproute2" alone misled.
	pkgDcb = "iproute2 5.12 or later (dcb came in iproute2 5.11, dcb app, dcb dcbx and dcb -N in 5.12; " +
		"ip -V prints the installed release: Debian 11 ships 5.10, which has no dcb), " +
		`or set driver = "mlnx_ofed" for this NIC in the fabric if the host runs MLNX_OFED`
	// pkgMlnxQos also names the way out for a host that left MLNX_OFED
	// for the distribution's inbox driver.
	pkgMlnxQos = "MLNX_OFED (mlnx-tools / mlnx-ofed-kernel-utils), or, if this host now uses the distribution's inbox driver, " +
		`set driver = "inbox" for this NIC in the fabric and build again`
	pkgEthtool = "ethtool"
)

// writeNIC writes the function that configures one NIC; rails are the
// host's NICs with IPv4 addresses, where two or more
// (model.Host.IPv4Rails).
func writeNIC(b *script, f *model.Fabric, n *model.NIC, idx int, rails []*model.NIC) {
	r := &n.RoCE
	b.At()
	b.WriteString("\n")
	b.nic(n)
	fmt.Fprintf(b, "# %s", quote.Comment(fmt.Sprintf("NIC %q: %s (%s, driver %s) on %s, %d Mb/s, MTU %d", n.Name, n.Model, n.Vendor, n.Driver, n.Interface, n.SpeedMbps, n.MTU)))
	if n.VLAN != 0 {
		fmt.Fprintf(b, ", VLAN %d", n.VLAN)
	}
	b.WriteString(".\n")
	b.nic(n, "priority")
	b.alsoNIC(n, "dscp")
	b.alsoNIC(n, "cnp_priority")
	b.alsoNIC(n, "cnp_dscp")
	fmt.Fprintf(b, "# RoCE %s marks priority %d / DSCP %d (ToS %d); CNPs priority %d / DSCP %d;\n", r.Mode, r.Priority, r.DSCP, r.TOS, r.CNPPriority, r.CNPDSCP)
	b.nic(n, "pfc_priorities")
	b.alsoNIC(n, "trust")
	fmt.Fprintf(b, "# PFC on %s (the priorities the switches keep lossless), trust %s, DCQCN on %s.\n",
		intList(r.PFCPriorities), r.Trust, intList(r.ECNPriorities))
	b.nic(n)
	fmt.Fprintf(b, "nic_%d() {\n", idx)
	fmt.Fprintf(b, "\tlocal ifc=%s\n", quote.ShellWord(n.Interface))
	b.WriteString("\tif ! link_exists \"$ifc\"; then\n\t\tmissing_link \"$ifc\" || return 0\n\tfi\n")
	if n.Route != nil {
		// the NIC's own table, named if a VRF holds the NIC (nic_guard)
		fmt.Fprintf(b, "\tnic_guard \"$ifc\" %d || return 0\n", n.Route.Table)
	} else {
		b.WriteString("\tnic_guard \"$ifc\" || return 0\n")
	}
	writeLink(b, f, n, rails)
	if len(r.PFCPriorities) > 0 {
		writePause(b, n)
	}
	switch n.Driver {
	case driverOFED:
		writeMlnxQos(b, f, n)
	case driverQede:
		writeQLogic(b, n)
	default:
		writeDcb(b, f, n)
	}
	if n.Transport != model.TransportIWARP {
		writeRoCECM(b, n)
	}
	if setsTClass(n) {
		writeTClass(b, n)
	}
	writeDCQCN(b, n)
	writeCNP(b, n)
	writeDCQCNParams(b, f, n)
	b.nic(n)
	b.WriteString("}\n")
}

// writeLink writes MTU, state, VLAN and addresses: what Linux itself does,
// for every driver; then, on a rail (writeNIC), its ARP and reverse-path
// settings on the interface that carries the addresses.
func writeLink(b *script, f *model.Fabric, n *model.NIC, rails []*model.NIC) {
	mtu := fmt.Sprint(n.MTU)
	b.nic(n, "mtu")
	fmt.Fprintf(b, "\tensure \"$ifc\" mtu %s \"$(read_sys /sys/class/net/\"$ifc\"/mtu)\" ip link set dev \"$ifc\" mtu %s\n", mtu, mtu)
	b.nic(n)
	b.WriteString("\tensure \"$ifc\" state up \"$(link_state \"$ifc\")\" ip link set dev \"$ifc\" up\n")
	b.nic(n, "speed")
	if n.SpeedMbps > 0 {
		fmt.Fprintf(b, "\tlink_check \"$ifc\" %d\n", n.SpeedMbps)
	} else {
		b.WriteString("\tlink_check \"$ifc\"\n")
	}
	l3 := l3Name(n)
	writeVLANPrune(b, f, n)
	if n.VLAN != 0 {
		all, nonzero := egressMap(&f.QoS, &n.RoCE)
		vl := vlanName(n)
		b.nic(n, "vlan")
		b.alsoVLANIf(n)
		b.alsoNIC(n, "priority")
		b.Also("qos")
		b.WriteString(egressComment(&f.QoS, n.VLAN, &n.RoCE))
		fmt.Fprintf(b, "\tvlan_ensure \"$ifc\" %d %s '%s' %s\n", n.VLAN, vl, nonzero, strings.Join(all, " "))
		writeVLANMark(b, n)
		b.nic(n, "mtu")
		b.alsoNIC(n, "vlan")
		b.alsoVLANIf(n)
		fmt.Fprintf(b, "\tensure %s mtu %s \"$(read_sys /sys/class/net/%s/mtu)\" ip link set dev %s mtu %s\n", vl, mtu, vl, vl, mtu)
		b.nic(n, "vlan")
		b.alsoVLANIf(n)
		fmt.Fprintf(b, "\tensure %s state up \"$(link_state %s)\" ip link set dev %s up\n", vl, vl, vl)
	}
	if len(n.Addresses) == 0 {
		// a NIC without addresses is on no rail
		return
	}
	// ip prints an address in its canonical form (RFC 5952 for IPv6),
	// which is what the model's must be compared in.
	addrs := make([]string, len(n.Addresses))
	for i, a := range n.Addresses {
		addrs[i] = canonicalPrefix(a)
	}
	b.nic(n, "addresses")
	b.WriteString("\t# The model's addresses are the interface's only global ones: others go\n")
	b.WriteString("\t# first (link-local fe80::/10 stays), then the model's are added.\n")
	fmt.Fprintf(b, "\taddr_prune %s %s\n", l3, strings.Join(addrs, " "))
	for _, a := range addrs {
		b.nic(n, "addresses")
		fmt.Fprintf(b, "\tensure %s 'address %s' present \"$(addr_state %s %s)\" ip addr replace %s dev %s\n", l3, a, l3, a, a, l3)
	}
	writeRoute(b, n, l3)
	if slices.Contains(rails, n) {
		writeRail(b, n, l3, len(rails))
	}
}

// alsoVLANIf says that the lines written next come from the NIC's
// vlan_interface too, where it names its VLAN interface.
func (b *script) alsoVLANIf(n *model.NIC) {
	if n.VLANInterface != "" {
		b.alsoNIC(n, "vlan_interface")
	}
}

// l3Name is the interface that carries the NIC's addresses, as the
// script writes it: "$ifc", or its VLAN interface, which validateNIC
// keeps to characters that need no quoting.
func l3Name(n *model.NIC) string {
	if n.VLAN != 0 {
		return vlanName(n)
	}
	return "\"$ifc\""
}

// writeRoute writes the NIC's policy route (model.NIC.Route): a default
// route via its gateway in a table of its own and a rule that sends the
// packets from its address there, so that each NIC of a host with one
// /31 per NIC answers and sends bound traffic through its own link
// (ip-rule(8), ip-route(8); RFC 3021 for the /31 whose other end is the
// gateway); then the main-table routes to the fabric subnets it carries
// (main_route), for lookups with no source address. l3 is the interface
// that carries the addresses.
func writeRoute(b *script, n *model.NIC, l3 string) {
	r := n.Route
	if r == nil {
		return
	}
	fam := "-4"
	if a, err := netip.ParseAddr(r.Source); err == nil && a.Is6() {
		fam = "-6"
	}
	b.nic(n, "addresses")
	b.alsoNIC(n, "link")
	if r.Written {
		b.alsoNIC(n, "gateway")
	}
	fmt.Fprintf(b, "\t# Table %d and rule priority %d (%d + the NIC's place in the host): a default\n", r.Table, r.Priority, model.RouteBase)
	fmt.Fprintf(b, "\t# route via %s for the packets from %s, so they leave by this NIC's own link.\n", quote.Comment(r.Gateway), quote.Comment(r.Source))
	fmt.Fprintf(b, "\tnic_route %s %s %d %d %s %s\n", l3, fam, r.Table, r.Priority, quote.ShellWord(r.Source), quote.ShellWord(r.Gateway))
	if len(r.Prefixes) == 0 {
		return
	}
	fmt.Fprintf(b, "\t# Main-table routes via %s to the fabric subnets this NIC carries, for the\n", quote.Comment(r.Gateway))
	b.WriteString("\t# initiators that resolve with no source address (NFS over RDMA, SMB Direct,\n")
	b.WriteString("\t# nvme-rdma without --host-traddr), which the rule above does not see.\n")
	for _, p := range r.Prefixes {
		fmt.Fprintf(b, "\tmain_route %s %s %s %s\n", l3, fam, quote.ShellWord(p), quote.ShellWord(r.Gateway))
	}
}

// writeRail writes the ARP and reverse-path settings of one of a
// multi-rail host's NICs with IPv4 addresses (rail_sysctls), on l3, the
// interface that carries the addresses, of rails NICs.
func writeRail(b *script, n *model.NIC, l3 string, rails int) {
	b.nic(n, "addresses")
	fmt.Fprintf(b, "\t# One of %d NICs with IPv4 addresses: ARP answered for its own addresses only,\n", rails)
	b.WriteString("\t# loose reverse-path filtering (Linux kernel ip-sysctl.rst; rail_sysctls).\n")
	fmt.Fprintf(b, "\trail_sysctls %s\n", l3)
}

// canonicalPrefix is a validated CIDR address as ip prints it: the
// address in its canonical text (lower case, the longest run of zero
// groups shortened, RFC 5952), the host bits kept.
func canonicalPrefix(a string) string {
	p, err := netip.ParsePrefix(a)
	if err != nil {
		return a // validate has refused it already
	}
	return p.String()
}

// writePause turns 802.3x link pause off: PFC and global pause are
// exclusive ways of flow control (Mellanox WinOF-2 User Manual, Rev 1.21,
// §3.1.3.2; Mellanox WinOF User Manual and Release Notes, Rev 5.50,
// §4.1.4.1; the switch ports carry
// link_pause false where PFC is on).
func writePause(b *script, n *model.NIC) {
	b.nic(n, "pfc_priorities")
	b.WriteString("\t# PFC replaces 802.3x link pause; the two are mutually exclusive.\n")
	b.WriteString("\tif capable \"$ifc\" \"pause settings (ethtool -a)\" \"use a driver that supports ethtool -A\" ethtool -a \"$ifc\"; then\n")
	b.WriteString("\t\tensure \"$ifc\" 'link pause' 'autoneg off rx off tx off' \"$(pause_get \"$ifc\")\" ethtool -A \"$ifc\" autoneg off rx off tx off\n")
	b.WriteString("\tfi\n")
}

// writeDcb writes the iproute2 dcb steps (the inbox mlx5 driver's dcbnl):
// DCBX in host mode (dcbx_host), PFC, ETS, and the DSCP APP table, whose
// first DSCP entry switches mlx5 to DSCP trust (kernel commit "net/mlx5e:
// Add support for DSCP to priority mapping" via dcbnl setapp).
//
// No ETS willing step: mlx5 neither reads nor keeps the willing bit
// (mlx5e_dcbnl_ieee_getets never fills it, and dcbnl_ieee_fill in
// net/dcb/dcbnl.c zeroes the struct first, so it always read "off";
// mlx5e_dcbnl_ieee_setets ignores it). What keeps the switch's DCBX
// proposal out is host mode with no LLDP agent (dcbx_check): then nothing
// on the host negotiates.
func writeDcb(b *script, f *model.Fabric, n *model.NIC) {
	r := &n.RoCE
	pfc, _ := pfcMap(r.PFCPriorities)
	tsa, bw := etsMaps(r.ETS)
	ptc := strings.Join(indexed(f.QoS.PriorityToTC), " ")
	b.nic(n, "driver")
	b.WriteString("\tif dcb_free \"$ifc\" && capable \"$ifc\" \"DCB (dcbnl)\" \"load mlx5_core, whose dcbnl iproute2's dcb drives\" dcb pfc show dev \"$ifc\"; then\n")
	b.nic(n)
	b.WriteString("\t\t# DCBX in host mode: the NIC's firmware agent would apply the switch's PFC and ETS.\n")
	b.WriteString("\t\tdcbx_host \"$ifc\"\n")
	b.nic(n, "pfc_priorities")
	b.WriteString("\t\tlocal sets=$CHANGES\n")
	fmt.Fprintf(b, "\t\tensure \"$ifc\" pfc '%s' \"$(dcb_get \"$ifc\" pfc prio-pfc)\" dcb pfc set dev \"$ifc\" prio-pfc %s\n", pfc, pfc)
	writeCableLen(b, n)
	b.nic(n, "pfc_priorities")
	fmt.Fprintf(b, "\t\tpfc_readback \"$ifc\" '%s' \"$sets\" dcb_get \"$ifc\" pfc prio-pfc\n", pfc)
	// dcb ets set reads the current ETS back and refuses a tc-bw that does
	// not sum to 100 (iproute2 dcb/dcb_ets.c, dcb_ets_validate_bw); mlx5
	// reads 100 back for each strict TC (dcb_ets), so every ETS write
	// carries the intended tc-tsa and tc-bw.
	t, w := strings.Join(indexed(tsa), " "), strings.Join(indexed(bw), " ")
	tb := fmt.Sprintf("tc-tsa %s tc-bw %s", t, w)
	b.ets(f, n)
	fmt.Fprintf(b, "\t\tensure \"$ifc\" ets '%s' \"$(dcb_ets \"$ifc\")\" dcb ets set dev \"$ifc\" %s\n", tb, tb)
	b.nic(n)
	b.Also("qos")
	fmt.Fprintf(b, "\t\tensure \"$ifc\" 'ets prio-tc' '%s' \"$(dcb_get \"$ifc\" ets prio-tc)\" dcb ets set dev \"$ifc\" prio-tc %s %s\n", ptc, ptc, tb)
	b.nic(n, "trust")
	switch r.Trust {
	case model.TrustPCP:
		b.WriteString("\t\t# Trust PCP: no DSCP APP entries (mlx5 returns to PCP trust when the last goes).\n")
		b.WriteString("\t\tensure \"$ifc\" 'app dscp-prio' none \"$(dcb_get \"$ifc\" app dscp-prio)\" dcb app flush dev \"$ifc\" dscp-prio\n")
	default:
		if r.Trust == model.TrustBoth {
			b.WriteString("\t\tnote \"$ifc: the model asks for trust both; dcb has no such mode, so the DSCP map below makes the NIC trust DSCP\"\n")
		}
		m := dscpPairs(&f.QoS)
		b.Also("qos")
		b.WriteString("\t\t# Trust DSCP with the fabric's full DSCP -> priority map, replacing all 64 entries.\n")
		fmt.Fprintf(b, "\t\tensure \"$ifc\" 'app dscp-prio' '%s' \"$(dcb_get \"$ifc\" app dscp-prio)\" dcb app replace dev \"$ifc\" dscp-prio %s\n", m, m)
	}
	b.nic(n, "driver")
	b.WriteString("\tfi\n")
}

// dscpPairs returns "d:p" for all 64 DSCP values, space-separated.
func dscpPairs(q *model.QoS) string {
	// strconv rather than one Sprintf per code point: every NIC of every
	// Linux host carries this list.
	b := make([]byte, 0, 6*len(q.DSCPToPriority))
	for d, p := range q.DSCPToPriority {
		if d > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(d), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(p), 10)
	}
	return string(b)
}

// writeMlnxQos writes the MLNX_OFED steps (Demartek RoCE Deployment
// Guide, "Linux: Deploying iSER over RoCE", step 5: "mlnx_qos -i <if>
// 0,0,0,1,0,0,0,0"; flags as mlnx-tools' mlnx_qos: --trust, --pfc,
// --cable_len, --dscp2prio set,D,P, --tsa, --tcbw, --prio_tc). The
// helpers read mlnx_qos once per NIC (mlnx_read); PFC and the cable length
// go in one call (mlnx_pfc), every differing DSCP in one (mlnx_dscp).
func writeMlnxQos(b *script, f *model.Fabric, n *model.NIC) {
	r := &n.RoCE
	_, pfc := pfcMap(r.PFCPriorities)
	tsa, bw := etsMaps(r.ETS)
	ptc := targets.JoinInts(f.QoS.PriorityToTC, ",")
	b.nic(n, "driver")
	b.WriteString("\tif dcb_free \"$ifc\" && capable \"$ifc\" \"mlnx_qos (MLNX_OFED DCB)\" \"install MLNX_OFED and load mlx5_core\" mlnx_qos -i \"$ifc\"; then\n")
	b.nic(n)
	b.WriteString("\t\t# DCBX OS controlled: the NIC's firmware agent would apply the switch's PFC and ETS.\n")
	b.WriteString("\t\tmlnx_dcbx \"$ifc\"\n")
	trust := string(r.Trust)
	b.nic(n, "trust")
	if r.Trust == model.TrustBoth {
		trust = "dscp"
		b.WriteString("\t\tnote \"$ifc: the model asks for trust both; mlnx_qos offers pcp or dscp, so DSCP (RoCEv2's marking) is set\"\n")
	}
	fmt.Fprintf(b, "\t\tmlnx_ensure \"$ifc\" trust %s --trust %s\n", trust, trust)
	b.nic(n, "pfc_priorities")
	if setsCableLen(n) {
		b.alsoNIC(n, "link")
		b.WriteString("\t\t# PFC and the cable length in one call: an mlnx_qos older than mlnx-tools\n")
		b.WriteString("\t\t# v24.04.0 turns PFC off when it sets the cable length alone (mlnx_pfc).\n")
		fmt.Fprintf(b, "\t\tmlnx_pfc \"$ifc\" %s %d\n", pfc, cableMeters(n))
	} else {
		fmt.Fprintf(b, "\t\tmlnx_pfc \"$ifc\" %s\n", pfc)
		writeCableNote(b, n)
	}
	t, w := strings.Join(tsa, ","), strings.Join(bw, ",")
	b.ets(f, n)
	fmt.Fprintf(b, "\t\tmlnx_ensure \"$ifc\" ets 'tsa %s tcbw %s' --tsa %s --tcbw %s\n", t, w, t, w)
	b.nic(n)
	b.Also("qos")
	fmt.Fprintf(b, "\t\tmlnx_ensure \"$ifc\" prio_tc %s --prio_tc %s\n", ptc, ptc)
	if r.Trust != model.TrustPCP {
		b.nic(n, "trust")
		b.Also("qos")
		b.WriteString("\t\t# The fabric's DSCP -> priority map: every DSCP that differs, in one call.\n")
		fmt.Fprintf(b, "\t\tmlnx_dscp \"$ifc\" %s\n", dscpPairs(&f.QoS))
	}
	b.nic(n, "driver")
	b.WriteString("\tfi\n")
}

// writeQLogic prints the UEFI steps for QLogic FastLinQ: its DCB (PFC,
// priority, DCBX) lives in the adapter firmware (Demartek RoCE Deployment
// Guide, "Linux: Deploying iSER over RoCE", QLogic, steps 3-6); Linux sets
// only the link, VLAN and RDMA-CM parts. --check reads the PFC the
// firmware negotiated (qede_pfc). ETS is not compared: the adapter takes
// the switch's ETS recommendation only where the switch port advertises
// one, and the model's shares are not what the adapter runs without it.
func writeQLogic(b *script, n *model.NIC) {
	r := &n.RoCE
	pfc, _ := pfcMap(r.PFCPriorities)
	b.nic(n, "model")
	b.alsoNIC(n, "priority")
	b.alsoNIC(n, "pfc_priorities")
	b.WriteString("\t# QLogic FastLinQ runs DCB in firmware (DCBX); this script cannot set it from Linux, but --check reads the PFC it negotiated.\n")
	b.WriteString("\tmanual \"$ifc: QLogic DCB is set in UEFI HII, not from Linux (Demartek RoCE Deployment Guide, QLogic): at boot press F2 (System Setup),\"\n")
	b.WriteString("\tmanual \"$ifc:   Device Settings > the QLogic port of $ifc > Device Level Configuration >\"\n")
	fmt.Fprintf(b, "\tmanual \"$ifc:   DCBX Protocol Dynamic, RoCE Priority %d; the adapter takes PFC on %s by DCBX once its switch port advertises it (--check reads what it negotiated)\"\n", r.Priority, intList(r.PFCPriorities))
	b.WriteString("\tmanual \"$ifc: DCQCN (ECN) on this adapter is likewise a firmware setting\"\n")
	b.nic(n, "pfc_priorities")
	fmt.Fprintf(b, "\tqede_pfc \"$ifc\" '%s'\n", pfc)
}

// writeRoCECM writes the RDMA-CM defaults: RoCE mode and ToS, which carry
// the DSCP (ToS = DSCP << 2) on every connection RDMA-CM opens (iSER,
// NVMe-oF, NFS/RDMA, rping). The mode strings are the kernel's GID type
// names, which default_roce_mode reads and prints (gid_type_str in
// drivers/infiniband/core/cache.c: "IB/RoCE v1", "RoCE v2").
func writeRoCECM(b *script, n *model.NIC) {
	mode := "RoCE v2"
	if n.RoCE.Mode == "v1" {
		mode = "IB/RoCE v1"
	}
	b.nic(n, "roce_mode")
	b.alsoNIC(n, "dscp")
	fmt.Fprintf(b, "\troce_cm \"$ifc\" '%s' %d %s", mode, n.RoCE.TOS, rdmaModule(n))
	if a, ok := gidAddr(n); ok && n.RoCE.Mode != "v1" {
		b.alsoNIC(n, "addresses")
		fmt.Fprintf(b, " %s %s %s", l3Name(n), a, gidText(a))
	}
	b.WriteString("\n")
}

// setsTClass reports whether n's script sets its port's global traffic
// class: a RoCE NIC of MLNX_OFED's mlx5_ib (ConnectX-4 and later), which
// has /sys/class/infiniband/DEV/tc; the inbox driver and mlx4 have none.
func setsTClass(n *model.NIC) bool {
	return targets.SetsGlobalTClass(n)
}

// writeTClass writes the port's global traffic class, the fabric's DSCP
// with ECT(0) (targets.GlobalTClass), so that verbs applications (NCCL,
// UCX, perftest), which do not take RDMA-CM's default, are marked too
// (global_tclass).
func writeTClass(b *script, n *model.NIC) {
	b.nic(n, "driver")
	b.alsoNIC(n, "dscp")
	b.WriteString("\t# MLNX_OFED: the port's global traffic class marks verbs queue pairs too; DSCP << 2 with ECT(0), as UCX's default 106 is, so packets stay ECN-capable for DCQCN.\n")
	fmt.Fprintf(b, "\tglobal_tclass \"$ifc\" %d\n", targets.GlobalTClass(n))
}

// gidAddr is the NIC's address its RoCE v2 GID carries, for --check's GID
// index (gid_info): the first IPv4 address, else the first IPv6 one that
// is not link-local; false when it has none.
func gidAddr(n *model.NIC) (netip.Addr, bool) {
	var v6 netip.Addr
	for _, s := range n.Addresses {
		p, err := netip.ParsePrefix(s)
		switch {
		case err != nil:
		case p.Addr().Is4():
			return p.Addr(), true
		case !v6.IsValid() && !p.Addr().IsLinkLocalUnicast():
			v6 = p.Addr()
		}
	}
	return v6, v6.IsValid()
}

// gidText is the GID of address a as /sys/class/infiniband/DEV/ports/
// PORT/gids/N shows it: eight groups of four hex digits, an IPv4 address
// as the IPv4-mapped ::ffff:a.b.c.d (the kernel's RoCE v2 GIDs,
// drivers/infiniband/core/roce_gid_mgmt.c).
func gidText(a netip.Addr) string {
	b := a.As16()
	out := make([]byte, 0, 39)
	for i := 0; i < 16; i += 2 {
		if i > 0 {
			out = append(out, ':')
		}
		out = fmt.Appendf(out, "%02x%02x", b[i], b[i+1])
	}
	return string(out)
}

// rdmaModule is the kernel module that gives the NIC its RDMA device:
// mlx4_ib for ConnectX-3, mlx5_ib for later ConnectX, qedr for QLogic
// FastLinQ.
func rdmaModule(n *model.NIC) string {
	switch {
	case n.Driver == driverQede:
		return "qedr"
	case n.RunsMlx4():
		return "mlx4_ib"
	}
	return "mlx5_ib"
}

// writeDCQCN writes the DCQCN enables: per priority through MLNX_OFED's
// sysfs (/sys/class/net/IF/ecn/roce_np and roce_rp); the inbox driver has
// no per-priority switch and leaves DCQCN to firmware (ROCE_CC_PRIO_MASK).
func writeDCQCN(b *script, n *model.NIC) {
	// DCQCN runs on every priority (model.RoCE.ECNPriorities says why).
	b.nic(n, "driver")
	switch n.Driver {
	case driverOFED:
		on := [8]bool{}
		for _, p := range n.RoCE.ECNPriorities {
			on[p] = true
		}
		b.WriteString("\tif capable \"$ifc\" \"DCQCN sysfs (ecn/roce_np, ecn/roce_rp)\" \"MLNX_OFED's mlx5_core creates /sys/class/net/$ifc/ecn\" test -d \"/sys/class/net/$ifc/ecn\"; then\n")
		for p := 0; p < 8; p++ {
			v := 0
			if on[p] {
				v = 1
			}
			fmt.Fprintf(b, "\t\tdcqcn_prio \"$ifc\" %d %d\n", p, v)
		}
		b.WriteString("\tfi\n")
	case driverInbox:
		// Neither sysfs nor the mlx5_ib debugfs (cc_params: rate and CNP
		// parameters, Linux drivers/infiniband/hw/mlx5/cong.c) shows
		// which priorities DCQCN runs on: the step is not checked.
		fmt.Fprintf(b, "\tskip \"$ifc: DCQCN priorities (the inbox mlx5 driver has no per-priority DCQCN switch to read or set; firmware runs DCQCN on the priorities in ROCE_CC_PRIO_MASK_P1, default all: mlxconfig -d <pci device> query ROCE_CC_PRIO_MASK_P1; wanted: %s)\"\n",
			intList(n.RoCE.ECNPriorities))
	}
}

// writeCNP writes the DSCP and 802.1p priority the NIC marks its DCQCN
// congestion notification packets with, so they ride the fabric's CNP
// class: MLNX_OFED's mlx5 sysfs ecn/roce_np/cnp_dscp and cnp_802p_prio
// (MLNX_OFED documentation, Explicit Congestion Notification), or the
// inbox mlx5_ib debugfs cc_params np_cnp_dscp and np_cnp_prio (Linux
// drivers/infiniband/hw/mlx5/cong.c). The inbox step needs debugfs:
// where the fabric's CNP class is the firmware default, a host whose
// debugfs is locked down or absent reports the step skipped (unchecked);
// otherwise that is a failure naming the mlxconfig way.
// ConnectX-3 (mlx4) has no such setting (fabricc validate warns when the
// fabric needs one).
func writeCNP(b *script, n *model.NIC) {
	r := &n.RoCE
	step := cnpStep(n)
	if step == cnpNone {
		return
	}
	b.nic(n, "cnp_priority")
	b.alsoNIC(n, "cnp_dscp")
	switch step {
	case cnpSysfs:
		b.WriteString("	if capable \"$ifc\" \"CNP marking sysfs (ecn/roce_np)\" \"MLNX_OFED's mlx5_core creates /sys/class/net/$ifc/ecn/roce_np\" test -d \"/sys/class/net/$ifc/ecn/roce_np\"; then\n")
		fmt.Fprintf(b, "\t\tcnp_sysfs \"$ifc\" %d %d\n\tfi\n", r.CNPDSCP, r.CNPPriority)
	case cnpDefault:
		b.WriteString("\t# The fabric's CNP class is the firmware default: read it where debugfs\n")
		b.WriteString("\t# shows it (and set it if it differs), else say it was not checked.\n")
		b.WriteString("\tdebugfs_mount \"$ifc\"\n")
		fmt.Fprintf(b, "\tif cnp_readable \"$ifc\" %d %d; then\n", r.CNPDSCP, r.CNPPriority)
		fmt.Fprintf(b, "\t\tcnp_debugfs \"$ifc\" %d %d\n\tfi\n", r.CNPDSCP, r.CNPPriority)
	case cnpDebugfs:
		b.WriteString("\tdebugfs_mount \"$ifc\"\n")
		fmt.Fprintf(b, "\tif capable \"$ifc\" \"CNP marking (mlx5 debugfs cc_params)\" \"$(cnp_fix \"$ifc\" %d %d)\" cc_params_ready \"$ifc\"; then\n", r.CNPDSCP, r.CNPPriority)
		fmt.Fprintf(b, "\t\tcnp_debugfs \"$ifc\" %d %d\n\tfi\n", r.CNPDSCP, r.CNPPriority)
	}
}

// How a NIC's CNP marking is written (writeCNP).
const (
	cnpNone    = iota // not a RoCE mlx5 NIC, or a driver without the setting
	cnpSysfs          // MLNX_OFED sysfs, cnp_sysfs
	cnpDebugfs        // inbox mlx5_ib debugfs, cnp_debugfs
	cnpDefault        // inbox, and the fabric's CNP class is the firmware's: checked where readable
)

// cnpStep says how writeCNP marks the NIC's CNPs.
func cnpStep(n *model.NIC) int {
	r := &n.RoCE
	if n.Vendor != "mellanox" || n.Transport != model.TransportRoCE || n.RunsMlx4() {
		return cnpNone
	}
	switch n.Driver {
	case driverOFED:
		return cnpSysfs
	case driverInbox:
		if r.FirmwareCNP() {
			return cnpDefault
		}
		return cnpDebugfs
	}
	return cnpNone
}

// writeMain writes the tool checks, the NIC calls and the summary.
func writeMain(b *script, h *model.Host) {
	b.At()
	b.WriteString("\nif [[ $PRINT_UNIT == 1 ]]; then\n\tboot_unit_text\n\texit 0\nfi\n")
	b.WriteString("need_root\nhost_guard\n")
	b.WriteString("if [[ $BOOT == uninstall ]]; then\n\tboot_uninstall\n\texit 0\nfi\n")
	b.WriteString("if [[ $BOOT == install ]]; then\n\tboot_preflight\nfi\n")
	fmt.Fprintf(b, "need_tool ip %s\n", pkgIproute)
	for i := range h.NICs {
		n := &h.NICs[i]
		b.nic(n, "driver")
		if len(n.RoCE.PFCPriorities) > 0 {
			fmt.Fprintf(b, "need_driver_tool %s ethtool %s\n", quote.ShellWord(n.Interface), pkgEthtool)
		}
		switch n.Driver {
		case driverOFED:
			fmt.Fprintf(b, "need_driver_tool %s mlnx_qos %s\n", quote.ShellWord(n.Interface), quote.ShellWord(pkgMlnxQos))
		case driverQede:
			// DCB lives in the adapter firmware (writeQLogic): no tool.
		default:
			fmt.Fprintf(b, "need_driver_tool %s dcb %s\n", quote.ShellWord(n.Interface), quote.ShellWord(pkgDcb))
		}
	}
	writeDcbxCheck(b, h)
	for i := range h.NICs {
		n := &h.NICs[i]
		b.nic(n)
		if n.Transport != model.TransportIWARP {
			fmt.Fprintf(b, "rdma_wait %s\n", quote.ShellWord(n.Interface))
		}
		b.WriteString(targets.NICStep(i+1, n.Interface))
	}
	writeNCCL(b, h)
	writeRoutePrune(b, h)
	b.At("host", h.Name, "tuning")
	b.WriteString("if [[ $TUNING == 1 ]]; then\n\ttuning\nfi\n")
	b.At()
	b.WriteString("boot_step\n")
	b.WriteString("finish\n")
}

// dcbByTool says whether a tool on the host, dcb or mlnx_qos, sets the
// NIC's DCB; a QLogic adapter's lives in its firmware (writeQLogic).
func dcbByTool(n *model.NIC) bool {
	return n.Driver != driverQede
}

// writeDcbxCheck writes the lldpad check (dcbx_check) of the interfaces
// of the NICs whose DCB a tool sets, if any.
func writeDcbxCheck(b *script, h *model.Host) {
	first := true
	for i := range h.NICs {
		n := &h.NICs[i]
		if !dcbByTool(n) {
			continue
		}
		if first {
			b.At()
			b.WriteString("dcbx_check")
			first = false
		}
		b.alsoNIC(n, "interface")
		b.WriteString(" " + quote.ShellWord(n.Interface))
	}
	if !first {
		b.WriteString("\n")
	}
}

// ets says that the lines written next come from the NIC and the ETS
// shares of the fabric's classes, which its ETS settings carry.
func (b *script) ets(f *model.Fabric, n *model.NIC) {
	b.nic(n)
	if b.Mapped() {
		for _, c := range f.QoS.Classes {
			b.Also("qos", "class", c.Name, "ets")
		}
	}
}

// mlx5MaxCableMeters bounds the cable length mlx5 takes: it ignores a
// length of MLX5E_MAX_CABLE_LENGTH (1000 m) or more (Linux
// drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c,
// mlx5e_dcbnl_ieee_setpfc).
const mlx5MaxCableMeters = 1000

// cableMeters is the length of the NIC's cable in whole meters, rounded
// up, or 0 when the fabric gives none.
func cableMeters(n *model.NIC) int {
	if n.Peer == nil || n.Peer.CableMeters <= 0 {
		return 0
	}
	return int(math.Ceil(n.Peer.CableMeters))
}

// losslessCable is the cable length the script deals with for n, in
// whole meters (cableMeters): 0 when n has no PFC, or runs QLogic's qede,
// whose DCB runs in the adapter's firmware (writeQLogic).
func losslessCable(n *model.NIC) int {
	if len(n.RoCE.PFCPriorities) == 0 || n.Driver == driverQede {
		return 0
	}
	return cableMeters(n)
}

// setsCableLen reports whether n's script sets its cable length: a
// lossless cable (losslessCable) mlx5 takes (writeCableLen).
func setsCableLen(n *model.NIC) bool {
	m := losslessCable(n)
	return m > 0 && m < mlx5MaxCableMeters
}

// writeCableLen tells the NIC its cable's length through iproute2's dcb,
// as the PFC "delay", which mlx5 takes as the cable length in meters
// (mlnx_qos takes it as --cable_len, with PFC: mlnx_pfc). mlx5 keeps the
// length for its receive buffer's xoff and xon thresholds, and uses it for
// them only while software owns the buffer, after a buffer layout was set
// (dcb buffer set); in the default, firmware-owned state the firmware
// sizes the buffer and the length is the driver's record (Linux
// drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c,
// mlx5e_dcbnl_ieee_setpfc; MLX5E_DEFAULT_CABLE_LEN, 7 m, in
// en/port_buffer.h until one is set). This script sets no layout.
func writeCableLen(b *script, n *model.NIC) {
	if !setsCableLen(n) {
		writeCableNote(b, n)
		return
	}
	m := cableMeters(n)
	b.nic(n, "link")
	fmt.Fprintf(b, "\t\tcable_len \"$ifc\" %d \"$(dcb_get \"$ifc\" pfc delay)\" dcb pfc set dev \"$ifc\" delay %d\n", m, m)
}

// writeCableNote writes the note for a lossless NIC whose cable is too
// long for mlx5 to take (losslessCable); nothing otherwise.
func writeCableNote(b *script, n *model.NIC) {
	m := losslessCable(n)
	if m < mlx5MaxCableMeters {
		return
	}
	b.nic(n, "link")
	fmt.Fprintf(b, "\t\tnote \"$ifc: the cable is %d m; mlx5 takes a cable length below %d m only, so it keeps the length it has\"\n", m, mlx5MaxCableMeters)
}

// CableLength is the cable length, in whole meters, that n's script
// gives the NIC, and what takes it: mlnx_qos's --cable_len under
// MLNX_OFED, iproute2's dcb pfc delay otherwise; 0 when the script sets
// none (setsCableLen). fabricc plan names it when it changes.
func CableLength(n *model.NIC) (int, string) {
	if !setsCableLen(n) {
		return 0, ""
	}
	if n.Driver == driverOFED {
		return cableMeters(n), "mlnx_qos --cable_len"
	}
	return cableMeters(n), "dcb pfc delay"
}
