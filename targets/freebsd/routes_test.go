package freebsd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// routedHosts compiles examples/routed-hosts and returns its fabric and
// the host named name.
func routedHosts(t *testing.T, name string) (*model.Fabric, *model.Host) {
	t.Helper()
	cfg, _, diags := dsl.Load(filepath.Join("..", "..", "examples", "routed-hosts"), dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("routed-hosts: %v", diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("routed-hosts: %v", diags)
	}
	for i := range f.Hosts {
		if f.Hosts[i].Name == name {
			return f, &f.Hosts[i]
		}
	}
	t.Fatalf("no host %s", name)
	return nil, nil
}

// bak01Routes are the main-table prefixes of examples/routed-hosts' bak01
// (10.20.1.63/31 on mce0, gateway 10.20.1.62): the gpu servers' four /31s
// of rail 1 collapse to 10.20.1.0/29, stor01's 10.20.1.60/31 and bak01's
// own 10.20.1.62/31 to 10.20.1.60/30.
var bak01Routes = []string{"10.20.1.0/29", "10.20.1.60/30", "10.20.2.0/29", "10.20.2.62/31", "10.20.9.1/32"}

// TestRoutedHostRouteLines: a FreeBSD NIC with a route gets, per
// main-table prefix, the route(8) step now and rc.conf's static_routes
// and route_NAME (FreeBSD Handbook, "Gateways and Routes"; rc.conf(5):
// rc.d/routing runs "route add" with route_NAME's value) for boot, its
// names in one static_routes line. Before, the script set no route.
func TestRoutedHostRouteLines(t *testing.T) {
	f, h := routedHosts(t, "bak01")
	if got := h.NICs[0].Route.Prefixes; strings.Join(got, " ") != strings.Join(bak01Routes, " ") {
		t.Fatalf("prefixes %v, want %v", got, bak01Routes)
	}
	out, err := Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s, rc := string(out[0].Data), string(out[1].Data)
	for _, w := range []string{
		"\trc_member static_routes 'fabricc_mce0_1'\n",
		"\tensure rc.conf route_fabricc_mce0_1 '-net 10.20.1.0/29 10.20.1.62' \"$(rc_get route_fabricc_mce0_1)\" rc_set route_fabricc_mce0_1 '-net 10.20.1.0/29 10.20.1.62'\n",
		"\t_rt=$(route_state -inet 10.20.1.0/29)\n\tensure mce0 'route 10.20.1.0/29' '10.20.1.62 on mce0' \"$_rt\" route \"$(route_verb \"$_rt\")\" -net 10.20.1.0/29 10.20.1.62\n",
		"\t_rt=$(route_state -inet 10.20.1.60/30)\n\tensure mce0 'route 10.20.1.60/30' '10.20.1.62 on mce0' \"$_rt\" route \"$(route_verb \"$_rt\")\" -net 10.20.1.60/30 10.20.1.62\n",
		"\t\t/etc/rc.conf route_fabricc_mce0_5 whole '-net 10.20.9.1/32 10.20.1.62' || return 0\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("script lacks\n%s", w)
		}
	}
	want := "static_routes=\"fabricc_mce0_1 fabricc_mce0_2 fabricc_mce0_3 fabricc_mce0_4 fabricc_mce0_5\"\n" +
		"route_fabricc_mce0_1=\"-net 10.20.1.0/29 10.20.1.62\"\n" +
		"route_fabricc_mce0_2=\"-net 10.20.1.60/30 10.20.1.62\"\n" +
		"route_fabricc_mce0_3=\"-net 10.20.2.0/29 10.20.1.62\"\n" +
		"route_fabricc_mce0_4=\"-net 10.20.2.62/31 10.20.1.62\"\n" +
		"route_fabricc_mce0_5=\"-net 10.20.9.1/32 10.20.1.62\"\n"
	if !strings.HasSuffix(rc, want) || strings.Count(rc, "static_routes=") != 1 {
		t.Errorf("rc.conf fragment\n%s\nwant it to end with\n%s", rc, want)
	}
	// The route steps come after the addresses, whose subnet holds the gateway.
	if strings.Index(s, "ensure mce0 'route ") < strings.Index(s, "ensure mce0 'address 10.20.1.63/31'") {
		t.Error("a route step comes before the NIC's address")
	}
}

