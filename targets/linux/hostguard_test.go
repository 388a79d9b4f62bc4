package linux

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHostNameLine: the script names its host in HOST_NAME as one shell
// word in single quotes (a plain one too: shellcheck reads a bare
// NAME=a-b as arithmetic, SC2100), a hostile one escaped so that bash
// reads it literally.
func TestHostNameLine(t *testing.T) {
	tests := []struct{ name, want string }{
		{"stor1", "\nHOST_NAME='stor1'\n"},
		{"rack1-gpu01", "\nHOST_NAME='rack1-gpu01'\n"},
		{"h'$(touch /x)`id`\n", "\nHOST_NAME='h'\\''$(touch /x)`id`\n'\n"},
	}
	for _, tc := range tests {
		f, _ := bootFixture("f")
		f.Hosts[2].Name = tc.name
		if s := render(t, f, 2); !strings.Contains(s, tc.want) {
			t.Errorf("host %q: script lacks %q", tc.name, tc.want)
		}
	}
}

// TestNetnsHostGuard runs stor1's script where uname -n is another name:
// a run stops with status 1 before its first change (the MTU stays
// 1500), --check reports the host name with the other differences,
// --dry-run notes it, and --any-host or FABRICC_ANY_HOST=1 go on with a
// note. The first label and case of the name do not matter.
func TestNetnsHostGuard(t *testing.T) {
	ns := newNetns(t)
	f, _ := bootFixture("f")
	path := writeScript(t, render(t, f, 2))
	const stop = "fabricc: error: this host's name (uname -n) is cn002, not stor1, the host this script is for; nothing was changed: use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)\n"
	const other = "note: this host's name (uname -n) is cn002, not stor1, the host this script is for; going on (--any-host)\n"
	tests := []struct {
		name, host string
		env, args  []string
		rc         int
		out        string // the whole output, or with a leading "..." a part of it
		applied    bool   // the run set the MTU
	}{
		{name: "another host: refused", host: "cn002", rc: 1, out: stop},
		{name: "another host, quoted", host: "cn 002'$x", rc: 1, out: "fabricc: error: this host's name (uname -n) is cn\\ 002\\'\\$x, not stor1,"},
		{name: "no name", host: "", rc: 1, out: "fabricc: error: this host's name (uname -n) is unknown, not stor1,"},
		{name: "--check", host: "cn002", args: []string{"--check"}, rc: 3, out: "...DIFF system host name: intended stor1; actual cn002\nDIFF fab0 mtu: intended 9000; actual 1500\n"},
		{name: "--dry-run", host: "cn002", args: []string{"--dry-run"}, rc: 0, out: "...note: this host's name (uname -n) is cn002, not stor1, the host this script is for: a run would stop here (use this host's own script, or --any-host)\n"},
		{name: "--any-host", host: "cn002", args: []string{"--any-host"}, rc: 0, out: "..." + other, applied: true},
		{name: "FABRICC_ANY_HOST=1", host: "cn002", env: []string{"FABRICC_ANY_HOST=1"}, rc: 0, out: "..." + other, applied: true},
		{name: "FABRICC_ANY_HOST=yes is not 1", host: "cn002", env: []string{"FABRICC_ANY_HOST=yes"}, rc: 1, out: stop},
		{name: "FQDN, other case", host: "STOR1.cluster.example", rc: 0, out: "...set fab0 mtu: 1500 -> 9000\n", applied: true},
		{name: "prefix is not the name", host: "stor10", rc: 1, out: "fabricc: error: this host's name (uname -n) is stor10, not stor1,"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if out, err := exec.Command("ip", "-n", ns, "link", "set", "fab0", "mtu", "1500").CombinedOutput(); err != nil {
				t.Fatalf("ip link set: %v: %s", err, out)
			}
			env := append([]string{"FAKE_HOSTNAME=" + tc.host}, tc.env...)
			out, rc := fleetRun(t, ns, path, nil, env, tc.args...)
			ok := out == tc.out
			if want, part := strings.CutPrefix(tc.out, "..."); part {
				ok = strings.Contains(out, want)
			} else if tc.rc == 1 && !tc.applied {
				// Refused: that one line and nothing else.
				ok = strings.HasPrefix(out, tc.out) && strings.Count(out, "\n") == 1
			}
			if rc != tc.rc || !ok {
				t.Errorf("status %d, want %d; output:\n%s\nwant:\n%s", rc, tc.rc, out, tc.out)
			}
			link, err := exec.Command("ip", "-n", ns, "-o", "link", "show", "fab0").CombinedOutput()
			if err != nil {
				t.Fatalf("ip link show: %v: %s", err, link)
			}
			if mtu := strings.Contains(string(link), " mtu 9000 "); mtu != tc.applied {
				t.Errorf("MTU 9000 set: %v, want %v:\n%s", mtu, tc.applied, link)
			}
		})
	}
}
