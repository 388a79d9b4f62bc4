package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEStaleRevisionNotNewest: NVUE keeps an earlier revision
// "applied" when a later one is applied (NVUE Command Reference, Config
// Commands, `nv config revision`), so the unsaved revision of a killed
// push (its lock left behind) is that push's to save only while it is
// the newest applied one. Here an operator applied a change of their
// own after it, unsaved: the next push must not save it as the killed
// push's, but stop at changes no fabricc push made (rcum #9). Before,
// it ran `nv config save` on them as "confirmed but not saved".
func TestNVUEStaleRevisionNotNewest(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	l.hand(t, "nv set system config auto-save enable off", "nv config apply -y", "nv config save")
	dead := LocalHolder("20250101-120000-dead00")
	dead.PID = deadPID(t)
	l.hand(t, "nv set interface swp1 description killed-push", "nv config apply -y -m fabricc-"+dead.ID,
		"nv set interface swp20 description by-hand", "nv config apply -y -m operator")
	holdLock(t, l, sw.Platform, dead)
	saved := l.sim.Saved()
	r := l.run(t, ActionPush, f, sw, cfg)
	for _, rec := range r.Recovered {
		if strings.Contains(rec.Found, "confirmed but not saved") {
			t.Errorf("the operator's later change was taken for the killed push's: %+v", rec)
		}
	}
	if !strings.Contains(r.Error, "unsaved changes that no fabricc push made") || r.Status == StatusChanged {
		t.Errorf("push: %s %q, want it stopped at the unsaved changes no fabricc push made", r.Status, r.Error)
	}
	if l.sim.Saved() != saved {
		t.Error("the push saved the operator's unsaved change")
	}
}