// TestRouteArgsPerFamily: IPv6 routes go through -inet6 and
// ipv6_static_routes (rc.d/routing adds -inet6 itself, so
// ipv6_route_NAME has none), an IPv4 route via a link-local gateway is
// "-net PREFIX -inet6 GW%IF" (RFC 5549, route(8) of FreeBSD 13.1 and
// later), on the VLAN interface that carries the addresses.
func TestRouteArgsPerFamily(t *testing.T) {
	f := fixture()
	n := &f.Hosts[1].NICs[0] // mce0, VLAN 2: addresses on mce0.2
	n.Route = &model.NICRoute{Gateway: "fe80::1", Source: "10.30.0.1", Prefixes: []string{"10.40.0.0/16"}}
	m := files(t, f, 1)
	if w := "route_fabricc_mce0_2_1=\"-net 10.40.0.0/16 -inet6 fe80::1%mce0.2\"\n"; !strings.Contains(m["nas5.rc.conf"], w) {
		t.Errorf("rc.conf lacks %q:\n%s", w, m["nas5.rc.conf"])
	}
	if w := "ensure mce0.2 'route 10.40.0.0/16' 'fe80::1 on mce0.2' \"$_rt\" route \"$(route_verb \"$_rt\")\" -net 10.40.0.0/16 -inet6 fe80::1%mce0.2\n"; !strings.Contains(m["nas5.freebsd.sh"], w) {
		t.Errorf("script lacks %q", w)
	}
	n.Route = &model.NICRoute{Gateway: "2001:db8::fe", Source: "2001:db8::1", Prefixes: []string{"2001:db8:40::/48"}}
	m = files(t, f, 1)
	for _, w := range []string{"ipv6_static_routes=\"fabricc_mce0_2_1\"\n", "ipv6_route_fabricc_mce0_2_1=\"-net 2001:db8:40::/48 2001:db8::fe\"\n"} {
		if !strings.Contains(m["nas5.rc.conf"], w) {
			t.Errorf("rc.conf lacks %q:\n%s", w, m["nas5.rc.conf"])
		}
	}
	if w := "\t_rt=$(route_state -inet6 2001:db8:40::/48)\n\tensure mce0.2 'route 2001:db8:40::/48' '2001:db8::fe on mce0.2' \"$_rt\" route \"$(route_verb \"$_rt\")\" -inet6 -net 2001:db8:40::/48 2001:db8::fe\n"; !strings.Contains(m["nas5.freebsd.sh"], w) {
		t.Errorf("script lacks %q", w)
	}
}

// TestRouteRefusesNonAddress: a gateway or prefix that is not an IP
// address or CIDR prefix never reaches route(8) or rc.conf.
func TestRouteRefusesNonAddress(t *testing.T) {
	for _, r := range []model.NICRoute{
		{Gateway: "10.0.0.1; reboot", Prefixes: []string{"10.1.0.0/16"}},
		{Gateway: "10.0.0.1", Prefixes: []string{"10.1.0.0/16 10.9.9.9"}},
		{Gateway: "10.0.0.1", Prefixes: []string{"10.1.0.1/16"}},
	} {
		f := fixture()
		rr := r
		f.Hosts[1].NICs[0].Route = &rr
		if _, err := Render(f, &f.Hosts[1]); err == nil {
			t.Errorf("route %+v rendered", r)
		}
	}
}

