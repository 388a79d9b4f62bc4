package openconfig

import (
	"strings"
	"testing"
)

// TestNote checks that the sidecar note carries the model's values for
// every intent the JSON cannot express.
func TestNote(t *testing.T) {
	tests := []struct {
		sw   string
		want []string
	}{
		{"leaf1", []string{
			"# leaf1: intent not in leaf1.openconfig.json\n",
			"Lossless priorities of the fabric: 3.\n",
			"| Ethernet1/1 | 3 | off |\n",
			"| Ethernet32/1 | none | on |\n",
			"On: action drop, timeout 200 ms, polling interval 100 ms, restore 400 ms.\nPorts covered: Ethernet1/1, Ethernet31/1.\n",
			"| 3 | 24-31 | 3 |\n| 4 | 32-39 | 0 |\n",
			"Every port trusts DSCP; the JSON binds the DSCP classifiers to each port's input.\n",
			"| Ethernet1/1 | 3 | 3 | yes | ingress_lossless_pool | 58368 | 38912 | 19456 | 1/2 |\n",
			"| Ethernet31/1 | 3 | 3 | yes | ingress_lossless_pool | 66560 | 47104 | 19456 | 1/2 |\n",
			"| ingress_lossless_pool | ingress | lossless | 7340032 | 43.8 | dynamic | 3 |\n",
			"| Ethernet32/1 | 3 | egress_lossless_pool | 1500 | inf |\n",
			"- RoCE class roce: priority 3, DSCP 26, traffic class 3.\n- CNP class cnp: priority 6, DSCP 48, traffic class 6.\n",
		}},
		{"leaf2", []string{
			"## PFC watchdog\n\nOff.\n",
			"Trust PCP (802.1p), no input classifier in the JSON: 1/1.\n",
			"| 1/1 | 3 | 3 | yes | ingress_lossless_pool | 39936 | 20480 | 19456 | 1/2 |\n",
		}},
		{"spine1", []string{
			"Trust both (DSCP for IP, PCP otherwise), only the DSCP part is in the JSON: swp1.\n",
		}},
	}
	f := testFabric()
	for _, tt := range tests {
		t.Run(tt.sw, func(t *testing.T) {
			got := string(render(t, f, tt.sw)[tt.sw+".openconfig.md"])
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s.openconfig.md lacks %q\n--- got:\n%s", tt.sw, w, got)
				}
			}
		})
	}
}

// TestRanges checks the DSCP run formatting of the note.
func TestRanges(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{nil, "none"},
		{[]int{5}, "5"},
		{[]int{0, 1, 2, 4, 6, 7}, "0-2, 4, 6-7"},
		{dscpRange(24, 31), "24-31"},
	}
	for _, tt := range tests {
		if got := ranges(tt.in); got != tt.want {
			t.Errorf("ranges(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNoteApply checks what the note says about applying the files per
// platform: EOS takes a gNMI Set and needs its queue names bound, Cumulus
// Linux takes none (and a Spectrum-1 switch has no gNMI at all), Onyx
// documents none.
func TestNoteApply(t *testing.T) {
	removal := "One build cannot know what an earlier build had and this one has not: the queues, forwarding groups " +
		"and `CLASS-ecn` profiles of classes the fabric no longer has"
	tests := []struct {
		sw, asic    string
		want, avoid []string
	}{
		{"leaf1", "", []string{
			"EOS accepts a gNMI Set (Arista Open Management documentation, \"Management Protocols\", gRPC: Get, Subscribe, Set and Capabilities)",
			"The set request file leaf1.openconfig-set.json (gnmic's request file format)",
			"    gnmic -a SWITCH:6030 -u USER --skip-verify -e json_ietf set --request-file SWITCH.openconfig-set.json\n",
			removal,
			"## Queue names on EOS\n",
			"    qos tx-queue 0 name default\n    qos traffic-class 0 name default\n    qos tx-queue 3 name roce\n    qos traffic-class 3 name roce\n    qos tx-queue 6 name cnp\n    qos traffic-class 6 name cnp\n",
			"## MTU (in the JSON for routed ports only)\n",
			"| openconfig-qos | queues, forwarding groups, classifiers, scheduler policy, ECN profiles, interfaces | 0.8.0 or later (queue-id, revision 2023-02-17 \"Add queue identifier\"); checked with 2.2.0 |\n",
		}, []string{"Send it as an update (merge) at /", "## MTU (in the JSON)"}},
		{"spine1", "", []string{
			"Cumulus Linux does not accept a gNMI Set: its gNMI serves Capabilities and Subscribe only",
			"(NVIDIA Cumulus Linux User Guide, \"gNMI Streaming\", RPC Methods and Supported Models). The files state the intent",
			removal,
		}, []string{"Spectrum-1", "Queue names on EOS"}},
		{"spine1", "Spectrum", []string{
			"This switch has a Spectrum-1 ASIC, which has no gNMI at all (same page).",
		}, nil},
		{"leaf2", "", []string{
			"No public NVIDIA document of a gNMI Set on Onyx was found; treat the files as the intent in OpenConfig terms and configure the switch with `fabricc push`.\n",
			"## MTU (in the JSON)\n",
		}, []string{"Queue names on EOS"}},
	}
	for _, tt := range tests {
		t.Run(tt.sw+tt.asic, func(t *testing.T) {
			f := testFabric()
			for i := range f.Switches {
				if f.Switches[i].Name == tt.sw && tt.asic != "" {
					f.Switches[i].Hardware.ASIC = tt.asic
				}
			}
			got := string(render(t, f, tt.sw)[tt.sw+".openconfig.md"])
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s.openconfig.md lacks %q\n--- got:\n%s", tt.sw, w, got)
				}
			}
			for _, a := range tt.avoid {
				if strings.Contains(got, a) {
					t.Errorf("%s.openconfig.md has %q", tt.sw, a)
				}
			}
		})
	}
}
