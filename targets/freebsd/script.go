package freebsd

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// Persistent files the script edits.
const (
	loaderConf = "/boot/loader.conf"
	rcConf     = "/etc/rc.conf"
	sysctlConf = "/etc/sysctl.conf"
)

// script writes <host>.freebsd.sh; sysctl says whether the host has a
// <host>.sysctl.conf (hasSysctlConf).
func script(b *text, f *model.Fabric, h *model.Host, plans []nicPlan, sysctl bool) {
	b.Fixed("#!/bin/sh\n")
	writeHeader(b, f, h)
	b.WriteString("#\n# POSIX sh (FreeBSD has no bash by default). Safe to run again: each step\n")
	b.WriteString("# reads the current value first and changes only what differs; the same\n")
	b.At("host", h.Name)
	files := fmt.Sprintf(" and %s (%s.loader.conf).", loaderConf, h.Name)
	if sysctl {
		files = fmt.Sprintf(", %s (%s.loader.conf) and\n# %s (%s.sysctl.conf).", loaderConf, h.Name, sysctlConf, h.Name)
	}
	fmt.Fprintf(b, "# settings go to /etc/rc.conf (%s.rc.conf)%s\n", h.Name, files)
	b.At()
	b.WriteString("set -eu\n\n")
	writeHostName(b, h)
	b.WriteString(prelude)
	for i := range plans {
		b.n = plans[i].nic
		writeNIC(b, &plans[i], i+1)
	}
	b.At()
	b.WriteString("\nneed_root\nhost_guard\n")
	writeRoutesForget(b, h, plans)
	for i := range plans {
		b.n = plans[i].nic
		b.nic()
		b.WriteString(targets.NICStep(i+1, plans[i].nic.Interface))
	}
	b.At()
	b.WriteString("finish\n")
}

// writeRoutesForget removes, before the NICs' steps, the fabricc_ routes
// of rc.conf that the fabric no longer has (routes_forget): the names
// carry the script's mark, so a route taken out of the fabric, or a
// removed NIC's, does not come back at every boot, and the live route an
// entry added goes unless the fabric still routes its prefix. Every host
// gets the step, one that has no route left too.
func writeRoutesForget(b *text, h *model.Host, plans []nicPlan) {
	var names, prefixes [2][]string // IPv4, IPv6
	for i := range plans {
		for _, r := range plans[i].routes {
			fam := 0
			if r.v6() {
				fam = 1
			}
			names[fam] = append(names[fam], r.name)
			prefixes[fam] = append(prefixes[fam], r.prefix.String())
		}
	}
	b.At("host", h.Name)
	b.WriteString("# rc.conf's fabricc_ routes that the fabric no longer has, and their live routes.\n")
	fmt.Fprintf(b, "routes_forget static_routes route_ '%s' '%s'\n", strings.Join(names[0], " "), strings.Join(prefixes[0], " "))
	fmt.Fprintf(b, "routes_forget ipv6_static_routes ipv6_route_ '%s' '%s'\n", strings.Join(names[1], " "), strings.Join(prefixes[1], " "))
	b.At()
}

// writeHostName writes HOST_NAME, the name host_guard compares with the
// running host's, always in single quotes: a host name is a fabric
// string, and a bare one with a dash (HOST_NAME=rack1-nas01) reads to
// shellcheck as arithmetic written wrong (SC2100).
func writeHostName(b *text, h *model.Host) {
	b.At("host", h.Name)
	b.WriteString("# The host this script is for: it stops on any other (host_guard, --any-host).\n")
	w := quote.ShellWord(h.Name)
	if !strings.HasPrefix(w, "'") {
		w = "'" + w + "'"
	}
	fmt.Fprintf(b, "HOST_NAME=%s\n\n", w)
	b.At()
}

