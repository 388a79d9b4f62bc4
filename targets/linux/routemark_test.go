package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeIP is an ip that logs its arguments to $FAKES/ip.log, answers
// "rule help" with help (on standard error, exit 255, as ip does),
// refuses -N unless numeric, prints rules for "rule show" (named when
// called without -N) and nothing for any other command.
func fakeIP(help string, numeric bool, rulesNamed, rulesNumeric string) string {
	n := "echo 'Option \"-N\" is unknown, try \"ip -help\".' >&2; exit 255"
	if numeric {
		n = "cat <<'FABRICC_EOF'\n" + rulesNumeric + "FABRICC_EOF\n"
	}
	return "#!/bin/sh\necho \"$*\" >>\"$FAKES/ip.log\"\ncase \"$*\" in\n" +
		"'rule help') cat >&2 <<'FABRICC_EOF'\n" + help + "FABRICC_EOF\nexit 255 ;;\n" +
		"-N*) " + n + " ;;\n" +
		"'-4 rule show') cat <<'FABRICC_EOF'\n" + rulesNamed + "FABRICC_EOF\n;;\nesac\nexit 0\n"
}

// ipRuleHelp415 is the start and ACTION part of ip rule help of iproute2
// 4.15 (ip/iprule.c usage at v4.15.0), before protocol came in 4.17.
const ipRuleHelp415 = "Usage: ip rule { add | del } SELECTOR ACTION\n" +
	"ACTION := [ table TABLE_ID ]\n          [ nat ADDRESS ]\n          [ realms [SRCREALM/]DSTREALM ]\n          [ goto NUMBER ]\n          SUPPRESSOR\n"

// ipRuleHelp61 is that of iproute2 6.1, which lists protocol.
const ipRuleHelp61 = "Usage: ip rule { add | del } SELECTOR ACTION\n" +
	"ACTION := [ table TABLE_ID ]\n          [ protocol PROTO ]\n          [ nat ADDRESS ]\n          [ realms [SRCREALM/]DSTREALM ]\n          [ goto NUMBER ]\n          SUPPRESSOR\n"

// TestRuleMarkOldIP: an ip whose rule help lacks protocol (iproute2
// before 4.17 refuses the word) gets the NIC's rule without the mark, and
// route_prune looks for no rule of its own (it could have marked none);
// a newer ip gets "protocol 173".
func TestRuleMarkOldIP(t *testing.T) {
	rules := "0:\tfrom all lookup local\n1002:\tfrom 10.1.1.9 lookup 1002 proto 173\n32766:\tfrom all lookup main\n"
	body := "MODE=apply; journal() { :; }\nnic_route fab0 -4 1001 1001 10.1.1.3 10.1.1.2 | grep note: || true\nroute_prune -4 1001 1001 ''\ncat \"$FAKES/ip.log\"\n"
	for _, tc := range []struct {
		name, help, add string
		pruned          bool
	}{
		{"iproute2 4.15", ipRuleHelp415, "-4 rule add from 10.1.1.3/32 table 1001 priority 1001\n", false},
		{"iproute2 6.1", ipRuleHelp61, "-4 rule add from 10.1.1.3/32 table 1001 priority 1001 protocol 173\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := hostRun(t, map[string]string{"ip": fakeIP(tc.help, true, rules, rules)}, body)
			if err != nil || !strings.Contains(out, "\n"+tc.add) {
				t.Errorf("want %q: %v\n%s", tc.add, err, out)
			}
			note := "note: fab0: rule 1001 carries no protocol 173 mark (ip rule takes protocol from iproute2 4.17 on): a later run will not remove it once the fabric drops it (ip -4 rule del priority 1001)\n"
			if got := strings.Contains(out, note); got == tc.pruned {
				t.Errorf("note %v, want %v:\n%s", got, !tc.pruned, out)
			}
			if got := strings.Contains(out, "-4 rule del priority 1002 protocol 173\n"); got != tc.pruned {
				t.Errorf("rule 1002 removed %v, want %v:\n%s", got, tc.pruned, out)
			}
		})
	}
}

// TestOwnedRulesNamedProto: where rt_protos names 173, ip prints the
// name, and owned_rules still finds the script's rules: through ip -N
// (the number) when ip takes it.
func TestOwnedRulesNamedProto(t *testing.T) {
	named := "0:\tfrom all lookup local\n1002:\tfrom 10.1.1.9 lookup 1002 proto site\n"
	numeric := "0:\tfrom all lookup local\n1002:\tfrom 10.1.1.9 lookup 1002 proto 173\n"
	got := readValue(t, map[string]string{"ip": fakeIP(ipRuleHelp61, true, named, numeric)}, "owned_rules -4")
	if want := "1002\tfrom 10.1.1.9 lookup 1002\n"; got != want {
		t.Errorf("owned_rules = %q, want %q", got, want)
	}
}

// TestNetnsOwnedRulesRtProtos: without ip -N, the name rt_protos gives
// 173 is read from /etc/iproute2/rt_protos (bound over in a private mount
// namespace) and accepted as the mark.
func TestNetnsOwnedRulesRtProtos(t *testing.T) {
	ns := newNetns(t)
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare not installed")
	}
	if _, err := os.Stat("/etc/iproute2/rt_protos"); err != nil {
		t.Skip("no /etc/iproute2/rt_protos to bind over")
	}
	dir := t.TempDir()
	protos := filepath.Join(dir, "rt_protos")
	if err := os.WriteFile(protos, []byte("4\tstatic\n173\tsite\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ipShow(t, ns, "rule", "add", "from", "10.1.1.9", "table", "1002", "priority", "1002", "protocol", "173")
	script := "set -euo pipefail\n" + allPrelude() + "\nIP_NUMERIC=()\nip rule show | grep 1002:\nowned_rules -4\n"
	path := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("unshare", "-m", "sh", "-c", "mount --bind \"$1\" /etc/iproute2/rt_protos && exec ip netns exec \"$2\" bash \"$3\"", "sh", protos, ns, path).CombinedOutput()
	if err != nil {
		t.Skipf("private mount namespace: %v\n%s", err, out)
	}
	want := "1002:\tfrom 10.1.1.9 lookup 1002 proto site\n1002\tfrom 10.1.1.9 lookup 1002\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
