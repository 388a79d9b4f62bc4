package push

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEPushClearsHandAddedPFCPriority: a priority an operator adds to
// a PFC profile that has fabricc's name (`nv set qos pfc pfc-sp3-100g-3m
// switch-priority 3-4`) is gone after the next push, which verifies.
// NVUE's patch merges a set's members ("nv unset removes the
// configuration you set with the equivalent nv set": NVUE Command
// Reference, Set and Unset Commands), so the profile's set is unset
// first, as each traffic pool's is; before, the priority stayed paused
// and every push failed its verification and rolled back.
func TestNVUEPushClearsHandAddedPFCPriority(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	l := startLab(t, sw, sim.Faults{})
	cfg := config(t, set, sw)
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	name := regexp.MustCompile(`(pfc-sp3-[0-9a-z-]+)`).FindStringSubmatch(string(cfg))
	if name == nil {
		t.Fatal("the tutorial's Cumulus file names no fabricc PFC profile")
	}
	l.hand(t, "nv set qos pfc "+name[1]+" switch-priority 3-4", "nv config apply -y")
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Verified {
		t.Fatal("verify missed the hand-added priority 4")
	}
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push over the hand-added priority: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if got := profilePriorities(l.sim.Running(), name[1]); got != `"3"` {
		t.Errorf("profile %s holds switch priorities %s after the push, want \"3\"", name[1], got)
	}
}

// profilePriorities lists the switch-priority keys of PFC profile name in
// the simulator's applied configuration (YAML), comma-separated.
func profilePriorities(running, name string) string {
	lines := strings.Split(running, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != name+":" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		var keys []string
		in := false
		for _, m := range lines[i+1:] {
			d := len(m) - len(strings.TrimLeft(m, " "))
			if d <= indent {
				break
			}
			if strings.TrimSpace(m) == "switch-priority:" {
				in = true
				continue
			}
			if in {
				if d <= indent+2 {
					break
				}
				keys = append(keys, strings.TrimSuffix(strings.Fields(m)[0], ":"))
			}
		}
		return strings.Join(keys, ",")
	}
	return ""
}
