package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEAutoSaveRollback: from Cumulus Linux 5.9 `nv config apply`
// saves startup.yaml (auto save, on by default), and whether a revision
// applied with --confirm is saved before it is confirmed is not
// documented; the simulator saves it at once and does not restore
// startup.yaml on a rollback. A push whose verification fails (the drift
// fault) must leave startup.yaml as it was in both auto-save modes
// (rsw #8): with auto save on, push saves the restored configuration
// after its rollback; before, startup.yaml kept the revision that failed
// verification, and the switch booted into it. A push that verifies is
// saved in both modes.
func TestNVUEAutoSaveRollback(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	for _, tc := range []struct {
		name  string
		setup []string
	}{
		{"auto save on (5.9 default)", nil},
		{"auto save off", []string{"nv set system config auto-save enable off", "nv config apply -y", "nv config save"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := startLab(t, sw, sim.Faults{Drift: true})
			if tc.setup != nil {
				l.hand(t, tc.setup...)
			}
			saved, running := l.sim.Saved(), l.sim.Running()
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != StatusFailed || !strings.Contains(r.Error, "verification failed") {
				t.Fatalf("push onto the drifting switch: %s %q, want failed verification", r.Status, r.Error)
			}
			if got := l.sim.Running(); got != running {
				t.Errorf("applied configuration not restored:\n%s", lineDiff(running, got))
			}
			if got := l.sim.Saved(); got != saved {
				t.Errorf("startup.yaml holds the revision that failed verification:\n%s", lineDiff(saved, got))
			}
			// The drift fault acts once: the next push verifies and is saved.
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("second push: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if l.sim.Saved() != l.sim.Running() {
				t.Errorf("the verified push is not saved:\n%s", lineDiff(l.sim.Saved(), l.sim.Running()))
			}
		})
	}
}

// TestNVUEKilledInWindowAutoSaved: a push killed between its apply
// --confirm and its confirmation, on a switch with auto save on, leaves
// startup.yaml holding the revision the window then rolls back (the
// simulator saves at apply, and the window's end is played by
// --confirm-no, which rolls back the same way). The next push took that
// for unsaved changes of someone else's and refused; now it knows the
// revision for fabricc's, saves the reverted configuration over it
// (rolled back: the switch does not verify as the fabric), and pushes.
func TestNVUEKilledInWindowAutoSaved(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	saved := l.sim.Saved()
	c := l.dial(t, model.PlatformCumulus)
	txn := &nvueTxn{file: "/tmp/fabricc-killed.yaml"}
	if _, err := txn.Stage(c, cfg); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"nv config apply --confirm 300s -y -m fabricc-killed", "nv config apply --confirm-no -y"} {
		if _, err := c.Send(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	_ = c.Close()
	if l.sim.Saved() == saved {
		t.Fatal("the simulator did not save the revision at apply: the test assumes it does")
	}
	r := l.run(t, ActionPush, f, sw, cfg)
	const found = "NVUE startup.yaml holds revision 2 (fabricc-killed), which its confirm window rolled back: auto save wrote it at apply"
	want := Recovery{Found: found, Action: RecoveryRolledBack}
	if len(r.Recovered) != 1 || r.Recovered[0] != want {
		t.Errorf("recovered %v, want %v", r.Recovered, want)
	}
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push after the killed one: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if l.sim.Saved() != l.sim.Running() {
		t.Errorf("not saved after the push:\n%s", lineDiff(l.sim.Saved(), l.sim.Running()))
	}
}
