package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEApplyRefusalQuoted: NVUE refuses an apply with "Invalid config
// [rev_id: N]" and an indented "Config invalid at ..." line, no "Error:"
// (CumulusNetworks/docs knowledge base, "NVUE Fails to Apply
// Configuration After Upgrade"), as the simulator now answers. A patch
// (here one from --artifacts with `qos roce` added by hand, a second
// lossless pool) that NVUE refuses at apply fails the push with NVUE's
// lines, the refused revision is detached, and the applied configuration
// is unchanged (rcum #1). Before, the answer passed as success and the
// push failed at verification on differences that were only a symptom.
func TestNVUEApplyRefusalQuoted(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := append(config(t, set, sw), []byte("- set:\n    qos:\n      roce:\n        enable: on\n")...)
	l := startLab(t, sw, sim.Faults{})
	running := l.sim.Running()

	r := l.run(t, ActionPush, f, sw, cfg)
	const want = `applying: device refused "nv config apply --confirm 5 -y -m fabricc-t1": Invalid config [rev_id: 2] / ` +
		"Config invalid at qos.traffic-pool: only a single lossless pool can be configured on the switch at a time; " +
		"the configuration has default-lossless (qos traffic-pool default-lossless) and roce-lossless (qos roce mode lossless): " +
		"unset one (nv unset qos roce, or nv unset qos traffic-pool <pool> switch-priority)"
	if r.Status != StatusFailed || r.Error != want {
		t.Errorf("push of a patch NVUE refuses: %s %q, want failed with %q", r.Status, r.Error, want)
	}
	if l.sim.Running() != running {
		t.Error("the refused apply changed the applied configuration")
	}
	c := l.dial(t, model.PlatformCumulus)
	defer c.Close()
	if diff, err := c.Send("nv config diff"); err != nil || !nvueNoDiff(diff) {
		t.Errorf("pending changes after the refused push: %v %q, want none (detached)", err, diff)
	}
}

// TestNVUEConfirmMinutes: the confirm window goes to `nv config apply
// --confirm <time>` in whole minutes, the unit NVIDIA documents ("nv
// config apply --confirm 60 requires you to confirm within one hour",
// NVUE Command Reference, Config Commands), rounded up so that the
// switch's window is never shorter than the engine's (rcum #7). Before,
// push sent "300s", a form no NVIDIA document shows.
func TestNVUEConfirmMinutes(t *testing.T) {
	for _, tc := range []struct{ window, want string }{
		{"300s", "5"}, {"2s", "1"}, {"90s", "2"}, {"600s", "10"}, {"0s", "1"}, {"soon", "soon"},
	} {
		if got := nvueConfirmMinutes(tc.window); got != tc.want {
			t.Errorf("nvueConfirmMinutes(%q) = %q, want %q", tc.window, got, tc.want)
		}
	}
}

// TestNVUECheckApplied: after an apply that answered without NVUE's
// refusal words, fabricc's revision (by its message) in a failure state
// fails the push naming the state; waiting for confirmation, applied, or
// a waiting state under another name passes; no revision with the
// message fails.
func TestNVUECheckApplied(t *testing.T) {
	const msg = "fabricc-20261127-190000-abcdef"
	revs := func(state string) string {
		return `{"1": {"message": "initial", "state": "applied_and_saved"}, "2": {"message": "` + msg + `", "state": "` + state + `"}}`
	}
	for _, tc := range []struct{ state, want string }{
		{"confirm", ""},
		{"applied", ""},
		{"applied_and_saved", ""},
		{"confirming", ""},
		{"apply_fail", `nv config apply answered "applied [rev_id: 2]", and NVUE's revision 2 (` + msg + `) is in state "apply_fail": NVUE did not apply it`},
		{"pending", `nv config apply answered "applied [rev_id: 2]", and NVUE's revision 2 (` + msg + `) is in state "pending": NVUE did not apply it`},
	} {
		c := cmdConn{answers: map[string]string{"nv config revision -o json": revs(tc.state)}}
		err := (&nvueTxn{message: msg}).checkApplied(c, "applied [rev_id: 2]\n")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("state %q: got %q, want %q", tc.state, got, tc.want)
		}
	}
	c := cmdConn{answers: map[string]string{"nv config revision -o json": `{"1": {"message": "initial", "state": "applied"}}`}}
	if err := (&nvueTxn{message: msg}).checkApplied(c, ""); err == nil || !strings.Contains(err.Error(), "lists no revision with the message "+msg) {
		t.Errorf("no revision: got %v", err)
	}
}