// writeNIC writes the function that configures one NIC.
func writeNIC(b *text, p *nicPlan, idx int) {
	n := p.nic
	r := &n.RoCE
	b.At()
	b.WriteString("\n")
	b.nic()
	fmt.Fprintf(b, "# %s", quote.Comment(fmt.Sprintf("NIC %q: %s, driver %s, on %s, MTU %d", n.Name, n.Model, n.Driver, n.Interface, n.MTU)))
	if n.VLAN != 0 {
		fmt.Fprintf(b, ", VLAN %d", n.VLAN)
	}
	b.WriteString(".\n")
	b.nic("priority")
	b.Also("host", b.host, "nic", n.Name, "dscp")
	b.Also("host", b.host, "nic", n.Name, "pfc_priorities")
	b.Also("host", b.host, "nic", n.Name, "trust")
	fmt.Fprintf(b, "# RoCE priority %d / DSCP %d, PFC on %s, trust %s: what the peer keeps lossless.\n",
		r.Priority, r.DSCP, list(r.PFCPriorities), r.Trust)
	b.nic()
	fmt.Fprintf(b, "nic_%d() {\n", idx)
	mod := n.Driver
	d := drivers[n.Driver]
	b.nic("driver")
	b.WriteString("\t# Nothing changes before the checks: a host without the NIC, a lagg port or\n")
	b.WriteString("\t# a driver without every sysctl below gets no loader.conf line.\n")
	fmt.Fprintf(b, "\tmellanox_pci %s %s || return 0\n", n.Interface, mod)
	fmt.Fprintf(b, "\tensure system 'module %s' loaded \"$(kmod_state %s)\" kldload %s\n", mod, strings.TrimSpace(mod+" "+d.sysctlNode), mod)
	b.nic()
	fmt.Fprintf(b, "\tnic_ready %s %s %s '%s'", n.Interface, mod, d.prefix, d.family)
	for _, s := range p.oids() {
		fmt.Fprintf(b, " \\\n\t\t%s", s)
	}
	b.WriteString(" || return 0\n")
	if n.DriverInterface != "" {
		b.nic("driver_interface")
		fmt.Fprintf(b, "\t# rc.conf renames %s to %s; its sysctls keep the driver's name.\n", n.DriverInterface, n.Interface)
		fmt.Fprintf(b, "\trenamed_from %s %s || return 0\n", n.Interface, n.DriverInterface)
	}
	writeShadowed(b, p)
	for _, s := range p.loader {
		writeConf(b, loaderConf, s)
	}
	writeLink(b, p)
	for _, s := range p.rc {
		writeRc(b, s)
	}
	writeRoutes(b, p)
	if n.Driver == driverMlx5 {
		writeMlx5(b, n, p)
	} else {
		writeMlx4(b, n, p)
	}
	if n.Transport != model.TransportIWARP {
		ib := drivers[n.Driver].ibModule
		b.nic("driver")
		fmt.Fprintf(b, "\tmanual \"%s: RoCE needs a kernel built with 'options OFED' and the %s module (kldload %s);\"\n", n.Interface, ib, ib)
		b.nic("dscp")
		fmt.Fprintf(b, "\tmanual \"%s:   FreeBSD has no RDMA-CM default ToS, so RDMA applications must mark ToS %d (%s) themselves\"\n", n.Interface, r.TOS, targets.ToSMakeup(*r))
		b.nic("pfc_priorities")
		b.Also("host", b.host, "nic", n.Name, "driver")
		if n.Driver == driverMlx5 {
			fmt.Fprintf(b, "\tnote \"%s: DCQCN has no per-priority switch in mlx5en; the firmware default (mlxconfig ROCE_CC_PRIO_MASK) applies, wanted on %s\"\n", n.Interface, list(r.ECNPriorities))
		} else {
			fmt.Fprintf(b, "\tnote \"%s: mlx4en exposes no congestion control (ECN/DCQCN) setting; wanted on %s, not set\"\n", n.Interface, list(r.ECNPriorities))
		}
	}
	b.nic()
	b.WriteString("}\n")
}

// writeShadowed writes the check, before the NIC's first change, that no
// file read at boot after the one a step edits sets one of the NIC's
// variables to another value (shadowed): /boot/loader.conf.d and
// /boot/loader.conf.local, /etc/rc.conf.d, /etc/sysctl.conf.local.
func writeShadowed(b *text, p *nicPlan) {
	b.nic()
	b.WriteString("\t# A file read at boot after the one a step edits wins over it (loader.conf(5),\n")
	b.WriteString("\t# rc.conf(5), sysctl.conf(5)): one that sets these otherwise stops the NIC.\n")
	fmt.Fprintf(b, "\tshadowed %s", p.nic.Interface)
	for _, s := range p.loader {
		fmt.Fprintf(b, " \\\n\t\t%s %s whole '%s'", loaderConf, s.name, s.value)
	}
	for _, s := range p.rc {
		switch s.kind {
		case rcMember:
			fmt.Fprintf(b, " \\\n\t\t%s %s member '%s'", rcConf, s.name, s.value)
		case rcWords:
			fmt.Fprintf(b, " \\\n\t\t%s %s words '%s' '%s'", rcConf, s.name, s.value, s.owns())
		default:
			fmt.Fprintf(b, " \\\n\t\t%s %s whole '%s'", rcConf, s.name, s.value)
		}
	}
	for _, ss := range [][]setting{p.sysctl, p.cnp, p.dcqcn} {
		for _, s := range ss {
			fmt.Fprintf(b, " \\\n\t\t%s %s whole '%s'", sysctlConf, s.name, s.value)
		}
	}
	b.WriteString(" || return 0\n")
}

