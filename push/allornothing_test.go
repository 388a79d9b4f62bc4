package push

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// fleet is one simulated switch per platform of the demo fabric.
type fleet struct {
	f       *model.Fabric
	labs    []*lab
	targets []Target
	before  []string
}

// startFleet starts a switch of each platform; faults[platform] is
// injected into that platform's switch.
func startFleet(t *testing.T, faults map[model.Platform]sim.Faults) *fleet {
	t.Helper()
	f, set := demo(t)
	fl := &fleet{f: f}
	for _, sw := range platformsUnderTest(f) {
		l := startLab(t, sw, faults[sw.Platform])
		fl.labs = append(fl.labs, l)
		fl.targets = append(fl.targets, Target{Switch: sw, Config: config(t, set, sw), Device: l.dev})
		fl.before = append(fl.before, l.sim.Running())
	}
	return fl
}

// run pushes to every switch of the fleet with o, within two minutes.
func (fl *fleet) run(t *testing.T, o Options) *Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return fl.runCtx(t, ctx, o)
}

// TestAllOrNothing: a switch whose change does not verify (drift) makes
// the others roll back what they applied, or not apply it (status
// aborted), and
// every switch is as it was before the push; with PerDevice the others
// keep their change.
func TestAllOrNothing(t *testing.T) {
	t.Parallel()
	faults := map[model.Platform]sim.Faults{model.PlatformOnyx: {Drift: true}}
	fl := startFleet(t, faults)
	if len(fl.labs) != 3 {
		t.Fatalf("%d platforms in the demo fabric, want 3", len(fl.labs))
	}
	rep := fl.run(t, Options{})
	for i, d := range rep.Devices {
		want := StatusAborted
		if fl.targets[i].Switch.Platform == model.PlatformOnyx {
			want = StatusFailed
		}
		if d.Status != want || want == StatusFailed && !d.RolledBack {
			t.Errorf("%s: status %s, rolled back %v (%s); want %s", d.Device, d.Status, d.RolledBack, d.Error, want)
		}
		// A switch that had applied when the Onyx switch failed rolls
		// back ("not confirmed"); one that had not yet applies nothing.
		if want == StatusAborted && !strings.Contains(d.Error, "all or nothing: "+onyxName(fl)+" failed") {
			t.Errorf("%s: error %q does not name the switch that failed", d.Device, d.Error)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s not as before the push:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
		// A switch that applied and rolled back says when; none confirmed.
		if d.ConfirmedMs != 0 || (d.AppliedMs != 0) != (d.RolledBackMs != 0) || d.RolledBackMs != 0 && d.RolledBackMs < d.AppliedMs {
			t.Errorf("%s: applied_ms %d, confirmed_ms %d, rolled_back_ms %d", d.Device, d.AppliedMs, d.ConfirmedMs, d.RolledBackMs)
		}
	}
	// The Onyx switch applied; the mixed state lasted from the first
	// apply to the last rollback.
	var first, last int64
	for _, d := range rep.Devices {
		if d.AppliedMs != 0 && (first == 0 || d.AppliedMs < first) {
			first = d.AppliedMs
		}
		last = max(last, d.RolledBackMs)
	}
	if first == 0 || rep.MixedMs != last-first {
		t.Errorf("mixed_ms %d, want %d (first apply %d, last rollback %d)", rep.MixedMs, last-first, first, last)
	}
	if !rep.Failed() {
		t.Error("report not failed")
	}
	var sum strings.Builder
	rep.WriteSummary(&sum)
	// The Onyx switch applied and rolled back: the push never says that
	// nothing was changed; which others had applied depends on timing.
	table, closing, _ := strings.Cut(sum.String(), "push: 3 devices: 1 failed, 2 aborted\n")
	if table == "" || !strings.HasPrefix(closing, "push: rolled back on ") || !strings.Contains(closing, onyxName(fl)) ||
		!strings.HasSuffix(closing, ", as before the push; no switch keeps this push's change\n") || strings.Count(closing, "\n") != 1 {
		t.Errorf("summary:\n%s", sum.String())
	}

	fl = startFleet(t, faults)
	rep = fl.run(t, Options{PerDevice: true})
	for i, d := range rep.Devices {
		want := StatusChanged
		if fl.targets[i].Switch.Platform == model.PlatformOnyx {
			want = StatusFailed
		}
		if d.Status != want {
			t.Errorf("per device: %s: status %s (%s), want %s", d.Device, d.Status, d.Error, want)
		}
	}
}

// TestAllOrNothingRollsBackTheVerified: the Onyx switch, slow and then
// drifting, fails after the other two applied and verified their changes
// and wait at the gate: they roll back ("not confirmed"), and every
// switch is as before.
func TestAllOrNothingRollsBackTheVerified(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {Drift: true, Latency: 20 * time.Millisecond}})
	rep := fl.run(t, Options{})
	for i, d := range rep.Devices {
		if fl.targets[i].Switch.Platform != model.PlatformOnyx {
			if d.Status != StatusAborted || !d.RolledBack || !strings.HasPrefix(d.Error, "not confirmed, all or nothing: "+onyxName(fl)+" failed; every switch rolls back") {
				t.Errorf("%s: status %s, rolled back %v, error %q; want aborted after verifying, rolled back", d.Device, d.Status, d.RolledBack, d.Error)
			}
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s not as before the push:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
}

// TestAllOrNothingOneSlot: switches waiting at the gate give their slot
// back, so a push of three switches one at a time (--parallel 1) does
// not wait for ever, and confirms all three.
func TestAllOrNothingOneSlot(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	rep := fl.run(t, Options{Parallel: 1})
	for _, d := range rep.Devices {
		if d.Status != StatusChanged {
			t.Errorf("%s: status %s (%s), want changed", d.Device, d.Status, d.Error)
		}
	}
}

// onyxName is the fleet's Onyx switch.
func onyxName(fl *fleet) string {
	for _, tg := range fl.targets {
		if tg.Switch.Platform == model.PlatformOnyx {
			return tg.Switch.Name
		}
	}
	return ""
}

// TestAllOrNothingWindowEnds: the EOS and NVUE switches, verified, stop
// waiting before their 2-second confirm window ends, while the slow Onyx
// switch is still applying: the first to give up rolls back (failed),
// and every other switch, waiting or still applying, finds the gate
// failed and rolls back too (aborted).
func TestAllOrNothingWindowEnds(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {Latency: 20 * time.Millisecond}})
	rep := fl.run(t, Options{ConfirmWindow: 2 * time.Second})
	gaveUp := 0
	for i, d := range rep.Devices {
		ownWindow := d.Status == StatusFailed && strings.Contains(d.Error, "confirm window was about to end")
		abortedByIt := d.Status == StatusAborted && strings.Contains(d.Error, " gave up waiting")
		switch {
		case ownWindow && fl.targets[i].Switch.Platform != model.PlatformOnyx:
			gaveUp++
		case abortedByIt:
		default:
			t.Errorf("%s: status %s, error %q; want failed at the end of its own window (EOS, NVUE), or aborted by a switch that did", d.Device, d.Status, d.Error)
		}
		if !d.RolledBack {
			t.Errorf("%s: not rolled back", d.Device)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s not as before the push:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
	if gaveUp == 0 {
		t.Error("no switch stopped waiting at the end of its window")
	}
}

// TestAllOrNothingStopsAfterAFailure: once a switch failed (the Onyx
// switch refuses every login, so at once), a switch that has not yet
// taken its lock takes none, reads nothing and applies nothing: it
// reports aborted, "not applied", naming the switch that failed.
func TestAllOrNothingStopsAfterAFailure(t *testing.T) {
	t.Parallel()
	slow := sim.Faults{Latency: 30 * time.Millisecond}
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {RejectAuth: true}, model.PlatformEOS: slow, model.PlatformCumulus: slow})
	rep := fl.run(t, Options{})
	for i, d := range rep.Devices {
		if fl.targets[i].Switch.Platform == model.PlatformOnyx {
			continue
		}
		// A switch push could not log in to names the way on: leave it
		// out with --limit.
		want := "not applied, all or nothing: " + onyxName(fl) + " failed (login refused); to push without it, --limit '!" + onyxName(fl) + "' (a partial push"
		if d.Status != StatusAborted || !strings.HasPrefix(d.Error, want) || d.Lock != "" {
			t.Errorf("%s: status %s, error %q; want aborted, not applied", d.Device, d.Status, d.Error)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s changed:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
}
