package sim_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/driver/network"

	"github.com/fabricc/fabricc/internal/redact/redacttest"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPreload: Options.Initial reaches the running configuration through
// each platform's grammar, in the form the operator reads from the
// switch, and is saved (the switch boots with it).
func TestPreload(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		initial  string
		want     []string
	}{
		{model.PlatformEOS,
			"! Command: show running-config\r\n!\r\nhostname leaf1\r\n!\r\nvlan 10\r\n   name rdma\r\n!\r\nvlan 200\r\n!\r\n" +
				"interface Ethernet1/1\r\n   description hand made\r\n   mtu 9000\r\n   switchport mode trunk\r\n   switchport trunk allowed vlan 10,200\r\n" +
				"   priority-flow-control on\r\n   priority-flow-control priority 3 no-drop\r\n   priority-flow-control priority 4 no-drop\r\n!\r\nend\r\n",
			[]string{"hostname leaf1\n!\nvlan 10\n   name rdma\n!\nvlan 200\n!\ninterface Ethernet1/1\n   description hand made\n   mtu 9000\n   switchport mode trunk\n" +
				"   switchport trunk allowed vlan 10,200\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control priority 4 no-drop\n!\ninterface Ethernet1/2\n!\n"}},
		{model.PlatformOnyx,
			"##\n## Running database \"initial\"\n##\n   interface ethernet 1/1 mtu 9000 force\n   interface ethernet 1/1 switchport mode trunk\n" +
				"   interface ethernet 1/1 description hand made\n   vlan 10\n   vlan 200\n   interface ethernet 1/1 switchport trunk allowed-vlan none\n" +
				"   interface ethernet 1/1 switchport trunk allowed-vlan add 10\n   interface ethernet 1/1 switchport trunk allowed-vlan add 200\n" +
				"   dcb priority-flow-control enable force\n   dcb priority-flow-control priority 3 enable\n   dcb priority-flow-control priority 4 enable\n" +
				"   interface ethernet 1/1 dcb priority-flow-control mode on force\n",
			[]string{"   interface ethernet 1/1 mtu 9000 force\n   interface ethernet 1/1 switchport mode trunk\n   interface ethernet 1/1 description hand made\n",
				"   vlan 10\n   vlan 200\n   interface ethernet 1/1 switchport trunk allowed-vlan none\n   interface ethernet 1/1 switchport trunk allowed-vlan add 10\n" +
					"   interface ethernet 1/1 switchport trunk allowed-vlan add 200\n",
				"   dcb priority-flow-control enable force\n   dcb priority-flow-control priority 3 enable\n   dcb priority-flow-control priority 4 enable\n" +
					"   interface ethernet 1/1 dcb priority-flow-control mode on force\n"}},
		{model.PlatformCumulus,
			"# nv config show -o commands\nnv set bridge domain br_default vlan 10,200\nnv set interface swp1 bridge domain br_default vlan 10,200\n" +
				"nv set interface swp1 description 'hand made'\nnv set interface swp1,3-4 link mtu 9000\nnv set interface swp1 qos pfc profile hand\n" +
				"nv set qos pfc hand switch-priority 3-4\n",
			[]string{"interface:\n  swp1:\n    bridge:\n      domain:\n        br_default:\n          vlan:\n            \"10\": {}\n            \"200\": {}\n" +
				"    description: hand made\n    link:\n      mtu: 9000\n    qos:\n      pfc:\n        profile: hand\n  swp3:\n    link:\n      mtu: 9000\n  swp4:\n",
				"qos:\n  pfc:\n    hand:\n      switch-priority:\n        \"3\": {}\n        \"4\": {}\n"}},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: tc.platform, Initial: tc.initial, InitialName: "leaf1.cfg"})
			run := d.Running()
			for _, w := range tc.want {
				if !strings.Contains(run, w) {
					t.Errorf("the running configuration lacks\n%s\nin:\n%s", w, run)
				}
			}
			if d.Saved() != run {
				t.Errorf("the saved configuration is not the running one:\n%s", d.Saved())
			}
		})
	}
}

