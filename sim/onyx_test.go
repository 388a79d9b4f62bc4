package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/platforms"
	"github.com/fabricc/fabricc/sim"
)

func onyxDef(t *testing.T) any {
	t.Helper()
	def, err := platforms.Definition(model.PlatformOnyx)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

var onyxBlock = []string{
	"dcb priority-flow-control enable force",
	"dcb priority-flow-control priority 3 enable",
	"traffic pool roce type lossless",
	"traffic pool roce memory percent 50.0",
	"traffic pool roce map switch-priority 3",
	"vlan 100",
	"exit",
	"vlan 100 name rdma",
	"interface ethernet 1/1 description host01-nic0",
	"interface ethernet 1/1 mtu 9216 force",
	"interface ethernet 1/1 speed 100G force",
	"interface ethernet 1/1 switchport mode trunk",
	// A new trunk allows every VLAN; "none" first makes "add" narrow it.
	"interface ethernet 1/1 switchport trunk allowed-vlan none",
	"interface ethernet 1/1 switchport trunk allowed-vlan add 100",
	"interface ethernet 1/1 flowcontrol send off force",
	"interface ethernet 1/1 flowcontrol receive off force",
	"interface ethernet 1/1 qos trust L3",
	"interface ethernet 1/1 qos map dscp 24 25 26 27 28 29 30 31 to switch-priority 3",
	"interface ethernet 1/1 traffic-class 3 bind switch-priority 3",
	"interface ethernet 1/1 traffic-class 6 bind switch-priority 6",
	"interface ethernet 1/1 traffic-class 3 dcb ets wrr 50",
	"interface ethernet 1/1 traffic-class 0 dcb ets wrr 50",
	"interface ethernet 1/1 traffic-class 6 dcb ets strict",
	"interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500",
	"interface ethernet 1/1 dcb priority-flow-control mode on force",
	"interface ethernet 1/1 pfc-wd",
}

func TestOnyxPromptsModesAndShow(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	configs(t, drv, onyxBlock...)
	configs(t, drv, "interface ethernet 1/2-1/3", "mtu 9000 force", "exit")
	run := cmd(t, drv, "show running-config")
	for _, want := range []string{
		"\n   interface ethernet 1/1 mtu 9216 force\n",
		"\n   interface ethernet 1/2-1/3 mtu 9000 force\n",
		"\n   vlan 100 name \"rdma\"\n",
		"\n   interface ethernet 1/1 switchport trunk allowed-vlan add 100\n",
		"\n   interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500\n",
		"\n   dcb priority-flow-control priority 3 enable\n",
		"\nhostname leaf1\n",
		"## Running database \"initial\"\n",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running-config lacks %q:\n%s", want, run)
		}
	}
	// Defaults are left out: flow control off, SP 3 -> TC 3, DSCP 24-31
	// -> SP 3 are what a fresh port has.
	for _, absent := range []string{"flowcontrol", "bind switch-priority 3", "qos map dscp"} {
		if strings.Contains(run, absent) {
			t.Errorf("running-config prints the default %q:\n%s", absent, run)
		}
	}
	iface := jsonOf(t, drv, "show interfaces ethernet 1/1 | json-print")
	pfc := jsonOf(t, drv, "show dcb priority-flow-control | json-print")
	ecn := jsonOf(t, drv, "show interfaces ethernet 1/1 congestion-control | json-print")
	qos := jsonOf(t, drv, "show qos interface ethernet 1/1 | json-print")
	ets := jsonOf(t, drv, "show dcb ets interface ethernet 1/1 | json-print")
	pool := jsonOf(t, drv, "show traffic pool roce | json-print")
	all := jsonOf(t, drv, "show interfaces ethernet | json-print")
	for i, c := range []struct{ got, want any }{
		{path(t, iface, "0", "Eth1/1", "0", "MTU"), "9216 bytes(Maximum packet size 9238 bytes)"},
		{path(t, iface, "0", "Eth1/1", "0", "Description"), "host01-nic0"},
		{path(t, iface, "0", "Eth1/1", "0", "Flow-control"), "receive off send off"},
		{path(t, all, "31", "Eth1/32", "0", "Actual speed"), "100 Gbps"},
		{path(t, pfc, "1", "Priority Enabled List"), "3"},
		{path(t, pfc, "2", "Eth1/1", "0", "PFC admin"), "on"},
		{path(t, pfc, "2", "Eth1/1", "0", "PFC oper"), "Enabled"},
		{path(t, pfc, "2", "Eth1/32", "0", "PFC admin"), "Auto"},
		{path(t, ecn, "4", "header"), "TC-3"},
		{path(t, ecn, "4", "Mode"), "ECN"},
		{path(t, ecn, "4", "Minimum threshold"), "150 KB"},
		{path(t, ecn, "4", "Maximum threshold"), "1500 KB"},
		{path(t, qos, "0", "Eth1/1", "0", "Trust mode"), "L3"},
		{path(t, qos, "0", "Eth1/1", "1", "PCP(DEI); DSCP to switch-priority mapping", "0", "3(0) 3(1)", "0", "DSCP"), "24 25 26 27 28 29 30 31"},
		{path(t, qos, "0", "Eth1/1", "2", "PCP(DEI); DSCP rewrite mapping (switch-priority to PCP(DEI); DSCP; traffic-class)", "1", "6", "0", "TC"), "6"},
		{path(t, ets, "0", "Eth1/1", "2", "ETS per TC", "0", "6", "0", "S.Mode"), "Strict"},
		{path(t, ets, "0", "Eth1/1", "2", "ETS per TC", "0", "3", "0", "W"), "50"},
		{path(t, ets, "0", "Eth1/1", "2", "ETS per TC", "0", "1", "0", "W"), "13"},
		{path(t, pool, "roce", "0", "Type"), "lossless"},
		{path(t, pool, "roce", "0", "Memory [%]"), "50.00"},
		{path(t, pool, "roce", "0", "Switch Priorities"), "3"},
	} {
		if c.got != c.want {
			t.Errorf("check %d: got %v, want %v", i, c.got, c.want)
		}
	}
}

