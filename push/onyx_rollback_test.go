package push

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// onyxOldPools are traffic pools an earlier push (or an operator) left:
// lossy-default larger and roce-lossless smaller than multivendor-clos
// leaf4 wants (43.60 and 55.00), the same switch priorities.
var onyxOldPools = []string{
	"traffic pool lossy-default type lossy", "traffic pool lossy-default memory percent 50.00",
	"traffic pool lossy-default map switch-priority 0 1 2 4 5 6 7",
	"traffic pool roce-lossless type lossless", "traffic pool roce-lossless memory percent 40.00",
	"traffic pool roce-lossless map switch-priority 3",
	"configuration write",
}

// TestOnyxRollbackRestoresPoolsShrinksFirst is review ronyx #1: a push
// that resizes the traffic pools and then fails late is rolled back with
// the pool shares restored shrinks first (roce-lossless 55.00 -> 40.00
// before lossy-default 43.60 -> 50.00), as apply changed them, so the
// simulator, which refuses a total above 100 % as Onyx does, takes every
// line and the switch is back to what it was.
func TestOnyxRollbackRestoresPoolsShrinksFirst(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{Reject: regexp.MustCompile(`^interface ethernet 1/32 pfc-wd$`)})
	l.onyxHand(t, onyxOldPools...)
	before := l.sim.Running()

	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusFailed || !r.RolledBack || r.RollbackNote != "" {
		t.Fatalf("push: %s %q rolled back %v %q", r.Status, r.Error, r.RolledBack, r.RollbackNote)
	}
	if got := l.sim.Running(); got != before {
		t.Errorf("running config after the rollback differs from before the push:\n%s", lineDiff(before, got))
	}
	order := func(what string, a, b string) {
		t.Helper()
		i, j := slices.Index(r.Commands, a), slices.Index(r.Commands, b)
		if i < 0 || j < 0 || i > j {
			t.Errorf("%s sent %q at %d and %q at %d, want the shrink first", what, a, i, b, j)
		}
	}
	order("apply", "traffic pool lossy-default memory percent 43.60", "traffic pool roce-lossless memory percent 55.00")
	order("rollback", "traffic pool roce-lossless memory percent 40.00", "traffic pool lossy-default memory percent 50.00")
}

// TestOnyxFailedRollbackKeepsLock: when the rollback itself is refused
// (here the restore of lossy-default's share, once), the failure names
// the checkpoint and says what to do, and the device lock stays; the
// next push breaks it as stale, recognises the unsaved change as that
// push's and restores the checkpoint line by line, instead of refusing
// "unsaved changes that no fabricc push made".
func TestOnyxFailedRollbackKeepsLock(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{Reject: regexp.MustCompile(`^interface ethernet 1/32 pfc-wd$`),
		Stage: &sim.StageFault{At: regexp.MustCompile(`^traffic pool lossy-default memory percent 50\.00$`), Nth: 2, Kind: sim.FaultReject}})
	l.onyxHand(t, onyxOldPools...)
	before := l.sim.Running()

	r := l.run(t, ActionPush, f, sw, cfg)
	keep := `rollback failed: device refused "traffic pool lossy-default memory percent 50.00": ` +
		"% Unrecognized command \"traffic\".; the switch keeps the change unsaved, checkpoint fabricc-pre-t1 holds the configuration from before the push, " +
		"and the device lock stays: run fabricc push again (from another host: with --break-lock=t1), which takes the change as this push's and saves it " +
		"when it verifies, or restores fabricc-pre-t1 line by line without a reboot (not `configuration switch-to`, which reboots the switch); " +
		"do not save the configuration by hand"
	if r.Status != StatusFailed || r.RolledBack || r.RollbackNote != keep {
		t.Fatalf("push: %s %q rolled back %v\n%q\nwant note\n%q", r.Status, r.Error, r.RolledBack, r.RollbackNote, keep)
	}
	if l.sim.Running() == before {
		t.Fatal("the refused restore line left the switch as before: the test does not test a failed rollback")
	}

	r = l.runWith(t, Options{Action: ActionPush, Fabric: f, ID: "t2", Stale: func(Holder) bool { return true }}, sw, cfg)
	found := "Onyx running configuration with unsaved changes by the interrupted push t1 (checkpoint fabricc-pre-t1); Onyx has no commit timer, " +
		"so it keeps that change while the push's EOS and Cumulus switches revert on theirs"
	if !slices.Contains(r.Recovered, Recovery{Found: found, Action: RecoveryRolledBack}) {
		t.Errorf("second push recovered %v, want %q rolled back", r.Recovered, found)
	}
	if r.Status != StatusFailed || !r.RolledBack {
		t.Errorf("second push (pfc-wd still refused): %s %q rolled back %v %q", r.Status, r.Error, r.RolledBack, r.RollbackNote)
	}
	if got := l.sim.Running(); got != before {
		t.Errorf("running config after the recovery differs from before the first push:\n%s", lineDiff(before, got))
	}
	if strings.Contains(l.sim.Running(), "fabricc-") {
		t.Errorf("a fabricc file is left in the running config")
	}
}

// TestOnyxRollbackToAllDefaults is review mrj #1: a running config of
// defaults only reads as no lines, and a rollback to it still undoes
// what the push added instead of reporting a rollback it did not do.
func TestOnyxRollbackToAllDefaults(t *testing.T) {
	var sent []string
	defaults := "## defaults only\nconfigure terminal\nexit\n"
	before := onyxLines(defaults)
	if before != nil {
		t.Fatalf("onyxLines of a defaults-only config = %q, want none", before)
	}
	added := "interface ethernet 1/1 mtu 9216 force\n"
	c := &rollbackConn{runs: []string{added, defaults}, sent: &sent}
	txn := &onyxTxn{checkpoint: "fabricc-pre-x", before: before}
	if err := txn.Rollback(c); err != nil {
		t.Fatal(err)
	}
	want := []string{"show running-config", "configure terminal", "interface ethernet 1/1 no mtu force", "show running-config"}
	if !slices.Equal(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

// rollbackConn answers "show running-config" with runs in turn (the
// last one from then on) and records every command sent.
type rollbackConn struct {
	runs []string
	sent *[]string
}

func (c *rollbackConn) Send(cmd string) (string, error) {
	*c.sent = append(*c.sent, cmd)
	if cmd != "show running-config" {
		return "", nil
	}
	run := c.runs[0]
	if len(c.runs) > 1 {
		c.runs = c.runs[1:]
	}
	return run, nil
}
func (*rollbackConn) Close() error { return nil }
func (*rollbackConn) Home() error  { return nil }
