package push

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// killedAfterCommit leaves on the lab switch what a push of transaction
// id killed after its change took effect and before its save leaves:
// EOS a session committed (no timer) and running-config unlike
// startup-config, NVUE a revision applied and not saved, Onyx half of
// its lines after its checkpoint. The lock it held is the caller's.
func killedAfterCommit(t *testing.T, l *lab, p model.Platform, cfg []byte, id string) {
	t.Helper()
	c := l.dial(t, p)
	defer c.Close()
	var err error
	switch p {
	case model.PlatformEOS:
		if _, err = (&eosTxn{name: "fabricc-" + id}).Stage(c, cfg); err == nil {
			_, err = c.Send("commit")
		}
	case model.PlatformCumulus:
		// Auto save (Cumulus Linux 5.9 and later) would save at apply.
		for _, cmd := range []string{"nv set system config auto-save enable off", "nv config apply -y", "nv config save"} {
			if _, err = c.Send(cmd); err != nil {
				t.Fatal(err)
			}
		}
		if _, err = (&nvueTxn{file: "/tmp/fabricc-" + id + ".yaml"}).Stage(c, cfg); err == nil {
			_, err = c.Send("nv config apply -y -m fabricc-" + id)
		}
	case model.PlatformOnyx:
		txn := &onyxTxn{checkpoint: "fabricc-pre-" + id}
		if _, err = txn.Stage(c, cfg); err == nil {
			txn.send = txn.send[:len(txn.send)/2]
			err = txn.Apply(c)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestTakenOverLockKeepsTheKilledPush (review rsre, finding 3): a push
// that breaks the stale lock of a killed push and is itself interrupted
// before it has recovered what that push left must leave a lock that
// still names the killed push's transaction. Otherwise the next push
// takes the killed push's unsaved change for "unsaved changes that no
// fabricc push made" and refuses the switch (on Onyx with no fabricc way
// out). Two interruptions: the process killed right after the takeover
// (its lock, naming the killed push, stays: on EOS and Cumulus the lock
// file says inherits=, on Onyx the killed push's lock file stays beside
// the new one), and the connection dropped in the takeover (EOS,
// Cumulus) or at the recovery's first read (Onyx, the review's window):
// the run hands the lock back. Either way the next push recovers the
// killed push's change as fabricc's and ends changed, saved, unlocked.
func TestTakenOverLockKeepsTheKilledPush(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		// Where a run's connection drops: Onyx at the recovery's first
		// read, the 4th listing (holdLock's, the run's first lock
		// attempt's, its takeover's, then its recovery's; before the
		// fix: the new lock's, the old one deleted); EOS and Cumulus in
		// the takeover, at the read-back of the lock line just written
		// over the killed push's (the 3rd read: the first attempt's, the
		// takeover's check, its read-back).
		drops := map[model.Platform]*sim.StageFault{
			model.PlatformOnyx:    {At: regexp.MustCompile(`^show configuration files$`), Nth: 4, Kind: sim.FaultDrop},
			model.PlatformEOS:     {At: regexp.MustCompile(`^bash timeout 10 cat /mnt/flash/fabricc\.lock$`), Nth: 3, Kind: sim.FaultDrop},
			model.PlatformCumulus: {At: regexp.MustCompile(`^cat /var/tmp/fabricc\.lock$`), Nth: 3, Kind: sim.FaultDrop},
		}
		dropAt := map[model.Platform]string{
			model.PlatformOnyx: "looking for what interrupted runs left", model.PlatformEOS: "breaking the lock of ", model.PlatformCumulus: "breaking the lock of ",
		}
		for _, how := range []string{"killed after the takeover", "dropped"} {
			t.Run(string(sw.Platform)+"/"+how, func(t *testing.T) {
				t.Parallel()
				cfg := config(t, set, sw)
				faults := sim.Faults{}
				if how == "dropped" {
					faults.Stage = drops[sw.Platform]
				}
				l := startLab(t, sw, faults)
				killed := LocalHolder("20250101-120000-killed")
				killed.PID = deadPID(t)
				holdLock(t, l, sw.Platform, killed)
				killedAfterCommit(t, l, sw.Platform, cfg, killed.ID)

				if how == "killed after the takeover" {
					// What a push killed right after its takeover leaves.
					heirOf := heir(LocalHolder("20250101-120500-heir00"), killed)
					heirOf.PID = deadPID(t)
					c := l.dial(t, sw.Platform)
					if other, err := Vendors[sw.Platform].Lock.takeover(c, heirOf, killed); err != nil || other != nil {
						t.Fatalf("takeover: %v, held by %v", err, other)
					}
					_ = c.Close()
					if h := lockHolder(t, l, sw.Platform); h == nil || !slices.Contains(h.txns(), killed.ID) {
						t.Fatalf("after the takeover the lock does not name the killed push: %v", h)
					}
				} else {
					r := l.runWith(t, Options{Action: ActionPush, Fabric: f, ID: "20250101-120500-drop00"}, sw, cfg)
					if r.Status != StatusFailed || !strings.HasPrefix(r.Error, dropAt[sw.Platform]) {
						t.Fatalf("the dropped run: %s %q, want failed, %q", r.Status, r.Error, dropAt[sw.Platform])
					}
					want := "the device lock of " + killed.String() + " is back on the switch: this run did not resolve what that push left, the next push does"
					if !slices.Contains(r.Notes, want) {
						t.Errorf("notes %q, want %q", r.Notes, want)
					}
					if h := lockHolder(t, l, sw.Platform); h == nil || !h.same(killed) {
						t.Fatalf("after the dropped run the lock is %v, want the killed push's", h)
					}
				}

				r := l.runWith(t, Options{Action: ActionPush, Fabric: f, ID: "20250101-121000-next00"}, sw, cfg)
				if r.Status != StatusChanged || !r.Verified {
					t.Fatalf("the next push: %s %q %v", r.Status, r.Error, r.Recovered)
				}
				found := false
				for _, rec := range r.Recovered {
					if strings.Contains(rec.Found, "by the interrupted push "+killed.ID) && rec.Action != RecoveryLeft {
						found = true
					}
					if strings.Contains(rec.Found, "no fabricc push made") {
						t.Errorf("the killed push's change taken for someone else's: %v", rec)
					}
				}
				if !found {
					t.Errorf("recovered %v: nothing of the killed push %s resolved", r.Recovered, killed.ID)
				}
				if l.sim.Saved() != l.sim.Running() {
					t.Error("the switch is left with unsaved changes")
				}
				if h := lockHolder(t, l, sw.Platform); h != nil {
					t.Errorf("lock left after the push: %v", h)
				}
				if sw.Platform == model.PlatformOnyx {
					if files := onyxFileNames(t, l); !slices.Equal(files, []string{"initial"}) {
						t.Errorf("configuration files after the push: %q, want only initial", files)
					}
				}
			})
		}
	}
}
