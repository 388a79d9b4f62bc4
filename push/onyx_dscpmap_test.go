package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// TestOnyxStrayDSCPMapRefused is review ronyx #2: a per-port `qos map
// dscp` an operator or an older tool left on a fabric port (RoCE's DSCP
// 26 in the lossy switch priority 0) is not written by fabricc, so push
// could not repair it while verify reported it. diff and push now both
// refuse, naming the line and its removal, and change nothing; once it
// is removed the switch verifies as the fabric again.
func TestOnyxStrayDSCPMapRefused(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.onyxHand(t, "interface ethernet 1/1 qos map dscp 26 to switch-priority 0", "configuration write")
	before := l.sim.Running()

	refusal := "the switch maps DSCP values on fabric ports where the fabric keeps Onyx's default map (DSCP 8n..8n+7 to switch priority n): " +
		"`interface ethernet 1/1 qos map dscp 26 to switch-priority 0` (remove it with `interface ethernet 1/1 no qos map dscp 26`); " +
		"verify reads these maps, but push writes none and cannot change them; remove them on the switch (configuration mode) and push again; nothing was changed"
	for _, action := range []string{ActionDiff, ActionPush} {
		r := l.run(t, action, f, sw, cfg)
		if r.Status != StatusFailed || !strings.Contains(r.Error, refusal) {
			t.Errorf("%s over the stray map: %s %q\nwant the refusal %q", action, r.Status, r.Error, refusal)
		}
	}
	if l.sim.Running() != before {
		t.Error("the refused push changed the switch")
	}

	l.onyxHand(t, "interface ethernet 1/1 no qos map dscp 26", "configuration write")
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusUnchanged || !r.Verified {
		t.Errorf("push after the map was removed: %s %q %v", r.Status, r.Error, r.Differences)
	}
}
