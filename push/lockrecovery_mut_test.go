package push

import (
	"errors"
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// Tests that pin guard.go (the device lock and the recovery after an
// interrupted push) where a one-token mutation (review mutants5) left
// every earlier test passing.

// halfTakeoverLock is a device lock held by a stale holder whose
// takeover fails half-way, as on EOS or Cumulus when the connection
// drops after the new lock line is written and before it is read back.
// It records what is done to it and with which holders.
type halfTakeoverLock struct {
	stale Holder
	calls []string
	back  []Holder // the old holder of each handBack
}

func (l *halfTakeoverLock) acquire(Conn, Holder) (*Holder, error) {
	l.calls = append(l.calls, "acquire")
	h := l.stale
	return &h, nil
}
func (l *halfTakeoverLock) release(Conn, Holder) error {
	l.calls = append(l.calls, "release")
	return nil
}
func (l *halfTakeoverLock) holder(Conn) (*Holder, error) { h := l.stale; return &h, nil }
func (l *halfTakeoverLock) takeover(Conn, Holder, Holder) (*Holder, error) {
	l.calls = append(l.calls, "takeover")
	return nil, errors.New("connection lost")
}
func (l *halfTakeoverLock) handBack(_ Conn, _ Holder, old Holder) error {
	l.calls = append(l.calls, "handBack")
	l.back = append(l.back, old)
	return nil
}
func (l *halfTakeoverLock) where() string { return "the file /var/tmp/fabricc.lock" }

// TestHalfTakeoverHandsTheLockBack: a takeover of a stale lock that
// fails half-way (the new line may be on the switch) fails the switch
// with "breaking the lock of <holder>: <why>", and the run's unlock
// hands the lock back to the killed push's transaction rather than
// leaving its own or releasing it: the lock still names the push whose
// leftovers nobody resolved, and the note says so.
func TestHalfTakeoverHandsTheLockBack(t *testing.T) {
	stale := Holder{ID: "20250101-120000-killed", User: "alice", Host: "opsbox", PID: 4242}
	lk := &halfTakeoverLock{stale: stale}
	d := &device{
		o:      Options{Stale: func(h Holder) bool { return h.ID == stale.ID }},
		t:      Target{Switch: &model.Switch{Name: "leaf1"}},
		v:      &Vendor{Lock: lk},
		res:    &DeviceResult{},
		conn:   &closer{Conn: homeConn{}, ctx: t.Context(), stop: func() bool { return true }},
		me:     Holder{ID: "20250101-120200-me", User: "carol", Host: "opsbox", PID: 4444},
		gating: &gating{},
	}
	err := d.lock(t.Context())
	if want := "breaking the lock of " + stale.String() + ": connection lost"; err == nil || err.Error() != want {
		t.Fatalf("lock: %v, want %q", err, want)
	}
	d.unlock(t.Context())
	if !slices.Equal(lk.calls, []string{"acquire", "takeover", "handBack"}) {
		t.Errorf("done to the lock: %q, want acquire, takeover, handBack", lk.calls)
	}
	if len(lk.back) != 1 || lk.back[0].ID != stale.ID || len(lk.back[0].Inherits) != 0 {
		t.Errorf("handed back to %+v, want the killed push's holder %+v", lk.back, stale)
	}
	note := "the device lock of " + stale.String() + " is back on the switch: this run did not resolve what that push left, the next push does"
	if !slices.Equal(d.res.Notes, []string{note}) {
		t.Errorf("notes %q, want [%q]", d.res.Notes, note)
	}
}

// TestRefusalOfLeftovers: what an interrupted run left refuses a push
// only when it is not fabricc's: another's change under a commit timer
// (EOS `commit timer`: Arista EOS User Manual, "Configuration
// Sessions"), or unsaved changes without --save-unsaved, each with its
// exact refusal; fabricc's own leftovers, another's staged change, and
// unsaved changes under --save-unsaved do not refuse it.
func TestRefusalOfLeftovers(t *testing.T) {
	eos := Vendors[model.PlatformEOS]
	push := &device{o: Options{Action: ActionPush}, v: eos}
	saving := &device{o: Options{Action: ActionPush, SaveUnsaved: true}, v: eos}
	const timed = "EOS session troubleshooting committed with a timer, not confirmed"
	const unsaved = "unsaved changes in the running-config"
	for _, c := range []struct {
		d    *device
		lo   leftover
		want string
	}{
		{push, leftover{what: timed, kind: leftTimed, ours: true}, ""},
		{push, leftover{what: unsaved, kind: leftUnsaved, ours: true}, ""},
		{push, leftover{what: "EOS session x staged", kind: leftStaged}, ""},
		{push, leftover{what: timed, kind: leftTimed}, timed + ", and it is not fabricc's: confirm or abort it on the switch first; nothing was changed"},
		{push, leftover{what: unsaved, kind: leftUnsaved}, unsaved + ": a push ends by saving the whole running-config, so it would save them too; " +
			"save them (write memory) or discard them on the switch first, or push with --save-unsaved to save them with this change; nothing was changed"},
		{saving, leftover{what: unsaved, kind: leftUnsaved}, ""},
		{saving, leftover{what: timed, kind: leftTimed}, timed + ", and it is not fabricc's: confirm or abort it on the switch first; nothing was changed"},
	} {
		got := ""
		if err := c.d.refusal(c.lo); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("refusal of %+v (save-unsaved %v): %q, want %q", c.lo, c.d.o.SaveUnsaved, got, c.want)
		}
	}
}

