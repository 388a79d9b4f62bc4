package push

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestAllOrNothingSaveUnsavedWaits: with --save-unsaved, a switch with
// nothing of its own to change still changes something, it saves
// another user's unsaved changes. That save is its push's change and
// must wait for the gate like any other: when another switch of the
// push fails (the slow Onyx switch drifts), it is not saved, and the
// switch reports aborted, the change "not saved". Before the fix it
// passed the gate and saved at once: changed, while every other switch
// rolled back.
func TestAllOrNothingSaveUnsavedWaits(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {Drift: true, Latency: 20 * time.Millisecond}})
	eos := -1
	for i, tg := range fl.targets {
		if tg.Switch.Platform == model.PlatformEOS {
			eos = i
		}
	}
	l, sw := fl.labs[eos], fl.targets[eos].Switch
	if r := l.run(t, ActionPush, fl.f, sw, fl.targets[eos].Config); r.Status != StatusChanged {
		t.Fatalf("first push of %s: %s %q", sw.Name, r.Status, r.Error)
	}
	makeOthersChange(t, l, sw.Platform)
	saved := l.sim.Saved()

	rep := fl.run(t, Options{SaveUnsaved: true})
	d := rep.Devices[eos]
	found := othersUnsaved[model.PlatformEOS]
	if d.Status != StatusAborted || !strings.Contains(d.Error, "all or nothing: "+onyxName(fl)+" failed") {
		t.Errorf("%s: status %s, error %q; want aborted by %s", d.Device, d.Status, d.Error, onyxName(fl))
	}
	if len(d.Recovered) != 1 || d.Recovered[0].Found != found+" (not saved: this push did not get to its save)" {
		t.Errorf("%s: recovered %v, want the change not saved", d.Device, d.Recovered)
	}
	if l.sim.Saved() != saved {
		t.Errorf("%s: the other user's change was saved although the push rolled back everywhere else", d.Device)
	}
	for i, d := range rep.Devices {
		if i != eos && d.Status == StatusChanged {
			t.Errorf("%s: changed", d.Device)
		}
	}
}