// writeRc writes one rc.conf variable's step: a whole value, a word of a
// list (rc_member), or the fabric's words of an ifconfig_<if> value
// (rc_words).
func writeRc(b *text, s rcSetting) {
	b.at(s.setting)
	switch s.kind {
	case rcMember:
		fmt.Fprintf(b, "\trc_member %s '%s'\n", s.name, s.value)
	case rcWords:
		fmt.Fprintf(b, "\trc_words %s '%s' '%s'\n", s.name, s.value, s.owns())
	default:
		fmt.Fprintf(b, "\tensure rc.conf %s '%s' \"$(rc_get %s)\" rc_set %s '%s'\n", s.name, s.value, s.name, s.name, s.value)
	}
}

// writeLink writes MTU, state, VLAN and addresses now (ConnectX-3 Pro
// 40GbE home-lab write-up:
// "ifconfig mlxen0 mtu 9000"; vlan(4) for the VLAN interface).
func writeLink(b *text, p *nicPlan) {
	n := p.nic
	ifc := n.Interface
	b.nic("mtu")
	fmt.Fprintf(b, "\tensure %s mtu %d \"$(if_mtu %s)\" ifconfig %s mtu %d up\n", ifc, n.MTU, ifc, ifc, n.MTU)
	l3 := L3Name(n)
	if n.VLAN != 0 {
		b.nic("vlan")
		b.WriteString("\t# No vlanpcp: it would tag all of the VLAN's traffic (TCP, ARP) with the\n")
		b.WriteString("\t# lossless priority; RoCE's priority comes from its own marking.\n")
		fmt.Fprintf(b, "\tensure %s vlan present \"$(link_exists %s && echo present || echo absent)\" ifconfig %s create vlan %d vlandev %s\n",
			l3, l3, l3, n.VLAN, ifc)
		b.nic("mtu")
		b.Also("host", b.host, "nic", n.Name, "vlan")
		fmt.Fprintf(b, "\tensure %s mtu %d \"$(if_mtu %s)\" ifconfig %s mtu %d up\n", l3, n.MTU, l3, l3, n.MTU)
	}
	b.nic("addresses")
	if len(n.Addresses) > 0 {
		b.WriteString("\t# The model's addresses are the interface's only global ones: others go\n")
		b.WriteString("\t# first (link-local fe80::/10 stays), then the model's are added.\n")
		fmt.Fprintf(b, "\taddr_prune %s %s\n", l3, strings.Join(n.Addresses, " "))
	}
	if p.v6 {
		b.WriteString("\t# IPv6 on: rc marks IFDISABLED an interface created without an\n")
		b.WriteString("\t# ifconfig_<if>_ipv6 line (rc.conf(5), ipv6_activate_all_interfaces).\n")
		fmt.Fprintf(b, "\tensure %s ipv6 enabled \"$(nd6_state %s)\" ifconfig %s inet6 -ifdisabled\n", l3, l3, l3)
	}
	for _, a := range n.Addresses {
		fam := "inet"
		if is6(a) {
			fam = "inet6"
		}
		fmt.Fprintf(b, "\tensure %s 'address %s' present \"$(addr_state %s %s)\" ifconfig %s %s %s alias\n", l3, a, l3, a, l3, fam, a)
	}
}

