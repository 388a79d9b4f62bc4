package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// routedFabric is minimalFabric with leaf1's ports routed, the NIC
// untagged at addr, and the NIC's extra attributes.
func routedFabric(addr, extra string) string {
	return edit("", "    vlans = [100]\n", "    mode  = \"routed\"\n",
		"    vlan      = 100\n", extra, "192.168.100.11/24", addr)
}

// TestNICRoutes: a NIC on a routed port gets a route via the other end
// of its /31 (RFC 3021) or /30, or via its written gateway, in table and
// rule priority 1000 + its position in the host; a NIC on a routed port
// with neither is warned about at its addresses; bad gateways are
// errors; a NIC on an access port gets no route unless it writes one.
func TestNICRoutes(t *testing.T) {
	const noGateway = "22:17: Routed NIC without a gateway: nic \"roce0\" of host \"gpu01\" is cabled to leaf1:swp2, a routed switch port, but fabricc gives it no route beyond its own subnet: its address 192.168.100.11/24 is no /31 or /30 (nor IPv6 /127) whose other address would be the switch port's. Its RoCE peers in other subnets (the other NICs of its rail, everything across the spines) are off-link, so the host sends to them by its main table's default route (often the management NIC) or not at all. Write gateway = \"ADDRESS\" on the nic (the switch port's address in its subnet, or the switch's IPv6 link-local address, as on a BGP-unnumbered link), or give it a /31 whose other address is the switch port's; the Linux host script then gives the NIC a routing table of its own and main-table routes to the rest of its rail."
	const noAddress = "19:3: Routed NIC without an address: nic \"roce0\" of host \"gpu01\" is cabled to leaf1:swp2, a routed switch port, but has no addresses: a routed port forwards by IP and bridges no VLAN, so nothing can reach the NIC over RoCE v2, and no host script gives it an address or a route. Write addresses = [\"ADDRESS/31\"] on the nic, in the switch port's subnet (the other address of the /31 is the switch port's, RFC 3021), or acknowledge this warning if the NIC gets its address by other means (DHCP, the distribution's network configuration)."
	// A gateway in error leaves the /31's derived route (the errors stop
	// the build).
	derived := &model.NICRoute{Gateway: "10.1.1.2", Source: "10.1.1.3", Table: 1001, Priority: 1001}
	tests := []struct {
		name  string
		src   string
		route *model.NICRoute
		diags []string
	}{
		{"/31 odd", routedFabric("10.1.1.3/31", ""), &model.NICRoute{Gateway: "10.1.1.2", Source: "10.1.1.3", Table: 1001, Priority: 1001}, nil},
		{"/31 even", routedFabric("10.1.1.2/31", ""), &model.NICRoute{Gateway: "10.1.1.3", Source: "10.1.1.2", Table: 1001, Priority: 1001}, nil},
		{"/30 first", routedFabric("10.1.1.5/30", ""), &model.NICRoute{Gateway: "10.1.1.6", Source: "10.1.1.5", Table: 1001, Priority: 1001}, nil},
		{"/30 second", routedFabric("10.1.1.6/30", ""), &model.NICRoute{Gateway: "10.1.1.5", Source: "10.1.1.6", Table: 1001, Priority: 1001}, nil},
		{"/127", routedFabric("fd00::1/127", ""), &model.NICRoute{Gateway: "fd00::", Source: "fd00::1", Table: 1001, Priority: 1001}, nil},
		{"/24 warned", routedFabric("192.168.100.11/24", ""), nil, []string{noGateway}},
		{"/24 gateway", routedFabric("192.168.100.11/24", "    gateway   = \"192.168.100.1\"\n"),
			&model.NICRoute{Gateway: "192.168.100.1", Written: true, Source: "192.168.100.11", Table: 1001, Priority: 1001}, nil},
		{"gateway over /31", routedFabric("10.1.1.3/31", "    gateway   = \"10.1.1.2\"\n"),
			&model.NICRoute{Gateway: "10.1.1.2", Written: true, Source: "10.1.1.3", Table: 1001, Priority: 1001}, nil},
		{"access port, written", edit("", "    vlan      = 100\n", "    vlan      = 100\n    gateway   = \"192.168.100.1\"\n"),
			&model.NICRoute{Gateway: "192.168.100.1", Written: true, Source: "192.168.100.11", Table: 1001, Priority: 1001}, nil},
		{"routed, no address", edit("", "    vlans = [100]\n", "    mode  = \"routed\"\n", "    vlan      = 100\n", "",
			"    addresses = [\"192.168.100.11/24\"]\n", ""), nil, []string{noAddress}},
		{"access port, no address", edit("", "    addresses = [\"192.168.100.11/24\"]\n", ""), nil, nil},
		{"access port, /31", edit("", "192.168.100.11/24", "10.1.1.3/31"), nil, nil},
		{"bad gateway", routedFabric("10.1.1.3/31", "    gateway   = \"10.1.1.x\"\n"), derived, []string{
			"22:17: Invalid gateway: nic \"roce0\" of host \"gpu01\": gateway \"10.1.1.x\" is not an IP address; write the switch port's address in the NIC's subnet, like \"10.1.1.0\" for a NIC at 10.1.1.1/31.",
		}},
		{"own address", routedFabric("10.1.1.3/31", "    gateway   = \"10.1.1.3\"\n"), derived, []string{
			"22:17: Gateway is the NIC's own address: nic \"roce0\" of host \"gpu01\": gateway 10.1.1.3 is the NIC's own address 10.1.1.3/31; write the address of the switch port (or router) at the other end of its link.",
		}},
		{"link-local for a /32", routedFabric("10.9.0.1/32", "    gateway   = \"fe80::1\"\n"),
			&model.NICRoute{Gateway: "fe80::1", Written: true, Source: "10.9.0.1", Table: 1001, Priority: 1001}, nil},
		{"link-local for a /64", routedFabric("2001:db8:1::10/64", "    gateway   = \"FE80::1\"\n"),
			&model.NICRoute{Gateway: "fe80::1", Written: true, Source: "2001:db8:1::10", Table: 1001, Priority: 1001}, nil},
		{"link-local, IPv4 on Windows", strings.Replace(routedFabric("10.9.0.1/32", "    gateway   = \"fe80::1\"\n"), "os = \"linux\"", "os = \"windows\"", 1), nil, []string{
			"22:17: IPv4 route via a link-local gateway: nic \"roce0\" of host \"gpu01\": gateway fe80::1 is an IPv6 link-local next hop for the NIC's first address 10.9.0.1, an IPv4 one (RFC 5549), and Windows documents no IPv4 route via an IPv6 next hop (Microsoft, New-NetRoute). Write the switch port's IPv4 address as the gateway, like \"10.1.1.0\" for a NIC at 10.1.1.1/31, or put an IPv6 address first in the NIC's addresses.",
		}},
		{"dual-stack /31 and /127", routedFabric(`10.1.1.3/31", "fd00::1/127`, ""), derived, []string{
			"22:17: Dual-stack NIC routed for one family: nic \"roce0\" of host \"gpu01\" has IPv4 and IPv6 addresses, but its route, via the other end of its subnet, 10.1.1.2, from 10.1.1.3, carries IPv4 only: fabricc gives a NIC one route (one table, rule and gateway), and an IPv6 route cannot take an IPv4 next hop (Linux net/ipv6/route.c refuses RTA_VIA; RFC 5549 defines only IPv4 via IPv6). Its IPv6 addresses fd00::1/127 get no route beyond their own subnet, so its IPv6 RoCE peers in other subnets are off-link. Remove them from the nic if RoCE runs over IPv4 only, or acknowledge this warning where they are routed by other means (router advertisements, a routing daemon, the distribution's network configuration).",
		}},
		{"dual-stack, IPv6 gateway", routedFabric(`10.1.1.3/24", "fd00:1::3/64`, "    gateway   = \"fd00:1::1\"\n"),
			&model.NICRoute{Gateway: "fd00:1::1", Written: true, Source: "fd00:1::3", Table: 1001, Priority: 1001}, []string{
				"22:17: Dual-stack NIC routed for one family: nic \"roce0\" of host \"gpu01\" has IPv4 and IPv6 addresses, but its route, via its gateway fd00:1::1 from fd00:1::3, carries IPv6 only: fabricc gives a NIC one route (one table, rule and gateway), and an IPv6 route cannot take an IPv4 next hop (Linux net/ipv6/route.c refuses RTA_VIA; RFC 5549 defines only IPv4 via IPv6). Its IPv4 addresses 10.1.1.3/24 get no route beyond their own subnet, so its IPv4 RoCE peers in other subnets are off-link. Remove them from the nic if RoCE runs over IPv6 only, or acknowledge this warning where they are routed by other means (router advertisements, a routing daemon, the distribution's network configuration).",
			}},
		{"outside, no warning beside the error", routedFabric("192.168.100.11/24", "    gateway   = \"10.1.2.1\"\n"), nil, []string{
			"22:17: Gateway outside the NIC's subnets: nic \"roce0\" of host \"gpu01\": gateway 10.1.2.1 is in none of the NIC's subnets (the NIC has 192.168.100.11/24), and a next hop must be on the link. Write an address of the NIC's subnet (the switch port's), or give the NIC an address in the gateway's subnet.",
		}},
		{"outside", routedFabric("10.1.1.3/31", "    gateway   = \"10.1.2.1\"\n"), derived, []string{
			"22:17: Gateway outside the NIC's subnets: nic \"roce0\" of host \"gpu01\": gateway 10.1.2.1 is in none of the NIC's subnets (the NIC has 10.1.1.3/31), and a next hop must be on the link. Write an address of the NIC's subnet (the switch port's), or give the NIC an address in the gateway's subnet.",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _, diags := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(diags, tc.diags) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(diags), joinLines(tc.diags))
			}
			if got := f.Host("gpu01").NICs[0].Route; !reflect.DeepEqual(got, tc.route) {
				t.Errorf("route %+v, want %+v", got, tc.route)
			}
		})
	}
}

