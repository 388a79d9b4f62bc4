package push

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEPushWithPagerOn is review rsim #4: on a Cumulus 5.9 switch
// whose operator enabled NVUE's pager (`nv set system cli pagination
// state enabled`; NVUE Command Reference, Set and Unset Commands, System
// Configuration), push's session pipes nv's output through cat, so no
// long answer waits in the pager and the push goes through and verifies.
func TestNVUEPushWithPagerOn(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLabWith(t, sw, func(o *sim.Options) { o.OSVersion = "5.9.2" })
	c := l.dial(t, model.PlatformCumulus)
	for _, cmd := range []string{"nv set system cli pagination state enabled", "nv config apply -y", "nv config save"} {
		if _, err := c.Send(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	_ = c.Close()
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push onto a switch with the pager on: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if l.sim.Saved() != l.sim.Running() {
		t.Errorf("not saved after the push:\n%s", lineDiff(l.sim.Saved(), l.sim.Running()))
	}
}
