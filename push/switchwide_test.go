package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyReportsSwitchWideOnce (review rmig, finding 8): after a push,
// one global line is changed by hand on the switch's CLI. The line
// reaches every port, and verify used to report it once per fabric port
// (three here); now it is one difference for the switch, marked
// switch-wide, and the next push puts it back and verifies.
func TestVerifyReportsSwitchWideOnce(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		hand     []string
		want     string
	}{
		{model.PlatformEOS, []string{"configure terminal", "qos map dscp 26 to traffic-class 1", "end", "write memory"},
			"leaf1 (switch-wide) DSCP 26 traffic class: intended 3, actual 1"},
		{model.PlatformOnyx, []string{"configure terminal", "dcb priority-flow-control priority 4 enable", "configuration write", "exit"},
			"leaf1 (switch-wide) PFC priorities: intended 3, actual 3,4"},
		{model.PlatformCumulus, []string{"nv set qos egress-scheduler default-global traffic-class 3 bw-percent 20",
			"nv config apply -y", "nv config save"},
			"leaf1 (switch-wide) ETS TC3 bandwidth: intended 50, actual 20"},
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
			if r.Status != StatusMismatch || !slices.Equal(got, []string{tc.want}) {
				t.Errorf("verify after the hand change: %s %q\n%s\nwant:\n%s", r.Status, r.Error, strings.Join(got, "\n"), tc.want)
			}
			if len(r.Differences) == 1 && (r.Differences[0].Port != "" || r.Differences[0].Scope != "switch-wide") {
				t.Errorf("difference %+v: want no port, scope switch-wide", r.Differences[0])
			}
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Errorf("push after the hand change: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}