// TestNICRouteTables: each NIC's table and rule priority are 1000 plus
// its position among its host's NICs by name, whatever order the nic
// blocks are written in.
func TestNICRouteTables(t *testing.T) {
	src := routedFabric("10.1.1.3/31", "") + `
host "gpu02" {
  os = "linux"
  nic "rail2" {
    model     = "ConnectX-6 Dx"
    interface = "ens2"
    addresses = ["10.1.2.5/31"]
  }
  nic "rail1" {
    model     = "ConnectX-6 Dx"
    interface = "ens1"
    addresses = ["10.1.1.5/31"]
  }
}
link {
  a      = "gpu02:rail1"
  b      = "leaf1:swp3"
  length = 3
}
link {
  a      = "gpu02:rail2"
  b      = "leaf1:swp4"
  length = 3
}
`
	f, _, diags := lowerSrc(t, src)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", joinLines(diags))
	}
	// rail1 carries the first rail (gpu01's /31; its own is connected),
	// rail2 the second, which holds its own /31 only.
	want := []model.NICRoute{
		{Gateway: "10.1.1.4", Source: "10.1.1.5", Table: 1001, Priority: 1001, Prefixes: []string{"10.1.1.2/31"}},
		{Gateway: "10.1.2.4", Source: "10.1.2.5", Table: 1002, Priority: 1002},
	}
	for i, n := range f.Host("gpu02").NICs {
		if n.Route == nil || !reflect.DeepEqual(*n.Route, want[i]) {
			t.Errorf("%s: route %+v, want %+v", n.Name, n.Route, want[i])
		}
	}
}
