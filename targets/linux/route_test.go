package linux

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// routedHost is the fixture's stor1 with one inbox NIC on fab0 (VLAN vlan)
// at addr, routed via gw in table and priority 1001.
func routedHost(vlan int, addr, src, gw string) *model.Fabric {
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", vlan, addr)
	n.Route = &model.NICRoute{Gateway: gw, Source: src, Table: 1001, Priority: 1001}
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	return f
}

// TestRouteScript: a NIC with a route gets one nic_route step after its
// addresses, on the interface that carries them, with the address family;
// a NIC without one gets none and its script carries no route helpers.
func TestRouteScript(t *testing.T) {
	tests := []struct {
		name string
		f    *model.Fabric
		want string
	}{
		{"IPv4 /31", routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2"),
			"\tensure \"$ifc\" 'address 10.1.1.3/31' present \"$(addr_state \"$ifc\" 10.1.1.3/31)\" ip addr replace 10.1.1.3/31 dev \"$ifc\"\n" +
				"\t# Table 1001 and rule priority 1001 (1000 + the NIC's place in the host): a default\n" +
				"\t# route via 10.1.1.2 for the packets from 10.1.1.3, so they leave by this NIC's own link.\n" +
				"\tnic_route \"$ifc\" -4 1001 1001 10.1.1.3 10.1.1.2\n"},
		{"IPv6 /127 on a VLAN", routedHost(2, "fd00::1/127", "fd00::1", "fd00::"),
			"\tnic_route fab0.2 -6 1001 1001 fd00::1 fd00::\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s := render(t, tc.f, 2); !strings.Contains(s, tc.want) || !strings.Contains(s, "\nnic_route() {\n") {
				t.Errorf("script lacks\n%s", tc.want)
			}
		})
	}
	f := fixture()
	if s := render(t, f, 2); strings.Contains(s, "nic_route") || strings.Contains(s, "rule_at") {
		t.Errorf("a NIC without a route has route steps or helpers")
	}
}

// TestRouteRefused: a model's route that is no pair of addresses of one
// family, or whose table or priority the script cannot own, is refused
// before anything is written.
func TestRouteRefused(t *testing.T) {
	for _, tc := range []struct {
		route model.NICRoute
		want  string
	}{
		{model.NICRoute{Gateway: "10.1.1.2; reboot", Source: "10.1.1.3", Table: 1001, Priority: 1001},
			`linux: nic "roce0" of host "stor1" has a route from "10.1.1.3" via "10.1.1.2; reboot"; both must be IP addresses of one family (or IPv4 via an IPv6 link-local gateway), without a zone`},
		{model.NICRoute{Gateway: "fd00::", Source: "10.1.1.3", Table: 1001, Priority: 1001},
			`linux: nic "roce0" of host "stor1" has a route from "10.1.1.3" via "fd00::"; both must be IP addresses of one family (or IPv4 via an IPv6 link-local gateway), without a zone`},
		{model.NICRoute{Gateway: "10.1.1.2", Source: "10.1.1.3", Table: 254, Priority: 1001},
			`linux: nic "roce0" of host "stor1" has route table 254, rule priority 1001; write a table above 255 and a priority from 1 to 32765`},
		{model.NICRoute{Gateway: "10.1.1.2", Source: "10.1.1.3", Table: 1001, Priority: 32766},
			`linux: nic "roce0" of host "stor1" has route table 1001, rule priority 32766; write a table above 255 and a priority from 1 to 32765`},
	} {
		f := routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2")
		r := tc.route
		f.Hosts[2].NICs[0].Route = &r
		if _, err := Render(f, &f.Hosts[2]); err == nil || err.Error() != tc.want {
			t.Errorf("Render: %v, want %s", err, tc.want)
		}
	}
}

// ipShow runs ip -n ns with args and returns its output.
func ipShow(t *testing.T, ns string, args ...string) string {
	t.Helper()
	out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ip %v: %v: %s", args, err, out)
	}
	return string(out)
}

