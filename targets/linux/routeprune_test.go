package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// prunedHost is routedHost's stor1 with main-table prefixes on fab0 and,
// when v6 is set, a second NIC on fab1 (the veth's other end, in the same
// namespace) at fd00::1/127 with its own table 1002 and a main-table
// route to fd00:9::/64.
func prunedHost(prefixes []string, v6 bool) *model.Fabric {
	f := routedHost(0, "10.1.1.3/31", "10.1.1.3", "10.1.1.2")
	f.Hosts[2].NICs[0].Route.Prefixes = prefixes
	if v6 {
		n := fixtureNIC("roce1", "fab1", "ConnectX-5", "mellanox", "inbox", 0, "fd00::1/127")
		n.Route = &model.NICRoute{Gateway: "fd00::", Source: "fd00::1", Table: 1002, Priority: 1002, Prefixes: []string{"fd00:9::/64"}}
		f.Hosts[2].NICs = append(f.Hosts[2].NICs, n)
	}
	return f
}

// TestRoutePruneScript: every host's script ends its NIC steps with one
// route_prune per family listing what its route steps own; a host
// without routes carries route_flush instead, which removes every route
// and rule of fabricc's.
func TestRoutePruneScript(t *testing.T) {
	s := render(t, prunedHost([]string{"10.1.0.0/24", "10.1.4.0/31"}, true), 2)
	want := "route_prune -4 1001 1001 '10.1.0.0/24 10.1.4.0/31'\nroute_prune -6 1002 1002 fd00:9::/64\nif [[ $TUNING == 1 ]]; then\n"
	if !strings.Contains(s, want) || !strings.Contains(s, "\nroute_prune() {\n") {
		t.Errorf("script lacks\n%s", want)
	}
	for _, w := range []string{
		`ip "$fam" route replace "$prefix" via "${via[@]}" dev "$ifc" proto "$ROUTE_PROTO"`,
		`route replace default via "${via[@]}" dev "$ifc" table "$table" proto "$ROUTE_PROTO"`,
		`rule add from "$src/$bits" table "$table" priority "$prio" ${RULE_MARK[@]+"${RULE_MARK[@]}"}`,
		"RULE_MARK=(protocol \"$ROUTE_PROTO\")\n",
		"\nROUTE_PROTO=173\n",
		// --help is printed before ROUTE_PROTO is set: it names the number itself.
		"The routes and rules the script writes carry protocol 173 (ip-route(8)\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("script lacks %s", w)
		}
	}
	if strings.Contains(s, "\nroute_flush() {") {
		t.Errorf("a host with routes carries route_flush")
	}
	s = render(t, fixture(), 2)
	want = "# this host none.\nroute_flush -4\nroute_flush -6\nif [[ $TUNING == 1 ]]; then\n"
	if !strings.Contains(s, want) || !strings.Contains(s, "\nroute_flush() {") {
		t.Errorf("a host without routes lacks\n%s", want)
	}
}

