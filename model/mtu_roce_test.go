package model

import "testing"

// TestRoCEPathMTUEnds holds iboe_get_mtu (Linux include/rdma/ib_addr.h)
// in the model package itself: the netdev MTU less 96 B of RoCE headers
// (GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4, from
// include/rdma/ib_pack.h), rounded down to an IB MTU of 256-4096 B, at
// each step's first MTU and the one below it.
func TestRoCEPathMTUEnds(t *testing.T) {
	if RoCEHeaderBytes != 96 {
		t.Errorf("RoCEHeaderBytes = %d, want 96", RoCEHeaderBytes)
	}
	for _, tc := range []struct{ mtu, want int }{
		{9216, 4096}, {4192, 4096}, {4191, 2048},
		{2144, 2048}, {2143, 1024},
		{1120, 1024}, {1119, 512},
		{608, 512}, {607, 256},
		{352, 256}, {351, 0}, {0, 0},
	} {
		if got := RoCEPathMTU(tc.mtu); got != tc.want {
			t.Errorf("RoCEPathMTU(%d) = %d, want %d", tc.mtu, got, tc.want)
		}
	}
}
