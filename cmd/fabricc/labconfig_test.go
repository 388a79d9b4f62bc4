package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// rehearse is a fabric with one switch of each platform, each with a
// trunk.
const rehearse = "testdata/rehearse"

// compiled compiles the fabric at path.
func compiled(t *testing.T, path string) *model.Fabric {
	t.Helper()
	set, _, diags, _, err := buildSet(path, dsl.Options{})
	if diags.HasErrors() || err != nil {
		t.Fatalf("build: %v %v", diags, err)
	}
	f, err := model.Unmarshal(set.Model)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// pushedConfigs pushes the fabric at path to a new lab and reads each
// switch's running configuration back as an operator would: EOS and
// Onyx `show running-config`, Cumulus `nv config show -o commands`.
func pushedConfigs(t *testing.T, path string, f *model.Fabric) map[string]string {
	t.Helper()
	lab, err := sim.StartLab(context.Background(), f, filepath.Join(t.TempDir(), "lab"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if code, _, stderr := fabricc(t, "push", "--yes", path, "-i", lab.Inventory()); code != 0 {
		t.Fatalf("push to the empty lab: exit %d\n%s", code, stderr)
	}
	out := map[string]string{}
	for _, d := range lab.Devices {
		// Running is `show running-config` (EOS, Onyx).
		out[d.Switch.Name] = d.Running()
		if d.Switch.Platform == model.PlatformCumulus {
			out[d.Switch.Name] = labExec(t, d, "nv config show -o commands")
		}
	}
	return out
}

// labExec runs cmd on the lab switch d over SSH (an exec request) and
// returns its output.
func labExec(t *testing.T, d *sim.LabDevice, cmd string) string {
	t.Helper()
	pw, err := os.ReadFile(d.SecretFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ssh.Dial("tcp", d.Addr(), &ssh.ClientConfig{User: sim.LabUser,
		Auth: []ssh.AuthMethod{ssh.Password(strings.TrimSpace(string(pw)))}, HostKeyCallback: ssh.FixedHostKey(d.HostKey())})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Output(cmd)
	if err != nil {
		t.Fatalf("%s: %q: %v", d.Switch.Name, cmd, err)
	}
	return strings.ReplaceAll(string(out), "\r\n", "\n")
}

// handEdits are the brownfield of the rehearsal, per switch: each
// replaces the first line that is old by new (a second lossless
// priority, an extra VLAN on a trunk, a description written by hand).
var handEdits = map[string][][2]string{
	"leaf1": {
		{"nv set qos pfc pfc-sp3-100g-5m switch-priority 3", "nv set qos pfc pfc-sp3-100g-5m switch-priority 3-4"},
		{"nv set bridge domain br_default vlan 10", "nv set bridge domain br_default vlan 10,200"},
		{"nv set interface swp31 bridge domain br_default vlan 10", "nv set interface swp31 bridge domain br_default vlan 10,200"},
		{"nv set interface swp1 description 'to node1:roce0'", "nv set interface swp1 description 'gpu node, rack 1'"},
	},
	"leaf2": {
		{"   dcb priority-flow-control priority 3 enable", "   dcb priority-flow-control priority 3 enable\n   dcb priority-flow-control priority 4 enable"},
		{"   vlan 10\n", "   vlan 10\n   vlan 200\n"},
		{"   interface ethernet 1/31-1/32 switchport trunk allowed-vlan add 10", "   interface ethernet 1/31-1/32 switchport trunk allowed-vlan add 10\n   interface ethernet 1/31 switchport trunk allowed-vlan add 200"},
		{"   interface ethernet 1/1 description to node2:roce0", "   interface ethernet 1/1 description gpu node, rack 2"},
	},
	"spine1": {
		{"   priority-flow-control priority 4 drop", "   priority-flow-control priority 4 no-drop"},
		{"vlan 10\n   name rdma\n!\n", "vlan 10\n   name rdma\n!\nvlan 200\n!\n"},
		{"   switchport trunk allowed vlan 10", "   switchport trunk allowed vlan 10,200"},
		{"   description to leaf2:1/32", "   description uplink, patched by hand"},
	},
}

// TestLabConfigRehearsal rehearses a migration: each switch starts from
// a running configuration that differs from the fabric by hand changes
// (`fabricc lab --config`); verify lists exactly those differences and
// diff shows push replacing them.
func TestLabConfigRehearsal(t *testing.T) {
	f := compiled(t, rehearse)
	green := pushedConfigs(t, rehearse, f)
	dir := t.TempDir()
	var specs []string
	for _, name := range []string{"leaf1", "leaf2", "spine1"} {
		text := green[name]
		for _, e := range handEdits[name] {
			if !strings.Contains(text, e[0]) {
				t.Fatalf("%s: the pushed configuration has no %q:\n%s", name, e[0], text)
			}
			text = strings.Replace(text, e[0], e[1], 1)
		}
		path := filepath.Join(dir, name+".cfg")
		writeFile(t, path, text)
		specs = append(specs, name+"="+path)
	}
	configs, given, err := parseLabConfigs(specs, f)
	if err != nil {
		t.Fatal(err)
	}
	lab, err := sim.StartLab(context.Background(), f, filepath.Join(t.TempDir(), "lab"), labAdjust(configs))
	if err != nil {
		t.Fatal(labConfigError(err, given))
	}
	defer lab.Close()
	code, stdout, stderr := fabricc(t, "verify", rehearse, "-i", lab.Inventory())
	var diffs []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "DIFF ") {
			diffs = append(diffs, l)
		}
	}
	// Onyx's PFC priorities are one switch-wide line (`dcb
	// priority-flow-control priority N enable`), so leaf2 has one
	// difference for its three ports.
	// Ordered by impact: PFC on priority 4 too loses no RoCE frame
	// (congestion) and comes before the descriptions and VLANs (other).
	want := []string{
		"DIFF leaf1 swp31 PFC priorities: intended 3, actual 3,4",
		"DIFF leaf1 swp31 operational PFC priorities: intended 3, actual 3,4",
		"DIFF leaf2 (switch-wide) PFC priorities: intended 3, actual 3,4",
		"DIFF spine1 Ethernet1/1 PFC priorities: intended 3, actual 3,4",
		"DIFF leaf1 swp1 description: intended to node1:roce0, actual gpu node, rack 1",
		"DIFF leaf1 swp31 trunk VLANs: intended 10, actual 10,200",
		"DIFF leaf2 1/1 description: intended to node2:roce0, actual gpu node, rack 2",
		"DIFF leaf2 1/31 trunk VLANs: intended 10, actual 10,200",
		"DIFF spine1 Ethernet1/1 trunk VLANs: intended 10, actual 10,200",
		"DIFF spine1 Ethernet1/1 description: intended to leaf2:1/32, actual uplink, patched by hand",
	}
	if code != 2 || !slices.Equal(diffs, want) || !strings.Contains(stdout, "\nverify: 3 devices: 3 mismatch\n") {
		t.Errorf("verify: exit %d, differences:\n%s\nwant:\n%s\n%s", code, strings.Join(diffs, "\n"), strings.Join(want, "\n"), stderr)
	}
	code, stdout, stderr = fabricc(t, "diff", rehearse, "-i", lab.Inventory())
	if code != 2 {
		t.Errorf("diff: exit %d, want 2 (changes pending)\n%s", code, stderr)
	}
	for _, w := range []string{
		// NVUE: the before -> after block names what push replaces.
		"=== leaf1 (cumulus)\n# replaced or removed, before -> after:\n" +
			"#   interface swp1 description: \"gpu node, rack 1\" -> \"to node1:roce0\"\n" +
			"#   interface swp31 bridge domain br_default vlan 200: present -> (none)\n",
		"\n- interface ethernet 1/1 description gpu node, rack 2\n+ interface ethernet 1/1 description \"to node2:roce0\"\n",
		"\n- interface ethernet 1/31 switchport trunk allowed-vlan add 200\n+ interface ethernet 1/31 switchport trunk allowed-vlan remove 200\n",
		"\n- dcb priority-flow-control priority 4 enable\n+ no dcb priority-flow-control priority 4 enable\n",
		"\n-   description uplink, patched by hand\n+   description to leaf2:1/32\n",
		"\n-   switchport trunk allowed vlan 10,200\n+   switchport trunk allowed vlan 10\n",
		"\n-   priority-flow-control priority 4 no-drop\n+   priority-flow-control priority 4 drop\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("diff lacks\n%s\nin:\n%s", w, stdout)
		}
	}
	// The push replaces every hand change, the second lossless priority
	// in the fabric's own NVUE PFC profile included (push unsets the
	// profile's switch-priority set before patching it), and verifies.
	code, stdout, stderr = fabricc(t, "push", rehearse, "-i", lab.Inventory(), "--yes")
	if code != 0 || !strings.Contains(stdout, "\npush: 3 devices: 3 changed\n") {
		t.Errorf("push over the rehearsal: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, _ = fabricc(t, "verify", rehearse, "-i", lab.Inventory()); code != 0 {
		t.Errorf("verify after the push: exit %d\n%s", code, stdout)
	}
}

// TestLabConfigRefusals: a wrong --config names the flag, and a line
// the simulator refuses names the file, the line, the column, the line
// itself (secrets hidden) and the switch's answer; nothing is served.
func TestLabConfigRefusals(t *testing.T) {
	const hint = "; the lab takes what the simulator's grammar takes (sim/README.md): remove or rewrite the line"
	dir := t.TempDir()
	files := map[string]string{
		"empty.cfg":  "\n  \n",
		"mtu.cfg":    "##\n## Interface Ethernet configuration\n##\n   interface ethernet 1/1 mtu 99999 force\n",
		"escape.cfg": "hostname spine1\ninterface Ethernet1/1\n   description a\x1b[2Jb\n",
		"secret.cfg": "hostname spine1\nusername admin privilege 15 secret sha512 $6$SALT$HASHVALUE\n",
		"shell.cfg":  "nv set interface swp1 link mtu 9000\nsudo rm -rf /\n",
		"mtu100.cfg": "nv set interface swp1 link mtu 9000\nnv set interface swp1 link mtu 100\n",
		"leaf1.cfg":  "nv set interface swp1 link mtu 9000\n",
		"onyx.cfg":   "   interface ethernet 1/1 mtu 9000 force\n",
	}
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		configs []string
		code    int
		stderr  string
	}{
		{[]string{"leaf9=" + p("leaf1.cfg")}, 2, "--config leaf9=" + p("leaf1.cfg") + `: the fabric has no switch "leaf9"; its switches are leaf1, leaf2, spine1`},
		{[]string{"leaf1"}, 2, "--config leaf1: write SWITCH=FILE, for example leaf1=brownfield/leaf1.cfg"},
		{[]string{"leaf1=" + p("none.cfg")}, 2, "--config leaf1=" + p("none.cfg") + ": read the running configuration: open " + p("none.cfg") + ": no such file or directory"},
		{[]string{"leaf1=" + p("leaf1.cfg"), "leaf1=" + p("leaf1.cfg")}, 2, "--config leaf1=" + p("leaf1.cfg") + ": switch leaf1 has a --config already; give one file per switch"},
		{[]string{"leaf1=" + p("empty.cfg")}, 2, "--config leaf1=" + p("empty.cfg") + ": " + p("empty.cfg") + " is empty; give the switch's running configuration, or leave --config out to start it empty"},
		{[]string{"leaf2=" + p("mtu.cfg")}, 1, "--config leaf2=" + p("mtu.cfg") + ": " + p("mtu.cfg") + `:4:4: "   interface ethernet 1/1 mtu 99999 force": % Error: MTU must be between 1500 and 9216; the lab takes what the simulator's grammar takes (sim/README.md): remove or rewrite the line`},
		{[]string{"spine1=" + p("escape.cfg")}, 1, "--config spine1=" + p("escape.cfg") + ": " + p("escape.cfg") + `:3:17: "   description a\x1b[2Jb": U+001B (escape) is not a character of a switch configuration; remove it`},
		{[]string{"spine1=" + p("secret.cfg")}, 1, "--config spine1=" + p("secret.cfg") + ": " + p("secret.cfg") + `:2:1: "username admin privilege 15 secret [redacted] [redacted]": % This command is not simulated; the lab takes what the simulator's grammar takes (sim/README.md): remove or rewrite the line`},
		// One file for two switches: the one that refuses it is named.
		{[]string{"leaf2=" + p("onyx.cfg"), "spine1=" + p("onyx.cfg")}, 1, "--config spine1=" + p("onyx.cfg") + ": " + p("onyx.cfg") + `:1:4: "   interface ethernet 1/1 mtu 9000 force": % Invalid input (at token 3: 'mtu')` + hint},
		{[]string{"leaf1=" + p("shell.cfg")}, 1, "--config leaf1=" + p("shell.cfg") + ": " + p("shell.cfg") + `:2:1: "sudo rm -rf /": a Cumulus configuration here is ` + "`nv set` and `nv unset` lines, as `nv config show -o commands` prints them"},
		{[]string{"leaf1=" + p("mtu100.cfg")}, 1, "--config leaf1=" + p("mtu100.cfg") + ": " + p("mtu100.cfg") + `:2:1: "nv set interface swp1 link mtu 100": Error: mtu: "100" is not a number in 552-9216; the lab takes what the simulator's grammar takes (sim/README.md): remove or rewrite the line`},
	} {
		args := []string{"lab", rehearse, "--dir", filepath.Join(t.TempDir(), "lab"), "--run-push"}
		for _, c := range tc.configs {
			args = append(args, "--config", c)
		}
		code, stdout, stderr := fabricc(t, args...)
		want := "fabricc: " + tc.stderr + "\n"
		if tc.code == 2 {
			want += "Run 'fabricc lab --help' for usage.\n"
		}
		if code != tc.code || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q\nstderr %q\nwant   %q", tc.configs, code, stdout, stderr, want)
		}
		if strings.Contains(stderr, "HASHVALUE") || strings.Contains(stderr, "SALT") {
			t.Errorf("%q: the error shows the secret: %s", tc.configs, stderr)
		}
	}
}