// TestNetnsRoutePrune runs two builds of one host for real: the first
// gives fab0 main-table routes to two /25s and a second NIC on fab1 an
// IPv6 table, rule and main-table route; the second merges the /25s into
// one /24 and drops the second NIC. --check of the second build reports
// each stale route and rule of the first, --dry-run prints its removal,
// a run removes exactly those (the summary counts them) and leaves
// another tool's route to the same /25 at metric 100, routes without the
// mark (proto boot, proto static) and fab1's connected route; --check
// then passes and a second run changes nothing.
func TestNetnsRoutePrune(t *testing.T) {
	ns := newNetns(t)
	first := render(t, prunedHost([]string{"10.1.0.0/25", "10.1.0.128/25"}, true), 2)
	if out, err := runScript(t, first, ns); err != nil || !strings.Contains(out, "set fab1 main route fd00:9::/64: absent -> via fd00:: dev fab1\n") {
		t.Fatalf("first build: %v\n%s", err, out)
	}
	ipShow(t, ns, "route", "add", "10.1.0.0/25", "via", "10.1.1.2", "dev", "fab0", "metric", "100")
	ipShow(t, ns, "route", "add", "10.1.7.0/24", "via", "10.1.1.2", "dev", "fab0")
	ipShow(t, ns, "route", "add", "10.1.8.0/24", "via", "10.1.1.2", "dev", "fab0", "proto", "static")
	foreign4 := []string{
		"10.1.0.0/25 via 10.1.1.2 dev fab0 metric 100 \n",
		"10.1.7.0/24 via 10.1.1.2 dev fab0 \n",
		"10.1.8.0/24 via 10.1.1.2 dev fab0 proto static \n",
		"10.1.1.2/31 dev fab0 proto kernel scope link src 10.1.1.3 \n",
	}

	second := render(t, prunedHost([]string{"10.1.0.0/24"}, false), 2)
	stale := []string{
		"fab0 main route 10.1.0.0/25: intended absent; actual via 10.1.1.2 dev fab0 (fabricc's, proto 173)\n",
		"fab0 main route 10.1.0.128/25: intended absent; actual via 10.1.1.2 dev fab0 (fabricc's, proto 173)\n",
		"fab1 route table 1002: intended absent; actual default via fd00:: dev fab1 (fabricc's, proto 173)\n",
		"fab1 main route fd00:9::/64: intended absent; actual via fd00:: dev fab1 (fabricc's, proto 173)\n",
		"rules rule 1002: intended absent; actual from fd00::1 lookup 1002 (fabricc's, proto 173)\n",
	}
	out, err := runScript(t, second, ns, "--check")
	for _, w := range stale {
		if err == nil || !strings.Contains(out, "DIFF "+w) {
			t.Errorf("--check of the second build lacks %q (err %v):\n%s", "DIFF "+w, err, out)
		}
	}
	out, _ = runScript(t, second, ns, "--dry-run")
	for _, w := range []string{
		"would run: ip -4 route del 10.1.0.0/25 dev fab0 proto 173 metric 0 table main\n",
		"would run: ip -4 route del 10.1.0.128/25 dev fab0 proto 173 metric 0 table main\n",
		"would run: ip -6 route del default dev fab1 proto 173 metric 1024 table 1002\n",
		"would run: ip -6 route del fd00:9::/64 dev fab1 proto 173 metric 1024 table main\n",
		"would run: ip -6 rule del priority 1002 protocol 173\n",
		"fabricc: 6 change(s) would be made (5 of them would remove routes or rules of an earlier run that the fabric no longer has)\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--dry-run lacks %q:\n%s", w, out)
		}
	}
	out, err = runScript(t, second, ns)
	if err != nil {
		t.Fatalf("second build: %v\n%s", err, out)
	}
	for _, w := range []string{
		"set fab0 main route 10.1.0.0/24: absent -> via 10.1.1.2 dev fab0\n",
		"set fab0 main route 10.1.0.128/25: via 10.1.1.2 dev fab0 (fabricc's, proto 173) -> absent\n",
		"set rules rule 1002: from fd00::1 lookup 1002 (fabricc's, proto 173) -> absent\n",
		"fabricc: 6 change(s) applied (5 of them removed routes or rules of an earlier run that the fabric no longer has)\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("second build lacks %q:\n%s", w, out)
		}
	}
	routes := ipShow(t, ns, "-4", "route", "show")
	for _, w := range append(foreign4, "10.1.0.0/24 via 10.1.1.2 dev fab0 proto 173 \n") {
		if !strings.Contains(routes, w) {
			t.Errorf("IPv4 main table lacks %q:\n%s", w, routes)
		}
	}
	if strings.Contains(routes, "10.1.0.128") || strings.Count(routes, "10.1.0.0/25") != 1 {
		t.Errorf("IPv4 main table keeps a stale route of fabricc's:\n%s", routes)
	}
	if got := ipShow(t, ns, "-6", "route", "show", "table", "all", "proto", "173"); got != "" {
		t.Errorf("IPv6 routes of fabricc's left: %q", got)
	}
	if got := ipShow(t, ns, "-6", "route", "show"); !strings.Contains(got, "fd00::/127 dev fab1 proto kernel") {
		t.Errorf("fab1's connected route went: %q", got)
	}
	if rules := ipShow(t, ns, "-6", "rule", "show"); strings.Contains(rules, "1002:") {
		t.Errorf("IPv6 rule 1002 left:\n%s", rules)
	}
	if out, err = runScript(t, second, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after the second build: %v\n%s", err, out)
	}
	if out, err = runScript(t, second, ns); err != nil || strings.Contains("\n"+out, "\nset ") || !strings.Contains(out, "fabricc: nothing to do; the host already matches\n") {
		t.Errorf("a second run changed something: %v\n%s", err, out)
	}
	if got := ipShow(t, ns, "-4", "route", "show"); got != routes {
		t.Errorf("a second run changed the routes:\n%s\nwas\n%s", got, routes)
	}
}