// TestNetnsRoute runs the route step for real on a veth: --check reports
// the missing table and rule, a run adds them (one rule), --check then
// passes and a second run changes nothing; a new address replaces the
// route and the rule of the old one; a foreign route in the table and a
// foreign rule at the priority are refused, not overwritten.
func TestNetnsRoute(t *testing.T) {
	ns := newNetns(t)
	ipShow(t, ns, "link", "set", "fab1", "up")
	s := render(t, routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2"), 2)
	out, _ := runScript(t, s, ns, "--check")
	for _, w := range []string{
		"DIFF fab0 route table 1001: intended default via 10.1.1.2 dev fab0; actual absent\n",
		"DIFF fab0 rule 1001: intended from 10.1.1.3 lookup 1001; actual absent\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--check before apply lacks %q:\n%s", w, out)
		}
	}
	out, err := runScript(t, s, ns)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	for _, w := range []string{
		"set fab0 route table 1001: absent -> default via 10.1.1.2 dev fab0\n",
		"set fab0 rule 1001: absent -> from 10.1.1.3 lookup 1001\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("apply lacks %q:\n%s", w, out)
		}
	}
	if got := ipShow(t, ns, "-4", "route", "show", "table", "1001"); strings.TrimSpace(got) != "default via 10.1.1.2 dev fab0 proto 173" {
		t.Errorf("table 1001 after apply: %q", got)
	}
	rules := ipShow(t, ns, "-4", "rule", "show")
	if strings.Count(rules, "1001:\tfrom 10.1.1.3 lookup 1001 proto 173\n") != 1 {
		t.Errorf("rules after apply:\n%s", rules)
	}
	if out, err = runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after apply: %v\n%s", err, out)
	}
	if out, err = runScript(t, s, ns); err != nil || strings.Contains("\n"+out, "\nset ") || ipShow(t, ns, "-4", "rule", "show") != rules {
		t.Errorf("second run changed something: %v\n%s", err, out)
	}

	moved := render(t, routedHost(0, "10.1.1.5/31", "10.1.1.5", "10.1.1.4"), 2)
	out, _ = runScript(t, moved, ns, "--check")
	if w := "DIFF fab0 rule 1001: intended from 10.1.1.5 lookup 1001; actual from 10.1.1.3 lookup 1001\n"; !strings.Contains(out, w) {
		t.Errorf("--check of the new address lacks %q:\n%s", w, out)
	}
	if out, err = runScript(t, moved, ns); err != nil {
		t.Fatalf("apply new address: %v\n%s", err, out)
	}
	for _, w := range []string{
		// Removing the old address took the kernel's route via 10.1.1.2 with it.
		"set fab0 route table 1001: absent -> default via 10.1.1.4 dev fab0\n",
		"set fab0 rule 1001: from 10.1.1.3 lookup 1001 -> absent\n",
		"set fab0 rule 1001: absent -> from 10.1.1.5 lookup 1001\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("new address: apply lacks %q:\n%s", w, out)
		}
	}
	if rules := ipShow(t, ns, "-4", "rule", "show"); strings.Contains(rules, "10.1.1.3") || !strings.Contains(rules, "1001:\tfrom 10.1.1.5 lookup 1001 proto 173\n") {
		t.Errorf("rules after the new address:\n%s", rules)
	}

	ipShow(t, ns, "route", "add", "198.51.100.0/24", "dev", "fab0", "table", "1001")
	out, err = runScript(t, moved, ns)
	w := "fabricc: error: fab0 route table 1001 is default via 10.1.1.4 dev fab0; other: 198.51.100.0/24 dev fab0 scope link, not default via 10.1.1.4 dev fab0 only: another tool uses table 1001: move its routes to another table, or take the NIC out of the fabric\n"
	if err == nil || !strings.Contains(out, w) {
		t.Errorf("foreign route: err %v, want exit 1 and %q:\n%s", err, w, out)
	}
	ipShow(t, ns, "route", "del", "198.51.100.0/24", "dev", "fab0", "table", "1001")
	ipShow(t, ns, "rule", "del", "priority", "1001")
	ipShow(t, ns, "rule", "add", "from", "192.0.2.9", "table", "77", "priority", "1001")
	out, err = runScript(t, moved, ns)
	w = "fabricc: error: fab0 rule 1001 is from 192.0.2.9 lookup 77 proto unspec, not from 10.1.1.5 lookup 1001: another rule holds priority 1001: remove it (ip -4 rule del priority 1001) or move it to another priority\n"
	if err == nil || !strings.Contains(out, w) {
		t.Errorf("foreign rule: err %v, want exit 1 and %q:\n%s", err, w, out)
	}
	if rules := ipShow(t, ns, "-4", "rule", "show"); !strings.Contains(rules, "1001:\tfrom 192.0.2.9 lookup 77\n") || strings.Contains(rules, "10.1.1.5") {
		t.Errorf("the foreign rule was touched:\n%s", rules)
	}
}

