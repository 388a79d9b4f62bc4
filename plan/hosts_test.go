package plan

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fabricc/fabricc/targets/docs"
)

// TestPlanMovedNICVLAN: a NIC cabled to another port shows the VLAN its
// frames land in there, derived from the new port's mode and VLANs.
func TestPlanMovedNICVLAN(t *testing.T) {
	base := edit(t, baseHCL(t),
		"vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"other\" {\n  id = 20\n}\n",
		"  port \"swp2\" {", "  port \"swp3\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [20]\n  }\n\n  port \"swp4\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"trunk\"\n    vlans = [10, 20]\n  }\n\n  port \"swp2\" {")
	tests := []struct {
		name  string
		edits []string
		want  string
	}{
		{"untagged NIC to an access port of another VLAN", []string{`a      = "leaf1:swp1"`, `a      = "leaf1:swp3"`},
			"  roce0: peer leaf1:swp1 -> leaf1:swp3, so VLAN 10 -> 20 (untagged)\n"},
		{"tagged NIC to a trunk that carries its VLAN: no VLAN change", []string{`a      = "leaf1:swp2"`, `a      = "leaf1:swp4"`},
			"  roce0: peer leaf1:swp2 -> leaf1:swp4\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, Compare(compileHCL(t, base), compileHCL(t, edit(t, base, tc.edits...)))); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("plan lacks\n%s\nin:\n%s", tc.want, b.String())
			}
		})
	}
}

// TestPlanHostScripts: the plan renders each changed host's script from
// both revisions and says whether to run it; the summary lists the hosts
// to run. A cable change moves the Linux script's mlnx_qos cable length
// but not the Windows script, whose host only gets a new document.
func TestPlanHostScripts(t *testing.T) {
	base := withWindows(t)
	tests := []struct {
		name  string
		edits []string
		want  []string
	}{
		{"cable change: Linux runs, Windows does not", []string{"length = 3\n", "length = 30\n", "length = 2\n", "length = 30\n"}, []string{
			"Hosts to run their script: 2 (h1, h2).\n",
			"h1 (host)\n  roce0: cable 3 m dac -> 30 m aoc\n  script changes: roce0 cable length 3 -> 30 m (mlnx_qos --cable_len); run it\n",
			"h2 (host)\n  roce0: cable 2 m dac -> 30 m aoc\n  script changes: roce0 cable length 2 -> 30 m (mlnx_qos --cable_len); run it\n",
			"w1 (host)\n  roce0: cable 2 m dac -> 30 m aoc\n  script unchanged, only its document changes: nothing to run\n",
		}},
		{"added host", []string{"host \"h2\" {", "host \"h3\" {\n  os         = \"linux\"\n  os_version = \"ubuntu22.04\"\n}\n\nhost \"h2\" {"}, []string{
			"Hosts to run their script: 1 (h3).\n",
			"h3 (host, added)\n  added: linux ubuntu22.04, 0 NICs\n  new host: run its script\n",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Compare(compileHCL(t, base), compileHCL(t, edit(t, base, tc.edits...)))
			var b bytes.Buffer
			if err := WriteText(&b, p); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("plan lacks\n%s\nin:\n%s", w, b.String())
				}
			}
			var js bytes.Buffer
			if err := WriteJSON(&js, p); err != nil {
				t.Fatal(err)
			}
			if want := `"hosts_to_run": [` + "\n    " + mustJSON(t, hostsToRun(p)[0]); !strings.Contains(js.String(), want) {
				t.Errorf("JSON lacks %s", want)
			}
		})
	}
}

// TestPlanRemovedSwitches: a removed switch whose platform, model, ports
// and peers an added switch has is named as a rename with the push
// options; any other removed switch says that push leaves it as it is.
func TestPlanRemovedSwitches(t *testing.T) {
	spare := "\nswitch \"spare1\" {\n  platform   = \"cumulus\"\n  model      = \"SN2700\"\n  os_version = \"5.9.2\"\n}\n"
	tests := []struct {
		name       string
		base, head func(string) string
		want       string
	}{
		{"rename", func(s string) string { return s }, func(s string) string { return strings.ReplaceAll(s, "leaf1", "leaf9") },
			"leaf1 (switch, removed)\n  removed: cumulus 5.9.2 on SN2700, 2 ports (looks like a rename of leaf1 to leaf9: rename its inventory entry and the switch's hostname, or push with --renamed leaf9=leaf1)\n"},
		{"removed", func(s string) string { return s + spare }, func(s string) string { return s },
			"spare1 (switch, removed)\n  removed: cumulus 5.9.2 on SN2700, 0 ports (push leaves its configuration on the switch as it is: remove its inventory entry, and clear or reuse the switch)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, Compare(compileHCL(t, tc.base(baseHCL(t))), compileHCL(t, tc.head(baseHCL(t))))); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("plan lacks\n%s\nin:\n%s", tc.want, b.String())
			}
		})
	}
}