// TestNetnsRouteUnmarkedLeft: a route and a rule that are exactly what
// the fabric wants but lack the mark (an administrator's or netplan's
// main-table route proto static, the default route and rule as ip adds
// them, as a build older than the mark wrote them) count as matching:
// --check is clean, a run leaves them as they are (not marked), and a
// later build that no longer has them leaves them too, since nothing
// tells a route another tool wrote from one an old build wrote.
func TestNetnsRouteUnmarkedLeft(t *testing.T) {
	ns := newNetns(t)
	ipShow(t, ns, "link", "set", "fab0", "up")
	ipShow(t, ns, "link", "set", "fab1", "up")
	ipShow(t, ns, "addr", "add", "10.1.1.3/31", "dev", "fab0")
	ipShow(t, ns, "route", "add", "default", "via", "10.1.1.2", "dev", "fab0", "table", "1001")
	ipShow(t, ns, "rule", "add", "from", "10.1.1.3/32", "table", "1001", "priority", "1001")
	ipShow(t, ns, "route", "add", "10.1.0.0/24", "via", "10.1.1.2", "dev", "fab0", "proto", "static")
	routes := ipShow(t, ns, "-4", "route", "show", "table", "all")
	rules := ipShow(t, ns, "-4", "rule", "show")
	if !strings.Contains(routes, "10.1.0.0/24 via 10.1.1.2 dev fab0 proto static") || !strings.Contains(rules, "1001:\tfrom 10.1.1.3 lookup 1001\n") {
		t.Fatalf("setup:\n%s\n%s", routes, rules)
	}
	s := render(t, prunedHost([]string{"10.1.0.0/24"}, false), 2)
	if out, err := runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check over unmarked matching routes: %v\n%s", err, out)
	}
	if out, err := runScript(t, s, ns); err != nil || strings.Contains("\n"+out, "\nset ") {
		t.Errorf("a run over unmarked matching routes changed something: %v\n%s", err, out)
	}
	if got := ipShow(t, ns, "-4", "route", "show", "table", "all"); got != routes {
		t.Errorf("the run changed the routes:\n%s\nwas\n%s", got, routes)
	}
	if got := ipShow(t, ns, "-4", "rule", "show"); got != rules {
		t.Errorf("the run changed the rules:\n%s\nwas\n%s", got, rules)
	}
	gone := fixture()
	gone.Hosts[2].NICs = []model.NIC{fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "10.1.1.3/31")}
	gone.Hosts[2].Tuning = false
	out, err := runScript(t, render(t, gone, 2), ns)
	if err != nil || strings.Contains("\n"+out, "\nset ") {
		t.Errorf("build without the route changed something: %v\n%s", err, out)
	}
	if got := ipShow(t, ns, "-4", "route", "show", "table", "all"); got != routes {
		t.Errorf("the later build changed the routes:\n%s\nwas\n%s", got, routes)
	}
	if got := ipShow(t, ns, "-4", "rule", "show"); got != rules {
		t.Errorf("the later build changed the rules:\n%s\nwas\n%s", got, rules)
	}
}

