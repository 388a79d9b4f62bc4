package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPushRefusesNVUERoCEMode: a Cumulus switch that runs NVIDIA's RoCE
// mode (`nv set qos roce`, the one line NVIDIA's RoCE page gives) has
// the roce-lossless pool; fabricc's default-lossless beside it is a
// second lossless pool, which NVUE does not allow (Cumulus Linux user
// guide, Quality of Service, "Traffic Pools"). Push refuses before it
// stages anything, naming `qos roce` and the fix; verify reports it;
// after `nv unset qos roce` the push goes through (rsw #1). Before, push
// said "changed" and verify "verified" with both pools on the switch.
func TestPushRefusesNVUERoCEMode(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	l.hand(t, "nv set qos roce", "nv config apply -y", "nv config save")
	running := l.sim.Running()

	r := l.run(t, ActionPush, f, sw, cfg)
	const refusal = "the switch runs qos roce (RoCE mode lossless), NVIDIA's RoCE QoS with its own lossless pool (roce-lossless), " +
		"and NVUE allows a single lossless pool; fabricc configures the lossless class and its default-lossless pool itself: " +
		"remove it on the switch (nv unset qos roce; nv config apply -y; this also stops the PFC, ETS and application priority TLVs " +
		"RoCE mode has every port send, Cumulus Linux user guide, Link Layer Discovery Protocol, \"Transmit QoS TLVs\", so a NIC that takes " +
		"its PFC from the switch by DCBX keeps PFC only on a fabric port, where fabricc advertises it to a QLogic NIC), then push again; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, refusal) {
		t.Errorf("push onto RoCE mode: %s %q, want failed with %q", r.Status, r.Error, refusal)
	}
	if l.sim.Running() != running {
		t.Error("the refused push changed the applied configuration")
	}
	v := l.run(t, ActionVerify, f, sw, cfg)
	const diff = "leaf1 qos roce: intended absent (fabricc configures the lossless class and its pool itself), actual RoCE mode lossless"
	var diffs []string
	for _, d := range v.Differences {
		diffs = append(diffs, d.String())
	}
	if v.Status == StatusVerified || !slices.Contains(diffs, diff) {
		t.Errorf("verify on RoCE mode: %s, differences %q; want %q", v.Status, diffs, diff)
	}

	l.hand(t, "nv unset qos roce", "nv config apply -y", "nv config save")
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Errorf("push after nv unset qos roce: %s %q %v", r.Status, r.Error, r.Differences)
	}
}
