package push

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyUnreadHostnameIsNoMismatch: a
// switch that refuses verify's identity command (EOS `show hostname`,
// Onyx `show hosts`, Cumulus `hostname`), or whose read an interrupt
// (SIGTERM) cuts, was never read: failed ("could not be checked"), or
// aborted for the signal, never mismatch, which a drift monitor alerts
// on as drift. Only a hostname read and found to be another switch's is
// a mismatch (TestPushRefusesAnotherSwitch).
func TestVerifyUnreadHostnameIsNoMismatch(t *testing.T) {
	t.Parallel()
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		v, err := VendorFor(sw.Platform)
		if err != nil {
			t.Fatal(err)
		}
		at := regexp.MustCompile("^" + regexp.QuoteMeta(v.Identity.Command) + "$")
		t.Run(string(sw.Platform)+" refused", func(t *testing.T) {
			l := startLab(t, sw, sim.Faults{Stage: &sim.StageFault{At: at, Kind: sim.FaultReject}})
			r := l.run(t, ActionVerify, f, sw, config(t, set, sw))
			if r.Status != StatusFailed || !strings.HasPrefix(r.Error, "reading the switch's hostname: ") || r.Verified || len(r.Differences) != 0 {
				t.Errorf("status %s error %q verified %v differences %d; want failed, reading the switch's hostname", r.Status, r.Error, r.Verified, len(r.Differences))
			}
		})
		t.Run(string(sw.Platform)+" interrupted", func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			l := startLab(t, sw, sim.Faults{Stage: &sim.StageFault{At: at, Kind: sim.FaultSlow, Delay: 30 * time.Second,
				Reached: func(string) { cancel(errors.New("interrupted by SIGTERM")) }}})
			hk, err := transport.HostKeyCallback(l.kh, false)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Action: ActionVerify, Fabric: f, ID: "t1", Dial: SSHDialer(hk),
				Targets: []Target{{Switch: sw, Config: config(t, set, sw), Device: l.dev}}}
			r := Run(ctx, o).Devices[0]
			if r.Status != StatusAborted || !strings.Contains(r.Error, "interrupted by SIGTERM") {
				t.Errorf("status %s error %q; want aborted by the interruption", r.Status, r.Error)
			}
		})
	}
}
