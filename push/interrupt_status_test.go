package push

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// onFirstStep calls f once, when the first switch reaches step.
type onFirstStep struct {
	step string
	once sync.Once
	f    func()
}

func (p *onFirstStep) Step(device, step string) {
	if step == p.step {
		p.once.Do(p.f)
	}
}

func (p *onFirstStep) Done(*DeviceResult) {}

// TestInterruptedSwitchesAreAborted (review rsre, finding 12): SIGTERM
// arrives when the first switch waits at the gate, verified, and the
// others are still staging, applying or verifying. No switch failed:
// the operator stopped the push and every switch was put back, so every
// one is aborted, whichever step it was in (before, the switch that saw
// the signal first while waiting was failed, the others aborted), and
// only a switch whose change was applied says it was rolled back.
func TestInterruptedSwitchesAreAborted(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	o := Options{Progress: &onFirstStep{step: stepWait, f: func() { cancel(errors.New("interrupted by SIGTERM")) }}}
	timeout, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	rep := fl.runCtx(t, timeout, o)
	for i, d := range rep.Devices {
		if d.Status != StatusAborted || !strings.Contains(d.Error, "interrupted by SIGTERM") || d.RollbackNote != "" {
			t.Errorf("%s: status %s error %q rollback %q; want aborted by the interruption", d.Device, d.Status, d.Error, d.RollbackNote)
		}
		if d.RolledBack != (d.AppliedMs > 0) {
			t.Errorf("%s: rolled back %v, applied_ms %d: want rolled back exactly when applied", d.Device, d.RolledBack, d.AppliedMs)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s not as before the push:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
}