// TestMainRouteScript: a route's prefixes become main_route steps after
// nic_route, on the interface that carries the addresses; an IPv4 route
// via a link-local gateway keeps the IPv4 family (via_words adds inet6).
func TestMainRouteScript(t *testing.T) {
	f := routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2")
	f.Hosts[2].NICs[0].Route.Prefixes = []string{"10.1.0.0/25", "10.1.4.0/31"}
	want := "\tnic_route \"$ifc\" -4 1001 1001 10.1.1.3 10.1.1.2\n" +
		"\t# Main-table routes via 10.1.1.2 to the fabric subnets this NIC carries, for the\n" +
		"\t# initiators that resolve with no source address (NFS over RDMA, SMB Direct,\n" +
		"\t# nvme-rdma without --host-traddr), which the rule above does not see.\n" +
		"\tmain_route \"$ifc\" -4 10.1.0.0/25 10.1.1.2\n" +
		"\tmain_route \"$ifc\" -4 10.1.4.0/31 10.1.1.2\n"
	if s := render(t, f, 2); !strings.Contains(s, want) || !strings.Contains(s, "\nmain_route() {\n") {
		t.Errorf("script lacks\n%s", want)
	}
	f = routedHost(2, "10.9.0.1/32", "10.9.0.1", "fe80::1")
	f.Hosts[2].NICs[0].Route.Prefixes = []string{"10.9.0.0/24"}
	want = "\tnic_route fab0.2 -4 1001 1001 10.9.0.1 fe80::1\n" +
		"\t# Main-table routes via fe80::1 to the fabric subnets this NIC carries, for the\n"
	if s := render(t, f, 2); !strings.Contains(s, want) || !strings.Contains(s, "\tmain_route fab0.2 -4 10.9.0.0/24 fe80::1\n") {
		t.Errorf("script lacks\n%s", want)
	}
	for _, p := range []string{"10.1.0.1/25", "fd00::/64", "10.1.0.0/25; reboot", "010.1.0.0/25"} {
		f := routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2")
		f.Hosts[2].NICs[0].Route.Prefixes = []string{p}
		w := `linux: nic "roce0" of host "stor1" has main-table route prefix "` + p + `"; write a CIDR prefix of the source's family, host bits clear, like "10.1.0.0/24"`
		if _, err := Render(f, &f.Hosts[2]); err == nil || err.Error() != w {
			t.Errorf("Render with prefix %q: %v, want %s", p, err, w)
		}
	}
}

