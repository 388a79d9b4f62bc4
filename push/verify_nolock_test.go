package push

import (
	"regexp"
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyWithoutReadingTheLock (review rsre, finding 10): a drift job
// runs verify from a read-only account, which may be refused the command
// the device lock needs (EOS: bash, which a role without shell access
// lacks). verify then still compares the configuration, reports the
// switch verified when it matches, and notes the lock as unknown, with
// why. Before, the switch failed ("reading the device lock: ...") and
// verify exited 1 every run.
func TestVerifyWithoutReadingTheLock(t *testing.T) {
	f, set := demo(t)
	for _, tc := range []struct {
		p       model.Platform
		read    string // the lock read, refused the second time (the push's release reads it first)
		refusal string
	}{
		{model.PlatformEOS, `^bash timeout 10 cat /mnt/flash/fabricc\.lock$`, `device refused "bash timeout 10 cat /mnt/flash/fabricc.lock": % Invalid input (at token 0: 'bash')`},
		{model.PlatformCumulus, `^cat /var/tmp/fabricc\.lock$`, `device refused "cat /var/tmp/fabricc.lock": -bash: cat: Permission denied`},
	} {
		t.Run(string(tc.p), func(t *testing.T) {
			t.Parallel()
			sw := switchOf(t, f, tc.p)
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(tc.read), Nth: 2, Kind: sim.FaultReject}})
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged {
				t.Fatalf("push: %s %q", r.Status, r.Error)
			}
			r := l.run(t, ActionVerify, f, sw, cfg)
			note := "the device lock is unknown: reading it failed (" + tc.refusal + "; the login may lack the command it needs, on EOS bash); " +
				"the configuration was verified without it, so a push in flight would show as differences"
			if r.Status != StatusVerified || !r.Verified || r.Lock != "unknown" || !slices.Contains(r.Notes, note) {
				t.Fatalf("verify: %s verified %v lock %q error %q notes %q\nwant note %q", r.Status, r.Verified, r.Lock, r.Error, r.Notes, note)
			}
		})
	}
}