// TestPlanMarkdownManyWarnings: thousands of new warnings take at most
// half of a pull-request comment, with a line that counts the rest, and
// the whole comment stays within GitHub's limit.
func TestPlanMarkdownManyWarnings(t *testing.T) {
	p := manyDevices(50)
	for i := range 5000 {
		p.NewWarnings = append(p.NewWarnings, Warning{Code: "pfc-port-without-a-cable-length", Summary: "PFC port without a cable length",
			Subject: "fabric.hcl:" + strconv.Itoa(i+1) + ":3", Detail: "Port leaf1:swp" + strconv.Itoa(i) + " has PFC on but no link with a length."})
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, p, CommentLimit); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := utf8.RuneCountInString(out); n > CommentLimit {
		t.Errorf("comment of %d characters, above %d", n, CommentLimit)
	}
	shown := strings.Count(out, "- fabric.hcl:")
	want := "- _" + docs.Thousands(int64(5000-shown)) + " more not shown; `fabricc plan` with `--format text` or `--json` lists them all._\n"
	if shown == 0 || shown == 5000 || !strings.Contains(out, want) {
		t.Errorf("%d warnings shown; comment lacks %q", shown, want)
	}
	if !strings.Contains(out, "\n#### leaf0000 (switch)\n") {
		t.Error("the warnings left no room for the devices")
	}
}

// TestPlanHostileNamesInNewSections: names in the rollout, warning,
// impact and script lines are escaped in Markdown and made visible in
// text, as the items' are.
func TestPlanHostileNamesInNewSections(t *testing.T) {
	p := &Plan{Fabric: "f",
		Rollout:     []Rollout{{Contract: "MTU", Order: orderHostsFirst, Hosts: []string{"h<1>"}, Text: "run h<1>|x first"}},
		NewWarnings: []Warning{{Code: "c", Summary: "S", Subject: "a`b`.hcl:1:1", Detail: "Port *x*\x1b[2J"}},
		Devices: []Device{{Name: "h<1>", Kind: "host", Status: "changed", Script: ScriptChanges,
			Items:          []Item{{Subject: "n", Changes: []Change{{Field: "MTU", Before: "9000", After: "4200"}}}},
			Impact:         []Impact{{Kind: "adapter-restart", Text: "restarts <b>"}},
			ScriptSettings: []Change{{Field: "n*1*\x1b[2J cable length", Before: "3", After: "5", Unit: "m", Note: "mlnx_qos --cable_len"}}}}}
	var md, text bytes.Buffer
	if err := WriteMarkdown(&md, p, CommentLimit); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- MTU: run h\\<1\\>\\|x first\n", "- a\\`b\\`.hcl:1:1: S (c): Port \\*x\\*", "- impact: restarts \\<b\\>\n", "#### h\\<1\\> (host)\n", "- script changes: n\\*1\\*"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(text.String(), "\x1b") {
		t.Errorf("text plan writes a raw escape character:\n%q", text.String())
	}
}

