package compiler

import "testing"

// TestRoCEToSCarriesECT: a RoCE v2 NIC's ToS is its DSCP << 2 with ECT(0)
// (RFC 3168, section 5: a switch ECN-marks only ECN-capable packets, and
// DCQCN needs the marks), as UCX's RoCE v2 default 106 is; RoCE v1 has no
// IP header, so its ToS carries only the DSCP bits RDMA-CM maps to a
// priority.
func TestRoCEToSCarriesECT(t *testing.T) {
	tests := []struct {
		name string
		src  string
		tos  int
	}{
		{"v2, the class's DSCP 26", edit(""), 26<<2 | 2},
		{"v2, the NIC's DSCP 24", edit("", "vlan      = 100\n", "vlan      = 100\n    dscp      = 24\n"), 24<<2 | 2},
		{"v1", edit("", "vlan      = 100\n", "vlan      = 100\n    roce_mode = \"v1\"\n"), 26 << 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _, _ := lowerSrc(t, tc.src)
			if got := f.Hosts[0].NICs[0].RoCE.TOS; got != tc.tos {
				t.Errorf("ToS = %d, want %d", got, tc.tos)
			}
		})
	}
}
