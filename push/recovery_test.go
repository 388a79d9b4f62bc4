package push

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

// dial opens a raw connection to the lab switch, as a killed push had.
func (l *lab) dial(t *testing.T, p model.Platform) Conn {
	t.Helper()
	hk, err := transport.HostKeyCallback(l.kh, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dialSSH(l.dev, p, hk)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// switchOf returns the demo's first switch of platform p.
func switchOf(t *testing.T, f *model.Fabric, p model.Platform) *model.Switch {
	t.Helper()
	for _, sw := range platformsUnderTest(f) {
		if sw.Platform == p {
			return sw
		}
	}
	t.Fatalf("no %s switch", p)
	return nil
}

// interruptedTimer leaves what a push killed between apply and confirm
// leaves: the change effective under a 2-second commit timer (EOS) or
// confirm window (NVUE).
var interruptedTimer = map[model.Platform]func(t *testing.T, c Conn, cfg []byte){
	model.PlatformEOS: func(t *testing.T, c Conn, cfg []byte) {
		txn := &eosTxn{name: "fabricc-killed"}
		if _, err := txn.Stage(c, cfg); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Send("commit timer 00:00:02"); err != nil {
			t.Fatal(err)
		}
	},
	model.PlatformCumulus: func(t *testing.T, c Conn, cfg []byte) {
		txn := &nvueTxn{file: "/tmp/fabricc-killed.yaml"}
		if _, err := txn.Stage(c, cfg); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Send("nv config apply --confirm 2s -y -m fabricc-killed"); err != nil {
			t.Fatal(err)
		}
	},
}

// interruptedLab starts a simulated switch of platform p from the demo
// fabric and leaves on it what a push killed between apply and confirm
// leaves (interruptedTimer); it returns the lab, the switch and its
// configuration.
func interruptedLab(t *testing.T, f *model.Fabric, set *artifacts.Set, p model.Platform) (*lab, *model.Switch, []byte) {
	t.Helper()
	sw := switchOf(t, f, p)
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	c := l.dial(t, p)
	interruptedTimer[p](t, c, cfg)
	_ = c.Close()
	return l, sw, cfg
}

// TestRerunFinishesAnInterruptedCommit: a push killed after its change
// became effective under a timer leaves the switch reverting on its own
// within minutes. The next push must not call that "unchanged": it
// confirms the change (it verifies as the intended state) and saves it,
// so the switch still holds it after the timer would have run out.
func TestRerunFinishesAnInterruptedCommit(t *testing.T) {
	f, set := demo(t)
	for _, p := range []model.Platform{model.PlatformEOS, model.PlatformCumulus} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			l, sw, cfg := interruptedLab(t, f, set, p)
			applied := l.sim.Running()
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != StatusChanged || !r.Verified {
				t.Fatalf("re-run: status %s verified %v error %q, want changed and verified", r.Status, r.Verified, r.Error)
			}
			time.Sleep(2500 * time.Millisecond)
			if got := l.sim.Running(); got != applied {
				t.Fatalf("the switch reverted after the re-run reported success:\n%s", lineDiff(applied, got))
			}
			if l.sim.Saved() != applied {
				t.Error("the finished change is not saved")
			}
		})
	}
}

// TestVerifyReportsAPendingTimer: verify must not call a switch
// verified while a commit timer or confirm window would revert it.
func TestVerifyReportsAPendingTimer(t *testing.T) {
	f, set := demo(t)
	for _, p := range []model.Platform{model.PlatformEOS, model.PlatformCumulus} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			l, sw, cfg := interruptedLab(t, f, set, p)
			r := l.run(t, ActionVerify, f, sw, cfg)
			if r.Status == StatusVerified {
				t.Fatalf("verify says verified while the change reverts on a timer")
			}
			if r.Status != "pending" {
				t.Errorf("verify status %s, want pending", r.Status)
			}
		})
	}
}

// TestStalePendingRevisionIsNotApplied: changes someone left pending
// in NVUE (a push killed after `nv config patch`) must not ride along
// with the next push.
func TestStalePendingRevisionIsNotApplied(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformCumulus)
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	c := l.dial(t, sw.Platform)
	if _, err := c.Send("nv set interface swp30 link mtu 1600"); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push: %s %q", r.Status, r.Error)
	}
	if strings.Contains(l.sim.Running(), "1600") {
		t.Fatalf("the stale pending change was applied with the push:\n%s", l.sim.Running())
	}
}

