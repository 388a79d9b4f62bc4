package model

import "testing"

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