// TestPlanScriptSettings: a host whose script changes says what changes
// in it where the plan knows: the cable length each NIC's script sets,
// in whole metres rounded up, with what takes it (MLNX_OFED's mlnx_qos,
// iproute2's dcb for the inbox driver, FreeBSD's mlx5en tunable). A
// cable that stays within the same whole metre changes no script, and a
// change the NIC lines show as written (MTU) adds nothing to the line.
func TestPlanScriptSettings(t *testing.T) {
	h1 := "interface = \"ens1f0np0\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]"
	inbox := func(t *testing.T) string {
		return edit(t, baseHCL(t), h1, "interface = \"ens1f0np0\"\n    driver    = \"inbox\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]")
	}
	freebsd := func(t *testing.T) string {
		return edit(t, baseHCL(t), "host \"h1\" {\n  os         = \"linux\"\n  os_version = \"ubuntu22.04\"", "host \"h1\" {\n  os         = \"freebsd\"\n  os_version = \"14.1\"",
			"interface = \"ens1f0np0\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]", "interface = \"mce0\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]")
	}
	tests := []struct {
		name  string
		base  func(t *testing.T) string
		edits []string
		want  string // h1's last line
	}{
		{"MLNX_OFED", baseHCL, []string{"length = 3\n", "length = 5\n"}, "script changes: roce0 cable length 3 -> 5 m (mlnx_qos --cable_len); run it"},
		{"inbox driver", inbox, []string{"length = 3\n", "length = 5\n"}, "script changes: roce0 cable length 3 -> 5 m (dcb pfc delay); run it"},
		{"FreeBSD mlx5en", freebsd, []string{"length = 3\n", "length = 5\n"}, "script changes: roce0 cable length 3 -> 5 m (conf.qos.cable_length); run it"},
		{"same whole metre", baseHCL, []string{"length = 3\n", "length = 2.5\n"}, "script unchanged, only its document changes: nothing to run"},
		{"MTU", baseHCL, []string{h1, strings.Replace(h1, "9000", "4200", 1)}, "script changes: run it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base(t)
			p := Compare(compileHCL(t, base), compileHCL(t, edit(t, base, tc.edits...)))
			var b bytes.Buffer
			if err := WriteText(&b, p); err != nil {
				t.Fatal(err)
			}
			sec := strings.Split(strings.TrimSuffix(section(b.String(), "h1 (host)"), "\n"), "\n")
			if got := strings.TrimPrefix(sec[len(sec)-1], "  "); got != tc.want {
				t.Errorf("got  %q\nwant %q\nin:\n%s", got, tc.want, b.String())
			}
		})
	}
}

// TestScriptCableMatchesScripts keeps scriptCable true to the host
// renderers: the cable length it reports is the one the rendered script
// sets, in the form its tool takes, and a NIC it reports none for gets
// no cable length.
func TestScriptCableMatchesScripts(t *testing.T) {
	nic := "interface = \"ens1f0np0\"\n    speed     = \"100G\""
	tests := []struct {
		name   string
		edits  []string
		want   int
		setter string // the script text that sets the length, %d the metres
	}{
		{"MLNX_OFED", []string{"length = 3\n", "length = 4.2\n"}, 5, "mlnx_pfc \"$ifc\" 0,0,0,1,0,0,0,0 %d\n"},
		{"inbox", []string{nic, "interface = \"ens1f0np0\"\n    driver    = \"inbox\"\n    speed     = \"100G\""}, 3, "cable_len \"$ifc\" %d \"$(dcb_get \"$ifc\" pfc delay)\" dcb pfc set dev \"$ifc\" delay %d\n"},
		{"1000 m: mlx5 ignores it", []string{"length = 3\n", "length = 1000\n"}, 0, ""},
		{"FreeBSD mlx5en", []string{"host \"h1\" {\n  os         = \"linux\"\n  os_version = \"ubuntu22.04\"", "host \"h1\" {\n  os         = \"freebsd\"\n  os_version = \"14.1\"",
			"interface = \"ens1f0np0\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]", "interface = \"mce0\"\n    speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]"},
			3, "dev.mce.0.conf.qos.cable_length=\"%d\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := compileHCL(t, edit(t, baseHCL(t), tc.edits...))
			h := f.Host("h1")
			m, _ := scriptCable(h, &h.NICs[0])
			if m != tc.want {
				t.Fatalf("scriptCable = %d, want %d", m, tc.want)
			}
			files, err := hostFiles(f, h)
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for _, data := range files {
				all.Write(data)
			}
			if tc.setter != "" {
				want := strings.ReplaceAll(tc.setter, "%d", strconv.Itoa(m))
				if !strings.Contains(all.String(), want) {
					t.Errorf("the script lacks %q", want)
				}
				return
			}
			for _, set := range []string{"mlnx_pfc \"$ifc\" 0,0,0,1,0,0,0,0 ", "dcb pfc set dev \"$ifc\" delay", "conf.qos.cable_length="} {
				if strings.Contains(all.String(), set) {
					t.Errorf("the script sets a cable length (%q) that scriptCable does not report", set)
				}
			}
		})
	}
}
