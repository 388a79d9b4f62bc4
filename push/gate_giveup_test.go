package push

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"golang.org/x/sync/semaphore"
)

// waiter is a switch of an all-or-nothing push at its decision point,
// as push() has it when it calls awaitOthers: applied, verified, armed.
func waiter(g *gate, name string) *device {
	return &device{
		t:      Target{Switch: &model.Switch{Name: name}},
		v:      &Vendor{Armed: true},
		res:    &DeviceResult{Device: name},
		gating: &gating{gate: g, free: semaphore.NewWeighted(1)},
	}
}

// TestGateOpensAsAWaiterGivesUp: the last switch passes the gate (every
// other switch now confirms) at the moment a waiting switch's wait ends
// for its own reason, an interruption (Ctrl-C) or its confirm window's
// end. The gate has decided: the waiter must go with that decision and
// confirm too. Before the fix, wait picked at random among the ready
// cases and, when it picked the interruption, abandon closed the
// already closed decided channel: a panic that killed fabricc mid-push,
// its switches applied and unconfirmed, its locks held.
func TestGateOpensAsAWaiterGivesUp(t *testing.T) {
	interrupted, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted by SIGINT"))
	for i := range 200 {
		for _, c := range []struct {
			name     string
			ctx      context.Context
			deadline time.Time
		}{
			{"interrupted", interrupted, time.Now().Add(time.Minute)},
			{"window", context.Background(), time.Now().Add(-time.Second)}, // already reached
		} {
			g := newGate(2)
			g.pass() // the other switch verified and waits
			d := waiter(g, "leaf1")
			_ = d.free.Acquire(context.Background(), 1) // its slot, as Run gives it
			// leaf1 passes last: the gate opens as it starts waiting.
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s, try %d: panic: %v", c.name, i, p)
					}
				}()
				err = d.awaitOthers(c.ctx, c.deadline)
			}()
			if err != nil {
				t.Fatalf("%s, try %d: %v; want nil: the gate opened, the other switch confirms", c.name, i, err)
			}
			if err := g.failed(); err != nil {
				t.Fatalf("%s, try %d: the gate failed after it opened: %v", c.name, i, err)
			}
		}
	}
}
