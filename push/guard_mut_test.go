package push

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// Tests that pin guard.go (the device lock and the recovery after an
// interrupted push) where a one-token mutation (review mutants4) left
// every earlier test passing.

// cumulusOf is the demo fabric's Cumulus switch with its configuration.
func cumulusOf(t *testing.T) (*model.Fabric, *model.Switch, []byte) {
	t.Helper()
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		if sw.Platform == model.PlatformCumulus {
			return f, sw, config(t, set, sw)
		}
	}
	t.Skip("the demo fabric has no Cumulus switch")
	return nil, nil, nil
}

// TestUnlockRetriesOverANewConnection: when the connection drops at the
// release of the lock (`rm -f /var/tmp/fabricc.lock`), the push releases
// it over a new connection and says so; the switch is left unlocked and
// the push changed.
func TestUnlockRetriesOverANewConnection(t *testing.T) {
	f, sw, cfg := cumulusOf(t)
	l := startLab(t, sw, sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(`^rm -f /var/tmp/fabricc\.lock$`), Kind: sim.FaultDrop}})
	r := l.runWith(t, Options{Action: ActionPush, Fabric: f}, sw, cfg)
	if r.Status != StatusChanged {
		t.Fatalf("push: %s %q", r.Status, r.Error)
	}
	var notes []string
	for _, n := range r.Notes {
		if strings.Contains(n, "device lock") {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "releasing the device lock failed once (") || !strings.HasSuffix(notes[0], "); released over a new connection") {
		t.Errorf("notes about the lock %q, want one: releasing the device lock failed once (...); released over a new connection", notes)
	}
	if h := lockHolder(t, l, sw.Platform); h != nil {
		t.Errorf("lock left after the push: %v", h)
	}
}

// TestUnlockThatFailsIsReported: a lock the push cannot release (every
// `rm -f` of it refused) is reported with what the next push does about
// it, never left silently; it stays, naming this push.
func TestUnlockThatFailsIsReported(t *testing.T) {
	f, sw, cfg := cumulusOf(t)
	l := startLab(t, sw, sim.Faults{Reject: regexp.MustCompile(`^rm -f /var/tmp/fabricc\.lock$`)})
	r := l.runWith(t, Options{Action: ActionPush, Fabric: f, ID: "20250101-120000-unlock"}, sw, cfg)
	const after = "); the next push from this host breaks it once this process has ended, another host needs --break-lock"
	found := slices.ContainsFunc(r.Notes, func(n string) bool {
		return strings.HasPrefix(n, "the device lock could not be released (") && strings.HasSuffix(n, after)
	})
	if !found {
		t.Errorf("push %s %q, notes %q: want the device lock could not be released (...%s", r.Status, r.Error, r.Notes, after)
	}
	if h := lockHolder(t, l, sw.Platform); h == nil || h.ID != "20250101-120000-unlock" {
		t.Errorf("lock after the push %v, want this push's", h)
	}
}

// TestFifthLockIsNotTakenOver: a lock that already carries maxInherits
// (4) transactions of killed pushes is not taken over again, stale or
// named by --break-lock, so that its line stays bounded; the push
// refuses the switch instead. One fewer is still taken over.
func TestFifthLockIsNotTakenOver(t *testing.T) {
	stale := func(Holder) bool { return true }
	killed := Holder{ID: "20250101-120400-killed5"}
	for n, want := range map[int]bool{3: true, 4: false} {
		var inherits []string
		for i := range n {
			inherits = append(inherits, "20250101-12000"+string(rune('0'+i))+"-killed")
		}
		for _, o := range []Options{{Stale: stale}, {Stale: func(Holder) bool { return false }, BreakLock: killed.ID}} {
			d := &device{o: o, me: Holder{ID: "20250101-120500-me", Inherits: inherits}}
			if _, ok := d.mayBreak(killed); ok != want {
				t.Errorf("with %d transactions inherited (break-lock %q), taken over: %v, want %v", n, o.BreakLock, ok, want)
			}
		}
	}
}

// eosOf is the demo fabric's EOS switch with its configuration.
func eosOf(t *testing.T) (*model.Fabric, *model.Switch, []byte) {
	t.Helper()
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		if sw.Platform == model.PlatformEOS {
			return f, sw, config(t, set, sw)
		}
	}
	t.Skip("the demo fabric has no EOS switch")
	return nil, nil, nil
}

