package push

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyActionRecordsItsVerifyStep pins verifyOnly against a
// one-token mutation (review mutants3) that dropped its step: the
// report of a verify action lists a "verify" step with its start and
// duration, as a push's does (TestReportRecordsCommandsWholeWithTimes),
// so a slow read-back shows where the time went.
func TestVerifyActionRecordsItsVerifyStep(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformEOS)
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged {
		t.Fatalf("push: %s %q", r.Status, r.Error)
	}
	r := l.run(t, ActionVerify, f, sw, cfg)
	var names []string
	for _, s := range r.Steps {
		names = append(names, s.Step)
	}
	if r.Status != StatusVerified || !slices.Contains(names, stepVerify) {
		t.Errorf("verify action: %s, steps %q; want verified with a %q step", r.Status, names, stepVerify)
	}
}
