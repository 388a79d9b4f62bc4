package docs

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestOtherHostRoutes: the Routes section of a FreeBSD or Windows host
// says what its script now does with the NIC's main-table prefixes
// (route(8) and rc.conf static_routes; New-NetRoute in both stores), and
// its table has no Linux table or rule priority; By hand keeps a route
// step only for a NIC with no prefix, whose peers beyond its subnet the
// script cannot know. The Windows paragraph says the script removes the
// routes it recorded once the fabric drops them. Before, Routes said the script adds no route and
// By hand listed the route commands for every prefix.
func TestOtherHostRoutes(t *testing.T) {
	// removal is what the Windows Routes paragraph says of the routes the
	// fabric no longer has: the script removes the ones it recorded.
	removal := "A Windows route carries no mark of who added it, so the script records each route it adds, with the metric Windows gave it, under the registry key HKLM\\SOFTWARE\\fabricc\\NetRoute, " +
		"and on each run removes from both stores a recorded route the fabric no longer has while both still hold it as recorded (adapter, prefix, next hop, metric; Remove-NetRoute, -PolicyStore); -Check reports it."
	f := compileExample(t, "homelab-40g")
	for _, tc := range []struct {
		host, gw, src string
		prefixes      []string
		routes        string // the start of the Routes paragraph
		row           string
		step          string // By hand's route step, "" for none
	}{
		{"workstation", "10.0.0.1", "10.0.0.3", []string{"10.0.0.0/24", "10.0.8.0/31"},
			"The host script adds, for each NIC below, a route via the gateway to each of the NIC's main-table prefixes (New-NetRoute -InterfaceAlias IF -DestinationPrefix PREFIX -NextHop GATEWAY; Microsoft Learn, New-NetRoute), " +
				"which New-NetRoute saves in both the active and the persistent store, so that it survives a reboot (New-NetRoute, -PolicyStore: \"By default, a route is saved in both stores\").",
			"| qsfp1 | 10.0.0.3 | 10.0.0.1 | gateway attribute | 10.0.0.0/24, 10.0.8.0/31 |\n", ""},
		{"workstation", "10.0.0.1", "10.0.0.3", nil, "The host script adds, for each NIC below, a route via the gateway",
			"| qsfp1 | 10.0.0.3 | 10.0.0.1 | gateway attribute | - |\n",
			"- qsfp1 (Ethernet 3): the NIC reaches RoCE peers beyond its own subnet only via 10.0.0.1 (its gateway attribute), and no other NIC of the fabric is on its rail, so the host script adds no route: add one by hand, from 10.0.0.3: " +
				"New-NetRoute -InterfaceAlias 'Ethernet 3' -DestinationPrefix PREFIX -NextHop 10.0.0.1 for each remote RoCE subnet (Microsoft, New-NetRoute).\n"},
		{"nas", "fe80::1", "10.0.0.3", []string{"10.0.0.0/24"},
			"The host script adds, for each NIC below, a route via the gateway to each of the NIC's main-table prefixes now (route add -net PREFIX GATEWAY, -inet6 for IPv6; FreeBSD route(8)) " +
				"and the same routes at every boot through rc.conf: each route's name, fabricc\\_IF\\_N, in static\\_routes with its arguments in route\\_NAME, or for IPv6 in ipv6\\_static\\_routes and ipv6\\_route\\_NAME (FreeBSD Handbook, \"Gateways and Routes\"; rc.conf(5)).",
			"| mlxen0 | 10.0.0.3 | fe80::1 | gateway attribute | 10.0.0.0/24 |\n", ""},
		{"nas", "10.0.0.1", "10.0.0.3", nil, "The host script adds, for each NIC below, a route via the gateway",
			"| mlxen0 | 10.0.0.3 | 10.0.0.1 | gateway attribute | - |\n",
			"- mlxen0 (mlxen0): the NIC reaches RoCE peers beyond its own subnet only via 10.0.0.1 (its gateway attribute), and no other NIC of the fabric is on its rail, so the host script adds no route: add one by hand, from 10.0.0.3: " +
				"route add -net PREFIX 10.0.0.1 for each remote RoCE subnet, or a default route via 10.0.0.1 in a FIB of the NIC's own (FreeBSD route(8), setfib(1)).\n"},
	} {
		h := f.Host(tc.host)
		h.NICs[0].Route = &model.NICRoute{Gateway: tc.gw, Written: true, Source: tc.src, Table: 1001, Priority: 1001, Prefixes: tc.prefixes}
		files, err := RenderHost(f, h)
		if err != nil {
			t.Fatal(err)
		}
		s := string(files[0].Data)
		routes := s[strings.Index(s, "## Routes"):strings.Index(s, "## RoCE and DCB settings")]
		if !strings.Contains(routes, "## Routes\n\n"+tc.routes) || !strings.Contains(routes, tc.row) ||
			strings.Contains(routes, "rule priority") || strings.Contains(routes, "adds no routes") {
			t.Errorf("%s.md Routes with prefixes %v lacks\n%s\nor\n%s\nor names the Linux table, in\n%s", tc.host, tc.prefixes, tc.routes, tc.row, routes)
		}
		if h.OS == model.OSWindows && tc.prefixes != nil && !strings.Contains(routes, removal) {
			t.Errorf("%s.md Routes does not say which routes the script removes:\n%s\nin\n%s", tc.host, removal, routes)
		}
		by := s[strings.Index(s, "## By hand"):]
		if tc.step == "" && (strings.Contains(by, "New-NetRoute") || strings.Contains(by, "route add")) {
			t.Errorf("%s.md By hand still lists a route the script adds:\n%s", tc.host, by)
		}
		if tc.step != "" && !strings.Contains(by, tc.step) {
			t.Errorf("%s.md By hand lacks\n%s\nin\n%s", tc.host, tc.step, by)
		}
	}
}
