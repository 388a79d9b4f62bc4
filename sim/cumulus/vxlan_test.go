package cumulus

import (
	"testing"

	"github.com/fabricc/fabricc/sim/cli"
	"github.com/google/go-cmp/cmp"
)

// TestVXLANDSCPActions: the VXLAN tunnel DSCP actions are kept as NVUE
// keeps them. Unset, `nv show nve vxlan -o json` prints derive for both
// (NVUE Command Reference, Show Commands, VXLAN: "decapsulation / dscp /
// action derive derive", "encapsulation / dscp / action derive derive")
// and `nv config show -o json` holds no nve object (it lists only what
// was set). Set and applied, `nv config show -o json` holds them at their
// command's path, which push verification reads, and `nv show` prints
// them; unset again, the default is back.
func TestVXLANDSCPActions(t *testing.T) {
	d := New(cli.Options{Name: "leaf1", Model: "SN3700", Version: "5.9.2", Ports: []cli.Port{{Name: "swp1", SpeedG: 100}}})
	sh := d.NewShell(cli.Session{User: "cumulus"})
	actions := func(enc, dec string) map[string]any {
		return map[string]any{"encapsulation": map[string]any{"dscp": map[string]any{"action": enc}},
			"decapsulation": map[string]any{"dscp": map[string]any{"action": dec}}}
	}
	applied := func() any {
		for _, doc := range showJSON(t, d, "nv config show -o json").([]any) {
			if set, ok := doc.(map[string]any)["set"].(map[string]any); ok {
				return set["nve"]
			}
		}
		return nil
	}
	run := func(lines ...string) {
		t.Helper()
		for _, line := range lines {
			if out := sh.Exec(line).Out; line != "nv config apply -y" && out != "" {
				t.Fatalf("%s: %s", line, out)
			}
		}
	}
	if diff := cmp.Diff(actions("derive", "derive"), showJSON(t, d, "nv show nve vxlan -o json")); diff != "" {
		t.Errorf("nv show nve vxlan -o json, nothing set (-want +got):\n%s", diff)
	}
	if nve := applied(); nve != nil {
		t.Errorf("nv config show -o json, nothing set: nve %v, want none", nve)
	}
	run("nv set nve vxlan encapsulation dscp action copy", "nv set nve vxlan decapsulation dscp action preserve", "nv config apply -y")
	if diff := cmp.Diff(map[string]any{"vxlan": actions("copy", "preserve")}, applied()); diff != "" {
		t.Errorf("nv config show -o json after copy and preserve (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"action": "copy"}, showJSON(t, d, "nv show nve vxlan encapsulation dscp -o json")); diff != "" {
		t.Errorf("nv show nve vxlan encapsulation dscp -o json (-want +got):\n%s", diff)
	}
	run("nv unset nve vxlan encapsulation dscp action", "nv config apply -y")
	if diff := cmp.Diff(actions("derive", "preserve"), showJSON(t, d, "nv show nve vxlan -o json")); diff != "" {
		t.Errorf("nv show nve vxlan -o json after the encapsulation action was unset (-want +got):\n%s", diff)
	}
	// Whether the unset leaves an empty dscp object above is not said by
	// the reference; only the action is what verification reads.
	nve, _ := applied().(map[string]any)
	for dir, want := range map[string]any{"encapsulation": nil, "decapsulation": "preserve"} {
		if got, _ := lookup(nve, []string{"vxlan", dir, "dscp", "action"}); got != want {
			t.Errorf("nv config show -o json after the encapsulation action was unset: %s dscp action %v, want %v", dir, got, want)
		}
	}
}
