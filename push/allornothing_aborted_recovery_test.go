package push

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
)

// killedOnyxPush leaves on the fleet's Onyx switch what a push killed
// while applying leaves there: its device lock (holder ID "killed"), its
// checkpoint fabricc-pre-killed and its change, effective and unsaved.
func killedOnyxPush(t *testing.T, fl *fleet, k int) {
	t.Helper()
	c := fl.labs[k].dial(t, model.PlatformOnyx)
	defer c.Close()
	v, err := VendorFor(model.PlatformOnyx)
	if err != nil {
		t.Fatal(err)
	}
	if other, err := v.Lock.acquire(c, Holder{ID: "killed", User: "ci", Host: "runner", PID: 4242}); err != nil || other != nil {
		t.Fatalf("taking the lock: %v %v", other, err)
	}
	txn := v.NewTxn("killed", time.Minute)
	if _, err := txn.Stage(c, fl.targets[k].Config); err != nil {
		t.Fatal(err)
	}
	if err := txn.Apply(c); err != nil {
		t.Fatal(err)
	}
}

// TestAllOrNothingAbortedSwitchRollsBackAKilledPush: a push killed
// while applying left its change on the Onyx switch (no commit timer:
// it stays, unsaved, while EOS and NVUE revert theirs). The next,
// all-or-nothing push fails on another switch (no connection) before
// the Onyx switch takes its lock. The Onyx switch applies nothing, but
// still breaks the dead push's stale lock and brings the switch back to
// that push's checkpoint: aborted, both steps in recovered, the switch
// as before the killed push, no lock and no checkpoint left. Before,
// it returned at once and left the change and the lock, reported "not
// applied".
func TestAllOrNothingAbortedSwitchRollsBackAKilledPush(t *testing.T) {
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
	killedOnyxPush(t, fl, onyx)
	if fl.labs[onyx].sim.Running() == fl.before[onyx] {
		t.Fatal("the killed push left nothing on the Onyx switch")
	}
	downDone := &waitingSwitches{waiting: map[string]bool{}, want: 1, ready: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := Options{Progress: &onlyDone{name: fl.targets[down].Switch.Name, w: downDone}, Stale: func(h Holder) bool { return h.ID == "killed" }}
	rep := fl.runDial(t, ctx, o, func(dial Dialer) Dialer {
		return func(dev *inventory.Device, p model.Platform) (Conn, error) {
			switch dev {
			case fl.targets[down].Device:
				return nil, errors.New("dial tcp " + dev.Addr() + ": connect: connection refused")
			case fl.targets[onyx].Device:
				// The gate has failed before the Onyx switch connects.
				<-downDone.ready
			}
			return dial(dev, p)
		}
	})
	d := rep.Devices[onyx]
	name := fl.targets[onyx].Switch.Name
	down1 := fl.targets[down].Switch.Name
	wantErr := "not applied, all or nothing: " + down1 + " failed (no connection)"
	if d.Status != StatusAborted || !strings.HasPrefix(d.Error, wantErr) || d.AppliedMs != 0 {
		t.Errorf("%s: status %s, applied_ms %d, error %q; want aborted, %q", name, d.Status, d.AppliedMs, d.Error, wantErr)
	}
	var got []string
	for _, r := range d.Recovered {
		got = append(got, r.Action+": "+r.Found)
	}
	want := []string{
		RecoveryLockBroken + ": the device lock of user ci on host runner",
		RecoveryRolledBack + ": Onyx running configuration with unsaved changes by the interrupted push killed (checkpoint fabricc-pre-killed)",
	}
	if len(got) != len(want) {
		t.Fatalf("%s: recovered %q, want %q", name, got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("%s: recovered[%d] %q, want it to start %q", name, i, got[i], want[i])
		}
	}
	if now := fl.labs[onyx].sim.Running(); now != fl.before[onyx] {
		t.Errorf("%s keeps the killed push's change:\n%s", name, lineDiff(fl.before[onyx], now))
	}
	c := fl.labs[onyx].dial(t, model.PlatformOnyx)
	defer c.Close()
	files, err := c.Send("show configuration files")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(files, "fabricc-") {
		t.Errorf("%s: a checkpoint or lock is left:\n%s", name, files)
	}
}

// onlyDone tells w when the switch name ends.
type onlyDone struct {
	name string
	w    *waitingSwitches
}

func (p *onlyDone) Step(string, string) {}

func (p *onlyDone) Done(r *DeviceResult) {
	if r.Device == p.name {
		p.w.mark(r.Device)
	}
}
