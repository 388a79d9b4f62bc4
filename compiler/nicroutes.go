package compiler

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// nicGateway lowers a NIC's written gateway into out.Route (its table and
// priority come with finishRoutes): an address in the subnet of one of
// the NIC's addresses, which becomes the route's source, and not the
// NIC's own; or an IPv6 link-local address (linkLocalGateway).
func (l *lowering) nicGateway(host string, os model.OS, n *dsl.NIC, out *model.NIC) {
	if n.Gateway == nil {
		return
	}
	at := n.GatewayRange.Or(n.DefRange)
	gw, err := netip.ParseAddr(*n.Gateway)
	if err != nil || gw.Zone() != "" {
		l.errorf(at, "Invalid gateway",
			"nic %q of host %q: gateway %q is not an IP address; write the switch port's address in the NIC's subnet, like \"10.1.1.0\" for a NIC at 10.1.1.1/31.", n.Name, host, *n.Gateway)
		return
	}
	if gw.Is6() && gw.IsLinkLocalUnicast() {
		l.linkLocalGateway(host, os, n, gw, out)
		return
	}
	for _, a := range out.Addresses {
		p := netip.MustParsePrefix(a)
		switch {
		case p.Addr() == gw:
			l.errorf(at, "Gateway is the NIC's own address",
				"nic %q of host %q: gateway %s is the NIC's own address %s; write the address of the switch port (or router) at the other end of its link.", n.Name, host, gw, p)
			return
		case p.Contains(gw):
			out.Route = &model.NICRoute{Gateway: gw.String(), Written: true, Source: p.Addr().String()}
			return
		}
	}
	have := "has no addresses"
	if len(out.Addresses) > 0 {
		have = "has " + strings.Join(out.Addresses, ", ")
	}
	l.errorf(at, "Gateway outside the NIC's subnets",
		"nic %q of host %q: gateway %s is in none of the NIC's subnets (the NIC %s), and a next hop must be on the link. Write an address of the NIC's subnet (the switch port's), or give the NIC an address in the gateway's subnet.", n.Name, host, gw, have)
}

// finishRoutes gives each NIC with addresses cabled to a routed switch
// port (one without has its addresses from elsewhere) a route
// via the other address of its /31 (RFC 3021), /30 or IPv6 /127 (RFC
// 6164) where it has no written gateway, warns about such a NIC that has
// neither, and numbers every NIC's route: table and rule priority
// model.RouteBase plus the NIC's position in its host (1-based, NICs by
// name), distinct within the host by construction. A NIC on a routed
// port without addresses is warned about (warnNoAddress).
func (l *lowering) finishRoutes() {
	for i := range l.f.Hosts {
		h := &l.f.Hosts[i]
		for j := range h.NICs {
			n := &h.NICs[j]
			if len(n.Addresses) == 0 && l.onRoutedPort(n) {
				l.warnNoAddress(h.Name, n)
			}
			if n.Route == nil && len(n.Addresses) > 0 && l.onRoutedPort(n) {
				n.Route = derivedRoute(n.Addresses)
				// A written gateway that was refused has its error; a
				// warning to write one would contradict the fabric.
				if n.Route == nil && !l.src.Has("host", h.Name, "nic", n.Name, "gateway") {
					l.warnNoGateway(h.Name, n)
				}
			}
			if n.Route != nil {
				n.Route.Table = model.RouteBase + j + 1
				n.Route.Priority = model.RouteBase + j + 1
				l.warnOneFamily(h.Name, n)
			}
		}
	}
	l.mainRoutes()
}

