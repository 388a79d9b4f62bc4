package push

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// TestBreakLockNamesTheTransaction (review rsre, finding 11):
// --break-lock names the transaction whose lock it breaks, as
// Terraform's force-unlock takes the lock ID: a lock of another
// transaction (one another push took since the operator read the ID)
// stays, and the refusal says which --break-lock would break it.
// verify says what the next push does about a lock: breaks a stale one
// of this host, refuses any other, with the exact --break-lock.
func TestBreakLockNamesTheTransaction(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			t.Parallel()
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			holdLock(t, l, sw.Platform, elsewhere)

			v := l.run(t, ActionVerify, f, sw, cfg)
			want := "the device lock is held by " + elsewhere.String() + ": a push is running, or one that is gone left it, which the next push refuses; " +
				"if that push is gone for good, push with --break-lock=20250101-120000-abcdef"
			if v.Status != StatusPending || !slices.Contains(v.Pending, want) {
				t.Errorf("verify: %s pending %q\nwant %q", v.Status, v.Pending, want)
			}

			r := l.runWith(t, Options{Action: ActionPush, Fabric: f, BreakLock: "20250101-130000-other0"}, sw, cfg)
			wantErr := sw.Name + " is locked by " + elsewhere.String() + "; nothing was changed. Wait for that push (--lock-timeout 5m waits up to 5 minutes), or, " +
				"--break-lock=20250101-130000-other0 names another transaction, so this lock was kept; if it is gone for good, run again with --break-lock=20250101-120000-abcdef"
			if r.Status != StatusLocked || r.Error != wantErr || len(r.Recovered) != 0 {
				t.Fatalf("push with another transaction's --break-lock: %s %v\n%q\nwant\n%q", r.Status, r.Recovered, r.Error, wantErr)
			}
			if h := lockHolder(t, l, sw.Platform); h == nil || !h.same(elsewhere) {
				t.Fatalf("the lock of another transaction was broken: %v", h)
			}

			c := l.dial(t, sw.Platform)
			_ = Vendors[sw.Platform].Lock.release(c, elsewhere)
			_ = c.Close()
			dead := LocalHolder("20250101-120000-dead00")
			dead.PID = deadPID(t)
			holdLock(t, l, sw.Platform, dead)
			v = l.run(t, ActionVerify, f, sw, cfg)
			want = "the device lock is held by " + dead.String() + ", whose fabricc process on this host has ended: the next push from this host breaks it and recovers what that push left"
			if !slices.Contains(v.Pending, want) {
				t.Errorf("verify of a stale lock: pending %q\nwant %q", v.Pending, want)
			}
		})
	}
}
