package plan

import (
	"strings"
	"testing"
)

// classMoveHCL is the plan test fabric with two lossless classes, roce
// (priority 3) and roce4 (priority 4), as in docs/changes.md's
// make-before-break move, on a leaf of the given platform.
func classMoveHCL(t *testing.T, platform string) string {
	t.Helper()
	text := edit(t, baseHCL(t), "qos {\n  profile = \"nvidia-roce\"\n}", `qos {
  profile    = "none"
  roce_class = "roce"
  cnp_class  = "cnp"
  class "roce" {
    priority  = 3
    dscp      = [26, 24, 25, 27, 28, 29, 30, 31]
    lossless  = true
    bandwidth = 50
    ecn {
      min = 150000
      max = 1500000
    }
  }
  class "roce4" {
    priority  = 4
    dscp      = [34, 32, 33, 35, 36, 37, 38, 39]
    lossless  = true
    bandwidth = 10
    ecn {
      min = 150000
      max = 1500000
    }
  }
  class "cnp" {
    priority = 6
    dscp     = [48, 49, 50, 51, 52, 53, 54, 55]
    strict   = true
  }
  class "default" {
    priority  = 0
    default   = true
    bandwidth = 40
  }
}`)
	switch platform {
	case "onyx":
		text = edit(t, text, `platform   = "cumulus"`, `platform   = "onyx"`, `os_version = "5.9.2"`, `os_version = "3.10.4206"`,
			`"swp1"`, `"1/1"`, `"swp2"`, `"1/2"`, `leaf1:swp1`, `leaf1:1/1`, `leaf1:swp2`, `leaf1:1/2`)
	case "eos":
		text = edit(t, text, `platform   = "cumulus"`, `platform   = "eos"`, `model      = "SN2700"`, `model      = "7050CX3-32S"`, `os_version = "5.9.2"`, `os_version = "4.32.2F"`,
			`"swp1"`, `"Ethernet1/1"`, `"swp2"`, `"Ethernet2/1"`, `leaf1:swp1`, `leaf1:Ethernet1/1`, `leaf1:swp2`, `leaf1:Ethernet2/1`, "mtu   = 9216", "mtu   = 9214")
	}
	return text
}

// removeRoceClass is step 3 of the move: class roce goes, roce4 carries
// RoCE and the default class takes roce's share.
func removeRoceClass(t *testing.T, text string) string {
	return edit(t, text, `roce_class = "roce"`, `roce_class = "roce4"`,
		"  class \"roce\" {\n    priority  = 3\n    dscp      = [26, 24, 25, 27, 28, 29, 30, 31]\n    lossless  = true\n    bandwidth = 50\n    ecn {\n      min = 150000\n      max = 1500000\n    }\n  }\n", "",
		"bandwidth = 10", "bandwidth = 50",
		"default   = true\n    bandwidth = 40", "default   = true\n    bandwidth = 50")
}

// TestPlanRemovedClassPerVendor: when a class goes, the plan says what
// push leaves on each vendor. EOS and Onyx write the ETS and ECN of
// each class's traffic class only, so the removed class's TC3 keeps its
// share and its ECN thresholds (verify notes them: "traffic classes no
// priority maps to keep an earlier fabric's settings"); Cumulus writes
// all eight traffic classes of default-global, an idle one DWRR 1 %
// with ECN disabled, the 1 % points taken from the lossy classes, so
// TC0 gets 45 %, not the model's 50 %, and TC3's ECN goes off.
func TestPlanRemovedClassPerVendor(t *testing.T) {
	kept := func(vendor string) string {
		return "  ETS TC0 40 %, TC3 50 %, TC4 10 %, TC6 strict -> TC0 50 %, TC4 50 %, TC6 strict (TC3 50 % stays on the switch: push leaves a traffic class no priority maps to any more, and ETS lends its share to the classes with traffic), " +
			"TC0 priorities 0-2, 5, 7 -> 0-3, 5, 7, TC3 class roce -> none, TC3 priorities 3 -> none, " +
			"TC3 ECN 150,000..1,500,000 B at 100 % stays (push leaves it on " + vendor + ": no priority maps to TC3 any more, so it marks nothing), " +
			"priority 0 DSCP 0-23, 40-47, 56-63 -> 0-31, 40-47, 56-63, priority 3 DSCP 24-31 -> none, because of the fabric-wide changes above\n"
	}
	tests := []struct{ platform, want string }{
		{"eos", kept("EOS")},
		{"onyx", kept("Onyx")},
		{"cumulus", "  ETS TC0 36 %, TC3 50 %, TC4 10 %, TC6 strict; TC1, 2, 5, 7 idle at 1 % -> TC0 45 %, TC4 50 %, TC6 strict; TC1-3, 5, 7 idle at 1 %, " +
			"TC0 priorities 0-2, 5, 7 -> 0-3, 5, 7, TC3 class roce -> none, TC3 priorities 3 -> none, TC3 ECN 150,000..1,500,000 B at 100 % -> off, " +
			"priority 0 DSCP 0-23, 40-47, 56-63 -> 0-31, 40-47, 56-63, priority 3 DSCP 24-31 -> none, because of the fabric-wide changes above\n"},
	}
	for _, tc := range tests {
		t.Run(tc.platform, func(t *testing.T) {
			base := classMoveHCL(t, tc.platform)
			got := planText(t, base, removeRoceClass(t, base))
			if want := "leaf1 (switch)\n" + tc.want; !strings.Contains(got, want) {
				t.Errorf("plan lacks\n%s\nin:\n%s", want, got)
			}
		})
	}
}

// planText is the text plan from base to head, two fabric texts.
func planText(t *testing.T, base, head string) string {
	t.Helper()
	var b strings.Builder
	if err := WriteText(&b, Compare(compileHCL(t, base), compileHCL(t, head))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
