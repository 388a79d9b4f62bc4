package compiler

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// oneLinkFabric is an EOS switch cabled to one RoCE host, which raises
// no warning; accepts are added to its fabric block.
func oneLinkFabric(accepts string) string {
	return `fabric "lab" {
` + accepts + `}

vlan "rdma" {
  id = 100
}

switch "spine1" {
  platform = "eos"
  model    = "7050CX3-32S"
  port "Ethernet1/1" {
    speed = "100G"
    vlans = [100]
  }
}

host "gpu01" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0"
    vlan      = 100
    mtu       = 9000
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "spine1:Ethernet1/1"
  b      = "gpu01:roce0"
  length = 3
}

qos {
  headroom {
    lossless_mtu = 4096 # the RoCE path MTU of the MTU 9000 NIC
  }
}
`
}

// longDACFabric is oneLinkFabric with a 6 m DAC at 100G, which raises
// one warning, "DAC longer than copper reaches".
func longDACFabric(accepts string) string {
	return strings.Replace(oneLinkFabric(accepts), "  length = 3\n", "  length = 6\n  cable  = \"dac\"\n", 1)
}

func TestAccept(t *testing.T) {
	tests := []struct {
		name     string
		accepts  string
		want     []string // severity|summary
		accepted []model.AcceptedWarning
	}{
		{"not accepted", "", []string{"warning|DAC longer than copper reaches"}, nil},
		{"accepted", "  accept \"dac-longer-than-copper-reaches\" {\n    reason = \"an active copper cable\"\n  }\n", nil,
			[]model.AcceptedWarning{{Warning: "dac-longer-than-copper-reaches", Reason: "an active copper cable", Count: 1}}},
		{"unknown code", "  accept \"dac-longer-than-copper-reach\" {\n    reason = \"x\"\n  }\n", []string{"error|Unknown warning", "warning|DAC longer than copper reaches"}, nil},
		{"empty reason", "  accept \"dac-longer-than-copper-reaches\" {\n    reason = \" \"\n  }\n", []string{"error|Accept without a reason", "warning|DAC longer than copper reaches"}, nil},
		{"not raised", "  accept \"qlogic-roce-priority-is-set-in-uefi\" {\n    reason = \"old card\"\n  }\n", []string{"warning|DAC longer than copper reaches", "warning|Accepted warning not raised"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := Compile(parseFabric(t, longDACFabric(tt.accepts)))
			var got []string
			for _, d := range diags {
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
				}
				got = append(got, sev+"|"+d.Summary)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if f != nil {
				if d := cmp.Diff(tt.accepted, f.Accepted); d != "" {
					t.Errorf("accepted (-want +got):\n%s", d)
				}
			}
		})
	}
	_, diags := Compile(parseFabric(t, longDACFabric("")))
	if want := `To acknowledge this warning, add accept "dac-longer-than-copper-reaches" { reason = "..." } to the fabric block.`; len(diags) != 1 || !strings.HasSuffix(diags[0].Detail, want) {
		t.Errorf("warning detail lacks the accept hint: %v", diags)
	}
	_, diags = Compile(parseFabric(t, longDACFabric("  accept \"dac-longer-than-copper-reach\" {\n    reason = \"x\"\n  }\n")))
	if !strings.Contains(diags[0].Detail, `Did you mean "dac-longer-than-copper-reaches"?`) {
		t.Errorf("unknown code detail: %q", diags[0].Detail)
	}
}

// warnCall finds the summary of each warning the compiler raises (the
// checker's warnf and warnOnce, the physics' physicsWarning).
var warnCall = regexp.MustCompile(`(?:warn(?:f|Once)|physicsWarning)\((?:[^,"]+, )?"([^"]+)"`)

// TestWarningsRegistered keeps Warnings complete: every warnf call's
// summary has a code an accept block can name.
func TestWarningsRegistered(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	codes := warningCodes()
	found := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range warnCall.FindAllStringSubmatch(string(src), -1) {
			found++
			if !containsString(codes, WarningCode(m[1])) {
				t.Errorf("%s: warning %q is not in Warnings", name, m[1])
			}
		}
	}
	if found != len(Warnings) {
		t.Errorf("found %d warnf calls, Warnings lists %d", found, len(Warnings))
	}
}

