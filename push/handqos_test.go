package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifySeesQoSChangedByHand: QoS changed on the switch's CLI after a
// push, as an on-call engineer would, each read back by verify as one
// difference in the setting that changed: EOS's port PFC enable taken
// away while its no-drop lines stay (Arista EOS User Manual, "Priority
// Flow Control"), NVUE's switch priority -> traffic class table changed
// (Cumulus Linux User Guide, Quality of Service, Egress Queues), Onyx's
// egress rewrite set and its MTU set to its default 1500 (NVIDIA Onyx
// User Manual, QoS, "Rewrite"; Interfaces, mtu). A push then restores
// what fabricc writes; the Onyx rewrite, which it does not write, makes
// push refuse, naming its removal, until it is removed by hand (as a
// hand-made Onyx DSCP map does: TestOnyxStrayDSCPMapRefused).
func TestVerifySeesQoSChangedByHand(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		hand     []string
		want     []string
		refusal  string
		clear    []string
	}{
		{model.PlatformEOS, []string{"configure terminal", "interface Ethernet1/1", "no priority-flow-control on", "end", "write memory"},
			[]string{"leaf1 Ethernet1/1 PFC priorities: intended 3, actual none (priority 3 no-drop, but no `priority-flow-control on`: PFC is off on the port)"},
			"", nil},
		{model.PlatformCumulus, []string{"nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0", "nv config apply -y", "nv config save"},
			[]string{"leaf1 (switch-wide) switch priority 3 traffic class: intended 3, actual 0"},
			"", nil},
		{model.PlatformOnyx, []string{"configure terminal", "interface ethernet 1/2 qos rewrite dscp", "interface ethernet 1/1 mtu 1500 force", "configuration write", "exit"},
			[]string{
				"leaf1 1/1 MTU: intended 9216, actual 1500 (Onyx's default; no mtu line)",
				"leaf1 1/2 qos rewrite dscp: intended off, actual on (fabricc writes no rewrite and push leaves it: remove it on the switch with `interface ethernet 1/2 no qos rewrite dscp`)",
			},
			"the switch rewrites the DSCP or PCP of packets leaving fabric ports, which the fabric leaves off: " +
				"`interface ethernet 1/2 qos rewrite dscp` (remove it with `interface ethernet 1/2 no qos rewrite dscp`); " +
				"verify reads these lines, but push writes none and cannot change them; remove them on the switch (configuration mode) and push again; nothing was changed",
			[]string{"configure terminal", "interface ethernet 1/2 no qos rewrite dscp", "configuration write", "exit"}},
	} {
		p := tc.platform
		t.Run(string(p), func(t *testing.T) {
			f, set := buildExample(t, tutorialOn(t, p, 3))
			sw := f.Switch("leaf1")
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
			}
			l.type_(t, p, tc.hand)
			if got := diffLines(l.run(t, ActionVerify, f, sw, cfg)); !slices.Equal(got, tc.want) {
				t.Errorf("verify after the hand changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.refusal != "" {
				before := l.sim.Running()
				for _, action := range []string{ActionDiff, ActionPush} {
					if r := l.run(t, action, f, sw, cfg); r.Status != StatusFailed || !strings.HasSuffix(r.Error, ": "+tc.refusal) {
						t.Errorf("%s over the rewrite: %s %q\nwant the refusal %q", action, r.Status, r.Error, tc.refusal)
					}
				}
				if l.sim.Running() != before {
					t.Error("the refused push changed the switch")
				}
				l.type_(t, p, tc.clear)
			}
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Errorf("push after the hand changes: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}

// type_ types cmds on the lab switch's CLI, failing on an error.
func (l *lab) type_(t *testing.T, p model.Platform, cmds []string) {
	t.Helper()
	c := l.dial(t, p)
	defer c.Close()
	for _, cmd := range cmds {
		if out, err := c.Send(cmd); err != nil || strings.Contains(out, "%") || strings.Contains(strings.ToLower(out), "error") {
			t.Fatalf("%s: %v %q", cmd, err, out)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
}

// diffLines are r's differences as verify prints them.
func diffLines(r *DeviceResult) []string {
	var out []string
	for _, d := range r.Differences {
		out = append(out, d.String())
	}
	return out
}
