package plan

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/targets/docs"
)

// rolloutLines are the lines of the plan's rollout section.
func rolloutLines(p *Plan) []string {
	var out []string
	for _, sec := range headSections(p) {
		if strings.HasPrefix(sec.title, "rollout") {
			out = append(out, sec.lines...)
		}
	}
	return out
}

// Edits of the base fabric for the rollout tests.
var (
	lowMTU      = []string{"mtu   = 9216", "mtu   = 4500", "mtu       = 9000", "mtu       = 4200"}
	roceMoved   = []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    priority = 4\n    dscp     = [34, 32, 33, 35, 36, 37, 38, 39]\n  }\n"}
	secondClass = []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n  roce_class = \"roce\"\n\n  class \"roce2\" {\n    priority  = 4\n    dscp      = [34, 32, 33, 35, 36, 37, 38, 39]\n    lossless  = true\n    bandwidth = 10\n    ecn {\n      min = \"150KB\"\n      max = \"1500KB\"\n    }\n  }\n  class \"default\" {\n    bandwidth = 40\n  }\n"}
	pcpTrust    = []string{"mode  = \"trunk\"\n    vlans = [10]", "mode  = \"trunk\"\n    vlans = [10]\n    trust = \"pcp\"", "vlan      = 10\n", "vlan      = 10\n    trust     = \"pcp\"\n"}
	dscpTrust   = []string{"trust = \"pcp\"", "trust = \"dscp\"", "trust     = \"pcp\"", "trust     = \"dscp\""}
	untaggedH2  = []string{"mode  = \"trunk\"\n    vlans = [10]", "mode  = \"access\"\n    vlans = [10]", "    vlan      = 10\n", ""}
)

// TestPlanRollout: a change whose switch and host halves disagree in the
// window between the push and the hosts' scripts gives the order that
// avoids it, or says there is none and how to stage it; a change with a
// safe order either way gives no rollout. Each case fails without the
// mixed-state comparison of rollout.go.
func TestPlanRollout(t *testing.T) {
	base := baseHCL(t)
	makeBeforeBreak := "Make before break instead (docs/changes.md): 1. add the new priority and DSCP block as a second lossless class beside the old one, roce_class unchanged: push, then every host's script; " +
		"2. set roce_class to the new class: every host's script; 3. remove the old class once every host's --check passes: push, then every host's script. fabricc plan shows no rollout hazard for each of these steps."
	oneAtATime := "No order avoids the window: push one switch at a time (fabricc push --limit SWITCH) and run the scripts of its hosts right after it, in a maintenance window (docs/changes.md)."
	tests := []struct {
		name       string
		base, head []string // edits of the base fabric for each revision
		want       []string
		order      string // the first entry's Order
	}{
		{"MTU decrease: hosts first", nil, lowMTU, []string{
			"MTU: hosts first, then push: after a push, until its script runs, h1:roce0 sends IP packets of up to 9000 B into leaf1:swp1, which takes 4500 B at most and drops the larger ones (and 1 more link). Run the scripts of 2 hosts (h1, h2) first, then fabricc push.",
		}, orderHostsFirst},
		{"MTU increase: switches first", lowMTU, nil, []string{
			"MTU: push first, then the hosts: a host whose script runs before the push breaks it: h1:roce0 sends IP packets of up to 9000 B into leaf1:swp1, which takes 4500 B at most and drops the larger ones (and 1 more link). Run fabricc push, then the scripts of 2 hosts (h1, h2).",
		}, orderSwitchesFirst},
		{"RoCE priority and DSCP block moved: no order", nil, roceMoved, []string{
			"lossless: no safe order in one step. After the push, until its script runs, h1:roce0 marks RoCE with DSCP 26, which leaf1:swp1 maps to priority 0, without PFC there: its RoCE runs lossy (and 1 more link); a host whose script runs before the push breaks it too: h1:roce0 marks RoCE with DSCP 34, which leaf1:swp1 maps to priority 0, without PFC there: its RoCE runs lossy. " + makeBeforeBreak,
		}, orderNone},
		{"make before break, step 1: a second lossless class", nil, secondClass, nil, ""},
		{"make before break, step 2: roce_class to the new class", secondClass, []string{secondClass[0], strings.Replace(secondClass[1], `roce_class = "roce"`, `roce_class = "roce2"`, 1)}, nil, ""},
		{"trust pcp -> dscp on port and NIC", pcpTrust, append(append([]string(nil), pcpTrust...), dscpTrust...), []string{
			"trust: no safe order in one step. After the push, until its script runs, h2:roce0 trusts pcp and leaf1:swp2 trusts dscp, so the two ends classify the same packets into different priorities; a host whose script runs before the push breaks it too: h2:roce0 trusts dscp and leaf1:swp2 trusts pcp, so the two ends classify the same packets into different priorities. " + oneAtATime,
		}, orderNone},
		{"host VLAN tagged -> untagged with its port", nil, untaggedH2, []string{
			"VLAN: no safe order in one step. After the push, until its script runs, h2:roce0 tags its frames with VLAN 10, which leaf1:swp2 sends untagged, so the host does not take the switch's frames; a host whose script runs before the push breaks it too: h2:roce0 sends untagged frames and leaf1:swp2, a trunk without native VLAN, drops them. " + oneAtATime,
		}, orderNone},
		{"cable length: no rollout", nil, []string{"length = 3\n", "length = 30\n"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, h := base, base
			if tc.base != nil {
				b = edit(t, base, tc.base...)
			}
			if tc.head != nil {
				h = edit(t, base, tc.head...)
			}
			p := Compare(compileHCL(t, b), compileHCL(t, h))
			if got := rolloutLines(p); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("rollout:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.order != "" && (len(p.Rollout) == 0 || p.Rollout[0].Order != tc.order) {
				t.Errorf("rollout %+v, want order %s", p.Rollout, tc.order)
			}
			var text, md, js bytes.Buffer
			if err := WriteText(&text, p); err != nil {
				t.Fatal(err)
			}
			if err := WriteMarkdown(&md, p, 0); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&js, p); err != nil {
				t.Fatal(err)
			}
			for _, line := range tc.want {
				if !strings.Contains(text.String(), "\n  "+line+"\n") {
					t.Errorf("text plan lacks %q:\n%s", line, text.String())
				}
				if !strings.Contains(md.String(), "\n#### rollout") || !strings.Contains(md.String(), docs.Markdown(line)) {
					t.Errorf("markdown plan lacks %q:\n%s", line, md.String())
				}
				if !strings.Contains(js.String(), mustJSON(t, line[strings.Index(line, ": ")+2:])) {
					t.Errorf("JSON plan lacks %q", line[strings.Index(line, ": ")+2:])
				}
			}
		})
	}
}
