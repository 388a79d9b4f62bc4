package push

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/transport"
)

// waitingSwitches closes ready once each of the switches it counts has
// stopped to wait for the others: staged and waiting at the barrier
// (stepStaged), applied and waiting at the gate (stepWait), or ended.
type waitingSwitches struct {
	mu      sync.Mutex
	waiting map[string]bool
	want    int
	ready   chan struct{}
}

func (w *waitingSwitches) Step(device, step string) {
	if step == stepStaged || step == stepWait {
		w.mark(device)
	}
}

func (w *waitingSwitches) Done(r *DeviceResult) { w.mark(r.Device) }

func (w *waitingSwitches) mark(device string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waiting[device] {
		return
	}
	w.waiting[device] = true
	if len(w.waiting) == w.want {
		close(w.ready)
	}
}

// TestAllOrNothingBarrierWithoutApproval: an all-or-nothing push without
// a question (--yes, CI) whose last switch cannot be reached. Its
// connection fails only once every other switch has gone as far as it
// can without it, so without a barrier they have applied by then, run
// the new configuration and roll back (finding: a hung switch kept the
// others on the new configuration for a whole command timeout). With
// the barrier no switch applies: every other switch drops its staged
// change (aborted, "not applied"), applied_ms and mixed_ms stay 0 and
// every switch is as before.
func TestAllOrNothingBarrierWithoutApproval(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	down := fl.targets[len(fl.targets)-1].Switch.Name
	others := &waitingSwitches{waiting: map[string]bool{}, want: len(fl.targets) - 1, ready: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep := fl.runDial(t, ctx, Options{Progress: others}, func(dial Dialer) Dialer {
		return func(dev *inventory.Device, p model.Platform) (Conn, error) {
			if dev != fl.targets[len(fl.targets)-1].Device {
				return dial(dev, p)
			}
			select {
			case <-others.ready:
			case <-ctx.Done():
			}
			return nil, errors.New("dial tcp " + dev.Addr() + ": connect: connection refused")
		}
	})
	for i, d := range rep.Devices {
		if d.Device == down {
			if d.Status != StatusFailed || !strings.Contains(d.Error, "connection refused") {
				t.Errorf("%s: status %s, error %q; want failed, connection refused", d.Device, d.Status, d.Error)
			}
			continue
		}
		wantErr := "not applied, all or nothing: " + down + " failed (no connection); to push without it, --limit '!" + down + "'"
		if d.Status != StatusAborted || !strings.HasPrefix(d.Error, wantErr) || d.AppliedMs != 0 || d.RolledBack {
			t.Errorf("%s: status %s, applied_ms %d, rolled back %v, error %q; want aborted, never applied, %q", d.Device, d.Status, d.AppliedMs, d.RolledBack, d.Error, wantErr)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s not as before the push:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
	if rep.MixedMs != 0 {
		t.Errorf("mixed_ms %d, want 0: no switch may apply before every switch staged", rep.MixedMs)
	}
}

// runDial is runCtx with the SSH dialer wrapped by wrap.
func (fl *fleet) runDial(t *testing.T, ctx context.Context, o Options, wrap func(Dialer) Dialer) *Report {
	t.Helper()
	var lines []string
	for _, l := range fl.labs {
		lines = append(lines, l.sim.KnownHostsLine())
	}
	kh := t.TempDir() + "/known_hosts"
	write(t, kh, strings.Join(lines, "\n")+"\n")
	hk, err := transport.HostKeyCallback(kh, false)
	if err != nil {
		t.Fatal(err)
	}
	o.Action, o.Fabric, o.ID, o.Targets, o.Dial = ActionPush, fl.f, "t1", fl.targets, wrap(SSHDialer(hk))
	return Run(ctx, o)
}