// TestOthersTimedSessionRefusesThePush: an operator's EOS configure
// session committed with `commit timer` (which the switch rolls back
// unless it is committed again before the timer runs out) is not fabricc's to confirm or abort: the
// push refuses the switch, naming the session and the way out, and
// changes nothing; the session still waits under its timer. A dry run
// shows the diff and fails with the same refusal.
func TestOthersTimedSessionRefusesThePush(t *testing.T) {
	f, sw, cfg := eosOf(t)
	l := startLab(t, sw, sim.Faults{})
	c := l.dial(t, model.PlatformEOS)
	for _, cmd := range []string{"configure session troubleshooting", "commit timer 00:05:00"} {
		if out, err := c.Send(cmd); err != nil || strings.Contains(out, "%") {
			t.Fatalf("%s: %v %q", cmd, err, out)
		}
	}
	_ = c.Close()
	running := l.sim.Running()
	const refusal = "EOS session troubleshooting committed with a timer, not confirmed (the switch reverts it when the timer runs out), " +
		"and it is not fabricc's: confirm or abort it on the switch first; nothing was changed"

	r := l.runWith(t, Options{Action: ActionPush, Fabric: f}, sw, cfg)
	if r.Status != StatusFailed || r.Error != refusal {
		t.Errorf("push: %s %q, want failed %q", r.Status, r.Error, refusal)
	}
	if l.sim.Running() != running {
		t.Error("the refused push changed the running configuration")
	}
	d := l.runWith(t, Options{Action: ActionDiff, Fabric: f, ID: "t2"}, sw, cfg)
	if d.Status != StatusFailed || d.Error != "push would be refused: "+refusal {
		t.Errorf("dry run: %s %q, want failed %q", d.Status, d.Error, "push would be refused: "+refusal)
	}
	c = l.dial(t, model.PlatformEOS)
	defer c.Close()
	// EOS refuses to enter a session whose commit timer runs.
	if _, err := c.Send("configure session troubleshooting"); err == nil || !strings.Contains(err.Error(), "(commit timer pending)") {
		t.Errorf("entering the operator's session after the push: %v, want %q", err, "(commit timer pending)")
	}
}

// raceLock is a device lock whose stale holder is taken over by
// another push between this run's write and its read-back: acquire
// finds stale, takeover returns winner. It records what is done to it.
type raceLock struct {
	stale, winner Holder
	calls         []string
}

func (l *raceLock) acquire(Conn, Holder) (*Holder, error) {
	l.calls = append(l.calls, "acquire")
	h := l.stale
	return &h, nil
}
func (l *raceLock) release(Conn, Holder) error {
	l.calls = append(l.calls, "release")
	return nil
}
func (l *raceLock) holder(Conn) (*Holder, error) { h := l.winner; return &h, nil }
func (l *raceLock) takeover(Conn, Holder, Holder) (*Holder, error) {
	l.calls = append(l.calls, "takeover")
	h := l.winner
	return &h, nil
}
func (l *raceLock) handBack(Conn, Holder, Holder) error {
	l.calls = append(l.calls, "handBack")
	return nil
}
func (l *raceLock) where() string { return "the file /var/tmp/fabricc.lock" }

// homeConn is a connection that answers nothing and never fails.
type homeConn struct{}

func (homeConn) Send(string) (string, error) { return "", nil }
func (homeConn) Home() error                 { return nil }
func (homeConn) Close() error                { return nil }

// TestLostTakeoverLeavesTheWinnersLock: a run that breaks a stale lock
// and finds, reading it back, that another push took it in between
// holds no lock and inherits nothing: it is refused as locked by the
// winner, and its unlock neither releases the winner's lock nor writes
// the stale holder's back over it.
func TestLostTakeoverLeavesTheWinnersLock(t *testing.T) {
	stale := Holder{ID: "20250101-120000-killed", User: "alice", Host: "opsbox", PID: 4242}
	winner := Holder{ID: "20250101-120100-winner", User: "bob", Host: "opsbox", PID: 4343}
	lk := &raceLock{stale: stale, winner: winner}
	d := &device{
		o:      Options{Stale: func(h Holder) bool { return h.ID == stale.ID }},
		t:      Target{Switch: &model.Switch{Name: "leaf1"}},
		v:      &Vendor{Lock: lk},
		res:    &DeviceResult{},
		conn:   &closer{Conn: homeConn{}, ctx: t.Context(), stop: func() bool { return true }},
		me:     Holder{ID: "20250101-120200-me", User: "carol", Host: "opsbox", PID: 4444},
		gating: &gating{}, // a push of one switch: no gate
	}
	err := d.lock(t.Context())
	want := "leaf1 is locked by " + winner.String() + "; nothing was changed"
	if err == nil || !strings.HasPrefix(err.Error(), want) || d.res.Status != StatusLocked {
		t.Fatalf("lock: %v (status %s), want %q...", err, d.res.Status, want)
	}
	if d.locked || d.inherited {
		t.Errorf("after the lost takeover locked=%v inherited=%v, want neither", d.locked, d.inherited)
	}
	d.unlock(t.Context())
	if !slices.Equal(lk.calls, []string{"acquire", "takeover"}) {
		t.Errorf("done to the lock: %q, want only acquire and takeover", lk.calls)
	}
}
