package push

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestReportRecordsCommandsWholeWithTimes (review rsre, finding 7): the
// report is a post-mortem record. A configuration line is kept whole
// however long (the EOS DSCP-to-traffic-class map a RoCE post-mortem
// reads), only the NVUE file's base64 payload is replaced, by its size
// and SHA-256 (which sha256sum of the built file matches); the device
// has its start and end (RFC 3339, UTC) and its steps, each with its
// start and duration. Before, every command over 160 bytes was cut to
// its first 60 and last 40 characters and no time was absolute.
func TestReportRecordsCommandsWholeWithTimes(t *testing.T) {
	f, set := demo(t)
	for _, p := range []model.Platform{model.PlatformEOS, model.PlatformCumulus} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			sw := switchOf(t, f, p)
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != StatusChanged {
				t.Fatalf("push: %s %q", r.Status, r.Error)
			}
			var want string
			if p == model.PlatformEOS {
				for _, line := range strings.Split(string(cfg), "\n") {
					if strings.HasPrefix(line, "qos map dscp ") && len(line) > maxWord {
						want = line
					}
				}
				if want == "" {
					t.Fatal("no DSCP map line over 160 bytes in the configuration: the test tests nothing")
				}
			} else {
				sum := sha256.Sum256(cfg)
				want = fmt.Sprintf("echo <base64 of %d bytes, sha256 %s> | base64 -d > /tmp/fabricc-t1.yaml", len(cfg), hex.EncodeToString(sum[:]))
			}
			if !slices.Contains(r.Commands, want) {
				t.Errorf("commands lack %q:\n%s", want, strings.Join(r.Commands, "\n"))
			}
			start, err1 := time.Parse(StampFormat, r.StartedAt)
			end, err2 := time.Parse(StampFormat, r.FinishedAt)
			if err1 != nil || err2 != nil || !strings.HasSuffix(r.StartedAt, "Z") || end.Before(start) {
				t.Errorf("started_at %q finished_at %q: want UTC RFC 3339, start before end", r.StartedAt, r.FinishedAt)
			}
			var names []string
			for _, s := range r.Steps {
				names = append(names, s.Step)
				if _, err := time.Parse(StampFormat, s.StartedAt); err != nil || s.DurationMs == nil {
					t.Errorf("step %+v: want a start and a duration", s)
				}
			}
			if got := strings.Join(names, ","); got != "connect,hostname,lock,recover,stage,wait for the other switches to stage,apply,verify,wait for the other switches,confirm,save,unlock" {
				t.Errorf("steps %s", got)
			}
		})
	}
}
