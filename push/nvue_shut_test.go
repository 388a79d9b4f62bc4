package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEDiffWarnsOfPortBroughtUp: a fabric port an operator shut on the
// switch (`nv set interface swp2 link state down`) is brought up by the
// next push, whose header unsets every fabric port's link state; the
// dry run's and the push's diff say so first, naming the port and how to
// keep it down (rcum #11). Before, only NVUE's raw `- unset: ... link:
// state:` showed it. A port the fabric itself shuts gets no warning.
func TestNVUEDiffWarnsOfPortBroughtUp(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged {
		t.Fatalf("first push: %s %q", r.Status, r.Error)
	}
	l.hand(t, "nv set interface swp2 link state down", "nv config apply -y")
	const warning = "# warning: swp2 is administratively down on the switch (link state down) and this push brings it up; " +
		"to keep it down, set shutdown = true on the port in the fabric\n"
	dry := l.run(t, ActionDiff, f, sw, cfg)
	if !strings.HasPrefix(dry.Diff, warning) || strings.Count(dry.Diff, "# warning:") != 1 {
		t.Errorf("dry run diff:\n%s\nwant it to start with %q, once", dry.Diff, warning)
	}
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !strings.HasPrefix(r.Diff, warning) {
		t.Errorf("push: %s %q, diff:\n%s\nwant changed, starting with %q", r.Status, r.Error, r.Diff, warning)
	}

	// A fabric that shuts swp2 itself (shutdown = true) gets no
	// warning: the warning is told from the model, on every platform
	// (stageWarnings).
	fs, sets := buildExample(t, withOverrides(t, model.PlatformCumulus, `
  override "swp2" {
    shutdown = true
  }
`, false))
	sws := fs.Switch("leaf1")
	l.hand(t, "nv set interface swp2 link state down", "nv config apply -y")
	l.hand(t, "nv set interface swp1 description by-hand", "nv config apply -y")
	if d := l.run(t, ActionDiff, fs, sws, config(t, sets, sws)); d.Status != StatusDryRun || d.Error != "" || d.Diff == "" || strings.Contains(d.Diff, "# warning:") || len(d.Warnings) != 0 {
		t.Errorf("diff of a fabric that keeps swp2 down: %s %q, warnings %q, diff:\n%s\nwant a change (swp1's description) and no warning", d.Status, d.Error, d.Warnings, d.Diff)
	}
}
