package freebsd

import (
	"cmp"
	"fmt"
	"net/netip"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// plan computes a NIC's persistent settings.
func plan(f *model.Fabric, n *model.NIC) nicPlan {
	p := nicPlan{nic: n, unit: strings.TrimPrefix(n.DriverName(), drivers[n.Driver].prefix)}
	v4, v6 := firstByFamily(n.Addresses)
	p.rc, p.v6 = rcSettings(n, v4, v6), v6 != ""
	p.loader = []setting{{n.Driver + "_load", "YES", "driver"}}
	if n.Driver == driverMlx5 {
		p.loader = append(p.loader, mlx5Settings(f, n, p.unit)...)
	} else if len(n.RoCE.PFCPriorities) > 0 {
		m := fmt.Sprint(pfcMask(n.RoCE.PFCPriorities))
		base := "hw." + n.DriverName() + ".conf."
		p.sysctl = []setting{{base + "rx_ppp", m, "pfc_priorities"}, {base + "tx_ppp", m, "pfc_priorities"}}
	}
	p.cnp = cnpSettings(n, p.unit)
	p.dcqcn = dcqcnSettings(f, n, p.unit)
	p.routes = staticRoutes(n)
	p.rc = append(p.rc, routeRcSettings(n, p.routes)...)
	return p
}

// staticRoute is one main-table route of a NIC: a route(8) route to
// prefix via the NIC's gateway.
type staticRoute struct {
	prefix netip.Prefix
	// name is the route's name in rc.conf's static_routes or
	// ipv6_static_routes list (rc.conf(5)): "fabricc_", the rc.conf form
	// of the interface that carries the NIC's addresses, and the route's
	// place among the NIC's routes, so made of letters, digits and '_'
	// only and marked as the fabric's.
	name string
	// args are route(8)'s arguments after add or change: "-net PREFIX
	// GW", "-inet6 -net PREFIX GW" for IPv6, "-net PREFIX -inet6 GW"
	// for an IPv4 prefix via an IPv6 gateway (RFC 5549, FreeBSD 13.1 and
	// later); a link-local gateway scoped to the interface ("fe80::1%mce0",
	// RFC 4007 §11).
	args []string
	// via is the gateway without its scope and the interface, as
	// route_state prints an existing route: "10.20.1.0 on mce0".
	via string
}

// v6 reports whether the route's prefix is an IPv6 one.
func (r staticRoute) v6() bool { return r.prefix.Addr().Is6() }

// staticRoutes are the NIC's main-table routes (model.NICRoute.Prefixes,
// validated by validateRoute) via its gateway on the interface that
// carries its addresses.
func staticRoutes(n *model.NIC) []staticRoute {
	r := n.Route
	if r == nil {
		return nil
	}
	l3 := L3Name(n)
	gw := netip.MustParseAddr(r.Gateway)
	gwArg := gw.String()
	if gw.IsLinkLocalUnicast() {
		gwArg += "%" + l3
	}
	var out []staticRoute
	for i, s := range r.Prefixes {
		p := netip.MustParsePrefix(s)
		var args []string
		switch {
		case p.Addr().Is6():
			args = []string{"-inet6", "-net", p.String(), gwArg}
		case gw.Is6():
			args = []string{"-net", p.String(), "-inet6", gwArg}
		default:
			args = []string{"-net", p.String(), gwArg}
		}
		out = append(out, staticRoute{prefix: p, name: fmt.Sprintf("fabricc_%s_%d", RCVar(l3), i+1), args: args, via: gw.String() + " on " + l3})
	}
	return out
}

// routeRcSettings are the rc.conf lines that add the NIC's routes at
// boot (FreeBSD Handbook, "Gateways and Routes"; rc.conf(5),
// static_routes and ipv6_static_routes): each route's name in the list of
// its family, and route_NAME (IPv4, which rc.d/routing passes to
// "route add") or ipv6_route_NAME (IPv6, passed after "route add -inet6",
// so without its -inet6).
func routeRcSettings(n *model.NIC, routes []staticRoute) []rcSetting {
	from := "addresses"
	if n.Route != nil && n.Route.Written {
		from = "gateway"
	}
	var lists, values []rcSetting
	for _, fam := range []bool{false, true} {
		for _, r := range routes {
			if r.v6() != fam {
				continue
			}
			list, prefix, args := "static_routes", "route_", r.args
			if r.v6() {
				list, prefix, args = "ipv6_static_routes", "ipv6_route_", r.args[1:]
			}
			lists = append(lists, rcSetting{setting{list, r.name, from}, rcMember, false})
			values = append(values, rcSetting{setting{prefix + r.name, strings.Join(args, " "), from}, rcWhole, false})
		}
	}
	return append(lists, values...)
}

// cnpSettings are mlx5ib's CNP marking sysctls (writeCNP) for an mlx5en
// RoCE NIC whose fabric CNP class is not the firmware's, else none.
func cnpSettings(n *model.NIC, unit string) []setting {
	r := &n.RoCE
	if n.Driver != driverMlx5 || n.Transport != model.TransportRoCE || r.FirmwareCNP() {
		return nil
	}
	base := cnpBase(unit)
	return []setting{{base + "np_cnp_dscp", fmt.Sprint(r.CNPDSCP), "cnp_dscp"}, {base + "np_cnp_prio", fmt.Sprint(r.CNPPriority), "cnp_priority"}}
}

// cnpBase is the prefix of mlx5ib's congestion sysctls for mce<unit>,
// sys.class.infiniband.mlx5_<unit>.cong.conf. (FreeBSD sys/dev/mlx5/mlx5_ib/
// mlx5_ib_cong.c, mlx5_ib_init_congestion): the RDMA device is taken to be
// numbered like the interface, both in attach order.
func cnpBase(unit string) string {
	return "sys.class.infiniband.mlx5_" + unit + ".cong.conf."
}

// rcSettings are the rc.conf lines: the "inet 10.20.0.1/24 mtu 9000" form
// of the ConnectX-3 Pro 40GbE home-lab write-up, VLANs through vlans_<if>
// (rc.conf(5)). The first IPv6 address goes to ifconfig_<if>_ipv6: rc.conf(5)
// marks IFDISABLED, IPv6 off, every interface without that variable while
// ipv6_activate_all_interfaces is NO, the default. Further addresses of
// either family are aliases, numbered from 0 without a gap
// (ifconfig_<if>_aliasN, "inet" or "inet6" first). v4 and v6 are the
// first address of each family (firstByFamily).
func rcSettings(n *model.NIC, v4, v6 string) []rcSetting {
	mtu := fmt.Sprintf("mtu %d", n.MTU)
	var out []rcSetting
	l3 := RCVar(L3Name(n))
	if n.VLAN != 0 {
		out = append(out, rcSetting{setting{"vlans_" + RCVar(n.Interface), fmt.Sprint(n.VLAN), "vlan"}, rcMember, false},
			rcSetting{setting{"ifconfig_" + RCVar(n.Interface), "up " + mtu + mediaOptions(n), "mtu"}, rcWords, false})
	}
	first, from := "up "+mtu+mediaOptions(n), "mtu"
	if v4 != "" {
		first, from = inet(v4)+" "+mtu, "addresses"
		if n.VLAN == 0 {
			first += mediaOptions(n)
		}
	}
	out = append(out, rcSetting{setting{"ifconfig_" + l3, first, from}, rcWords, len(n.Addresses) > 0})
	if v6 != "" {
		out = append(out, rcSetting{setting{"ifconfig_" + l3 + "_ipv6", inet(v6), "addresses"}, rcWhole, false})
	}
	i := 0
	for _, a := range n.Addresses {
		if a != v4 && a != v6 {
			out = append(out, rcSetting{setting{fmt.Sprintf("ifconfig_%s_alias%d", l3, i), inet(a), "addresses"}, rcWhole, false})
			i++
		}
	}
	return out
}

// addressWords are the words of an ifconfig_<if> value that set or
// imply its address (ifconfig(8); DHCP and SYNCDHCP are rc.conf(5)'s):
// the fabric owns them on the interface that carries its addresses.
const addressWords = "inet inet6 netmask prefixlen broadcast DHCP SYNCDHCP NOSYNCDHCP"

// firstByFamily returns the first IPv4 and the first IPv6 address.
func firstByFamily(addrs []string) (v4, v6 string) {
	for _, a := range addrs {
		if is6(a) {
			v6 = cmp.Or(v6, a)
		} else {
			v4 = cmp.Or(v4, a)
		}
	}
	return v4, v6
}

// mlx4PauseOff reports whether the NIC is an mlx4en one with PFC, whose
// 802.3x global pause must be turned off through its media options.
// mlx4en turns global pause on at attach (mlx4_en_main.c: rx_pause and
// tx_pause 1) and takes it from the media options only
// (mlx4_en_netdev.c, mlx4_en_media_change: "Allow user to set/clear
// pause"); PFC and global pause exclude each other on ConnectX-3, as the
// Linux mlx4 driver shows by turning global pause off whenever it turns
// PFC on (en_dcb_nl.c, mlx4_en_dcbnl_ieee_setpfc).
func mlx4PauseOff(n *model.NIC) bool {
	return n.Driver == driverMlx4 && len(n.RoCE.PFCPriorities) > 0
}

// mediaOptions is what the physical interface's rc.conf line adds so
// that global pause stays off at boot: a media word without rxpause or
// txpause (mlx4en lists autoselect without options, so mediaopt
// full-duplex would not match). autoselect is only the default: a media
// subtype the host's line already forces stays, and only the pause
// options of its mediaopt go (rc_merge).
func mediaOptions(n *model.NIC) string {
	if mlx4PauseOff(n) {
		return " media autoselect"
	}
	return ""
}

// mlx5Settings are the mlx5en sysctls, all of them loader tunables
// (mlx5en(4): "All configurable entries are also tunables"). Names from
// sys/dev/mlx5/mlx5_en/mlx5_en_main.c (mlx5e_setup_pauseframes) and
// mlx5_en_ethtool.c (conf.qos node).
func mlx5Settings(f *model.Fabric, n *model.NIC, unit string) []setting {
	base := "dev.mce." + unit + "."
	pfc := pfcList(n.RoCE.PFCPriorities)
	var out []setting
	if len(n.RoCE.PFCPriorities) > 0 {
		// Global pause must be off before PFC can be on ("Global
		// pauseframes must be disabled before enabling PFC.").
		out = append(out, setting{base + "rx_pauseframe_control", "0", "pfc_priorities"}, setting{base + "tx_pauseframe_control", "0", "pfc_priorities"})
	}
	out = append(out, setting{base + "rx_priority_flow_control", pfc, "pfc_priorities"}, setting{base + "tx_priority_flow_control", pfc, "pfc_priorities"},
		setting{base + "conf.qos.trust_state", fmt.Sprint(trustState(n.RoCE.Trust)), "trust"})
	for i := 0; i < 64; i += 8 {
		out = append(out, setting{fmt.Sprintf("%sconf.qos.dscp_%d_%d_prio", base, i, i+7), join(f.QoS.DSCPToPriority[i : i+8]), fromQoS})
	}
	out = append(out, setting{base + "conf.qos.prio_0_7_tc", join(f.QoS.PriorityToTC), fromQoS})
	if m, name := CableLength(n); m > 0 {
		// The NIC sizes its own PFC headroom (xoff) from the cable.
		out = append(out, setting{base + name, fmt.Sprint(m), "link"})
	}
	return out
}

// trustState is mlx5en's trust_state value: "1:PCP 2:DSCP 3:BOTH".
func trustState(t model.Trust) int {
	switch t {
	case model.TrustPCP:
		return 1
	case model.TrustBoth:
		return 3
	}
	return 2
}

// pfcList is the 8-entry 0/1 list of the PFC sysctls.
func pfcList(prios []int) string {
	v := make([]int, 8)
	for _, p := range prios {
		v[p] = 1
	}
	return join(v)
}

// pfcMask is mlx4en's per-priority pause bitmask (rx_ppp, tx_ppp).
func pfcMask(prios []int) int {
	m := 0
	for _, p := range prios {
		m |= 1 << p
	}
	return m
}

// join formats numbers as a comma list, as sysctl(8) takes arrays.
func join(v []int) string { return targets.JoinInts(v, ",") }
