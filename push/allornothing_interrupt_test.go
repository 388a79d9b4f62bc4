package push

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricc/fabricc/push/transport"
)

// runCtx pushes to every switch of the fleet with o and ctx; one
// known_hosts file holds every switch's key.
func (fl *fleet) runCtx(t *testing.T, ctx context.Context, o Options) *Report {
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
	o.Action, o.Fabric, o.ID, o.Targets, o.Dial = ActionPush, fl.f, "t1", fl.targets, SSHDialer(hk)
	return Run(ctx, o)
}

// onFirstConfirm calls f once, when the first switch starts confirming.
type onFirstConfirm struct {
	once sync.Once
	f    func()
}

func (p *onFirstConfirm) Step(device, step string) {
	if step == stepConfirm {
		p.once.Do(p.f)
	}
}

func (p *onFirstConfirm) Done(*DeviceResult) {}

// TestAllOrNothingInterruptedWhileConfirming: Ctrl-C (SIGINT) arrives
// once the gate has opened and the first switch is confirming. Every
// switch verified and the gate decided that all confirm, so all must:
// an interruption that rolls back the switches that had not yet
// confirmed (here, --parallel 1, the two queued for a slot) leaves the
// fabric half changed, which the gate exists to prevent. Before the fix
// their confirmation went over the connection the interruption had
// cut, failed, and they rolled back alone.
func TestAllOrNothingInterruptedWhileConfirming(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	o := Options{Parallel: 1, Progress: &onFirstConfirm{f: func() { cancel(errors.New("interrupted by SIGINT")) }}}
	timeout, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	rep := fl.runCtx(t, timeout, o)
	for _, d := range rep.Devices {
		if d.Status != StatusChanged {
			t.Errorf("%s: status %s, rolled back %v, error %q; want changed like the switch that confirmed first", d.Device, d.Status, d.RolledBack, d.Error)
		}
	}
}
