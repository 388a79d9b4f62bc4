package push

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPushRemovesEarlierPFCProfiles: NVUE PFC profiles named as fabricc
// names its own (pfc-sp<priorities>-<speed>-<cable>) that the fabric no
// longer has are removed by push, in the pending revision, once no port
// uses them (rch #8): node2's cable goes from 3 m to 5 m, so
// pfc-sp3-100g-3m gives way to pfc-sp3-100g-5m, and pfc-sp3-100g-3m
// stayed on the switch while diff and verify said nothing. The
// operator's own profiles stay: one whose name only looks like
// fabricc's, and one of fabricc's pattern that a port outside the
// fabric uses.
func TestPushRemovesEarlierPFCProfiles(t *testing.T) {
	fa, seta := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	fb, setb := buildExample(t, tutorialOn(t, model.PlatformCumulus, 5))
	swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
	cfgb := config(t, setb, swb)
	l := startLab(t, swa, sim.Faults{})
	if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the 3 m cable: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.hand(t,
		"nv set qos pfc pfc-sp3-storage switch-priority 5",
		"nv set qos pfc pfc-sp4-100g-1m switch-priority 4",
		"nv set interface swp9 qos pfc profile pfc-sp4-100g-1m",
		"nv set qos pfc pfc-sp4-100g-7m switch-priority 4",
		"nv config apply -y", "nv config save")
	const note = "profiles named as fabricc names its own that no port uses: qos pfc pfc-sp4-100g-7m; not compared: the next push removes them (nv unset qos <kind> <name>)"
	if r := l.run(t, ActionVerify, fa, swa, config(t, seta, swa)); r.Status != StatusVerified || !slices.Contains(r.Notes, note) {
		t.Errorf("verify after the operator's profiles: %s %q, notes %q; want the note %q", r.Status, r.Error, r.Notes, note)
	}
	dry := l.run(t, ActionDiff, fb, swb, cfgb)
	for _, gone := range []string{"pfc-sp3-100g-3m", "pfc-sp4-100g-7m"} {
		if !strings.Contains(dry.Diff, gone) {
			t.Errorf("the diff of the 5 m cable does not name %s:\n%s", gone, dry.Diff)
		}
	}
	if r := l.run(t, ActionPush, fb, swb, cfgb); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the 5 m cable: %s %q %v", r.Status, r.Error, r.Differences)
	}
	want := []string{"pfc-sp3-100g-2m", "pfc-sp3-100g-5m", "pfc-sp3-storage", "pfc-sp4-100g-1m"}
	if got := l.profiles(t, "pfc"); !slices.Equal(got, want) {
		t.Errorf("PFC profiles on the switch after the push: %q, want %q", got, want)
	}
	if r := l.run(t, ActionVerify, fb, swb, cfgb); r.Status != StatusVerified || slices.Contains(r.Notes, note) {
		t.Errorf("verify of the 5 m cable: %s %q, notes %q", r.Status, r.Error, r.Notes)
	}
	if r := l.run(t, ActionPush, fb, swb, cfgb); r.Status != StatusUnchanged {
		t.Errorf("second push of the 5 m cable: %s %q diff %q, want unchanged", r.Status, r.Error, r.Diff)
	}
}

// hand runs cmds on the lab switch's CLI, as an operator would.
func (l *lab) hand(t *testing.T, cmds ...string) {
	t.Helper()
	c := l.dial(t, model.PlatformCumulus)
	defer c.Close()
	for _, cmd := range cmds {
		if out, err := c.Send(cmd); err != nil || strings.Contains(strings.ToLower(out), "error") {
			t.Fatalf("%s: %v %q", cmd, err, out)
		}
	}
}

// profiles reads the names of the switch's NVUE profiles of kind ("pfc",
// "mapping") from `nv config show -o json`, as push and verify read it.
func (l *lab) profiles(t *testing.T, kind string) []string {
	t.Helper()
	c := l.dial(t, model.PlatformCumulus)
	defer c.Close()
	out, err := c.Send("nv config show -o json")
	if err != nil {
		t.Fatal(err)
	}
	// [{"header": ...}, {"set": {...}}], as startup.yaml
	var docs []struct {
		Set struct {
			QoS map[string]map[string]any `json:"qos"`
		} `json:"set"`
	}
	if err := json.Unmarshal([]byte(jsonPart(out)), &docs); err != nil {
		t.Fatalf("nv config show -o json: %v\n%s", err, out)
	}
	var names []string
	for _, d := range docs {
		names = append(names, slices.Sorted(maps.Keys(d.Set.QoS[kind]))...)
	}
	return names
}

// TestPushRemovesEarlierTrustProfile: the mapping profile fabricc
// makes for a port that trusts other than the first port (trust-both)
// is removed when no port of the fabric trusts so any more, as the PFC
// profiles are.
func TestPushRemovesEarlierTrustProfile(t *testing.T) {
	dir := tutorialOn(t, model.PlatformCumulus, 3)
	const ports = "  port \"swp1-2\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [10]\n  }\n"
	both := strings.Replace(ports, "\"swp1-2\"", "\"swp1\"", 1) + "\n" +
		strings.Replace(strings.Replace(ports, "\"swp1-2\"", "\"swp2\"", 1), "vlans = [10]\n", "vlans = [10]\n    trust = \"both\"\n", 1)
	rewrite(t, dir, ports, both)
	const nic = "    addresses = [\"10.0.10.12/24\"]\n"
	fa, seta := buildExample(t, rewrite(t, dir, nic, nic+"    trust     = \"both\"\n"))
	fb, setb := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
	cfga, cfgb := config(t, seta, swa), config(t, setb, swb)
	if !strings.Contains(string(cfga), "profile: trust-both") {
		t.Fatalf("the first fabric attaches no trust-both profile:\n%s", cfga)
	}
	l := startLab(t, swa, sim.Faults{})
	if r := l.run(t, ActionPush, fa, swa, cfga); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of swp2 trusting both: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionPush, fb, swb, cfgb); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of every port trusting DSCP: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if got, want := l.profiles(t, "mapping"), []string{"default-global"}; !slices.Equal(got, want) {
		t.Errorf("mapping profiles on the switch after the push: %q, want %q", got, want)
	}
}

// rewrite replaces old with new in dir's fabric.hcl and returns dir.
func rewrite(t *testing.T, dir, old, new string) string {
	t.Helper()
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}
