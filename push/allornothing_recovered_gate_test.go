package push

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
)

// onStep tells w when the switch name reaches step.
type onStep struct {
	name, step string
	w          *waitingSwitches
}

func (p *onStep) Step(device, step string) {
	if device == p.name && step == p.step {
		p.w.mark(device)
	}
}

func (p *onStep) Done(r *DeviceResult) {
	if r.Device == p.name {
		p.w.mark(r.Device)
	}
}

// TestAllOrNothingDoesNotCompleteAFoundChangeBeforeTheGate: a push
// killed while applying left its change on the Onyx switch, which
// verifies as this fabric. The next all-or-nothing push fails on the
// EOS switch (no connection) after the Onyx switch recovered. Completing
// the found change before the gate (configuration write) made it
// permanent beside a failed switch: the Onyx switch ended changed and
// saved, the others as before, a mixed fabric nothing reverts. Now the
// found change is rolled back to its checkpoint, the push stages the
// fabric again and drops it at the gate with the others: the Onyx switch
// is aborted and, running and saved, as before the killed push.
func TestAllOrNothingDoesNotCompleteAFoundChangeBeforeTheGate(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	onyx, down := -1, -1
	for i, tg := range fl.targets {
		switch tg.Switch.Platform {
		case model.PlatformOnyx:
			onyx = i
		case model.PlatformEOS:
			down = i
		}
	}
	savedBefore := fl.labs[onyx].sim.Saved()
	killedOnyxPush(t, fl, onyx)
	name := fl.targets[onyx].Switch.Name
	staging := &waitingSwitches{waiting: map[string]bool{}, want: 1, ready: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := Options{Progress: &onStep{name: name, step: stepStage, w: staging}, Stale: func(h Holder) bool { return h.ID == "killed" }}
	rep := fl.runDial(t, ctx, o, func(dial Dialer) Dialer {
		return func(dev *inventory.Device, p model.Platform) (Conn, error) {
			if dev != fl.targets[down].Device {
				return dial(dev, p)
			}
			// The EOS switch fails once the Onyx switch has recovered.
			select {
			case <-staging.ready:
			case <-ctx.Done():
			}
			return nil, errors.New("dial tcp " + dev.Addr() + ": connect: connection refused")
		}
	})
	d := rep.Devices[onyx]
	if d.Status != StatusAborted || d.AppliedMs != 0 {
		t.Errorf("%s: status %s, applied_ms %d, error %q; want aborted, never applied", name, d.Status, d.AppliedMs, d.Error)
	}
	want := []Recovery{
		{Found: "the device lock of user ci on host runner (fabricc pid 4242, transaction killed) (its fabricc process on this host has ended)", Action: RecoveryLockBroken},
		{Found: "Onyx running configuration with unsaved changes by the interrupted push killed (checkpoint fabricc-pre-killed); " +
			"Onyx has no commit timer, so it keeps that change while the push's EOS and Cumulus switches revert on theirs" + heldForGate,
			Action: RecoveryRolledBack},
	}
	if len(d.Recovered) != len(want) {
		t.Fatalf("%s: recovered %+v, want %+v", name, d.Recovered, want)
	}
	for i := range want {
		if d.Recovered[i] != want[i] {
			t.Errorf("%s: recovered[%d]\n%+v, want\n%+v", name, i, d.Recovered[i], want[i])
		}
	}
	if now := fl.labs[onyx].sim.Running(); now != fl.before[onyx] {
		t.Errorf("%s keeps the killed push's change:\n%s", name, lineDiff(fl.before[onyx], now))
	}
	if now := fl.labs[onyx].sim.Saved(); now != savedBefore {
		t.Errorf("%s saved the killed push's change:\n%s", name, lineDiff(savedBefore, now))
	}
	for i, d := range rep.Devices {
		if i != onyx && i != down && (d.Status != StatusAborted || fl.labs[i].sim.Running() != fl.before[i]) {
			t.Errorf("%s: status %s, changed %v", d.Device, d.Status, fl.labs[i].sim.Running() != fl.before[i])
		}
	}
}
