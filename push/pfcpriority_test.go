package push

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// withQoS is the tutorial fabric on platform with its qos block
// replaced by qos.
func withQoS(t *testing.T, platform model.Platform, qos string) string {
	t.Helper()
	dir := tutorialOn(t, platform, 3)
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const plain = "qos {\n  profile = \"nvidia-roce\"\n}\n"
	if !strings.Contains(string(data), plain) {
		t.Fatal("the tutorial fabric's qos block is not the plain profile")
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), plain, qos, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPushChangesThePFCPriority: a fabric-wide change of the lossless
// priority (3 -> 4) is pushed to a Cumulus switch and verifies. A patch
// only adds members to `qos traffic-pool default-lossless
// switch-priority`, so priority 3 stayed in the lossless pool next to 4
// ("pool lossless priorities: intended 4, actual 3,4") until push unset
// that list before the patch, as it does default-lossy's (r2 #4).
func TestPushChangesThePFCPriority(t *testing.T) {
	fa, seta := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	fb, setb := buildExample(t, withQoS(t, model.PlatformCumulus,
		"qos {\n  profile = \"nvidia-roce\"\n  class \"roce\" {\n    priority = 4\n  }\n}\n"))
	swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
	if got := swb.Port("swp1").PFCPriorities; len(got) != 1 || got[0] != 4 {
		t.Fatalf("the changed fabric's PFC priorities are %v, want [4]", got)
	}
	l := startLab(t, swa, sim.Faults{})
	if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of priority 3: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of priority 4: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionVerify, fb, swb, config(t, setb, swb)); r.Status != StatusVerified {
		t.Errorf("verify of priority 4: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusUnchanged {
		t.Errorf("second push of priority 4: %s %q, want unchanged", r.Status, r.Error)
	}
}