// fakeRoute is route(8) over state files route.PREFIX ('/' and ':' as
// '_') holding what "route -n get" prints, in the form of FreeBSD
// sbin/route/route.c print_getmsg. A /32 with no host route of its own
// gets the default route, as the kernel's longest match answers a
// lookup without a netmask (sys/net/rtsock.c, handle_rtm_get). add and
// change are logged and fail as the kernel does on a route that is
// there (add) or not (change, delete); delete removes the route.
const fakeRoute = `#!/bin/sh
key() { printf '%s' "$1" | tr '/:' '__'; }
if [ "$1" = -n ] && [ "$2" = get ]; then
	f="$FAKES/route.$(key "$5")"
	if [ -f "$f" ]; then
		cat "$f"
		exit 0
	fi
	case $5 in
	*/32) printf '   route to: %s\ndestination: default\n       mask: default\n    gateway: 192.0.2.1\n        fib: 0\n  interface: igb0\n      flags: <UP,GATEWAY,DONE,STATIC>\n' "${5%/*}"; exit 0 ;;
	esac
	echo "route: route has not been found" >&2
	exit 1
fi
echo "route $*" >>"$FAKES/log"
cmd=$1
shift
[ "$1" != -inet6 ] || shift
[ "$1" = -net ] || exit 64
p=$2
shift 2
[ "$1" != -inet6 ] || shift
f="$FAKES/route.$(key "$p")"
if [ "$cmd" = delete ]; then [ -f "$f" ] || { echo "route: writing to routing socket: No such process" >&2; exit 1; }; rm -f "$f"; exit 0; fi
if [ "$cmd" = add ] && [ -f "$f" ]; then echo "route: writing to routing socket: File exists" >&2; exit 1; fi
if [ "$cmd" = change ] && [ ! -f "$f" ]; then echo "route: writing to routing socket: No such process" >&2; exit 1; fi
flags='<UP,GATEWAY,DONE,STATIC>'
case $p in */32 | */128) flags='<UP,GATEWAY,HOST,DONE,STATIC>' ;; esac
printf '   route to: %s\ndestination: %s\n    gateway: %s\n        fib: 0\n  interface: mce0\n      flags: %s\n' "${p%/*}" "${p%/*}" "$1" "$flags" >"$f"
`

