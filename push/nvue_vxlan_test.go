package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// The verify lines of a VTEP of examples/evpn-vxlan whose VXLAN tunnel
// DSCP actions are not copy and preserve.
const (
	leaf1EncapWhy = "leaf1 (switch-wide) nve vxlan encapsulation dscp action: intended copy (the underlay classifies a VXLAN packet by its outer DSCP alone, " +
		"and only copy makes that the host's DSCP; derive, NVUE's default, takes it from the switch priority, so RoCE can lose its lossless class across the overlay), actual "
	leaf1DecapWhy = "leaf1 (switch-wide) nve vxlan decapsulation dscp action: intended preserve (the far VTEP then hands the receiving host RoCE with the DSCP its sender set, " +
		"by which a NIC that trusts DSCP picks its lossless priority; derive, NVUE's default, rewrites the inner DSCP from the switch priority), actual "
)

// TestNVUEVerifiesVXLANDSCP: examples/evpn-vxlan's leaf1 is a VTEP for
// VLAN 100 (overlay "vxlan"), so targets/cumulus writes `nve vxlan
// encapsulation dscp action copy` and `decapsulation dscp action
// preserve` (Cumulus Linux user guide, VXLAN Tunnel DSCP Operations).
// A push onto a switch where an operator set derive replaces it (the
// diff says derive -> copy) and verifies against the simulator; an
// action set back to derive by hand, or unset (NVUE's default, derive),
// is then a verify difference naming the switch, the path, both values
// and why RoCE needs the intended one. Before, verify did not read the
// actions and the switch matched.
func TestNVUEVerifiesVXLANDSCP(t *testing.T) {
	f, set := buildExample(t, "../examples/evpn-vxlan/fabric.hcl")
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	l.hand(t, "nv set nve vxlan encapsulation dscp action derive", "nv config apply -y")
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push onto leaf1 with derive set: %s %q %v", r.Status, r.Error, differenceLines(r))
	}
	if !strings.Contains(r.Diff, "#   nve vxlan encapsulation dscp action: \"derive\" -> \"copy\"\n") {
		t.Errorf("the push's diff does not say derive is replaced:\n%s", r.Diff)
	}
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Errorf("verify after the push: %s %v", r.Status, differenceLines(r))
	}
	for _, tc := range []struct {
		name string
		hand []string
		want []string
	}{
		{"derive set by hand", []string{"nv set nve vxlan encapsulation dscp action derive"}, []string{leaf1EncapWhy + "derive"}},
		{"decapsulation copy set by hand", []string{"nv set nve vxlan encapsulation dscp action copy", "nv set nve vxlan decapsulation dscp action copy"},
			[]string{leaf1DecapWhy + "copy"}},
		{"both unset", []string{"nv unset nve vxlan encapsulation dscp action", "nv unset nve vxlan decapsulation dscp action"},
			[]string{leaf1EncapWhy + "derive (not set: NVUE's default)", leaf1DecapWhy + "derive (not set: NVUE's default)"}},
	} {
		l.hand(t, append(tc.hand, "nv config apply -y")...)
		r := l.run(t, ActionVerify, f, sw, cfg)
		if got := differenceLines(r); r.Status != StatusMismatch || !slices.Equal(got, tc.want) {
			t.Errorf("%s: verify %s, differences\n%s\nwant\n%s", tc.name, r.Status, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Errorf("push after both were unset: %s %q %v", r.Status, r.Error, differenceLines(r))
	}
}

// TestNVUEVXLANDSCPNotOnSpine: examples/evpn-vxlan's spine1 carries no
// overlay VLAN, so it is no VTEP: fabricc writes no tunnel DSCP action
// there, and whatever an operator sets is no verify difference.
func TestNVUEVXLANDSCPNotOnSpine(t *testing.T) {
	f, set := buildExample(t, "../examples/evpn-vxlan/fabric.hcl")
	sw := f.Switch("spine1")
	cfg := config(t, set, sw)
	if strings.Contains(string(cfg), "nve") {
		t.Fatalf("spine1's patch writes nve:\n%s", cfg)
	}
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push onto spine1: %s %q %v", r.Status, r.Error, differenceLines(r))
	}
	l.hand(t, "nv set nve vxlan encapsulation dscp action derive", "nv set nve vxlan decapsulation dscp action copy", "nv config apply -y")
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Errorf("verify of spine1 with derive and copy set: %s %v", r.Status, differenceLines(r))
	}
}
