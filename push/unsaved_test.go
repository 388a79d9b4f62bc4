package push

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// othersChange makes, per platform, a change on a port the demo fabric
// does not use, the way another user on the switch's CLI would, and
// leaves it unsaved (Onyx: no `configuration write`; EOS: no `write
// memory`; NVUE: applied, no `nv config save`, with auto save off, since
// from Cumulus Linux 5.9 `nv config apply` saves by default).
var othersChange = map[model.Platform][]string{
	model.PlatformOnyx:    {"configure terminal", "interface ethernet 1/20 description SOMEONE-ELSES-UNSAVED"},
	model.PlatformEOS:     {"configure terminal", "interface Ethernet20/1", "description SOMEONE-ELSES-UNSAVED", "end"},
	model.PlatformCumulus: {"nv set system config auto-save enable off", "nv set interface swp20 description SOMEONE-ELSES-UNSAVED", "nv config apply -y"},
}

// othersUnsaved is what each platform's leftovers call that change.
var othersUnsaved = map[model.Platform]string{
	model.PlatformOnyx:    "Onyx running configuration with unsaved changes that no fabricc push made",
	model.PlatformEOS:     "EOS running-config with unsaved changes that no fabricc push made (it differs from startup-config)",
	model.PlatformCumulus: "NVUE applied configuration with unsaved changes that no fabricc push made (nv config diff startup applied lists them)",
}

// othersRefusal is the error of a push that finds it.
var othersRefusal = map[model.Platform]string{
	model.PlatformOnyx: "Onyx running configuration with unsaved changes that no fabricc push made: a push ends by saving the whole running configuration, " +
		"so it would save them too; save them (configuration write) or discard them on the switch first, or push with --save-unsaved to save them with this change; nothing was changed",
	model.PlatformEOS: "EOS running-config with unsaved changes that no fabricc push made (it differs from startup-config): a push ends by saving the whole running-config, " +
		"so it would save them too; save them (write memory) or discard them on the switch first, or push with --save-unsaved to save them with this change; nothing was changed",
	model.PlatformCumulus: "NVUE applied configuration with unsaved changes that no fabricc push made (nv config diff startup applied lists them): a push ends by saving the whole applied configuration, " +
		"so it would save them too; save them (nv config save) or discard them (nv config apply startup -y) first, or push with --save-unsaved to save them with this change; nothing was changed",
}