// TestNetnsMainRoute runs the main-table route steps for real on a veth:
// --check and --dry-run report the missing routes, a run adds them with
// proto 173 (fabricc's mark), an unbound lookup (ip route get with no source) then
// leaves by the NIC from its address, --check passes and a second run
// changes nothing; a route moved to another interface is put back.
// IPv6 alike; an IPv4 /32 via the link-local fe80::1 gets "via inet6"
// in its own table and the main table (RFC 5549).
func TestNetnsMainRoute(t *testing.T) {
	ns := newNetns(t)
	ipShow(t, ns, "link", "set", "fab1", "up")
	f := routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2")
	f.Hosts[2].NICs[0].Route.Prefixes = []string{"10.1.0.0/24", "10.1.4.0/31"}
	s := render(t, f, 2)
	out, _ := runScript(t, s, ns, "--check")
	for _, w := range []string{
		"DIFF fab0 main route 10.1.0.0/24: intended via 10.1.1.2 dev fab0; actual absent\n",
		"DIFF fab0 main route 10.1.4.0/31: intended via 10.1.1.2 dev fab0; actual absent\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--check before apply lacks %q:\n%s", w, out)
		}
	}
	if out, _ = runScript(t, s, ns, "--dry-run"); !strings.Contains(out, "would run: ip -4 route replace 10.1.0.0/24 via 10.1.1.2 dev fab0 proto 173\n") {
		t.Errorf("--dry-run lacks the main route:\n%s", out)
	}
	out, err := runScript(t, s, ns)
	if err != nil || !strings.Contains(out, "set fab0 main route 10.1.4.0/31: absent -> via 10.1.1.2 dev fab0\n") {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if got := ipShow(t, ns, "-4", "route", "show", "10.1.0.0/24"); strings.TrimSpace(got) != "10.1.0.0/24 via 10.1.1.2 dev fab0 proto 173" {
		t.Errorf("main table after apply: %q", got)
	}
	if got := ipShow(t, ns, "-4", "route", "get", "10.1.0.77"); !strings.Contains(got, "via 10.1.1.2 dev fab0 src 10.1.1.3") {
		t.Errorf("unbound lookup: %q", got)
	}
	if out, err = runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after apply: %v\n%s", err, out)
	}
	if out, err = runScript(t, s, ns); err != nil || strings.Contains("\n"+out, "\nset ") {
		t.Errorf("second run changed something: %v\n%s", err, out)
	}
	ipShow(t, ns, "route", "replace", "10.1.4.0/31", "dev", "fab1")
	if out, err = runScript(t, s, ns); err != nil || !strings.Contains(out, "set fab0 main route 10.1.4.0/31: dev fab1 proto boot -> via 10.1.1.2 dev fab0\n") {
		t.Errorf("moved route: %v\n%s", err, out)
	}

	// Another tool's route to the same prefix at another metric is left
	// alone and does not make every run a change.
	ipShow(t, ns, "route", "add", "10.1.4.0/31", "dev", "fab1", "metric", "100")
	if out, err = runScript(t, s, ns); err != nil || strings.Contains("\n"+out, "\nset ") {
		t.Errorf("run beside a metric-100 route changed something: %v\n%s", err, out)
	}

	f = routedHost(0, "fd00::1/127", "fd00::1", "fd00::")
	f.Hosts[2].NICs[0].Route.Prefixes = []string{"fd00:9::/64"}
	s6 := render(t, f, 2)
	out, err = runScript(t, s6, ns)
	if err != nil || !strings.Contains(out, "set fab0 main route fd00:9::/64: absent -> via fd00:: dev fab0\n") {
		t.Errorf("IPv6 apply: %v\n%s", err, out)
	}
	if out, err = runScript(t, s6, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("IPv6 --check after apply: %v\n%s", err, out)
	}

	f = routedHost(0, "10.9.0.1/32", "10.9.0.1", "fe80::1")
	f.Hosts[2].NICs[0].Route.Prefixes = []string{"10.9.0.0/24"}
	s = render(t, f, 2)
	out, err = runScript(t, s, ns)
	for _, w := range []string{
		"set fab0 route table 1001: absent -> default via inet6 fe80::1 dev fab0\n",
		"set fab0 main route 10.9.0.0/24: absent -> via inet6 fe80::1 dev fab0\n",
	} {
		if err != nil || !strings.Contains(out, w) {
			t.Errorf("link-local apply lacks %q: %v\n%s", w, err, out)
		}
	}
	if got := ipShow(t, ns, "-4", "route", "show", "table", "1001"); strings.TrimSpace(got) != "default via inet6 fe80::1 dev fab0 proto 173" {
		t.Errorf("table 1001 via link-local: %q", got)
	}
	if out, err = runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after link-local apply: %v\n%s", err, out)
	}
}