// writeRoutes adds or changes the NIC's main-table routes now (route(8)),
// after its addresses (the gateway is on-link through them): an RDMA-CM
// initiator that binds no source address picks its NIC by them. A route
// to the prefix via the gateway on the NIC's interface is left, one via
// another gateway changed (route change); a route the fabric no longer
// has goes only where rc.conf's fabricc_ entry for it says exactly that
// route (writeRoutesForget), as the kernel keeps no mark of who added it.
func writeRoutes(b *text, p *nicPlan) {
	if len(p.routes) == 0 {
		return
	}
	n := p.nic
	b.nic("addresses")
	if n.Route.Written {
		b.Also("host", b.host, "nic", n.Name, "gateway")
	}
	b.WriteString("\t# Main-table routes to the other fabric NICs' subnets of this NIC's rail, for\n")
	b.WriteString("\t# initiators that bind no source address; static_routes above adds them at boot.\n")
	for _, r := range p.routes {
		fam := "-inet"
		if r.v6() {
			fam = "-inet6"
		}
		fmt.Fprintf(b, "\t_rt=$(route_state %s %s)\n", fam, r.prefix)
		fmt.Fprintf(b, "\tensure %s 'route %s' '%s' \"$_rt\" route \"$(route_verb \"$_rt\")\" %s\n", L3Name(n), r.prefix, r.via, strings.Join(r.args, " "))
	}
}

// writeMlx5 writes the mlx5en QoS sysctls, now and as loader tunables.
func writeMlx5(b *text, n *model.NIC, p *nicPlan) {
	ifc := n.Interface
	if len(n.RoCE.PFCPriorities) > 0 {
		base := "dev.mce." + p.unit + "."
		b.nic("pfc_priorities")
		b.WriteString("\t# PFC needs 802.3x global pause off first (mlx5_en_main.c: \"Global pauseframes\n")
		b.WriteString("\t# must be disabled before enabling PFC\"); NVIDIA's FreeBSD guide turns it off\n")
		b.WriteString("\t# with the media options, the loader tunables above keep it off at boot.\n")
		fmt.Fprintf(b, "\tpause_off %s 0,0 \"$(sysctl_get %srx_pauseframe_control),$(sysctl_get %stx_pauseframe_control)\" full-duplex\n",
			ifc, base, base)
	}
	for _, s := range p.loader {
		if !strings.HasPrefix(s.name, "dev.mce.") || strings.HasSuffix(s.name, "pauseframe_control") {
			continue
		}
		b.at(s)
		fmt.Fprintf(b, "\tensure %s %s %s \"$(sysctl_get %s)\" sysctl %s=%s\n", ifc, s.name, s.value, s.name, s.name, s.value)
	}
	b.ets(n)
	b.WriteString("\tnote \"" + ifc + ": ETS is left to the driver: mlx5en's tc_rate_share has no strict mode for the CNP class\"\n")
	writeDCBXNote(b, ifc)
	writeCNP(b, n, p)
	writeDCQCNParams(b, n, p)
}

// writeDCBXNote says that the adapter's firmware DCBX agent is not
// checked: mlx5en has no DCBX setting to read or set (its conf.qos
// sysctls are tc_max_rate, tc_rate_share, prio_0_7_tc, dscp_N_M_prio,
// trust_state, buffers_size, buffers_prio and cable_length: FreeBSD
// sys/dev/mlx5/mlx5_en/mlx5_en_ethtool.c, mlx5e_create_ethtool). The
// host is configured statically; a firmware agent left on by mlxconfig
// (NVIDIA Firmware Tools (MFT) User Manual, mlxconfig) would apply the
// switch's PFC and ETS over it.
func writeDCBXNote(b *text, ifc string) {
	b.nic("driver")
	fmt.Fprintf(b, "\tmanual \"%s: the adapter's firmware DCBX agent is not checked (mlx5en has no DCBX setting); this host is configured statically, so keep it off:\"\n", ifc)
	fmt.Fprintf(b, "\tmanual \"%s:   mlxconfig -d DEV query | grep -E 'LLDP_NB_DCBX|DCBX_WILLING' should show each 0 (False); else mlxconfig -d DEV set LLDP_NB_DCBX_P1=0 DCBX_WILLING_P1=0 and reboot\"\n", ifc)
}

