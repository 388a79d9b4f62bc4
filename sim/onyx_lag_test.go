package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxLAGMembers (review ronyx #5): the simulator holds port-channel
// and MLAG membership in mellanox.onyx onyx_linkagg's commands, prints
// it in the running-config, and a member refuses the settings it takes
// from its bundle with one "%" line that is none of the five phrases of
// push's failed-when-contains list (review ronyx #6).
func TestOnyxLAGMembers(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	configs(t, drv,
		"interface port-channel 1", "exit",
		"interface ethernet 1/3 channel-group 1 mode active",
		"interface ethernet 1/4 channel-group 1 mode active",
		"interface mlag-port-channel 7", "exit",
		"interface ethernet 1/6 mlag-channel-group 7 mode on")
	var got []string
	for _, l := range strings.Split(d.Running(), "\n") {
		if l = strings.TrimSpace(l); strings.Contains(l, "channel") {
			got = append(got, l)
		}
	}
	want := []string{"interface port-channel 1", "interface ethernet 1/3-1/4 channel-group 1 mode active",
		"interface mlag-port-channel 7", "interface ethernet 1/6 mlag-channel-group 7 mode on"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("running-config LAG lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct{ line, want string }{
		{"interface ethernet 1/3 mtu 9216 force", "% Interface is a member of port-channel 1; configure the port-channel instead"},
		{"interface ethernet 1/6 dcb priority-flow-control mode on force", "% Interface is a member of mlag-port-channel 7; configure the mlag-port-channel instead"},
		{"interface ethernet 1/5 channel-group 2 mode active", "% Error: port-channel 2 does not exist"},
	} {
		r, err := drv.SendConfig(c.line)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(r.Result) != c.want {
			t.Errorf("%s: %q, want %q", c.line, r.Result, c.want)
		}
	}
	if strings.Contains(d.Running(), "mtu 9216") {
		t.Error("the refused mtu line changed the member")
	}
	configs(t, drv, "interface ethernet 1/3 no channel-group", "interface ethernet 1/3 mtu 9216 force", "no interface mlag-port-channel 7")
	run := d.Running()
	for _, l := range []string{"interface ethernet 1/3 mtu 9216 force", "interface ethernet 1/4 channel-group 1 mode active"} {
		if !strings.Contains(run, "   "+l+"\n") {
			t.Errorf("running-config lacks %q:\n%s", l, run)
		}
	}
	if strings.Contains(run, "mlag") {
		t.Errorf("no interface mlag-port-channel 7 left its member:\n%s", run)
	}
}
