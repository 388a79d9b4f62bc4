package push

import (
	"bytes"
	"strings"
	"testing"
)

// TestLockedSwitchNamedAsLocked: when
// another push holds one switch's lock, the other switches of an
// all-or-nothing push say "not applied, all or nothing: spine1 is
// locked by another push", not "spine1 failed": a pipeline reads a
// switch to retry later, not a broken one to investigate, in the
// report, the summary and the progress lines alike.
func TestLockedSwitchNamedAsLocked(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	var locked string
	for i, tg := range fl.targets {
		if tg.Switch.Platform == "eos" {
			holdLock(t, fl.labs[i], tg.Switch.Platform, elsewhere)
			locked = tg.Switch.Name
		}
	}
	var progress bytes.Buffer
	rep := fl.run(t, Options{Progress: &LogProgress{W: &progress}})
	var summary bytes.Buffer
	rep.WriteSummary(&summary)
	want := "not applied, all or nothing: " + locked + " is locked by another push"
	for i, d := range rep.Devices {
		if d.Device == locked {
			if d.Status != StatusLocked || !d.NothingSent {
				t.Errorf("%s: status %s nothing sent %v (%s); want locked", d.Device, d.Status, d.NothingSent, d.Error)
			}
			continue
		}
		if d.Status != StatusAborted || d.Error != want || !d.NothingSent {
			t.Errorf("%s: status %s error %q; want aborted, %q", d.Device, d.Status, d.Error, want)
		}
		if !strings.Contains(summary.String(), d.Device) || !strings.Contains(progress.String(), "["+d.Device+"] aborted: "+want+"\n") {
			t.Errorf("%s: progress lacks %q:\n%s", d.Device, want, progress.String())
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s changed", d.Device)
		}
	}
	if strings.Contains(summary.String(), locked+" failed") || strings.Count(summary.String(), want) != len(rep.Devices)-1 {
		t.Errorf("summary:\n%s", summary.String())
	}
}