// TestPreloadWithEnablePassword: on a switch with an enable password,
// the replay types it when `enable` asks for it, and the configuration
// is taken.
func TestPreloadWithEnablePassword(t *testing.T) {
	for _, tc := range []struct {
		platform      model.Platform
		initial, want string
	}{
		{model.PlatformEOS, "interface Ethernet1/1\n   mtu 9000\n", "interface Ethernet1/1\n   mtu 9000\n"},
		{model.PlatformOnyx, "   interface ethernet 1/1 mtu 9000 force\n", "interface ethernet 1/1 mtu 9000 force\n"},
	} {
		d := startWith(t, sim.Options{Platform: tc.platform, EnablePassword: "En-Pass-4410", Initial: tc.initial, InitialName: "leaf1.cfg"})
		if !strings.Contains(d.Running(), tc.want) {
			t.Errorf("%s: the running configuration lacks %q:\n%s", tc.platform, tc.want, d.Running())
		}
	}
}

// TestPreloadRefusals: Start fails with a *sim.PreloadError naming the
// switch, the line, the column and why, the line quoted with its
// secrets hidden, for a character no switch CLI takes and for a line
// the grammar refuses; the switch never listens.
func TestPreloadRefusals(t *testing.T) {
	const hint = "; the lab takes what the simulator's grammar takes (sim/README.md): remove or rewrite the line"
	for _, tc := range []struct {
		platform model.Platform
		initial  string
		want     string
	}{
		{model.PlatformEOS, "hostname leaf1\ninterface Ethernet1/1\n\tmtu 9000\n",
			`leaf1.cfg:3:1: "\tmtu 9000": U+0009 (tab) is not a character of a switch configuration; remove it`},
		{model.PlatformEOS, "hostname leaf1\ninterface Ethernet1/1\n   description caf\xe9\n",
			`leaf1.cfg:3:19: "   description caf\xe9": U+FFFD (invalid UTF-8) is not a character of a switch configuration; remove it`},
		{model.PlatformEOS, "interface Ethernet1/1\n   description x\u202ey\n",
			`leaf1.cfg:2:17: "   description x\u202ey": U+202E (right-to-left override) is not a character of a switch configuration; remove it`},
		{model.PlatformEOS, "hostname leaf1\nreload\n",
			`leaf1.cfg:2:1: "reload": not a line of a running configuration (the lab enters configuration mode and saves by itself)`},
		{model.PlatformEOS, "interface Ethernet1/1\n   mtu 99999\n",
			`leaf1.cfg:2:4: "   mtu 99999": % Invalid input (at token 1: '99999')` + hint},
		{model.PlatformEOS, "username admin privilege 15 secret sha512 $6$SALT$HASHVALUE\n",
			`leaf1.cfg:1:1: "username admin privilege 15 secret [redacted] [redacted]": % This command is not simulated` + hint},
		// Lines of real running-configs the simulator does not model
		// answer that they are not simulated, not the device's error for
		// a command that does not exist (review rsim #7): napalm
		// test/eos/mocked_data/test_get_config/normal/show_running_config.text
		// (`transceiver qsfp default-mode 4x10G`, `interface Management1`),
		// ansible-collections/mellanox.onyx
		// tests/unit/modules/fixtures/onyx_config_config.cfg
		// (`license install`, `lacp`).
		{model.PlatformEOS, "transceiver qsfp default-mode 4x10G\nhostname spine1\n",
			`leaf1.cfg:1:1: "transceiver qsfp default-mode 4x10G": % This command is not simulated` + hint},
		{model.PlatformEOS, "interface Management1\n   ip address 10.0.2.15/24\n",
			`leaf1.cfg:1:1: "interface Management1": % This command is not simulated` + hint},
		{model.PlatformOnyx, "   license install 11223344\n",
			`leaf1.cfg:1:4: "   license install 11223344": % Error: license: this command is not simulated` + hint},
		{model.PlatformOnyx, "   interface ethernet 1/7-1/8 lacp rate fast\n",
			`leaf1.cfg:1:4: "   interface ethernet 1/7-1/8 lacp rate fast": % Error: lacp: this command is not simulated` + hint},
		{model.PlatformOnyx, "   interface ethernet 1/99 mtu 9000 force\n",
			`leaf1.cfg:1:4: "   interface ethernet 1/99 mtu 9000 force": % Error: interface ethernet 1/99 does not exist` + hint},
		{model.PlatformCumulus, "nv set interface swp1 link mtu 9000\nnv config apply -y\n",
			"leaf1.cfg:2:1: \"nv config apply -y\": a Cumulus configuration here is `nv set` and `nv unset` lines, as `nv config show -o commands` prints them"},
		{model.PlatformCumulus, "nv set interface swp1 link mtu 9000\nnv set system aaa user admin password hunter2\n",
			`leaf1.cfg:2:1: "nv set system aaa user admin password [redacted]": Error: 'aaa' is not a valid command argument here` + hint},
		{model.PlatformCumulus, "nv set interface swp1 description x; cat > /tmp/f <<EOF\nnv set interface swp2 link mtu 9000\n",
			"leaf1.cfg:1:1: \"nv set interface swp1 description x; cat > /tmp/f <<EOF\": ';' outside single quotes is shell syntax; a Cumulus configuration here is one `nv set` or `nv unset` command a line"},
		{model.PlatformCumulus, "nv set interface swp1 description \"$(reboot)\"\n",
			"leaf1.cfg:1:1: \"nv set interface swp1 description \\\"$(reboot)\\\"\": '$' outside single quotes is shell syntax; a Cumulus configuration here is one `nv set` or `nv unset` command a line"},
		// The whole configuration: NVUE's apply refuses two lossless
		// pools (Cumulus Linux 5.9 User Guide, Quality of Service,
		// "Traffic Pools").
		{model.PlatformCumulus, "nv set qos roce\nnv set qos traffic-pool default-lossless switch-priority 4\n",
			"leaf1.cfg: the switch refuses the configuration as a whole (nv config apply -y): Invalid config [rev_id: 2] Config invalid at qos.traffic-pool: " +
				"only a single lossless pool can be configured on the switch at a time; the configuration has default-lossless (qos traffic-pool default-lossless) " +
				"and roce-lossless (qos roce mode lossless): unset one (nv unset qos roce, or nv unset qos traffic-pool <pool> switch-priority)"},
	} {
		opts := sim.Options{Name: "leaf1", Platform: tc.platform, Initial: tc.initial, InitialName: "leaf1.cfg"}
		d, err := sim.Start(context.Background(), opts)
		if err == nil {
			d.Close()
		}
		var pe *sim.PreloadError
		if !errors.As(err, &pe) || err.Error() != tc.want {
			t.Errorf("%s %q: %v\nwant %s", tc.platform, tc.initial, err, tc.want)
		} else if pe.Switch != "leaf1" {
			t.Errorf("%s %q: the error names switch %q, want leaf1", tc.platform, tc.initial, pe.Switch)
		}
		if err != nil && (strings.Contains(err.Error(), "HASHVALUE") || strings.Contains(err.Error(), "hunter2")) {
			t.Errorf("the error shows a secret: %v", err)
		}
	}
}

