package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestParseLabFaults: each --fault kind sets its simulator option on the
// switch it names, and a wrong one says what to write.
func TestParseLabFaults(t *testing.T) {
	set, _, diags, _, err := buildSet(clos, dsl.Options{})
	if diags.HasErrors() || err != nil {
		t.Fatalf("build: %v %v", diags, err)
	}
	f, err := model.Unmarshal(set.Model)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec, err string
		check     func(o *sim.Options) bool
	}{
		{"leaf3:drift", "", func(o *sim.Options) bool { return o.Faults.Drift }},
		{"leaf3:reject=^mtu", "", func(o *sim.Options) bool { return o.Faults.Reject != nil && o.Faults.Reject.MatchString("mtu 9216") }},
		{"leaf3:drop=7", "", func(o *sim.Options) bool { return o.Faults.DropAfter == 7 }},
		{"leaf3:latency=20ms", "", func(o *sim.Options) bool { return o.Faults.Latency == 20*time.Millisecond }},
		{"leaf3:miscable=1/1,1/2", "", func(o *sim.Options) bool {
			was := sim.LabNeighbors(f, f.Switch("leaf3"))
			return len(o.Neighbors["1/1"]) == 1 && o.Neighbors["1/1"][0] == was["1/2"][0] && o.Neighbors["1/2"][0] == was["1/1"][0]
		}},
		{"leaf3:no-lldp=1/1", "", func(o *sim.Options) bool { return o.Neighbors["1/1"] == nil }},
		{"leaf9:drift", `--fault "leaf9:drift": the fabric has no switch "leaf9"`, nil},
		{"leaf3", `--fault "leaf3": write SWITCH:KIND, for example leaf2:drift`, nil},
		{"leaf3:melt", `--fault "leaf3:melt": unknown kind "melt"; use drift, reject=REGEXP, drop=N, latency=DURATION, miscable=PORT,PORT or no-lldp=PORT`, nil},
		{"leaf3:drift=1", `--fault "leaf3:drift=1": drift takes no value`, nil},
		{"leaf3:reject=(", "--fault \"leaf3:reject=(\": reject: error parsing regexp: missing closing ): `(`", nil},
		{"leaf3:drop=0", `--fault "leaf3:drop=0": drop takes a command line number from 1: drop=N`, nil},
		{"leaf3:latency=2h", `--fault "leaf3:latency=2h": latency takes a duration up to 1m: latency=200ms`, nil},
		{"leaf3:miscable=1/1", `--fault "leaf3:miscable=1/1": miscable takes two ports: miscable=swp1,swp2`, nil},
		{"leaf3:miscable=1/1,swp2", `--fault "leaf3:miscable=1/1,swp2": switch leaf3 has no port "swp2" in the fabric`, nil},
		{"leaf3:reject=", `--fault "leaf3:reject=": reject takes a regexp: reject=REGEXP`, nil},
		{"leaf3:no-lldp=", `--fault "leaf3:no-lldp=": no-lldp takes a port: no-lldp=PORT`, nil},
	} {
		faults, err := parseLabFaults([]string{tc.spec}, f)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		for _, name := range []string{"leaf3", "leaf4"} {
			o := sim.SwitchOptions(f.Switch(name))
			o.Neighbors = sim.LabNeighbors(f, f.Switch(name))
			labAdjust(faults)(&o)
			if got := tc.check(&o); got != (name == "leaf3") {
				t.Errorf("%s on %s: fault set %v", tc.spec, name, got)
			}
		}
	}
}

// TestLabFaultRollsTheFabricBack: a switch whose MTU drifts after the
// change fails its verification, and every other switch of the
// all-or-nothing push rolls back (every switch staged before any
// applied, so leaf3 fails only once they may have applied), or drops
// its staged change when it had not applied yet.
func TestLabFaultRollsTheFabricBack(t *testing.T) {
	code, stdout, stderr := fabricc(t, "lab", clos, "--dir", filepath.Join(t.TempDir(), "lab"), "--run-push", "--fault", "leaf3:drift")
	if code != 1 || !strings.Contains(stderr, "the lab story failed") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	first := stdout[strings.Index(stdout, "## fabricc push"):]
	first = first[:strings.Index(first, "\npush: ")+len("\npush: 6 devices: 1 failed, 5 aborted")]
	for _, want := range []string{
		"leaf3   onyx      failed",
		"verification failed: 1 difference, first: leaf3 1/1 MTU: intended 9216, actual 9116 (rolled back)",
		"not confirmed, all or nothing: leaf3 failed; every switch rolls back (--per-device lets each switch finish on its own) (rolled back)",
		"push: 6 devices: 1 failed, 5 aborted",
		// Rolled back after they verified, or never applied: nothing of
		// the push to call verified (it said "yes" and "no").
		"\nleaf1   cumulus   aborted  -         ",
		"\nspine1  eos       aborted  -         ",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("first push lacks %q:\n%s", want, first)
		}
	}
}

// TestLabDroppedConnection: a switch whose connection drops says so in
// words (scrapligo's "errConnectionError" said nothing), its diff line
// says that no diff was read rather than "0 changed lines", and no
// summary row ends in spaces.
func TestLabDroppedConnection(t *testing.T) {
	// "nv config revision -o json" is the tenth command line of the
	// session: the session opens by defining its nv function (the NVUE
	// pager, push/platforms/cumulus_linux.yaml), push reads the switch's
	// hostname first (identity.go), and the switch as verify reads it
	// (three commands on Cumulus) before it stages, for the warnings of
	// what the change does (stagewarn.go).
	code, stdout, stderr := fabricc(t, "lab", "../../examples/tutorial", "--dir", filepath.Join(t.TempDir(), "lab"), "--run-push", "--fault", "leaf1:drop=10")
	if code != 1 || !strings.Contains(stderr, "the lab story failed") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	diff := stdout[strings.Index(stdout, "## fabricc diff"):strings.Index(stdout, "\ndiff: ")]
	for _, want := range []string{
		"\nleaf1: no diff (failed; see the summary below)\n",
		"\nleaf1   cumulus   failed  -         ",
		`staging: the connection closed while running "nv config revision -o json"`,
	} {
		if !strings.Contains(diff, want) {
			t.Errorf("the dry run lacks %q:\n%s", want, diff)
		}
	}
	for _, bad := range []string{"errConnectionError", "0 changed lines"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("the story says %q:\n%s", bad, stdout)
		}
	}
	for _, l := range strings.Split(stdout, "\n") {
		if strings.TrimRight(l, " ") != l {
			t.Errorf("a line ends in spaces: %q", l)
		}
	}
}