// makeOthersChange runs othersChange[p] over its own SSH session.
func makeOthersChange(t *testing.T, l *lab, p model.Platform) {
	t.Helper()
	c := l.dial(t, p)
	defer c.Close()
	for _, cmd := range othersChange[p] {
		if _, err := c.Send(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
}

// TestUnsavedChangesOfOthersAreNotSaved: a push must not save someone
// else's unsaved change while its report says it left it alone. It
// refuses, naming what it found and how to go on, and changes nothing:
// the change stays running and unsaved. A dry run fails the same way
// (after its diff) unless SaveUnsaved; verify reports it as pending. With SaveUnsaved (--save-unsaved) the push goes ahead and
// reports the change "saved with this push", on a fresh switch and on
// one where the fabric itself has nothing left to change.
func TestUnsavedChangesOfOthersAreNotSaved(t *testing.T) {
	f, set := demo(t)
	for _, p := range []model.Platform{model.PlatformOnyx, model.PlatformEOS, model.PlatformCumulus} {
		for _, tc := range []struct {
			name    string
			prepush bool // the fabric was pushed before the change
		}{
			{"fresh", false},
			{"pushed-before", true},
		} {
			t.Run(string(p)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				sw := switchOf(t, f, p)
				cfg := config(t, set, sw)
				l := startLab(t, sw, sim.Faults{})
				if tc.prepush {
					if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
						t.Fatalf("first push: %s %q", r.Status, r.Error)
					}
				}
				makeOthersChange(t, l, p)
				saved, running := l.sim.Saved(), withoutOnyxHeader(l.sim.Running())
				if strings.Contains(saved, "SOMEONE-ELSES-UNSAVED") || !strings.Contains(running, "SOMEONE-ELSES-UNSAVED") {
					t.Fatalf("the other user's change is not running and unsaved:\nsaved:\n%s\nrunning:\n%s", saved, running)
				}

				r := l.run(t, ActionPush, f, sw, cfg)
				if r.Status != StatusFailed || r.Error != othersRefusal[p] {
					t.Fatalf("push over the change: status %s error\n%q\nwant failed with\n%q", r.Status, r.Error, othersRefusal[p])
				}
				if len(r.Recovered) != 0 || r.RolledBack || r.Diff != "" {
					t.Errorf("the refused push reports recovered %v, rolled back %v, diff %q", r.Recovered, r.RolledBack, r.Diff)
				}
				if got := l.sim.Saved(); got != saved {
					t.Errorf("the refused push changed the saved configuration:\n%s", lineDiff(saved, got))
				}
				if got := withoutOnyxHeader(l.sim.Running()); got != running {
					t.Errorf("the refused push changed the running configuration:\n%s", lineDiff(running, got))
				}

				// The dry run fails where the push would, after its diff;
				// with SaveUnsaved it answers for that push.
				dry := l.run(t, ActionDiff, f, sw, cfg)
				wantDry := "push would be refused: " + othersRefusal[p]
				if dry.Status != StatusFailed || dry.Error != wantDry || !slices.Equal(dry.Pending, []string{othersUnsaved[p]}) || (dry.Diff == "") != tc.prepush {
					t.Errorf("dry run: status %s error %q pending %q diff %d bytes, want failed %q pending [%q]", dry.Status, dry.Error, dry.Pending, len(dry.Diff), wantDry, othersUnsaved[p])
				}
				dry = l.runWith(t, Options{Action: ActionDiff, Fabric: f, SaveUnsaved: true}, sw, cfg)
				if dry.Status != StatusDryRun || dry.Error != "" || !slices.Equal(dry.Pending, []string{othersUnsaved[p]}) {
					t.Errorf("dry run with SaveUnsaved: status %s error %q pending %q, want dry-run pending [%q]", dry.Status, dry.Error, dry.Pending, othersUnsaved[p])
				}
				// A switch that differs is a mismatch, with the unsaved
				// changes pending beside it; one that matches is pending.
				v := l.run(t, ActionVerify, f, sw, cfg)
				wantStatus := StatusMismatch
				if tc.prepush {
					wantStatus = StatusPending
				}
				if v.Status != wantStatus || !slices.Equal(v.Pending, []string{othersUnsaved[p]}) {
					t.Errorf("verify: status %s pending %q, want %s pending [%q]", v.Status, v.Pending, wantStatus, othersUnsaved[p])
				}
				if l.sim.Saved() != saved {
					t.Error("the dry run or verify saved the change")
				}

				r = l.runWith(t, Options{Action: ActionPush, Fabric: f, SaveUnsaved: true, ID: "t2"}, sw, cfg)
				want := []Recovery{{Found: othersUnsaved[p], Action: RecoverySaved}}
				if r.Status != StatusChanged || !r.Verified || !slices.Equal(r.Recovered, want) {
					t.Fatalf("push with SaveUnsaved: status %s verified %v error %q recovered %v, want changed, verified, %v", r.Status, r.Verified, r.Error, r.Recovered, want)
				}
				if got := l.sim.Saved(); got != l.sim.Running() || !strings.Contains(got, "SOMEONE-ELSES-UNSAVED") {
					t.Errorf("after the push with SaveUnsaved the running configuration is not saved:\n%s", lineDiff(got, l.sim.Running()))
				}
				if v := l.run(t, ActionVerify, f, sw, cfg); v.Status != StatusVerified || len(v.Pending) != 0 {
					t.Errorf("verify after the push with SaveUnsaved: %s pending %q", v.Status, v.Pending)
				}
			})
		}
	}
}

// TestSaveUnsavedThatFails: with nothing of its own to apply, a push with
// SaveUnsaved saves the other user's change itself; when the switch
// refuses that save the device fails, and the report says the change
// was not saved.
func TestSaveUnsavedThatFails(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformOnyx)
	cfg := config(t, set, sw)
	// The first `configuration write` is the first push's save; the
	// second, refused, the save of the push with SaveUnsaved.
	l := startLab(t, sw, sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(`^configuration write$`), Nth: 2, Kind: sim.FaultReject}})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q", r.Status, r.Error)
	}
	makeOthersChange(t, l, sw.Platform)
	saved := l.sim.Saved()
	r := l.runWith(t, Options{Action: ActionPush, Fabric: f, SaveUnsaved: true, ID: "t2"}, sw, cfg)
	found := othersUnsaved[model.PlatformOnyx]
	want := []Recovery{{Found: found + " (not saved: this push did not get to its save)", Action: RecoveryLeft}}
	if r.Status != StatusFailed || !strings.HasPrefix(r.Error, "saving "+found+" (--save-unsaved): ") || !slices.Equal(r.Recovered, want) {
		t.Fatalf("push with a refused save: status %s error %q recovered %v, want failed, the save named, %v", r.Status, r.Error, r.Recovered, want)
	}
	if l.sim.Saved() != saved {
		t.Error("the refused save changed the saved configuration")
	}
}