// TestPreloadKeepsTheDriftFault: the replay of an initial configuration
// does not spend the drift fault, on any platform (each drifts at its own
// moment: an EOS session commit, leaving Onyx configuration mode after a
// change, an NVUE apply, the last two of which the replay does too); the
// first change after it drifts the first port with an MTU by -100.
func TestPreloadKeepsTheDriftFault(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		def      func(*testing.T) any
		initial  string
		// show is what shows port 1's MTU: the running configuration
		// (""), or a command (Cumulus: the drift is operational).
		show            string
		replay, drifted string
		change          func(*testing.T, *network.Driver)
	}{
		{model.PlatformEOS, func(*testing.T) any { return "arista_eos" }, "interface Ethernet1/1\n   mtu 9000\n", "",
			"interface Ethernet1/1\n   mtu 9000\n", "interface Ethernet1/1\n   mtu 8900\n", func(t *testing.T, c *network.Driver) {
				cmd(t, c, "configure session drift")
				cmd(t, c, "interface Ethernet1/2")
				cmd(t, c, "mtu 9214")
				cmd(t, c, "commit")
			}},
		{model.PlatformOnyx, onyxDef, "   interface ethernet 1/1 mtu 9000 force\n", "",
			"interface ethernet 1/1 mtu 9000 force\n", "interface ethernet 1/1 mtu 8900 force\n", func(t *testing.T, c *network.Driver) {
				configs(t, c, "interface ethernet 1/2 mtu 9216 force")
				cmd(t, c, "show version") // leaves configuration mode
			}},
		{model.PlatformCumulus, cumulusDef, "nv set interface swp1 link mtu 9000\n", "nv show interface swp1 link -o json",
			`"mtu": 9000`, `"mtu": 8900`, func(t *testing.T, c *network.Driver) {
				cmd(t, c, "nv set interface swp2 link mtu 9216")
				cmd(t, c, "nv config apply -y")
			}},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: tc.platform, Faults: sim.Faults{Drift: true}, Initial: tc.initial, InitialName: "leaf1.cfg"})
			c := mustOpen(t, d, tc.def(t))
			mtu := func() string {
				if tc.show == "" {
					return d.Running()
				}
				return cmd(t, c, tc.show)
			}
			if got := mtu(); !strings.Contains(got, tc.replay) {
				t.Fatalf("the replay drifted: no %q in\n%s", tc.replay, got)
			}
			tc.change(t, c)
			if got := mtu(); !strings.Contains(got, tc.drifted) {
				t.Errorf("the first change after the replay did not drift: no %q in\n%s", tc.drifted, got)
			}
		})
	}
}