// TestUnreadableLockWords: a lock file that does not read as fabricc's
// (written by hand, cut short) names no transaction --break-lock could
// name: verify says the next push refuses it and where to remove it,
// and the push's refusal says to remove it on the switch, also when a
// --break-lock is given (it cannot name this lock).
func TestUnreadableLockWords(t *testing.T) {
	raw := Holder{raw: "held by bob for the upgrade"}
	sw := &model.Switch{Name: "spine1"}
	for _, breakLock := range []string{"", "20250101-120000-other"} {
		d := &device{
			o: Options{BreakLock: breakLock, Stale: func(Holder) bool { return false }},
			t: Target{Switch: sw},
			v: Vendors[model.PlatformEOS],
		}
		const held = `the device lock is held by an unreadable lock ("held by bob for the upgrade"): the next push refuses it; ` +
			"remove it on the switch (the file /mnt/flash/fabricc.lock) if no push is running"
		if got := d.heldLock(raw); got != held {
			t.Errorf("verify's pending text (break-lock %q): %q, want %q", breakLock, got, held)
		}
		const refusal = `spine1 is locked by an unreadable lock ("held by bob for the upgrade"); nothing was changed. ` +
			"Wait for that push (--lock-timeout 5m waits up to 5 minutes), or, if it is gone for good, remove it on the switch (the file /mnt/flash/fabricc.lock)"
		if err := d.lockedError(raw); err == nil || err.Error() != refusal {
			t.Errorf("refusal (break-lock %q): %v, want %q", breakLock, err, refusal)
		}
	}
}

// sentConn is a connection that records what is sent and refuses the
// lines of refuse.
type sentConn struct {
	sent   []string
	refuse string
}

func (c *sentConn) Send(cmd string) (string, error) {
	c.sent = append(c.sent, cmd)
	if cmd == c.refuse {
		return "", &RefusedError{Cmd: cmd, Reason: "% Invalid input"}
	}
	return "", nil
}
func (c *sentConn) Home() error  { return nil }
func (c *sentConn) Close() error { return nil }