// TestOnyxJSONShapesByRelease checks the shapes that changed in MLNX-OS
// 3.6.6000: before it the public fixtures' dict forms, from it the list
// forms the mellanox.onyx modules index into.
func TestOnyxJSONShapesByRelease(t *testing.T) {
	for _, tc := range []struct {
		version string
		checks  [][]string // path..., want
	}{
		{"3.6.5000", [][]string{
			{"show version", "Product release", "3.6.5000"},
			{"show version", "Product name", "MLNX-OS"},
			{"show vlan", "100", "Name", "rdma"},
			{"show interfaces switchport", "Eth1/1", "Mode", "trunk"},
			{"show interfaces switchport", "Eth1/1", "Allowed vlans", "100"},
			{"show interfaces switchport", "Eth1/2", "Access vlan", "1"},
			{"show dcb priority-flow-control", "Table 2", "Eth1/1", "0", "PFC oper", "Enabled"},
			{"show interfaces ethernet", "0", "header", "Eth1/1"},
			{"show interfaces ethernet", "0", "MTU", "9216 bytes(Maximum packet size 9238 bytes)"},
		}},
		{"3.9.3202", [][]string{
			{"show version", "Product release", "3.9.3202"},
			{"show version", "Product name", "Onyx"},
			{"show vlan", "100", "0", "Name", "rdma"},
			{"show interfaces switchport", "Eth1/1", "0", "Mode", "trunk"},
			{"show interfaces switchport", "Eth1/1", "0", "Allowed vlans", "100"},
			{"show dcb priority-flow-control", "2", "Eth1/1", "0", "PFC oper", "Enabled"},
			{"show interfaces ethernet", "0", "Eth1/1", "0", "MTU", "9216 bytes(Maximum packet size 9238 bytes)"},
		}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: model.PlatformOnyx, Model: "SN2410", OSVersion: tc.version})
			drv := mustOpen(t, d, onyxDef(t))
			configs(t, drv, onyxBlock...)
			for _, c := range tc.checks {
				v := jsonOf(t, drv, c[0]+" | json-print")
				if got := path(t, v, c[1:len(c)-1]...); got != c[len(c)-1] {
					t.Errorf("%s %v = %v, want %q", c[0], c[1:len(c)-1], got, c[len(c)-1])
				}
			}
			if n := len(jsonOf(t, drv, "show interfaces ethernet | json-print").([]any)); n != 56 {
				t.Errorf("SN2410 has %d ports, want 48 + 8", n)
			}
		})
	}
}