// TestPreloadRedactsVendorSecrets: a refused line with a credential, for
// each word of package redact (the vendors' own keywords), is quoted in
// the error with the credential hidden, and neither the quote nor the
// switch's answer shows it. The lines are refused: the simulators do not
// simulate AAA, SNMP or routing protocols.
func TestPreloadRedactsVendorSecrets(t *testing.T) {
	platform := map[string]model.Platform{"eos": model.PlatformEOS, "onyx": model.PlatformOnyx, "nvue": model.PlatformCumulus, "kept": model.PlatformEOS}
	first := map[model.Platform]string{model.PlatformEOS: "hostname leaf1", model.PlatformOnyx: "hostname leaf1",
		model.PlatformCumulus: "nv set interface swp1 link mtu 9000"}
	for _, l := range redacttest.Lines {
		p := platform[l.Platform]
		hidden := len(strings.Fields(l.Text)) - len(strings.Fields(l.Shown))
		want := l.Shown + strings.Repeat(" [redacted]", hidden)
		opts := sim.Options{Name: "leaf1", Platform: p, Initial: first[p] + "\n" + l.Text + "\n", InitialName: "leaf1.cfg"}
		d, err := sim.Start(context.Background(), opts)
		if err == nil {
			d.Close()
		}
		var pe *sim.PreloadError
		switch {
		case !errors.As(err, &pe):
			t.Errorf("%s line %q: no *sim.PreloadError: %v", l.Platform, l.Shown, maskSecrets(fmt.Sprint(err), l.Secrets))
		case pe.Line != 2 || pe.Text != want:
			t.Errorf("%s: line %d quoted %q, want line 2 quoted %q", l.Platform, pe.Line, maskSecrets(pe.Text, l.Secrets), want)
		}
		if err != nil && maskSecrets(err.Error(), l.Secrets) != err.Error() {
			t.Errorf("%s line %q: the error shows a credential: %s", l.Platform, l.Shown, maskSecrets(err.Error(), l.Secrets))
		}
	}
}

// maskSecrets replaces each secret in s, so that a failing test does not
// print it.
func maskSecrets(s string, secrets []string) string {
	for _, x := range secrets {
		s = strings.ReplaceAll(s, x, "<a credential>")
	}
	return s
}