// TestNetnsRoutePruneMultipath: a multipath route of fabricc's that the
// fabric no longer has is named by its next hops, labelled with the
// first one's device, and removed alone.
func TestNetnsRoutePruneMultipath(t *testing.T) {
	ns := newNetns(t)
	ipShow(t, ns, "link", "set", "fab0", "up")
	ipShow(t, ns, "link", "set", "fab1", "up")
	ipShow(t, ns, "addr", "add", "fd00::1/127", "dev", "fab0", "nodad")
	ipShow(t, ns, "addr", "add", "fd00:1::1/127", "dev", "fab1", "nodad")
	ipShow(t, ns, "-6", "route", "add", "fd00:50::/64", "proto", "173", "nexthop", "via", "fd00::", "dev", "fab0", "nexthop", "via", "fd00:1::", "dev", "fab1")
	body := "route_prune -6 '' '' ''\n"
	w := "DIFF fab0 main route fd00:50::/64: intended absent; actual multipath via fd00:: dev fab0, via fd00:1:: dev fab1 (fabricc's, proto 173)\n"
	if out, _ := nsPrelude(t, ns, "check", body); !strings.Contains(out, w) {
		t.Errorf("--check lacks %q:\n%s", w, out)
	}
	if out, err := nsPrelude(t, ns, "apply", body); err != nil || !strings.Contains(out, "set fab0 main route fd00:50::/64: multipath via fd00:: dev fab0, via fd00:1:: dev fab1 (fabricc's, proto 173) -> absent\n") {
		t.Errorf("apply: %v\n%s", err, out)
	}
	if got := ipShow(t, ns, "-6", "route", "show", "fd00:50::/64"); got != "" {
		t.Errorf("multipath route left: %q", got)
	}
}

// nsPrelude runs body after the whole prelude in namespace ns, in mode
// (check, dry-run or apply), with journal silenced.
func nsPrelude(t *testing.T, ns, mode, body string) (string, error) {
	t.Helper()
	script := "set -euo pipefail\n" + allPrelude() + "\nMODE=" + mode + "; DIFFS=0; CHANGES=0\njournal() { :; }\n" + body
	path := filepath.Join(t.TempDir(), "prelude.sh")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ip", "netns", "exec", ns, "bash", path).CombinedOutput()
	return string(out), err
}

