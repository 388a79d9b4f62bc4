package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxLAGMembers (review ronyx #5): the simulator holds port-channel
// and MLAG membership in mellanox.onyx onyx_linkagg's commands, prints
// it in the running-config, and a member refuses a switchport setting
// with one "%" line that is none of the five phrases of push's
// failed-when-contains list (review ronyx #6). A member takes its own
// MTU and PFC lines, as real running-configs carry them (review rsim
// #6; TestOnyxMemberLinesOfRealConfigs).
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
		{"interface ethernet 1/3 switchport mode trunk", "% Interface is a member of port-channel 1; configure the port-channel instead"},
		{"interface ethernet 1/6 switchport mode hybrid", "% Interface is a member of mlag-port-channel 7; configure the mlag-port-channel instead"},
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
	if strings.Contains(d.Running(), "switchport mode") {
		t.Error("the refused switchport line changed the member")
	}
	configs(t, drv, "interface ethernet 1/3 no channel-group", "interface ethernet 1/3 switchport mode trunk", "no interface mlag-port-channel 7")
	run := d.Running()
	for _, l := range []string{"interface ethernet 1/3 switchport mode trunk", "interface ethernet 1/4 channel-group 1 mode active"} {
		if !strings.Contains(run, "   "+l+"\n") {
			t.Errorf("running-config lacks %q:\n%s", l, run)
		}
	}
	if strings.Contains(run, "mlag") {
		t.Errorf("no interface mlag-port-channel 7 left its member:\n%s", run)
	}
}

// TestOnyxMemberLinesOfRealConfigs is review rsim #6: a LAG or MLAG
// member takes the MTU and PFC lines real running-configs carry for it,
// in the order the switch printed them, so the lab can start from such a
// configuration. The lines are those of ansible-collections/mellanox.onyx
// tests/unit/modules/fixtures/onyx_config_config.cfg (port-channel 1
// members 1/7-1/8, PFC on force) and Cray-HPE docs-csm's Mellanox port
// configuration page (`show run int ethernet 1/1` of an MLAG member:
// speed, `mtu 9216 force`, then `mlag-channel-group 1 mode active`).
func TestOnyxMemberLinesOfRealConfigs(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string
		want  []string // running-config lines, without the indent
	}{
		{"mellanox.onyx fixture", []string{
			"interface port-channel 1",
			"interface ethernet 1/7-1/8 channel-group 1 mode active",
			"dcb priority-flow-control enable force",
			"interface ethernet 1/7-1/8 dcb priority-flow-control mode on force",
		}, []string{
			"interface ethernet 1/7-1/8 channel-group 1 mode active",
			"interface ethernet 1/7-1/8 dcb priority-flow-control mode on force",
		}},
		{"docs-csm MLAG member", []string{
			"interface mlag-port-channel 1",
			"interface ethernet 1/1 mtu 9216 force",
			"interface ethernet 1/1 mlag-channel-group 1 mode active",
			"interface ethernet 1/1 mtu 9216 force",
		}, []string{
			"interface ethernet 1/1 mtu 9216 force",
			"interface ethernet 1/1 mlag-channel-group 1 mode active",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := start(t, model.PlatformOnyx, sim.Faults{})
			drv := mustOpen(t, d, onyxDef(t))
			for _, l := range c.lines {
				r, err := drv.SendConfig(l)
				if err != nil {
					t.Fatal(err)
				}
				if strings.TrimSpace(r.Result) != "" {
					t.Errorf("%s: refused: %q", l, r.Result)
				}
			}
			run := d.Running()
			for _, l := range c.want {
				if !strings.Contains(run, "   "+l+"\n") {
					t.Errorf("running-config lacks %q:\n%s", l, run)
				}
			}
		})
	}
}

// TestOnyxIPL: the simulator takes the MLAG inter-peer
// link in the form a real running configuration prints it (`interface
// port-channel 100 ipl 1`, an Onyx 3.9.3210 MLAG pair's; NVIDIA Onyx
// User Manual, MLAG), prints it back after the bundle's members, refuses
// it on a port-channel that does not exist, and drops it with the bundle.
func TestOnyxIPL(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	configs(t, drv,
		"interface port-channel 100", "exit",
		"interface ethernet 1/13 channel-group 100 mode active",
		"interface ethernet 1/14 channel-group 100 mode active",
		"interface port-channel 100 ipl 1")
	var got []string
	for _, l := range strings.Split(d.Running(), "\n") {
		if l = strings.TrimSpace(l); strings.Contains(l, "channel") {
			got = append(got, l)
		}
	}
	want := []string{"interface port-channel 100", "interface ethernet 1/13-1/14 channel-group 100 mode active", "interface port-channel 100 ipl 1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("running-config LAG lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	r, err := drv.SendConfig("interface port-channel 7 ipl 1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(r.Result) != "% Error: port-channel 7 does not exist" {
		t.Errorf("ipl on a missing port-channel: %q", r.Result)
	}
	configs(t, drv, "no interface port-channel 100")
	if strings.Contains(d.Running(), "ipl") {
		t.Errorf("the IPL outlived its port-channel:\n%s", d.Running())
	}
}