// linkLocalGateway lowers a written IPv6 link-local gateway (fe80::/10):
// on IPv6 routed links, BGP unnumbered among them, the router's next hop
// is its link-local address, which is on-link on every IPv6 interface
// whatever the NIC's global addresses (RFC 4861 §4.2, §6.3.4). The
// route's source is the NIC's first address: an IPv6 one is routed via
// the link-local next hop directly, an IPv4 one via the IPv6 next hop
// (RFC 5549: Linux 5.2 and iproute2 5.2, ip-route(8) "via inet6";
// FreeBSD 13.1, route(8) "-inet6" gateway of an IPv4 route). Windows
// documents no IPv4 route via an IPv6 next hop (Microsoft, New-NetRoute),
// so there it is refused.
func (l *lowering) linkLocalGateway(host string, os model.OS, n *dsl.NIC, gw netip.Addr, out *model.NIC) {
	at := n.GatewayRange.Or(n.DefRange)
	if len(out.Addresses) == 0 {
		l.errorf(at, "Gateway without an address",
			"nic %q of host %q: gateway %s is a link-local next hop, but the NIC has no addresses for a route via it to carry. Write addresses = [\"ADDRESS/PREFIX\"] on the nic.", n.Name, host, gw)
		return
	}
	src := netip.MustParsePrefix(out.Addresses[0]).Addr()
	if src.Is4() && os == model.OSWindows {
		l.errorf(at, "IPv4 route via a link-local gateway",
			"nic %q of host %q: gateway %s is an IPv6 link-local next hop for the NIC's first address %s, an IPv4 one (RFC 5549), and Windows documents no IPv4 route via an IPv6 next hop (Microsoft, New-NetRoute). Write the switch port's IPv4 address as the gateway, like \"10.1.1.0\" for a NIC at 10.1.1.1/31, or put an IPv6 address first in the NIC's addresses.", n.Name, host, gw, src)
		return
	}
	out.Route = &model.NICRoute{Gateway: gw.String(), Written: true, Source: src.String()}
}

// onRoutedPort reports whether n is cabled to a switch port in routed
// mode.
func (l *lowering) onRoutedPort(n *model.NIC) bool {
	if n.Peer == nil || n.Peer.Kind != kindSwitch {
		return false
	}
	sw := l.switches[n.Peer.Device]
	if sw == nil {
		return false
	}
	p := findPort(sw, n.Peer.Port)
	return p != nil && p.Mode == model.ModeRouted
}

// derivedRoute is the route via the other address of the first of addrs
// that is an IPv4 /31 (RFC 3021: the two addresses are the two ends) or
// /30 (hosts .1 and .2 of the subnet), or an IPv6 /127 (RFC 6164); nil
// when there is none.
func derivedRoute(addrs []string) *model.NICRoute {
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			continue
		}
		if gw, ok := otherEnd(p); ok {
			return &model.NICRoute{Gateway: gw.String(), Source: p.Addr().String()}
		}
	}
	return nil
}

// otherEnd is the other host address of a point-to-point subnet p.
func otherEnd(p netip.Prefix) (netip.Addr, bool) {
	b := p.Addr().AsSlice()
	last := len(b) - 1
	switch {
	case p.Addr().Is4() && p.Bits() == 31, p.Addr().Is6() && p.Bits() == 127:
		b[last] ^= 1
	case p.Addr().Is4() && p.Bits() == 30 && b[last]&3 == 1:
		b[last]++
	case p.Addr().Is4() && p.Bits() == 30 && b[last]&3 == 2:
		b[last]--
	default:
		return netip.Addr{}, false
	}
	gw, _ := netip.AddrFromSlice(b)
	return gw, true
}

