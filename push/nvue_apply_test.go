package push

import (
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
