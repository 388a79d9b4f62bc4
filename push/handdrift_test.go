package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifySeesPortsChangedByHand: after a push, ports are changed on
// the switch's CLI as an operator would, and saved (r2 #7): the first shut down, the
// second forced to 25G, given 802.3x pause and another description.
// verify read none of these and said `verified`, although push writes
// each of them in both states; now each is one difference, and the next
// push puts the port back and verifies.
func TestVerifySeesPortsChangedByHand(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		hand     []string
		want     []string
	}{
		{model.PlatformEOS, []string{"configure terminal",
			"interface Ethernet1/1", "shutdown",
			"interface Ethernet2/1", "speed forced 25gfull", "flowcontrol receive on", "description by hand", "end", "write memory"},
			[]string{
				"leaf1 Ethernet1/1 admin state: intended up, actual down (shutdown)",
				"leaf1 Ethernet2/1 speed: intended 100G, actual 25G",
				"leaf1 Ethernet2/1 link pause (802.3x): intended off, actual on",
				"leaf1 Ethernet2/1 description: intended to node2:roce0, actual by hand",
			}},
		{model.PlatformOnyx, []string{"configure terminal",
			"interface ethernet 1/1 shutdown",
			"interface ethernet 1/2 speed 25G force",
			// Onyx refuses global pause on a port with PFC on.
			"interface ethernet 1/2 no dcb priority-flow-control mode force",
			"interface ethernet 1/2 flowcontrol receive on force",
			`interface ethernet 1/2 description "by hand"`, "configuration write", "exit"},
			[]string{
				"leaf1 1/1 admin state: intended up, actual down (shutdown)",
				"leaf1 1/2 PFC priorities: intended 3, actual none",
				"leaf1 1/2 speed: intended 100G, actual 25G",
				"leaf1 1/2 link pause (802.3x): intended off, actual on",
				"leaf1 1/2 description: intended to node2:roce0, actual by hand",
			}},
		{model.PlatformCumulus, []string{
			"nv set interface swp1 link state down",
			"nv set interface swp2 link speed 25G",
			"nv set interface swp2 qos link-pause profile default-global",
			"nv set interface swp2 description 'by hand'",
			"nv config apply -y", "nv config save"},
			[]string{
				"leaf1 swp1 admin state: intended up, actual down (shutdown)",
				"leaf1 swp2 speed: intended 100G, actual 25G",
				"leaf1 swp2 link pause (802.3x): intended off, actual on",
				"leaf1 swp2 description: intended to node2:roce0, actual by hand",
			}},
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
			c := l.dial(t, p)
			for _, cmd := range tc.hand {
				if out, err := c.Send(cmd); err != nil || strings.Contains(out, "%") || strings.Contains(strings.ToLower(out), "error") {
					t.Fatalf("%s: %v %q", cmd, err, out)
				}
			}
			if err := c.Home(); err != nil {
				t.Fatal(err)
			}
			c.Close()
			r := l.run(t, ActionVerify, f, sw, cfg)
			var got []string
			for _, d := range r.Differences {
				got = append(got, d.String())
			}
			if r.Status != StatusMismatch || !slices.Equal(got, tc.want) {
				t.Errorf("verify after the hand changes: %s %q\n%s\nwant:\n%s", r.Status, r.Error, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Errorf("push after the hand changes: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}