func TestWarningCode(t *testing.T) {
	for in, want := range map[string]string{
		"Priority 3 may be taken by FCoE":         "priority-3-may-be-taken-by-fcoe",
		"ECN minimum above DCQCN bound":           "ecn-minimum-above-dcqcn-bound",
		"NICs of one host in overlapping subnets": "nics-of-one-host-in-overlapping-subnets",
	} {
		if got := WarningCode(in); got != want {
			t.Errorf("WarningCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDACLongerThanCopperReaches: a "dac" longer than passive copper
// reaches at the link's speed (IEEE 802.3: 40GBASE-CR4 7 m, clause 85;
// 100GBASE-CR4 5 m, clause 92) is warned about at its cable attribute,
// and the link stays in the model: a warning does not drop what it is
// about.
func TestDACLongerThanCopperReaches(t *testing.T) {
	for _, tc := range []struct {
		speed, length string
		warn          string
	}{
		{"100G", "5", ""},
		{"100G", "6", "passive copper reaches 5 m at that speed (100GBASE-CR4, IEEE 802.3 clause 92; 100GBASE-CR2 reaches 3 m and 100GBASE-CR1 2 m)"},
		{"40G", "7", ""},
		{"40G", "7.5", "passive copper reaches 7 m at that speed (40GBASE-CR4, IEEE 802.3 clause 85)"},
	} {
		src := strings.Replace(oneLinkFabric(""), "  length = 3\n", "  length = "+tc.length+"\n  cable  = \"dac\"\n", 1)
		src = strings.Replace(src, `speed = "100G"`, `speed = "`+tc.speed+`"`, 1)
		src = strings.Replace(src, `    mtu       = 9000`, `    mtu       = 9000
    speed     = "`+tc.speed+`"`, 1)
		f, diags := Compile(parseFabric(t, src))
		if f == nil || len(f.Links) != 1 {
			t.Fatalf("%s %s m: the link is not in the model: %v", tc.speed, tc.length, diags)
		}
		want := hcl.Diagnostics(nil)
		if tc.warn != "" {
			want = hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "DAC longer than copper reaches",
				Detail: `cable "dac" of ` + tc.length + ` m at ` + tc.speed + `: ` + tc.warn + `. Write cable = "aoc" or "fibre" if that is what is laid, or correct the length. To acknowledge this warning, add accept "dac-longer-than-copper-reaches" { reason = "..." } to the fabric block.`}}
		}
		var got hcl.Diagnostics
		for _, d := range diags {
			got = append(got, &hcl.Diagnostic{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail})
			if d.Subject == nil || d.Subject.Start.Line != 33 {
				t.Errorf("%s %s m: %s not at the cable attribute (line 33): %v", tc.speed, tc.length, d.Summary, d.Subject)
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s %s m (-want +got):\n%s", tc.speed, tc.length, d)
		}
	}
}

// TestCopperReach: passive copper's reach falls as lanes get faster
// (IEEE 802.3 clauses 85, 92, 110, 136, 162), and a link with no cable
// written is copper only as far as copper reaches at its speed.
func TestCopperReach(t *testing.T) {
	for _, tc := range []struct {
		speedMbps int
		want      float64
	}{{10000, 7}, {25000, 5}, {40000, 7}, {50000, 3}, {100000, 5}, {200000, 3}, {400000, 3}, {800000, 2}} {
		if got, _ := copperReach(tc.speedMbps); got != tc.want {
			t.Errorf("copperReach(%d) = %g m, want %g m", tc.speedMbps, got, tc.want)
		}
	}
	for _, tc := range []struct {
		speed, length, kind string
	}{{"50G", "3", "dac"}, {"50G", "4", "aoc"}, {"100G", "5", "dac"}, {"40G", "5", "dac"}} {
		src := strings.Replace(oneLinkFabric(""), "  length = 3\n", "  length = "+tc.length+"\n", 1)
		src = strings.Replace(src, `speed = "100G"`, `speed = "`+tc.speed+`"`, 1)
		src = strings.Replace(src, `    mtu       = 9000`, `    mtu       = 9000
    speed     = "`+tc.speed+`"`, 1)
		f, diags := Compile(parseFabric(t, src))
		if f == nil || len(f.Links) != 1 || f.Links[0].CableKind != tc.kind {
			t.Errorf("%s %s m without cable: want %s, got %v %v", tc.speed, tc.length, tc.kind, f, diags)
		}
	}
}

// TestCableKindsAndReach: a link without cable is dac up to 5 m, aoc up
// to the 100 m active optical cables reach, fibre beyond; an "aoc" longer
// than that is warned about at its cable attribute (the AOC analogue of
// dac-longer-than-copper-reaches), and 10 km is the longest cable.
func TestCableKindsAndReach(t *testing.T) {
	for _, tc := range []struct {
		length, cable, kind string
		want                []string
	}{
		{"5", "", "dac", nil},
		{"6", "", "aoc", nil},
		{"100", "", "aoc", nil},
		{"101", "", "fibre", nil},
		{"10000", "", "fibre", nil},
		{"100", "aoc", "aoc", nil},
		{"2000", "fibre", "fibre", nil},
		{"2000", "aoc", "aoc", []string{"warning|AOC longer than active optical cables reach|" +
			`cable "aoc" of 2000 m: active optical cables reach 100 m (the multimode short-reach optics they are built on: 25GBASE-SR and 100GBASE-SR4 on OM4, IEEE 802.3 clauses 112 and 95). Write cable = "fibre" if transceivers and a fibre are laid, or correct the length. To acknowledge this warning, add accept "aoc-longer-than-active-optical-cables-reach" { reason = "..." } to the fabric block.`}},
		{"10001", "", "", []string{"error|Invalid cable length|" +
			`length 10001 is out of range; write the cable length in metres, more than 0 and at most 10000 (10 km, the reach of single-mode LR optics such as 100GBASE-LR4).`}},
	} {
		line := "  length = " + tc.length + "\n"
		if tc.cable != "" {
			line += "  cable  = \"" + tc.cable + "\"\n"
		}
		src := strings.Replace(oneLinkFabric(""), "  length = 3\n", line, 1)
		f, diags := Compile(parseFabric(t, src))
		var got []string
		for _, d := range diags {
			sev := "error"
			if d.Severity == hcl.DiagWarning {
				sev = "warning"
			}
			if d.Summary == "Cable too long for the switch buffer" {
				continue // the buffer's own limit, not the cable kind's
			}
			got = append(got, sev+"|"+d.Summary+"|"+d.Detail)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("length %s cable %q (-want +got):\n%s", tc.length, tc.cable, d)
		}
		if tc.kind != "" && (f == nil || len(f.Links) != 1 || f.Links[0].CableKind != tc.kind) {
			t.Errorf("length %s cable %q: want a %s link in the model, got %v", tc.length, tc.cable, tc.kind, f)
		}
	}
}

// TestPortHint: a link end written as a switch CLI writes the port
// (Onyx "ethernet 1/2" or "Eth1/2", EOS "Et1") is pointed at the port
// block's name; other names get the closest declared one.
func TestPortHint(t *testing.T) {
	onyx, eos := []string{"1/1", "1/2"}, []string{"Ethernet1", "Ethernet2"}
	for _, tc := range []struct {
		port  string
		names []string
		want  string
	}{
		{"ethernet 1/2", onyx, ` Ports are named as their port block names them: did you mean "1/2"?`},
		{"Eth1/2", onyx, ` Ports are named as their port block names them: did you mean "1/2"?`},
		{"Et1", eos, ` Ports are named as their port block names them: did you mean "Ethernet1"?`},
		{"ethernet 1/9", onyx, ""},
	} {
		if got := portHint(tc.port, tc.names); got != tc.want {
			t.Errorf("portHint(%q) = %q, want %q", tc.port, got, tc.want)
		}
	}
}
