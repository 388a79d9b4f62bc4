package push

import (
	"slices"
	"sync"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestApprove: with Options.Approve a push stages every switch's change,
// asks once with every diff while no switch has applied anything, and
// applies only on yes; on no each switch drops its staged change
// (aborted, ErrNotApproved) and is as it was. One slot (Parallel 1)
// shows that a switch waiting for the answer does not keep the others
// from staging.
func TestApprove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		yes      bool
		parallel int
		want     string
	}{
		{"yes", true, 0, StatusChanged},
		{"no", false, 0, StatusAborted},
		{"no, one slot", false, 1, StatusAborted},
		{"yes, one slot", true, 1, StatusChanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fl := startFleet(t, nil)
			var mu sync.Mutex
			var asked [][]Staged
			approve := func(s []Staged) bool {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, s)
				for i, l := range fl.labs {
					if got := l.sim.Running(); got != fl.before[i] {
						t.Errorf("%s changed before the push was approved:\n%s", fl.targets[i].Switch.Name, lineDiff(fl.before[i], got))
					}
				}
				return tc.yes
			}
			rep := fl.run(t, Options{Approve: approve, Parallel: tc.parallel})
			if len(asked) != 1 {
				t.Fatalf("asked %d times, want once", len(asked))
			}
			var names []string
			for _, s := range asked[0] {
				names = append(names, s.Device)
			}
			if !slices.IsSorted(names) || len(names) != len(fl.targets) {
				t.Errorf("asked about %v, want every switch by name", names)
			}
			for i, d := range rep.Devices {
				k := slices.Index(names, d.Device)
				if k < 0 || asked[0][k].Diff == "" || asked[0][k].Diff != d.Diff || asked[0][k].Platform != d.Platform {
					t.Errorf("%s: staged change shown %+v, report's diff %q", d.Device, asked[0], d.Diff)
				}
				if d.Status != tc.want {
					t.Errorf("%s: status %s (%s), want %s", d.Device, d.Status, d.Error, tc.want)
				}
				if tc.yes {
					continue
				}
				if d.Error != ErrNotApproved.Error() || d.AppliedMs != 0 || d.RolledBack {
					t.Errorf("%s: error %q, applied_ms %d, rolled back %v; want %q, never applied", d.Device, d.Error, d.AppliedMs, d.RolledBack, ErrNotApproved)
				}
				if got := fl.labs[i].sim.Running(); got != fl.before[i] {
					t.Errorf("%s changed although the push was not approved:\n%s", d.Device, lineDiff(fl.before[i], got))
				}
			}
		})
	}
}

// TestApproveNotAskedAfterAFailure: in an all-or-nothing push where a
// switch failed before the question (here its login is refused), no
// switch will apply, so nothing is asked; the others drop their staged
// change (aborted) and are as they were.
func TestApproveNotAskedAfterAFailure(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {RejectAuth: true}})
	asked := 0
	rep := fl.run(t, Options{Approve: func([]Staged) bool { asked++; return true }})
	if asked != 0 {
		t.Errorf("asked %d times after a switch failed, want never", asked)
	}
	for i, d := range rep.Devices {
		want := StatusAborted
		if fl.targets[i].Switch.Platform == model.PlatformOnyx {
			want = StatusFailed
		}
		if d.Status != want || d.AppliedMs != 0 {
			t.Errorf("%s: status %s (%s), applied_ms %d; want %s, never applied", d.Device, d.Status, d.Error, d.AppliedMs, want)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s changed:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
}
