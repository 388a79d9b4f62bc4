package push

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNothingToChangeVerifyFails: a switch with nothing to change whose
// read-back fails has failed, not stayed unchanged: before the fix it
// reported "unchanged" with an error, which Report.Failed (the exit
// status) does not count, and in an all-or-nothing push the other
// switches were aborted by a switch the summary listed as unchanged.
func TestNothingToChangeVerifyFails(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformEOS)
	cfg := config(t, set, sw)
	// Each push reads the switch before it stages (readBefore) and
	// again to verify: the fourth read is the second push's
	// verification, which has nothing to change.
	l := startLab(t, sw, sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(`^show interfaces \| json$`), Nth: 4, Kind: sim.FaultReject}})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged {
		t.Fatalf("first push: %s %q", r.Status, r.Error)
	}
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusFailed || !strings.HasPrefix(r.Error, "reading back: ") {
		t.Errorf("second push: status %s, error %q; want failed, reading back", r.Status, r.Error)
	}
}