// writeCNP sets the DSCP and priority the NIC marks its CNPs with through
// mlx5ib's congestion sysctls, sys.class.infiniband.mlx5_<unit>.cong.conf.
// np_cnp_dscp and np_cnp_prio (FreeBSD sys/dev/mlx5/mlx5_ib/mlx5_ib_cong.c;
// the RDMA device of mce<unit> is taken as mlx5_<unit>, both numbered in
// attach order), now and in sysctl.conf. Where the fabric's CNP class is
// the firmware default, cnp_default reads the sysctls where mlx5ib is
// loaded and sets a difference now (firmware changed with mlxconfig CNP_DSCP_P1
// or CNP_802P_PRIO_P1 marks otherwise), and says "not read" where it is not,
// so mlx5ib need not be loaded.
// These sysctls read the driver's copy, taken from the firmware at attach
// and changed only by sysctl writes (mlx5_ib_cong_params_handler), and a
// write of the value already held is skipped; np_cnp_prio_mode, read at
// attach too, says whether the firmware uses np_cnp_prio (cnp_prio), which
// a write of np_cnp_prio turns on.
func writeCNP(b *text, n *model.NIC, p *nicPlan) {
	r := &n.RoCE
	if n.Transport != model.TransportRoCE {
		return
	}
	b.nic("cnp_dscp")
	b.Also("host", b.host, "nic", n.Name, "cnp_priority")
	if len(p.cnp) == 0 {
		b.WriteString("\t# CNP marking: the fabric's CNP class is the firmware default; read it where\n")
		b.WriteString("\t# mlx5ib shows it (and set it now if it differs), else say it was not read.\n")
		fmt.Fprintf(b, "\tcnp_default %s %s %d %d\n", n.Interface, cnpBase(p.unit), r.CNPDSCP, r.CNPPriority)
		return
	}
	fmt.Fprintf(b, "\t# CNP marking: the fabric's CNP class is DSCP %d priority %d, not the firmware's 48/6.\n", r.CNPDSCP, r.CNPPriority)
	fmt.Fprintf(b, "\tif sysctl_stops %s; then\n", p.cnp[0].name)
	fmt.Fprintf(b, "\t\tunavailable %s 'CNP marking' 'mlx5ib congestion sysctls' 'kldload mlx5ib, or set CNP_DSCP_P1 and CNP_802P_PRIO_P1 with mlxconfig'\n", n.Interface)
	b.WriteString("\telse\n")
	for _, s := range p.cnp {
		fmt.Fprintf(b, "\t\tensure %s %s %s \"$(sysctl_get %s)\" sysctl %s=%s\n", n.Interface, s.name, s.value, s.name, s.name, s.value)
		fmt.Fprintf(b, "\t\tensure %s %s '%s' \"$(conf_get %s %s)\" conf_set %s %s '%s'\n", sysctlConf, s.name, s.value, sysctlConf, s.name, sysctlConf, s.name, s.value)
	}
	b.WriteString("\tfi\n")
}

// writeMlx4 writes mlx4en's per-priority pause sysctls (hw.mlxenN.conf.
// rx_ppp / tx_ppp, mlx4_en_netdev.c); they are not loader tunables, so
// they persist in sysctl.conf. mlx4en has no trust or DSCP map.
func writeMlx4(b *text, n *model.NIC, p *nicPlan) {
	ifc := n.Interface
	b.nic("pfc_priorities")
	if mlx4PauseOff(n) {
		b.WriteString("\t# PFC needs 802.3x global pause off, which mlx4en turns on at attach; it takes it from\n")
		b.WriteString("\t# the media options (mlx4_en_netdev.c, mlx4_en_media_change), so the media set again\n")
		b.WriteString("\t# without rxpause,txpause turns it off; the rc.conf line above keeps it off at boot.\n")
		fmt.Fprintf(b, "\tpause_off %s off \"$(media_pause %s)\"\n", ifc, ifc)
	}
	b.WriteString("\t# Per-priority pause (PFC) bitmask, bit P for priority P (mlx4_en_netdev.c \"RX/TX Per-priority pause\").\n")
	for _, s := range p.sysctl {
		fmt.Fprintf(b, "\tensure %s %s %s \"$(sysctl_get %s)\" sysctl %s=%s\n", ifc, s.name, s.value, s.name, s.name, s.value)
		writeConf(b, sysctlConf, s)
	}
	b.nic("model")
	b.Also("host", b.host, "nic", n.Name, "trust")
	fmt.Fprintf(b, "\tnote \"%s: mlx4en (ConnectX-3) has no DSCP trust, DSCP map or ETS sysctls; the NIC classifies by PCP only\"\n", ifc)
}

// writeConf writes one persistent loader.conf or sysctl.conf line.
func writeConf(b *text, file string, s setting) {
	b.at(s)
	fmt.Fprintf(b, "\tensure %s %s '%s' \"$(conf_get %s %s)\" conf_set %s %s '%s'\n", file, s.name, s.value, file, s.name, file, s.name, s.value)
}

// list joins priorities, "-" for none.
func list(v []int) string {
	if len(v) == 0 {
		return "-"
	}
	return join(v)
}

// ets says that the lines written next come from the NIC and the ETS
// shares of its traffic classes.
func (b *text) ets(n *model.NIC) {
	b.nic()
	b.Also("qos")
}
