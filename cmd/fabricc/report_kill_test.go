package main

import (
	"encoding/json"
	"os"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim"
)

// TestKilledPushLeavesItsReport (review rsre, finding 7): SIGKILL
// cannot be caught, so a push killed outright (kill -9, the OOM killer,
// a runner that died) writes nothing at its end. The --report file is
// rewritten at every step instead: after a kill -9 in the middle of
// Onyx leaf3's apply it holds the run's start (RFC 3339, UTC) and no
// end, and leaf3 running, its steps from connect to apply each with its
// start, every step but the last with its duration. Before, no report
// file existed.
func TestKilledPushLeavesItsReport(t *testing.T) {
	bin := buildBinary(t)
	f, _, out := closBuild(t)
	reached := make(chan string, 1)
	one := startOne(t, f.Switch("leaf3"), sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(`^interface ethernet 1/7 `),
		Kind: sim.FaultSlow, Delay: time.Minute, Reached: func(l string) { reached <- l }}})
	p := startFabricc(t, bin, "push", "--yes", "--artifacts", out, "-i", one.inv, "--partial")
	select {
	case <-reached:
	case <-time.After(90 * time.Second):
		t.Fatalf("the push never reached the port 1/7 lines:\n%s", p.out.String())
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = p.wait(30 * time.Second)
	data, err := os.ReadFile(p.report)
	if err != nil {
		t.Fatalf("no report after kill -9: %v\n%s", err, p.out.String())
	}
	var rep push.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("the report left is not whole: %v\n%s", err, data)
	}
	if _, err := time.Parse(push.StampFormat, rep.StartedAt); err != nil || rep.StartedAt[len(rep.StartedAt)-1] != 'Z' || rep.FinishedAt != "" {
		t.Errorf("run started_at %q finished_at %q: want a UTC RFC 3339 start and no end", rep.StartedAt, rep.FinishedAt)
	}
	if len(rep.Devices) != 1 {
		t.Fatalf("%d devices in the report", len(rep.Devices))
	}
	r := rep.Devices[0]
	if r.Device != "leaf3" || r.Status != push.StatusRunning || len(r.Steps) == 0 {
		t.Fatalf("report: %s status %s steps %v, want leaf3 running with its steps", r.Device, r.Status, r.Steps)
	}
	if r.Steps[0].Step != "connect" || r.Steps[len(r.Steps)-1].Step != "apply" || r.StartedAt != r.Steps[0].StartedAt {
		t.Errorf("steps %+v: want connect first, apply last, the device's start the first step's", r.Steps)
	}
	for i, s := range r.Steps {
		if _, err := time.Parse(push.StampFormat, s.StartedAt); err != nil {
			t.Errorf("step %s started_at %q: %v", s.Step, s.StartedAt, err)
		}
		if last := i == len(r.Steps)-1; (s.DurationMs == nil) != last {
			t.Errorf("step %s duration %v: want one on every step but the last", s.Step, s.DurationMs)
		}
	}
}
