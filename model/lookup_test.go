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

// TestIPv4Rails: the NICs with an IPv4 address, when two or more have
// one; one such NIC, or IPv6-only NICs, make no rails.
func TestIPv4Rails(t *testing.T) {
	nic := func(name string, addrs ...string) NIC { return NIC{Name: name, Addresses: addrs} }
	tests := []struct {
		name string
		nics []NIC
		want []string
	}{
		{"one", []NIC{nic("a", "10.0.0.1/24")}, nil},
		{"one and IPv6-only", []NIC{nic("a", "10.0.0.1/24"), nic("b", "fd00::1/64")}, nil},
		{"two, same subnet", []NIC{nic("a", "10.0.0.1/24"), nic("b", "10.0.0.2/24")}, []string{"a", "b"}},
		{"two /31, dual stack, no address", []NIC{nic("a", "fd00::1/127", "10.1.1.1/31"), nic("b"), nic("c", "10.1.1.3/31")}, []string{"a", "c"}},
		{"IPv6-only", []NIC{nic("a", "fd00::1/64"), nic("b", "fd00::2/64")}, nil},
	}
	for _, tc := range tests {
		h := &Host{Name: "h", NICs: tc.nics}
		var got []string
		for _, n := range h.IPv4Rails() {
			got = append(got, n.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: IPv4Rails = %v, want %v", tc.name, got, tc.want)
		}
	}
}
