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