// warnNoGateway reports a NIC on a routed port without a route: its
// RoCE peers in other subnets are off-link.
func (l *lowering) warnNoGateway(host string, n *model.NIC) {
	defer l.within(host + ":" + n.Name)()
	why := fmt.Sprintf("its address %s is no /31 or /30 (nor IPv6 /127) whose other address would be the switch port's", strings.Join(n.Addresses, ", "))
	at := l.src.Place("host", host, "nic", n.Name, "addresses")
	l.warnf(at, "Routed NIC without a gateway",
		"nic %q of host %q is cabled to %s:%s, a routed switch port, but fabricc gives it no route beyond its own subnet: %s. Its RoCE peers in other subnets (the other NICs of its rail, everything across the spines) are off-link, so the host sends to them by its main table's default route (often the management NIC) or not at all. Write gateway = \"ADDRESS\" on the nic (the switch port's address in its subnet, or the switch's IPv6 link-local address, as on a BGP-unnumbered link), or give it a /31 whose other address is the switch port's; the Linux host script then gives the NIC a routing table of its own and main-table routes to the rest of its rail.",
		n.Name, host, n.Peer.Device, n.Peer.Port, why)
}

// warnOneFamily reports a NIC whose route carries one family while the
// NIC has addresses of the other too: the model gives a NIC one route
// (one table, one rule, one gateway), so the other family's addresses
// reach no subnet beyond their own. An IPv6 route cannot take an IPv4
// next hop (Linux net/ipv6/route.c, rtm_to_fib6_config: "IPv6 does not
// support RTA_VIA attribute"; RFC 5549 defines IPv4 over an IPv6 next hop
// only), and a link-local gateway routes the family of the NIC's first
// address (linkLocalGateway). The warning is at the gateway where one is
// written, else at the addresses the route was derived from.
func (l *lowering) warnOneFamily(host string, n *model.NIC) {
	v6 := routeIs6(n.Route)
	if !hasFamily(n.Addresses, !v6) {
		return
	}
	fam, other := "IPv4", "IPv6"
	if v6 {
		fam, other = other, fam
	}
	var others []string
	for _, a := range n.Addresses {
		if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is6() != v6 {
			others = append(others, a)
		}
	}
	from := "the other end of its subnet, " + n.Route.Gateway + ","
	attr := "addresses"
	if n.Route.Written {
		from, attr = "its gateway "+n.Route.Gateway, "gateway"
	}
	defer l.within(host + ":" + n.Name)()
	at := l.src.Place("host", host, "nic", n.Name, attr)
	l.warnf(at, "Dual-stack NIC routed for one family",
		"nic %q of host %q has IPv4 and IPv6 addresses, but its route, via %s from %s, carries %s only: fabricc gives a NIC one route (one table, rule and gateway), and an IPv6 route cannot take an IPv4 next hop (Linux net/ipv6/route.c refuses RTA_VIA; RFC 5549 defines only IPv4 via IPv6). Its %s addresses %s get no route beyond their own subnet, so its %s RoCE peers in other subnets are off-link. Remove them from the nic if RoCE runs over %s only, or acknowledge this warning where they are routed by other means (router advertisements, a routing daemon, the distribution's network configuration).",
		n.Name, host, from, n.Route.Source, fam, other, strings.Join(others, ", "), other, fam)
}

// warnNoAddress reports a NIC on a routed switch port without addresses:
// a routed port bridges nothing, so the NIC's only way onto the fabric is
// an address in the port's subnet, and RoCE v2 reaches a port by the GID
// its IP address makes (RoCE v2 carries RDMA in UDP/IP); without one,
// nothing can reach it over RoCE and no host script gives it a route.
func (l *lowering) warnNoAddress(host string, n *model.NIC) {
	defer l.within(host + ":" + n.Name)()
	at := l.src.Place("host", host, "nic", n.Name)
	l.warnf(at, "Routed NIC without an address",
		"nic %q of host %q is cabled to %s:%s, a routed switch port, but has no addresses: a routed port forwards by IP and bridges no VLAN, so nothing can reach the NIC over RoCE v2, and no host script gives it an address or a route. Write addresses = [\"ADDRESS/31\"] on the nic, in the switch port's subnet (the other address of the /31 is the switch port's, RFC 3021), or acknowledge this warning if the NIC gets its address by other means (DHCP, the distribution's network configuration).",
		n.Name, host, n.Peer.Device, n.Peer.Port)
}