// TestOnyxGrammar checks abbreviations, the error texts and the range
// and sub-mode forms of the CLI.
func TestOnyxGrammar(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	if got := cmd(t, drv, "sh ver"); !strings.Contains(got, "Product release:   3.10.4206") {
		t.Errorf("sh ver = %q", got)
	}
	if got := cmd(t, drv, "show hosts | include Hostname"); got != "Hostname: leaf1" {
		t.Errorf("show hosts | include Hostname = %q", got)
	}
	for _, tc := range []struct{ line, want string }{
		{"show bogus", "% Unrecognized command \"bogus\".\nType \"?\" for help."},
		{"show", "% Incomplete command.\nType \"?\" for help."},
		{"c", "% Ambiguous command \"c\".\nType \"?\" for help."},
	} {
		r, err := drv.SendCommand(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if r.Result != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, r.Result, tc.want)
		}
	}
	configs(t, drv, "int eth 1/5-1/6 mtu 9000 force", "interface ethernet 1/7", "desc uplink", "sw mode hybrid", "exit", "vlan 20", "name storage", "exit")
	run := d.Running()
	for _, want := range []string{"interface ethernet 1/5-1/6 mtu 9000 force", "interface ethernet 1/7 description uplink",
		"interface ethernet 1/7 switchport mode hybrid", `vlan 20 name "storage"`} {
		if !strings.Contains(run, want) {
			t.Errorf("running-config lacks %q:\n%s", want, run)
		}
	}
}

// TestOnyxTrunkAllowedVLANs: a new trunk allows every VLAN, "add" to it
// changes nothing, "remove" lists the rest, "none" then "add" builds a
// list, a bare "allowed-vlan N" replaces it (Emulab snmpit_mellanox.pm;
// mellanox.onyx onyx_l2_interface); the running-config prints a narrowed
// trunk as "none" plus one "add" per VLAN.
func TestOnyxTrunkAllowedVLANs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lines   []string
		allowed string   // "Allowed vlans" of show interfaces switchport
		run     []string // the port's allowed-vlan lines in running-config
	}{
		{"new trunk allows all", nil, "1, 100, 200", nil},
		{"add to all keeps all", []string{"switchport trunk allowed-vlan add 100"}, "1, 100, 200", nil},
		{"remove from all lists the rest", []string{"switchport trunk allowed-vlan remove 100"}, "1, 200",
			[]string{"switchport trunk allowed-vlan none", "switchport trunk allowed-vlan add 1", "switchport trunk allowed-vlan add 200"}},
		{"none then add", []string{"switchport trunk allowed-vlan none", "switchport trunk allowed-vlan add 100", "switchport trunk allowed-vlan add 200"}, "100, 200",
			[]string{"switchport trunk allowed-vlan none", "switchport trunk allowed-vlan add 100", "switchport trunk allowed-vlan add 200"}},
		{"bare lines replace", []string{"switchport trunk allowed-vlan 100", "switchport trunk allowed-vlan 200"}, "200",
			[]string{"switchport trunk allowed-vlan none", "switchport trunk allowed-vlan add 200"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := start(t, model.PlatformOnyx, sim.Faults{})
			drv := mustOpen(t, d, onyxDef(t))
			block := []string{"vlan 100", "exit", "vlan 200", "exit", "interface ethernet 1/5 switchport mode trunk"}
			for _, l := range tc.lines {
				block = append(block, "interface ethernet 1/5 "+l)
			}
			configs(t, drv, block...)
			if got := path(t, jsonOf(t, drv, "show interfaces switchport | json-print"), "Eth1/5", "0", "Allowed vlans"); got != tc.allowed {
				t.Errorf("allowed %v, want %q", got, tc.allowed)
			}
			var run []string
			for _, l := range strings.Split(d.Running(), "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "interface ethernet 1/5 switchport trunk allowed-vlan") {
					run = append(run, strings.TrimPrefix(l, "interface ethernet 1/5 "))
				}
			}
			if strings.Join(run, "|") != strings.Join(tc.run, "|") {
				t.Errorf("running-config has %q, want %q", run, tc.run)
			}
		})
	}
}