// TestNetnsRouteFlush runs the script of a host the fabric gives no
// route over an earlier run's routes and rules of both families (main
// table, another table, a blackhole, a multipath route, rules) and
// another tool's (the same prefix at metric 100, proto static, a rule
// without the mark at the same priority): --check reports each of the
// earlier run's and changes nothing, --dry-run prints each removal, a
// run removes exactly those (the summary counts them), and a second run
// changes nothing.
func TestNetnsRouteFlush(t *testing.T) {
	ns := newNetns(t)
	// No IPv6 link-local address: the kernel adds its fe80:: routes a
	// moment after the link comes up, which made the state snapshots below
	// differ at random.
	ipShow(t, ns, "link", "set", "fab0", "addrgenmode", "none")
	ipShow(t, ns, "link", "set", "fab1", "addrgenmode", "none")
	ipShow(t, ns, "link", "set", "fab0", "up")
	ipShow(t, ns, "link", "set", "fab1", "up")
	ipShow(t, ns, "addr", "add", "10.1.1.3/31", "dev", "fab0")
	ipShow(t, ns, "addr", "add", "10.2.2.3/31", "dev", "fab1")
	ipShow(t, ns, "addr", "add", "fd00::1/127", "dev", "fab1", "nodad")
	for _, r := range [][]string{
		{"-4", "route", "add", "10.1.0.0/24", "via", "10.1.1.2", "dev", "fab0", "proto", "173"},
		{"-4", "route", "add", "10.1.0.0/24", "via", "10.1.1.2", "dev", "fab0", "metric", "100"},
		{"-4", "route", "add", "10.1.7.0/24", "via", "10.1.1.2", "dev", "fab0", "proto", "static"},
		{"-4", "route", "add", "default", "via", "10.1.1.2", "dev", "fab0", "table", "1001", "proto", "173"},
		{"-4", "route", "add", "blackhole", "10.1.9.0/24", "table", "1005", "proto", "173"},
		{"-4", "route", "add", "10.1.6.0/24", "proto", "173", "nexthop", "via", "10.1.1.2", "dev", "fab0", "nexthop", "via", "10.2.2.2", "dev", "fab1"},
		{"-6", "route", "add", "fd00:9::/64", "via", "fd00::", "dev", "fab1", "proto", "173"},
		{"-4", "rule", "add", "from", "10.1.1.3", "table", "1001", "priority", "1001", "protocol", "173"},
		{"-4", "rule", "add", "from", "10.1.1.3", "table", "1001", "priority", "1001"},
		{"-6", "rule", "add", "from", "fd00::1", "table", "1002", "priority", "1002", "protocol", "173"},
	} {
		ipShow(t, ns, r...)
	}
	state := func() string {
		return ipShow(t, ns, "-4", "route", "show", "table", "all") + ipShow(t, ns, "-6", "route", "show", "table", "all") +
			ipShow(t, ns, "-4", "rule", "show") + ipShow(t, ns, "-6", "rule", "show")
	}
	gone := fixture()
	gone.Hosts[2].NICs = []model.NIC{fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "10.1.1.3/31")}
	gone.Hosts[2].Tuning = false
	s := render(t, gone, 2)
	if !strings.Contains(s, "\nroute_flush -4\nroute_flush -6\n") || strings.Contains(s, "\nroute_prune() {") || strings.Contains(s, "\nowned_routes() {") {
		t.Fatalf("the script of a host without routes does not use route_flush alone:\n%s", s)
	}
	before := state()
	out, err := runScript(t, s, ns, "--check")
	for _, w := range []string{
		"DIFF routes route 10.1.0.0/24: intended absent; actual 10.1.0.0/24 via 10.1.1.2 dev fab0 (fabricc's, proto 173)\n",
		"DIFF routes route default: intended absent; actual default via 10.1.1.2 dev fab0 table 1001 (fabricc's, proto 173)\n",
		"DIFF routes route 10.1.9.0/24: intended absent; actual blackhole 10.1.9.0/24 table 1005 (fabricc's, proto 173)\n",
		"DIFF routes route 10.1.6.0/24: intended absent; actual 10.1.6.0/24, nexthop via 10.1.1.2 dev fab0 weight 1, nexthop via 10.2.2.2 dev fab1 weight 1 (fabricc's, proto 173)\n",
		"DIFF routes route fd00:9::/64: intended absent; actual fd00:9::/64 via fd00:: dev fab1 metric 1024 pref medium (fabricc's, proto 173)\n",
		"DIFF rules rule 1001: intended absent; actual from 10.1.1.3 lookup 1001 (fabricc's, proto 173)\n",
		"DIFF rules rule 1002: intended absent; actual from fd00::1 lookup 1002 (fabricc's, proto 173)\n",
	} {
		if err == nil || !strings.Contains(out, w) {
			t.Errorf("--check lacks %q (err %v):\n%s", w, err, out)
		}
	}
	if strings.Count(out, "DIFF routes ") != 5 || strings.Count(out, "DIFF rules ") != 2 {
		t.Errorf("--check reports other routes or rules:\n%s", out)
	}
	if got := state(); got != before {
		t.Errorf("--check changed routes or rules:\n%s\nwas\n%s", got, before)
	}
	out, _ = runScript(t, s, ns, "--dry-run")
	for _, w := range []string{
		"would run: ip -4 route flush exact 10.1.0.0/24 table all proto 173\n",
		"would run: ip -4 route flush exact default table all proto 173\n",
		"would run: ip -4 route flush exact 10.1.9.0/24 table all proto 173\n",
		"would run: ip -4 route flush exact 10.1.6.0/24 table all proto 173\n",
		"would run: ip -6 route flush exact fd00:9::/64 table all proto 173\n",
		"would run: ip -4 rule del priority 1001 protocol 173\n",
		"would run: ip -6 rule del priority 1002 protocol 173\n",
		"(7 of them would remove routes or rules of an earlier run that the fabric no longer has)\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--dry-run lacks %q:\n%s", w, out)
		}
	}
	if got := state(); got != before {
		t.Errorf("--dry-run changed routes or rules:\n%s\nwas\n%s", got, before)
	}
	out, err = runScript(t, s, ns)
	if err != nil || !strings.Contains(out, "set routes route 10.1.6.0/24: 10.1.6.0/24, nexthop via 10.1.1.2 dev fab0 weight 1, nexthop via 10.2.2.2 dev fab1 weight 1 (fabricc's, proto 173) -> absent\n") ||
		!strings.Contains(out, "(7 of them removed routes or rules of an earlier run that the fabric no longer has)\n") {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, fam := range []string{"-4", "-6"} {
		if got := ipShow(t, ns, fam, "route", "show", "table", "all", "proto", "173"); got != "" {
			t.Errorf("routes of fabricc's left (%s): %q", fam, got)
		}
	}
	routes := ipShow(t, ns, "-4", "route", "show", "table", "all")
	for _, w := range []string{"10.1.0.0/24 via 10.1.1.2 dev fab0 metric 100 \n", "10.1.7.0/24 via 10.1.1.2 dev fab0 proto static \n", "fd00::/127"} {
		if !strings.Contains(routes+ipShow(t, ns, "-6", "route", "show"), w) {
			t.Errorf("another tool's route %q went:\n%s", w, routes)
		}
	}
	if rules := ipShow(t, ns, "-4", "rule", "show"); !strings.Contains(rules, "1001:\tfrom 10.1.1.3 lookup 1001 \n") && !strings.Contains(rules, "1001:\tfrom 10.1.1.3 lookup 1001\n") || strings.Contains(rules, "proto 173") {
		t.Errorf("IPv4 rules after the run:\n%s", rules)
	}
	if rules := ipShow(t, ns, "-6", "rule", "show"); strings.Contains(rules, "1002:") {
		t.Errorf("IPv6 rule 1002 left:\n%s", rules)
	}
	after := state()
	if out, err = runScript(t, s, ns); err != nil || strings.Contains("\n"+out, "\nset ") {
		t.Errorf("a second run changed something: %v\n%s", err, out)
	}
	if got := state(); got != after {
		t.Errorf("a second run changed routes or rules:\n%s\nwas\n%s", got, after)
	}
}