// TestOldEOSSessionsAreCleanedUp: five sessions left pending by killed
// pushes fill EOS's limit; the next push aborts fabricc's own and
// succeeds.
func TestOldEOSSessionsAreCleanedUp(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformEOS)
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	c := l.dial(t, sw.Platform)
	for _, id := range []string{"k1", "k2", "k3", "k4", "k5"} {
		for _, cmd := range []string{"configure session fabricc-" + id, "vlan 3999", "end"} {
			if _, err := c.Send(cmd); err != nil {
				t.Fatal(err)
			}
		}
	}
	_ = c.Close()
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push with five stale sessions: %s %q", r.Status, r.Error)
	}
	if strings.Contains(l.sim.Running(), "vlan 3999") {
		t.Error("a stale session's change reached the running config")
	}
}

// otherClos is a copy of examples/multivendor-clos whose spine links
// run at MTU 9100 instead of 9214, so every switch's configuration
// differs from the example's.
func otherClos(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob("../examples/multivendor-clos/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("example files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = []byte(strings.ReplaceAll(string(data), "= 9214", "= 9100"))
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTwoPushesNeverInterleave pushes two different fabrics to the same
// switches at once: the second waits for the first (the device lock),
// so each switch ends fully in one fabric's state, verified, and each
// push's commands run as one block.
func TestTwoPushesNeverInterleave(t *testing.T) {
	f1, set1 := demo(t)
	f2, set2 := buildExampleVars(t, otherClos(t), map[string]string{"hosts_per_leaf": "4"})
	for _, p := range []model.Platform{model.PlatformOnyx, model.PlatformEOS, model.PlatformCumulus} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			sw1 := switchOf(t, f1, p)
			sw2 := f2.Switch(sw1.Name)
			l := startLab(t, sw1, sim.Faults{})
			hk, err := transport.HostKeyCallback(l.kh, false)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			res := make([]*DeviceResult, 2)
			for i, b := range []struct {
				f   *model.Fabric
				sw  *model.Switch
				cfg []byte
			}{{f1, sw1, config(t, set1, sw1)}, {f2, sw2, config(t, set2, sw2)}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rep := Run(t.Context(), Options{Action: ActionPush, Fabric: b.f, ID: []string{"a1", "b2"}[i],
						Targets: []Target{{Switch: b.sw, Config: b.cfg, Device: l.dev}}, Dial: SSHDialer(hk), LockTimeout: 60 * time.Second})
					res[i] = rep.Devices[0]
				}()
			}
			wg.Wait()
			for i, r := range res {
				if r.Status != StatusChanged || !r.Verified {
					t.Errorf("push %d: %s %q %v", i, r.Status, r.Error, r.Differences)
				}
			}
			// Whichever ran last owns the switch; verify against both.
			v1 := l.run(t, ActionVerify, f1, sw1, config(t, set1, sw1))
			v2 := l.run(t, ActionVerify, f2, sw2, config(t, set2, sw2))
			if (v1.Status == StatusVerified) == (v2.Status == StatusVerified) {
				t.Errorf("after both pushes the switch should match exactly one fabric: %s / %s", v1.Status, v2.Status)
			}
		})
	}
}

// TestOnyxLeftoverSaysItKeepsTheChange: after a push killed mid-way, EOS
// and NVUE revert on their timers but Onyx, which has none, keeps the
// change; what verify lists as pending says so and what to run.
func TestOnyxLeftoverSaysItKeepsTheChange(t *testing.T) {
	files := "initial (active)\nfabricc-pre-tx1\n\nActive configuration: initial\nUnsaved changes: yes\n"
	los, err := onyxLeftovers(fakeConn{readBack: files}, &Holder{ID: "tx1"})
	if err != nil || len(los) != 1 {
		t.Fatalf("leftovers %v, error %v", los, err)
	}
	want := "Onyx running configuration with unsaved changes by the interrupted push tx1 (checkpoint fabricc-pre-tx1); Onyx has no commit timer, so it keeps that change while the push's EOS and Cumulus switches revert on theirs"
	if los[0].what != want || los[0].pending() != want+": run fabricc push again, which finishes or rolls it back" {
		t.Errorf("what = %q, pending %q\nwant %q, and what to run for verify", los[0].what, los[0].pending(), want)
	}
}