// TestRoutesOnFakeHost runs bak01's script over fake tools: --check
// reports each missing route, --dry-run prints route add, a run adds the
// missing ones, changes the one via another gateway, leaves the one
// already right, and puts the names into static_routes beside the
// host's own; the next run changes no route and --check finds no route differing.
func TestRoutesOnFakeHost(t *testing.T) {
	f, h := routedHosts(t, "bak01")
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0")
	fh.mlx5OIDs("0")
	fh.write("route", fakeRoute)
	if err := os.Chmod(filepath.Join(fh.dir, "route"), 0o755); err != nil {
		t.Fatal(err)
	}
	fh.write("route.10.20.1.0_29", "   route to: 10.20.1.0\ndestination: 10.20.1.0\n       mask: 255.255.255.248\n    gateway: 10.20.1.62\n        fib: 0\n  interface: mce0\n      flags: <UP,GATEWAY,DONE,STATIC>\n")
	fh.write("route.10.20.2.0_29", "   route to: 10.20.2.0\ndestination: 10.20.2.0\n       mask: 255.255.255.248\n    gateway: 10.20.1.99\n        fib: 0\n  interface: mce0\n      flags: <UP,GATEWAY,DONE,STATIC>\n")
	fh.write("rc.static_routes", "lan\n")

	out, _, code := fh.run(s, "--check")
	for _, w := range []string{
		"DIFF mce0 route 10.20.1.60/30: intended 10.20.1.62 on mce0; actual absent\n",
		"DIFF mce0 route 10.20.2.0/29: intended 10.20.1.62 on mce0; actual 10.20.1.99 on mce0\n",
		"DIFF mce0 route 10.20.9.1/32: intended 10.20.1.62 on mce0; actual absent\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--check lacks %q:\n%s", w, out)
		}
	}
	if code != 3 || strings.Contains(out, "route 10.20.1.0/29") {
		t.Errorf("--check exit %d (want 3), or it reports the route that is right:\n%s", code, out)
	}
	out, _, _ = fh.run(s, "--dry-run")
	for _, w := range []string{"would run: route add -net 10.20.1.60/30 10.20.1.62\n", "would run: route change -net 10.20.2.0/29 10.20.1.62\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("--dry-run lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(fh.read("log"), "route ") {
		t.Errorf("--check or --dry-run ran route:\n%s", fh.read("log"))
	}

	out, errs, code := fh.run(s)
	if code != 0 {
		t.Fatalf("run exit %d:\n%s%s", code, out, errs)
	}
	var routes []string
	for _, l := range strings.Split(fh.read("log"), "\n") {
		if strings.HasPrefix(l, "route ") {
			routes = append(routes, l)
		}
	}
	want := []string{"route add -net 10.20.1.60/30 10.20.1.62", "route change -net 10.20.2.0/29 10.20.1.62", "route add -net 10.20.2.62/31 10.20.1.62", "route add -net 10.20.9.1/32 10.20.1.62"}
	if strings.Join(routes, "\n") != strings.Join(want, "\n") {
		t.Errorf("route commands\n%s\nwant\n%s", strings.Join(routes, "\n"), strings.Join(want, "\n"))
	}
	if got := fh.read("rc.static_routes"); got != "lan fabricc_mce0_1 fabricc_mce0_2 fabricc_mce0_3 fabricc_mce0_4 fabricc_mce0_5\n" {
		t.Errorf("static_routes %q", got)
	}
	if got := fh.read("rc.route_fabricc_mce0_2"); got != "-net 10.20.1.60/30 10.20.1.62\n" {
		t.Errorf("route_fabricc_mce0_2 %q", got)
	}
	fh.write("log", "")
	if out, errs, code := fh.run(s); code != 0 || strings.Contains(fh.read("log"), "route ") {
		t.Errorf("second run exit %d changed routes:\n%s%s%s", code, fh.read("log"), out, errs)
	}
	// The fake ifconfig keeps no MTU or address it is given: only the
	// routes and rc.conf must read back as the model's.
	if out, _, _ := fh.run(s, "--check"); strings.Contains(out, "route") {
		t.Errorf("--check after the run still finds a route or static_routes difference:\n%s", out)
	}
}

// getmsg is "route -n get" output as FreeBSD sbin/route/route.c
// print_getmsg prints it: route to, destination, mask (not for a host
// route), gateway (for RTF_GATEWAY), fib, interface, flags, metrics.
func getmsg(to, dst, mask, gw, ifc, flags string) string {
	s := "   route to: " + to + "\ndestination: " + dst + "\n"
	if mask != "" {
		s += "       mask: " + mask + "\n"
	}
	s += "    gateway: " + gw + "\n        fib: 0\n  interface: " + ifc + "\n      flags: " + flags + "\n" +
		" recvpipe  sendpipe  ssthresh  rtt,msec    mtu        weight    expire\n       0         0         0         0      9216         1         0 \n"
	return s
}