// TestNetnsRouteFlushNoNIC: the script of a host the fabric leaves
// without NICs carries none of the NICs' helpers (nic_enter, nic_leave,
// nm_note, link_exists, missing_link, link_state, pfc_diff), which only
// NIC steps call, while a host with a NIC carries each; it still runs,
// and removes an earlier run's route.
func TestNetnsRouteFlushNoNIC(t *testing.T) {
	helpers := []string{"nic_enter", "nic_leave", "nm_note", "link_exists", "missing_link", "link_state", "pfc_diff", "pfc_prios", "pfc_words"}
	withNIC := render(t, fixture(), 2)
	f := fixture()
	f.Hosts[2].NICs = nil
	f.Hosts[2].Tuning = false // tuning writes files outside the namespace
	s := render(t, f, 2)
	for _, h := range helpers {
		if !strings.Contains(withNIC, "\n"+h+"() {") {
			t.Errorf("a host with a NIC lacks %s", h)
		}
		if strings.Contains(s, "\n"+h+"() {") {
			t.Errorf("a host without NICs carries %s", h)
		}
	}
	ns := newNetns(t)
	ipShow(t, ns, "link", "set", "fab0", "up")
	ipShow(t, ns, "addr", "add", "10.1.1.3/31", "dev", "fab0")
	ipShow(t, ns, "route", "add", "10.1.0.0/24", "via", "10.1.1.2", "dev", "fab0", "proto", "173")
	w := "DIFF routes route 10.1.0.0/24: intended absent; actual 10.1.0.0/24 via 10.1.1.2 dev fab0 linkdown (fabricc's, proto 173)\n"
	if out, err := runScript(t, s, ns, "--check"); err == nil || !strings.Contains(out, w) || strings.Contains(out, "command not found") {
		t.Errorf("--check: %v\n%s", err, out)
	}
	if out, err := runScript(t, s, ns); err != nil || !strings.Contains(out, "fabricc: 1 change(s) applied (1 of them removed routes or rules of an earlier run that the fabric no longer has)\n") {
		t.Errorf("run: %v\n%s", err, out)
	}
	if got := ipShow(t, ns, "-4", "route", "show", "table", "all", "proto", "173"); got != "" {
		t.Errorf("routes of fabricc's left: %q", got)
	}
}
