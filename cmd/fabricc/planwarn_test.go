package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/targets/docs"
)

// sparePort is a port with PFC and no link: the compiler warns that its
// headroom assumes a 5 m cable.
func sparePort(name string) string {
	return "  port \"" + name + "\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [10]\n  }\n\n  port \"swp2\" {"
}

// windowsHost is a Windows host on a new port leaf1:swp3: its NIC
// cannot mark the DSCP the port trusts, which the compiler warns of.
const windowsHost = `
host "w1" {
  os         = "windows"
  os_version = "2022"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "Ethernet 4"
    speed     = "100G"
    mtu       = 9000
    addresses = ["10.0.10.13/24"]
  }
}

link {
  a      = "leaf1:swp3"
  b      = "w1:roce0"
  length = 2
}
`

// planWarning is a warning of the JSON result.
type planWarning struct {
	Code, Summary, Subject string
	Changed                bool
}

// TestPlanWarnings: the plan lists the warnings the head raises that the
// base did not, those it raises with another text, and those that went
// away, with file:line:column, in text, Markdown and JSON. Warnings are
// matched by code and what they are about, not by line: the base's
// warning on swp5 is not new in a head whose lines moved down.
func TestPlanWarnings(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := strings.Replace(planBase(t), "  port \"swp2\" {", sparePort("swp5"), 1)
	repo := t.TempDir()
	fabric := filepath.Join(repo, "net")
	file := filepath.Join(fabric, "fabric.hcl")
	writeFabric(t, fabric, base)
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	spare := "PFC port without a cable length"
	windows := "Windows RoCE DSCP not settable"
	tests := []struct {
		name      string
		head      string
		section   string // the section's title
		line      string // its first line, up to the detail's first words
		new, gone []planWarning
	}{
		{"a Windows host, lines shifted", "# one\n# two\n# three\n" + strings.Replace(base, "  port \"swp2\" {", sparePort("swp3"), 1) + windowsHost,
			"new warnings (the base did not raise them, or raised them with another text: changed)",
			file + ":93:3: " + windows + " (windows-roce-dscp-not-settable): NIC w1:roce0 (ConnectX-6 Dx, driver winof2) must mark RoCE with DSCP 26",
			[]planWarning{{"windows-roce-dscp-not-settable", windows, file + ":93:3", false}}, nil},
		{"one more spare port: the switch's warning changes", strings.Replace(base, "  port \"swp2\" {", sparePort("swp6"), 1),
			"new warnings (the base did not raise them, or raised them with another text: changed)",
			file + ":25:3: " + spare + " (pfc-port-without-a-cable-length, changed): 2 ports of switch leaf1 (leaf1:swp5, leaf1:swp6) have PFC on",
			[]planWarning{{"pfc-port-without-a-cable-length", spare, file + ":25:3", true}}, nil},
		{"the spare port removed", strings.Replace(base, sparePort("swp5"), "  port \"swp2\" {", 1),
			"warnings gone (the base raised them)",
			"HEAD:net/fabric.hcl:25:3: " + spare + " (pfc-port-without-a-cable-length): Port leaf1:swp5 has PFC on",
			nil, []planWarning{{"pfc-port-without-a-cable-length", spare, "HEAD:net/fabric.hcl:25:3", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			writeFabric(t, fabric, tc.head)
			code, out, errs := fabricc(t, "plan", "--base", "HEAD", fabric)
			if code != 2 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			if !strings.Contains(out, "\n\n"+tc.section+"\n  "+tc.line) {
				t.Errorf("plan lacks\n%s\n  %s\nin:\n%s", tc.section, tc.line, out)
			}
			if n := strings.Count(out, "(windows-roce-dscp-not-settable") + strings.Count(out, "(pfc-port-without-a-cable-length"); n != 1 {
				t.Errorf("plan lists %d warnings, want 1:\n%s", n, out)
			}
			_, md, _ := fabricc(t, "plan", "--base", "HEAD", fabric, "--format", "markdown")
			if !strings.Contains(md, "\n#### "+tc.section+"\n\n- "+docs.Markdown(tc.line)) {
				t.Errorf("markdown plan lacks the warning section:\n%s", md)
			}
			_, js, _ := fabricc(t, "plan", "--base", "HEAD", fabric, "--json")
			var env struct {
				Result struct {
					NewWarnings  []planWarning `json:"new_warnings"`
					GoneWarnings []planWarning `json:"gone_warnings"`
				}
			}
			if err := json.Unmarshal([]byte(js), &env); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(env.Result.NewWarnings, tc.new) || !slices.Equal(env.Result.GoneWarnings, tc.gone) {
				t.Errorf("JSON new %+v gone %+v, want %+v and %+v", env.Result.NewWarnings, env.Result.GoneWarnings, tc.new, tc.gone)
			}
		})
	}
}