// TestRouteState reads the route to exactly a prefix from route get: a
// net route's own (the kernel looks a prefix with a netmask up exactly,
// sys/net/rtsock.c handle_rtm_get), a /32's own host route but not the
// less specific route the kernel's longest match gives for a /32 (no
// netmask is sent for it), a link-local gateway without its %scope, and
// absent when route get finds nothing.
func TestRouteState(t *testing.T) {
	tests := []struct{ prefix, out, want string }{
		{"10.20.1.0/29", getmsg("10.20.1.0", "10.20.1.0", "255.255.255.248", "10.20.1.62", "mce0", "<UP,GATEWAY,DONE,STATIC>"), "10.20.1.62 on mce0"},
		{"10.20.9.1/32", getmsg("10.20.9.1", "10.20.9.1", "", "10.20.1.62", "mce0", "<UP,GATEWAY,HOST,DONE,STATIC>"), "10.20.1.62 on mce0"},
		{"10.20.9.0/32", getmsg("10.20.9.0", "10.20.9.0", "255.255.255.0", "10.20.1.99", "mce0", "<UP,GATEWAY,DONE,STATIC>"), "absent"},
		{"10.20.9.1/32", getmsg("10.20.9.1", "default", "default", "192.0.2.1", "igb0", "<UP,GATEWAY,DONE,STATIC>"), "absent"},
		{"10.40.0.0/16", getmsg("10.40.0.0", "10.40.0.0", "255.255.0.0", "fe80::1%mce0", "mce0", "<UP,GATEWAY,DONE,STATIC>"), "fe80::1 on mce0"},
		{"2001:db8:40::/48", getmsg("2001:db8:40::", "2001:db8:40::", "ffff:ffff:ffff::", "2001:db8::fe", "mce0", "<UP,GATEWAY,DONE,STATIC>"), "2001:db8::fe on mce0"},
		{"10.20.1.0/29", "", "absent"},
	}
	for _, tc := range tests {
		route := "#!/bin/sh\necho 'route: route has not been found' >&2\nexit 1\n"
		if tc.out != "" {
			route = printer(tc.out)
		}
		if got := readValue(t, map[string]string{"route": route}, "route_state -inet "+tc.prefix); got != tc.want {
			t.Errorf("route_state %s over\n%s= %q, want %q", tc.prefix, tc.out, got, tc.want)
		}
	}
}

