package push

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// TestUnlockRunsAtTheEnablePrompt: a push whose EOS session fails
// while staging (a line refused) and whose in-session `abort` is
// refused too rolls back with `configure session NAME abort`, which
// leaves the CLI in configuration mode; the release of the lock (`bash
// timeout 10 rm -f /mnt/flash/fabricc.lock`, an exec command) is sent
// after returning to the enable prompt, so it succeeds on the push's own
// connection: no lock left, no note of a failed release. scrapligo's
// bundled arista_eos took "leaf1(config)#" for the enable prompt, so the
// return home sent nothing and the release was refused in configuration
// mode (push/platforms/arista_eos.yaml).
func TestUnlockRunsAtTheEnablePrompt(t *testing.T) {
	f, sw, cfg := eosOf(t)
	l := startLab(t, sw, sim.Faults{Reject: regexp.MustCompile(`^(abort|platform trident mmu queue profile fabricc)$`)})
	r := l.runWith(t, Options{Action: ActionPush, Fabric: f}, sw, cfg)
	if r.Status != StatusFailed || !strings.HasPrefix(r.Error, "staging: ") {
		t.Fatalf("push: %s %q, want failed while staging", r.Status, r.Error)
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "device lock") {
			t.Errorf("note %q, want none about the device lock (released at the enable prompt)", n)
		}
	}
	if h := lockHolder(t, l, sw.Platform); h != nil {
		t.Errorf("lock left after the push: %v", h)
	}
}