// TestOnyxConfigurationFilesBak is review rsim #5: `show configuration
// files` lists a NAME.bak beside every file written more than once, and
// initial.bak from the start, as the listings of Cray-HPE docs-csm's
// "Management Network Upgrade" Mellanox steps show them: after
// `configuration write to csm1.0` (a new file) "csm1.0 (active)",
// "initial", "initial.bak"; once csm1.2 was written again, "csm1.2.bak"
// beside it. The .bak holds the file's previous contents.
func TestOnyxConfigurationFilesBak(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	steps := []struct {
		lines []string
		want  string
	}{
		{nil, "initial (active)\ninitial.bak\n\nActive configuration: initial\nUnsaved changes     : no"},
		{[]string{"configuration write to csm1.0"},
			"csm1.0 (active)\ninitial\ninitial.bak\n\nActive configuration: csm1.0\nUnsaved changes     : no"},
		{[]string{"configuration write to csm1.2 no-switch", "interface ethernet 1/2 mtu 9000 force"},
			"csm1.0 (active)\ncsm1.2\ninitial\ninitial.bak\n\nActive configuration: csm1.0\nUnsaved changes     : yes"},
		{[]string{"configuration write to csm1.2 no-switch"},
			"csm1.0 (active)\ncsm1.2\ncsm1.2.bak\ninitial\ninitial.bak\n\nActive configuration: csm1.0\nUnsaved changes     : yes"},
	}
	for i, s := range steps {
		if len(s.lines) > 0 {
			configs(t, drv, s.lines...)
		}
		if got := strings.TrimSpace(cmd(t, drv, "show configuration files")); got != s.want {
			t.Errorf("step %d: show configuration files:\n%s\nwant\n%s", i, got, s.want)
		}
	}
	// csm1.2.bak holds csm1.2 as first written: without the MTU.
	if bak := cmd(t, drv, "show configuration files csm1.2.bak"); strings.Contains(bak, "mtu 9000") {
		t.Errorf("csm1.2.bak holds the second write:\n%s", bak)
	}
	if now := cmd(t, drv, "show configuration files csm1.2"); !strings.Contains(now, "interface ethernet 1/2 mtu 9000 force") {
		t.Errorf("csm1.2 lacks the second write:\n%s", now)
	}
}

// TestOnyxSectionEnds is review rsim #8: a section of indented commands
// ends with a line of three spaces, the header and the hostname section
// with an empty line, as in the running-config of ansible/ansible
// test/units/modules/network/onyx/fixtures/onyx_config_config.cfg
// ("   license install 11223344\n   \n##", "hostname ufm-switch16\n\n##").
func TestOnyxSectionEnds(t *testing.T) {
	d := startWith(t, sim.Options{Platform: model.PlatformOnyx, Initial: "   interface ethernet 1/1 mtu 9000 force\n", InitialName: "leaf1.cfg"})
	run := d.Running()
	for _, want := range []string{
		"##\n\n##\n## Running-config temporary prefix mode setting\n##\nno cli default prefix-modes enable\n\n##\n",
		"   interface ethernet 1/1 mtu 9000 force\n   \n##\n## Interface Ethernet buffer configuration\n",
		"hostname leaf1\n\n##\n",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running-config lacks %q:\n%s", want, run)
		}
	}
}
