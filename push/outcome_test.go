package push

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// summaryOf is rep's summary with every device's time 0 and the lab's
// ports as PORT, so that it can be compared whole.
func summaryOf(rep *Report) string {
	for _, d := range rep.Devices {
		d.DurationMs = 0
	}
	var b strings.Builder
	rep.WriteSummary(&b)
	return regexp.MustCompile(`127\.0\.0\.1:[0-9]{2,}`).ReplaceAllString(b.String(), "127.0.0.1:PORT")
}

// checkNothingSent fails unless every device's nothing_sent is want[i].
func checkNothingSent(t *testing.T, rep *Report, want ...bool) {
	t.Helper()
	for i, d := range rep.Devices {
		if d.NothingSent != want[i] {
			t.Errorf("%s (%s): nothing_sent %v, want %v (rolled back %v, error %q)", d.Device, d.Status, d.NothingSent, want[i], d.RolledBack, d.Error)
		}
	}
}

// TestOutcomeUnreachable: one switch of an all-or-nothing push cannot be
// reached. The others apply nothing; each row names the switch that
// failed, the reason and the way on (--limit '!leaf3') are said once
// below the table, and the push ends saying that no switch was changed.
// Every switch's report says nothing_sent (docs/json.md), the failed
// one's too; the aborted rows keep the whole reason in their error.
func TestOutcomeUnreachable(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, nil)
	onyx := onyxName(fl)
	for i, tg := range fl.targets {
		if tg.Switch.Platform == model.PlatformOnyx {
			dev := *tg.Device
			dev.Port = 1 // nothing listens there
			fl.targets[i].Device = &dev
		}
	}
	rep := fl.run(t, Options{})
	want := "DEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\n" +
		"leaf1   cumulus   aborted  -         0s    not applied, all or nothing: leaf3 failed\n" +
		"leaf3   onyx      failed   -         0s    connect leaf3 (127.0.0.1:1): ssh admin@127.0.0.1:1: dial tcp 127.0.0.1:1: connect: connection refused (stopped before any change was sent; nothing to roll back)\n" +
		"spine1  eos       aborted  -         0s    not applied, all or nothing: leaf3 failed\n" +
		"all or nothing: leaf3 failed (no connection); to push without it, --limit '!leaf3' (a partial push: the fabric-wide settings then differ on it until it is pushed too)\n" +
		"push: 3 devices: 1 failed, 2 aborted\n" +
		"push: nothing was changed on any switch\n"
	if onyx != "leaf3" {
		t.Fatalf("the fleet's Onyx switch is %s, want leaf3", onyx)
	}
	if got := summaryOf(rep); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	checkNothingSent(t, rep, true, true, true)
	const reason = "leaf3 failed (no connection); to push without it, --limit '!leaf3'"
	if e := rep.Devices[0].Error; !strings.HasPrefix(e, "not applied, all or nothing: "+reason) {
		t.Errorf("leaf1's error %q does not carry the whole reason", e)
	}
	for i, l := range fl.labs {
		if got := l.sim.Running(); got != fl.before[i] {
			t.Errorf("%s changed:\n%s", rep.Devices[i].Device, lineDiff(fl.before[i], got))
		}
	}
}

// TestOutcomeTimeout: the Onyx switch answers too slowly for its
// command timeout: it fails at connect, the others apply nothing, and
// the push says that no switch was changed.
func TestOutcomeTimeout(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {Latency: 2 * time.Second}})
	for _, tg := range fl.targets {
		if tg.Switch.Platform == model.PlatformOnyx {
			tg.Device.CommandTimeout = 300 * time.Millisecond
		}
	}
	rep := fl.run(t, Options{})
	want := "DEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\n" +
		"leaf1   cumulus   aborted  -         0s    not applied, all or nothing: leaf3 failed\n" +
		"leaf3   onyx      failed   -         0s    connect leaf3 (127.0.0.1:PORT): logged in, but no prompt within the command timeout (300ms; command_timeout in the inventory) (stopped before any change was sent; nothing to roll back)\n" +
		"spine1  eos       aborted  -         0s    not applied, all or nothing: leaf3 failed\n" +
		"all or nothing: leaf3 failed (no answer); to push without it, --limit '!leaf3' (a partial push: the fabric-wide settings then differ on it until it is pushed too)\n" +
		"push: 3 devices: 1 failed, 2 aborted\n" +
		"push: nothing was changed on any switch\n"
	if got := summaryOf(rep); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	checkNothingSent(t, rep, true, true, true)
}

// TestOutcomeRolledBack: the Onyx switch, slow and drifting, fails its
// verification after the others applied and verified: they roll back,
// and the push's last line says which switches were changed and rolled
// back, never that nothing was changed; none of them has nothing_sent.
// The table's VERIFIED column says "yes" nowhere, so the summary has no
// line about the cabling.
func TestOutcomeRolledBack(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformOnyx: {Drift: true, Latency: 20 * time.Millisecond}})
	rep := fl.run(t, Options{})
	got := summaryOf(rep)
	for _, w := range []string{
		"leaf1   cumulus   aborted  -         0s    not confirmed, all or nothing: leaf3 failed; every switch rolls back (--per-device lets each switch finish on its own) (rolled back)\n",
		"spine1  eos       aborted  -         0s    not confirmed, all or nothing: leaf3 failed; every switch rolls back (--per-device lets each switch finish on its own) (rolled back)\n",
		"push: 3 devices: 1 failed, 2 aborted\npush: rolled back on leaf1, leaf3, spine1, as before the push; no switch keeps this push's change\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("summary lacks %q:\n%s", w, got)
		}
	}
	for _, no := range []string{"nothing was changed", "\nall or nothing:", "cabling"} {
		if strings.Contains(got, no) {
			t.Errorf("summary has %q:\n%s", no, got)
		}
	}
	checkNothingSent(t, rep, false, false, false)
}

// TestOutcomeCablingLine: a push whose table says VERIFIED yes says that
// push did not check the cabling; a dry run, which verifies nothing,
// does not.
func TestOutcomeCablingLine(t *testing.T) {
	rep := &Report{Action: ActionPush, Devices: []*DeviceResult{
		{Device: "leaf1", Platform: "cumulus", Status: StatusChanged, Verified: true},
		{Device: "leaf2", Platform: "cumulus", Status: StatusUnchanged, Verified: true},
	}}
	want := "DEVICE  PLATFORM  STATUS     VERIFIED  TIME  DETAIL\n" +
		"leaf1   cumulus   changed    yes       0s\n" +
		"leaf2   cumulus   unchanged  yes       0s\n" +
		"cabling (LLDP) not checked by push: fabricc verify checks it\n" +
		"push: 2 devices: 1 changed, 1 unchanged\n"
	if got := summaryOf(rep); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	rep.Action = ActionDiff
	for _, d := range rep.Devices {
		d.Status = StatusDryRun
	}
	if got := summaryOf(rep); strings.Contains(got, "cabling") {
		t.Errorf("dry run's summary:\n%s", got)
	}
}
