package linux

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestFinishCountsFailures: the summary line of a run, or a dry run, in
// which some NIC's steps stopped counts those NICs instead of saying that
// the host already matches; --check says nothing of a match. The error
// line on standard error follows, and the status is 1 in every mode.
func TestFinishCountsFailures(t *testing.T) {
	const stderr = "fabricc: error: the steps of 2 NIC(s) stopped on an error (see fabricc: error: above; the other NICs' steps ran): ens1f0np0 ens1f1np1\n"
	tests := []struct{ mode, changes, want string }{
		{"", "0", "fabricc: 0 change(s) applied; 2 NIC(s) failed, their steps stopped on an error: ens1f0np0 ens1f1np1\n"},
		{"", "3", "fabricc: 3 change(s) applied; 2 NIC(s) failed, their steps stopped on an error: ens1f0np0 ens1f1np1\n"},
		{"--dry-run", "0", "fabricc: 0 change(s) would be made; 2 NIC(s) failed, their steps stopped on an error: ens1f0np0 ens1f1np1\n"},
		{"--check", "0", ""},
	}
	for _, tc := range tests {
		t.Run(tc.mode+" "+tc.changes, func(t *testing.T) {
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nCHANGES=" + tc.changes + "\nFAILED=(ens1f0np0 ens1f1np1)\nfinish\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, err := hostRun(t, nil, body, args...)
			if err == nil || !strings.Contains(err.Error(), "exit status 1") || out != tc.want+stderr {
				t.Errorf("%v; got:\n%s\nwant:\n%s", err, out, tc.want+stderr)
			}
		})
	}
}

// TestNetnsEveryNICFailed runs a two-NIC host's script where neither
// interface exists (an empty namespace): standard output must not say
// that the host already matches, but count the NICs that failed, and the
// run exits 1.
func TestNetnsEveryNICFailed(t *testing.T) {
	ns := newNetns(t)
	f := fixture()
	a := fixtureNIC("roce0", "fab8", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.8/24")
	b := fixtureNIC("roce1", "fab9", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.9/24")
	f.Hosts[2].NICs = []model.NIC{a, b}
	f.Hosts[2].Tuning = false
	out, err := runScript(t, render(t, f, 2), ns)
	want := "fabricc: 0 change(s) applied; 2 NIC(s) failed, their steps stopped on an error: fab8 fab9\n" +
		"fabricc: error: the steps of 2 NIC(s) stopped on an error (see fabricc: error: above; the other NICs' steps ran): fab8 fab9\n"
	if err == nil || !strings.Contains(err.Error(), "exit status 1") || !strings.HasSuffix(out, want) || strings.Contains(out, "already matches") {
		t.Errorf("%v; want the output ending\n%s\ngot:\n%s", err, want, out)
	}
}