// TestRollbackLeftoversOfAnAbortedSwitch: a switch that another
// switch's failure stops undoes what an interrupted push of fabricc's
// left (discards a staged EOS session, rolls back a timed one), keeps
// another's as pending, and leaves what it cannot undo with the reason;
// an undo that fails stops it with the leftover and the step named.
func TestRollbackLeftoversOfAnAbortedSwitch(t *testing.T) {
	found := []leftover{
		{what: "EOS session ops staged and never committed", kind: leftStaged},
		{what: "unsaved changes in the running-config", kind: leftUnsaved, ours: true},
		{what: "EOS session fabricc-k1 staged and never committed", kind: leftStaged, ours: true, undo: sends("configure session fabricc-k1 abort")},
		{what: "EOS session fabricc-k2 committed with a timer", kind: leftTimed, ours: true, undo: sends("configure session fabricc-k2 abort")},
	}
	c := &sentConn{}
	d := &device{res: &DeviceResult{}, conn: &closer{Conn: c, ctx: t.Context(), stop: func() bool { return true }}}
	if err := d.rollbackLeftovers(found); err != nil {
		t.Fatal(err)
	}
	if want := []string{"EOS session ops staged and never committed"}; !slices.Equal(d.res.Pending, want) {
		t.Errorf("pending %q, want %q", d.res.Pending, want)
	}
	want := []Recovery{
		{Found: "unsaved changes in the running-config (this push applies nothing, so it cannot be finished here; the next push finishes or replaces it)", Action: RecoveryLeft},
		{Found: "EOS session fabricc-k1 staged and never committed", Action: RecoveryDiscarded},
		{Found: "EOS session fabricc-k2 committed with a timer", Action: RecoveryRolledBack},
	}
	if !slices.Equal(d.res.Recovered, want) {
		t.Errorf("recovered %+v, want %+v", d.res.Recovered, want)
	}
	if w := []string{"configure session fabricc-k1 abort", "configure session fabricc-k2 abort"}; !slices.Equal(c.sent, w) {
		t.Errorf("sent %q, want %q", c.sent, w)
	}

	for i, action := range []string{RecoveryDiscarded, RecoveryRolledBack} {
		c := &sentConn{refuse: "configure session fabricc-k" + string(rune('1'+i)) + " abort"}
		d := &device{res: &DeviceResult{}, conn: &closer{Conn: c, ctx: t.Context(), stop: func() bool { return true }}}
		err := d.rollbackLeftovers(found)
		wantErr := found[2+i].what + ": " + action + ` failed: device refused "` + c.refuse + `": % Invalid input`
		if err == nil || err.Error() != wantErr {
			t.Errorf("undo refused: %v, want %q", err, wantErr)
		}
		if len(d.res.Recovered) != 1+i {
			t.Errorf("undo refused: recovered %+v, want only those before it", d.res.Recovered)
		}
	}
}

// TestDryRunRefusedJoinsEveryRefusal: a dry run of a switch the push
// would refuse for two leftovers fails with both refusals, in the
// order found, after "push would be refused: "; a dry run without a
// refusal, or one that already failed for another reason, keeps its
// status.
func TestDryRunRefusedJoinsEveryRefusal(t *testing.T) {
	first := errors.New("EOS session a committed with a timer, not confirmed, and it is not fabricc's: confirm or abort it on the switch first; nothing was changed")
	second := errors.New("EOS session b committed with a timer, not confirmed, and it is not fabricc's: confirm or abort it on the switch first; nothing was changed")
	d := &device{res: &DeviceResult{Status: StatusDryRun}, refused: []error{first, second}}
	err := d.dryRunRefused()
	if want := "push would be refused: " + first.Error() + "; " + second.Error(); err == nil || err.Error() != want || d.res.Status != StatusFailed {
		t.Errorf("dry run refused: %v (status %s), want failed %q", err, d.res.Status, want)
	}
	for _, d := range []*device{
		{res: &DeviceResult{Status: StatusDryRun}},
		{res: &DeviceResult{Status: StatusFailed}, refused: []error{first}},
	} {
		status := d.res.Status
		if err := d.dryRunRefused(); err != nil || d.res.Status != status {
			t.Errorf("dry run %s with %d refusals: %v (status %s), want nil, status kept", status, len(d.refused), err, d.res.Status)
		}
	}
}

// TestUndoBeforeGateOnlyForSeveralSwitches: an interrupted push's
// change is rolled back rather than completed before the gate only in
// an all-or-nothing push of two switches or more, and only when it can
// be undone.
func TestUndoBeforeGateOnlyForSeveralSwitches(t *testing.T) {
	undoable := leftover{what: "x", undo: sends("configure session fabricc-k abort")}
	for _, c := range []struct {
		gate *gate
		lo   leftover
		want bool
	}{
		{nil, undoable, false},
		{&gate{size: 1}, undoable, false},
		{&gate{size: 2}, undoable, true},
		{&gate{size: 2}, leftover{what: "x"}, false},
	} {
		d := &device{gating: &gating{gate: c.gate}}
		if got := d.undoBeforeGate(c.lo); got != c.want {
			t.Errorf("gate %+v, undoable %v: rolled back before the gate %v, want %v", c.gate, c.lo.undo != nil, got, c.want)
		}
	}
}
