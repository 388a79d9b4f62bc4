package freebsd

import (
	"strings"
	"testing"
)

// TestJournal: each change a run applies goes to the system log with
// logger -t fabricc-host-settings, naming the step and its command.
func TestJournal(t *testing.T) {
	f, h := twoNICs()
	fh := newFakeHost(t, "mce0", "mce1")
	fh.mlx5OIDs("0")
	fh.mlx5OIDs("1")
	if out, errs, code := fh.run(hostScript(t, f, h)); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	log := fh.read("syslog")
	for _, w := range []string{
		"logger -t fabricc-host-settings -- set mce1 dev.mce.1.conf.qos.trust_state: 0 -> 2 (sysctl dev.mce.1.conf.qos.trust_state=2)\n",
		"logger -t fabricc-host-settings -- set mce0 mtu: 1500 -> 9000 (ifconfig mce0 mtu 9000 up)\n",
	} {
		if !strings.Contains(log, w) {
			t.Errorf("system log lacks %q:\n%s", w, log)
		}
	}
}

// TestOptions: --check runs without root (it only reads), and
// --changed-exit N, as the Linux script has it, is the status of a run
// or dry run that changes something; a bad N is status 2.
func TestOptions(t *testing.T) {
	f, h := twoNICs()
	s := hostScript(t, f, h)
	tests := []struct {
		name    string
		args    []string
		code    int
		stderr  string
		notWant string
	}{
		{"check as a user", []string{"--check"}, 3, "", "run as root"},
		{"run as a user", nil, 1, "fabricc: error: run as root (or use --dry-run to only print the commands, --check to compare)\n", ""},
		{"dry run, changed exit", []string{"--dry-run", "--changed-exit", "7"}, 7, "", ""},
		{"changed exit with =, leading zero", []string{"--changed-exit=010", "--dry-run"}, 10, "", ""},
		{"changed exit 2", []string{"--dry-run", "--changed-exit", "2"}, 2, "fabricc: --changed-exit takes a number from 3 to 125", ""},
		{"changed exit missing", []string{"--changed-exit"}, 2, "fabricc: --changed-exit takes a number from 3 to 125", ""},
		{"changed exit with check", []string{"--check", "--changed-exit", "5"}, 2, "fabricc: --check changes nothing; use --changed-exit with a run or --dry-run\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fh := newFakeHost(t, "mce0", "mce1")
			fh.mlx5OIDs("0")
			fh.mlx5OIDs("1")
			fh.write("id", "#!/bin/sh\necho 1000\n")
			out, errs, code := fh.run(s, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.stderr) || (tc.notWant != "" && strings.Contains(errs, tc.notWant)) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nstdout:\n%s", code, tc.code, errs, out)
			}
		})
	}
}
