package push

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestAllOrNothingStopsWaitingForLocks: with --lock-timeout, once a
// switch of the push has failed no other switch will apply anything, so
// none goes on waiting for a device lock (or for its turn to take one):
// it ends at once, aborted, nothing changed. Before the fix the second
// switch waited out the whole lock timeout for a lock it had no use for,
// the third waited for its turn as long, and the push ended only then,
// with the second switch "locked".
func TestAllOrNothingStopsWaitingForLocks(t *testing.T) {
	t.Parallel()
	// The first switch cannot log in; the second is locked by another
	// push that does not end.
	fl := startFleet(t, nil)
	first, second := fl.targets[0].Switch, fl.targets[1].Switch
	fl = startFleet(t, map[model.Platform]sim.Faults{first.Platform: {RejectAuth: true}})
	holdLock(t, fl.labs[1], second.Platform, elsewhere)

	const lockTimeout = 20 * time.Second
	start := time.Now()
	rep := fl.run(t, Options{LockTimeout: lockTimeout})
	if took := time.Since(start); took > lockTimeout/2 {
		t.Errorf("the push took %v: it waited for a lock after %s had failed", took.Round(time.Second), first.Name)
	}
	for i, d := range rep.Devices[1:] {
		if d.Status != StatusAborted || !strings.Contains(d.Error, "all or nothing: "+first.Name+" failed") {
			t.Errorf("%s: status %s, error %q; want aborted by %s", d.Device, d.Status, d.Error, first.Name)
		}
		if got := fl.labs[i+1].sim.Running(); got != fl.before[i+1] {
			t.Errorf("%s changed:\n%s", d.Device, lineDiff(fl.before[i+1], got))
		}
	}
}