// TestRoutesForgetOnFakeHost: rc.conf's fabricc_ names are the script's,
// so a second build of bak01 with a prefix fewer (10.20.1.60/30, the
// second: the names after it move up one) removes the name that is left
// over, fabricc_mce0_5, from static_routes and its route_ variable
// (sysrc -=, sysrc -x), and deletes the live route of the prefix the
// fabric no longer routes, whose rc.conf entry said exactly that
// destination and gateway, as rc.d/routing's stop would; the route of
// 10.20.9.1/32, which the fabric still has, stays, and so do the host's
// own name lan, its route_lan, and a route to the dropped prefix via
// another gateway than the entry said. --check and --dry-run change
// nothing.
func TestRoutesForgetOnFakeHost(t *testing.T) {
	f, h := routedHosts(t, "bak01")
	first := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0")
	fh.mlx5OIDs("0")
	fh.write("route", fakeRoute)
	if err := os.Chmod(filepath.Join(fh.dir, "route"), 0o755); err != nil {
		t.Fatal(err)
	}
	fh.write("rc.static_routes", "lan\n")
	fh.write("rc.route_lan", "-net 192.168.0.0/16 192.0.2.1\n")
	if out, errs, code := fh.run(first); code != 0 {
		t.Fatalf("first run exit %d:\n%s%s", code, out, errs)
	}

	n := &h.NICs[0]
	n.Route.Prefixes = slices.Delete(slices.Clone(n.Route.Prefixes), 1, 2)
	second := hostScript(t, f, h)
	if w := "routes_forget static_routes route_ 'fabricc_mce0_1 fabricc_mce0_2 fabricc_mce0_3 fabricc_mce0_4' '10.20.1.0/29 10.20.2.0/29 10.20.2.62/31 10.20.9.1/32'\n"; !strings.Contains(second, w) {
		t.Errorf("second script lacks %q", w)
	}
	fh.write("log", "")
	out, _, code := fh.run(second, "--check")
	for _, w := range []string{
		"DIFF mce0 route 10.20.1.60/30 (fabricc_mce0_2): intended absent; actual 10.20.1.62 on mce0\n",
		"DIFF rc.conf static_routes: intended no fabricc_mce0_5; actual has fabricc_mce0_5\n",
		"DIFF rc.conf route_fabricc_mce0_5: intended unset; actual -net 10.20.9.1/32 10.20.1.62\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--check lacks %q:\n%s", w, out)
		}
	}
	if code != 3 || strings.Contains(out, "10.20.9.1/32 (") || strings.Contains(out, "lan") {
		t.Errorf("--check exit %d (want 3), or it would remove a route the fabric has or the host's own:\n%s", code, out)
	}
	out, _, _ = fh.run(second, "--dry-run")
	for _, w := range []string{
		"would run: route delete -net 10.20.1.60/30 10.20.1.62\n",
		"would run: sysrc static_routes-=fabricc_mce0_5\n",
		"would run: sysrc -x route_fabricc_mce0_5\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("--dry-run lacks %q:\n%s", w, out)
		}
	}
	if got := fh.read("log"); got != "" {
		t.Errorf("--check or --dry-run changed the host:\n%s", got)
	}

	out, errs, code := fh.run(second)
	if code != 0 {
		t.Fatalf("second run exit %d:\n%s%s", code, out, errs)
	}
	log := fh.read("log")
	for _, w := range []string{"route delete -net 10.20.1.60/30 10.20.1.62\n", "sysrc static_routes-=fabricc_mce0_5\n", "sysrc -x route_fabricc_mce0_5\n"} {
		if !strings.Contains(log, w) {
			t.Errorf("run log lacks %q:\n%s", w, log)
		}
	}
	if strings.Contains(log, "route delete -net 10.20.9.1/32") || strings.Contains(log, "route_lan") {
		t.Errorf("the run removed a route the fabric has, or the host's own:\n%s", log)
	}
	if got := fh.read("rc.static_routes"); got != "lan fabricc_mce0_1 fabricc_mce0_2 fabricc_mce0_3 fabricc_mce0_4\n" {
		t.Errorf("static_routes %q", got)
	}
	if got := fh.read("rc.route_fabricc_mce0_4"); got != "-net 10.20.9.1/32 10.20.1.62\n" {
		t.Errorf("route_fabricc_mce0_4 %q", got)
	}
	if _, err := os.Stat(filepath.Join(fh.dir, "rc.route_fabricc_mce0_5")); err == nil {
		t.Error("route_fabricc_mce0_5 is still in rc.conf")
	}
	if _, err := os.Stat(filepath.Join(fh.dir, "route.10.20.9.1_32")); err != nil {
		t.Error("the live route to 10.20.9.1/32, which the fabric still has, is gone")
	}
	if _, err := os.Stat(filepath.Join(fh.dir, "route.10.20.1.60_30")); err == nil {
		t.Error("the live route to 10.20.1.60/30 is still there")
	}
	if got := fh.read("rc.route_lan"); got != "-net 192.168.0.0/16 192.0.2.1\n" {
		t.Errorf("route_lan %q", got)
	}
	fh.write("log", "")
	if out, _, code := fh.run(second, "--check"); strings.Contains(out, "fabricc_mce0_5") || strings.Contains(out, "(fabricc_") {
		t.Errorf("--check after the run (exit %d) still finds a stale route:\n%s", code, out)
	}
}

// TestRouteForgetKeepsAnotherGateway: a live route to the left-over
// entry's prefix via another gateway than the entry said is not the
// entry's: the name goes from rc.conf, the route stays.
func TestRouteForgetKeepsAnotherGateway(t *testing.T) {
	fakes := map[string]string{
		"route": printer(getmsg("10.20.1.60", "10.20.1.60", "255.255.255.252", "10.20.1.99", "mce0", "<UP,GATEWAY,DONE,STATIC>")),
	}
	if got := readValue(t, fakes, "MODE=check; route_forget static_routes fabricc_mce0_2 '-net 10.20.1.60/30 10.20.1.62' ''; echo \"diffs $DIFFS\""); got != "diffs 0" {
		t.Errorf("route via another gateway: %q, want no difference", got)
	}
	if got := readValue(t, fakes, "MODE=check; route_forget static_routes fabricc_mce0_2 '-net 10.20.1.60/30 10.20.1.99' ''"); got != "DIFF mce0 route 10.20.1.60/30 (fabricc_mce0_2): intended absent; actual 10.20.1.99 on mce0" {
		t.Errorf("route via the entry's gateway: %q", got)
	}
}
