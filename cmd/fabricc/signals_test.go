package main

import (
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim"
)

// interruptMidApply starts a push of Onyx leaf3 whose every answer
// takes 20 ms (a rollback then takes a while), sends SIGINT once the
// push is applying the port 1/7 lines, and, once fabricc has said that
// it rolls back, sends second. It returns the process, the switch and
// its state before the push.
func interruptMidApply(t *testing.T, second syscall.Signal) (*fabriccProc, *oneSwitch, string) {
	t.Helper()
	bin := buildBinary(t)
	f, _, out := closBuild(t)
	reached := make(chan string, 1)
	one := startOne(t, f.Switch("leaf3"), sim.Faults{Latency: 20 * time.Millisecond, Stage: &sim.StageFault{At: regexp.MustCompile(`^interface ethernet 1/7 `),
		Kind: sim.FaultSlow, Delay: time.Minute, Reached: func(l string) { reached <- l }}})
	before := one.state()
	p := startFabricc(t, bin, "push", "--yes", "--artifacts", out, "-i", one.inv, "--partial")
	select {
	case <-reached:
	case <-time.After(90 * time.Second):
		t.Fatalf("the push never reached the port 1/7 lines:\n%s", p.out.String())
	}
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(p.out.String(), "fabricc: SIGINT: rolling back what is in flight") {
		if time.Now().After(deadline) {
			t.Fatalf("no word of the SIGINT:\n%s", p.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.cmd.Process.Signal(second); err != nil {
		t.Fatal(err)
	}
	return p, one, before
}

// TestSIGINTThenSIGTERMFinishesTheRollback: a CI cancel (GitHub Actions:
// SIGINT, then SIGTERM 7.5 s later) is one request. The SIGTERM that
// arrives during the rollback the SIGINT started does not stop fabricc:
// the Onyx switch is rolled back completely, the report is written and
// push exits 1. Before, any second signal ended fabricc at once,
// leaving the switch half rolled back and no report.
func TestSIGINTThenSIGTERMFinishesTheRollback(t *testing.T) {
	p, one, before := interruptMidApply(t, syscall.SIGTERM)
	code, _ := p.wait(90 * time.Second)
	if code != 1 {
		t.Fatalf("exit status %d after SIGINT and SIGTERM, want 1\n%s", code, p.out.String())
	}
	if got := one.state(); got != before {
		t.Fatalf("the switch is not as before the push:\n%s", p.out.String())
	}
	if want := "fabricc: SIGTERM after SIGINT: the same request, still rolling back what is in flight (only a second Ctrl-C, SIGINT, stops at once)\n"; !strings.Contains(p.out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, p.out.String())
	}
	r, err := p.result()
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, p.out.String())
	}
	if r.Status != push.StatusAborted || !r.RolledBack || !strings.Contains(r.Error, "interrupted by SIGINT during \"interface ethernet 1/7 ") {
		t.Errorf("report: status %s rolled back %v error %q", r.Status, r.RolledBack, r.Error)
	}
}

// TestSecondSIGINTWritesTheReport: a repeated Ctrl-C stops at once
// (exit 130), but first writes the summary and the --report file, in
// which the switch still in flight is failed, naming the step it was
// in. Before, the second signal ended fabricc with no summary and no
// report.
func TestSecondSIGINTWritesTheReport(t *testing.T) {
	p, _, _ := interruptMidApply(t, syscall.SIGINT)
	code, _ := p.wait(90 * time.Second)
	if code != 130 {
		t.Fatalf("exit status %d after a second SIGINT, want 130\n%s", code, p.out.String())
	}
	out := p.out.String()
	for _, want := range []string{
		"fabricc: a second SIGINT: stopping at once; what is in flight stays as it is (the next push recovers it)\n",
		"\npush: 1 device: 1 failed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	r, err := p.result()
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, out)
	}
	want := regexp.MustCompile(`^stopped at once by a second SIGINT in step "(rollback|apply)": the switch may hold a part of the change, its lock and a checkpoint or a commit timer; fabricc verify shows what is left, and the next push recovers it$`)
	if r.Device != "leaf3" || r.Status != push.StatusFailed || !want.MatchString(r.Error) {
		t.Errorf("report: %s status %s error %q, want failed, %s", r.Device, r.Status, r.Error, want)
	}
	if fi, err := os.Stat(p.report); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("report file: %v %v", fi, err)
	}
}
