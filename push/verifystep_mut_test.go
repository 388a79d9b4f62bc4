package push

import (
	"regexp"
	"slices"
	"strings"
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

// TestVerifyActionFailsWhenTheReadBackFails pins verifyOnly against a
// one-token mutation (review mutants3) that dropped verify's error when
// it found no difference: a switch whose running configuration cannot
// be read whole (EOS answers `% Invalid input` to a command a role may
// not run, Arista EOS User Manual, Role-Based Authorization; here `show
// interfaces | json`, the second read-back) is not verified; the verify
// action fails, naming the read.
func TestVerifyActionFailsWhenTheReadBackFails(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformEOS)
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{Reject: regexp.MustCompile(`^show interfaces \| json$`)})
	r := l.run(t, ActionVerify, f, sw, cfg)
	if r.Status != StatusFailed || r.Verified || !strings.HasPrefix(r.Error, "reading back: ") {
		t.Errorf("verify with show interfaces refused: %s verified=%v %q; want failed reading back", r.Status, r.Verified, r.Error)
	}
}