// TestLabConfigRunPush: `fabricc lab --config` starts the named switch
// from its file (the listing says so), and the lab story replaces the
// hand changes: the push verifies, the second push changes nothing.
func TestLabConfigRunPush(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "leaf2.cfg")
	writeFile(t, cfg, "##\n## Interface Ethernet configuration\n##\n   interface ethernet 1/1 description hand made\n   interface ethernet 1/31 switchport mode trunk\n"+
		"##\n## VLAN configuration\n##\n   vlan 10\n   vlan 200\n   interface ethernet 1/31 switchport trunk allowed-vlan none\n"+
		"   interface ethernet 1/31 switchport trunk allowed-vlan add 10\n   interface ethernet 1/31 switchport trunk allowed-vlan add 200\n"+
		"##\n## DCBX PFC configuration\n##\n   dcb priority-flow-control enable force\n   dcb priority-flow-control priority 4 enable\n")
	code, stdout, stderr := fabricc(t, "lab", rehearse, "--dir", filepath.Join(t.TempDir(), "lab"), "--run-push", "--config", "leaf2="+cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"\nleaf2      onyx     ssh admin@127.0.0.1:",
		"  (started from " + cfg + ")\n",
		"\nverify: 3 devices: 3 verified",
	} {
		if !strings.Contains("\n"+stdout, want) {
			t.Errorf("the lab story lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Count(stdout, "(started from ") != 1 {
		t.Errorf("only leaf2 was started from a file:\n%s", stdout)
	}
	second := stdout[strings.LastIndex(stdout, "## fabricc push"):]
	if !strings.Contains(second, "push: 3 devices: 3 unchanged") {
		t.Errorf("the second push changed something:\n%s", second)
	}
}

// TestLabConfigWithDriftFault: a switch given both a --config and a
// --fault starts from its file and misbehaves too: the drift fault,
// armed after the replay (which leaves Onyx configuration mode after a
// change, where Onyx drifts), fails the first push's verification.
func TestLabConfigWithDriftFault(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "leaf2.cfg")
	writeFile(t, cfg, "   interface ethernet 1/1 description hand made\n")
	code, stdout, stderr := fabricc(t, "lab", rehearse, "--dir", filepath.Join(t.TempDir(), "lab"), "--run-push", "--config", "leaf2="+cfg, "--fault", "leaf2:drift")
	if code != 1 || !strings.Contains(stderr, "the lab story failed") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"  (started from " + cfg + ")\n",
		"verification failed: 1 difference, first: leaf2 1/1 MTU: intended 9216, actual 9116 (rolled back)",
		"\npush: 3 devices: 1 failed, 2 aborted\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the lab story lacks %q:\n%s", want, stdout)
		}
	}
}

// TestLabConfigRoundTrip: what a pushed switch shows (EOS and Onyx
// `show running-config`, Cumulus `nv config show -o commands`) starts a
// new simulator with the same running configuration, on every switch of
// the demo fabric.
func TestLabConfigRoundTrip(t *testing.T) {
	f := compiled(t, clos)
	pushed := pushedConfigs(t, clos, f)
	lab, err := sim.StartLab(context.Background(), f, filepath.Join(t.TempDir(), "lab"), func(o *sim.Options) {
		o.Initial, o.InitialName = pushed[o.Name], o.Name+".cfg"
	})
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	for _, d := range lab.Devices {
		got := d.Running()
		if d.Switch.Platform == model.PlatformCumulus {
			got = labExec(t, d, "nv config show -o commands")
		}
		if withoutClock(got) != withoutClock(pushed[d.Switch.Name]) {
			t.Errorf("%s: the preloaded switch runs\n%s\nthe pushed one\n%s", d.Switch.Name, got, pushed[d.Switch.Name])
		}
	}
}

// withoutClock drops Onyx's "## Generated at" line.
func withoutClock(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "## Generated at ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
