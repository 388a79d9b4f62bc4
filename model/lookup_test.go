package model

import (
	"slices"
	"testing"
)

// TestNCCLToS: the ToS is that of the first RoCE NIC listing nccl; an
// iWARP NIC listing it and a NIC listing other applications do not count.
func TestNCCLToS(t *testing.T) {
	nccl := []Application{{Kind: "other"}, {Kind: AppNCCL}}
	nic := func(name string, transport Transport, tos int, apps []Application) NIC {
		return NIC{Name: name, Transport: transport, RoCE: RoCE{TOS: tos}, Applications: apps}
	}
	tests := []struct {
		name   string
		nics   []NIC
		tos    int
		ok     bool
		listed []bool // ListsApp(AppNCCL) of each NIC
	}{
		{"none", []NIC{nic("a", TransportRoCE, 106, nil)}, 0, false, []bool{false}},
		{"other app", []NIC{nic("a", TransportRoCE, 106, []Application{{Kind: "other"}})}, 0, false, []bool{false}},
		{"roce", []NIC{nic("a", TransportRoCE, 106, nil), nic("b", TransportRoCE, 104, nccl)}, 104, true, []bool{false, true}},
		{"iwarp skipped", []NIC{nic("a", TransportIWARP, 96, nccl), nic("b", TransportRoCE, 104, nccl)}, 104, true, []bool{true, true}},
		{"iwarp only", []NIC{nic("a", TransportIWARP, 96, nccl)}, 0, false, []bool{true}},
	}
	for _, tc := range tests {
		h := &Host{Name: "h", NICs: tc.nics}
		if tos, ok := h.NCCLToS(); tos != tc.tos || ok != tc.ok {
			t.Errorf("%s: NCCLToS = %d, %v, want %d, %v", tc.name, tos, ok, tc.tos, tc.ok)
		}
		for i := range h.NICs {
			if got := h.NICs[i].ListsApp(AppNCCL); got != tc.listed[i] {
				t.Errorf("%s: NIC %s ListsApp(nccl) = %v, want %v", tc.name, h.NICs[i].Name, got, tc.listed[i])
			}
		}
	}
}

// TestPortVLANs: the VLANs a port carries, ascending and without 0, and
// the one it sends untagged.
func TestPortVLANs(t *testing.T) {
	tests := []struct {
		name     string
		p        Port
		carried  []int
		untagged int
	}{
		{"routed", Port{Mode: ModeRouted}, nil, 0},
		{"access", Port{Mode: ModeAccess, AccessVLAN: 20}, []int{20}, 20},
		{"access without VLAN", Port{Mode: ModeAccess}, nil, 0},
		{"trunk", Port{Mode: ModeTrunk, TrunkVLANs: []int{10, 30}}, []int{10, 30}, 0},
		{"native listed", Port{Mode: ModeTrunk, TrunkVLANs: []int{10, 30}, NativeVLAN: 10}, []int{10, 30}, 10},
		{"native unlisted", Port{Mode: ModeTrunk, TrunkVLANs: []int{10, 30}, NativeVLAN: 20}, []int{10, 20, 30}, 20},
	}
	for _, tc := range tests {
		if got := tc.p.CarriedVLANs(); !slices.Equal(got, tc.carried) {
			t.Errorf("%s: CarriedVLANs = %v, want %v", tc.name, got, tc.carried)
		}
		if got := tc.p.UntaggedVLAN(); got != tc.untagged {
			t.Errorf("%s: UntaggedVLAN = %d, want %d", tc.name, got, tc.untagged)
		}
	}
}
