package compiler

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestRoCEMTU follows Linux iboe_get_mtu: the netdev MTU less 96 B of
// RoCE headers, rounded down to an IB MTU.
func TestRoCEMTU(t *testing.T) {
	for _, tc := range []struct{ mtu, want int }{
		{9000, 4096}, {4200, 4096}, {4192, 4096}, {4191, 2048}, {1500, 1024}, {1120, 1024}, {1119, 512}, {352, 256}, {351, 0},
	} {
		if got := model.RoCEPathMTU(tc.mtu); got != tc.want {
			t.Errorf("model.RoCEPathMTU(%d) = %d, want %d", tc.mtu, got, tc.want)
		}
	}
}

// TestLosslessMTUWarning: a lossless port facing a RoCE NIC whose RoCE
// MTU is above lossless_mtu warns, with the NIC, the ports and the
// shortfall; lossless_mtu at the RoCE MTU does not.
func TestLosslessMTUWarning(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	f.QoS.Headroom.LosslessMTUBytes = 1024
	for i := range f.Hosts {
		for j := range f.Hosts[i].NICs {
			f.Hosts[i].NICs[j].MTU = 4200
		}
	}
	got := ""
	for _, d := range append(applyPhysics(f, src), check(f, src)...) {
		if d.Summary == "Lossless MTU below the RoCE MTU" {
			got = d.Detail
		}
	}
	want := "NICs h1:roce0 (MTU 4200), h2:roce0 (MTU 4200) run RoCE at a path MTU of 4096 B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less 96 B of RoCE headers), above the headroom policy's lossless_mtu of 1024 B, so the PFC headroom of the lossless switch ports facing them ("
	if !strings.HasPrefix(got, want) || !strings.Contains(got, ") is computed for a last frame 3,072 B shorter than RoCE sends. Write qos { headroom { lossless_mtu = 4096 } }") {
		t.Errorf("got %q\nwant it to start %q", got, want)
	}
	f = testFabric()
	src = testSources(f)
	f.QoS.Headroom.LosslessMTUBytes = 4096
	for i := range f.Hosts {
		for j := range f.Hosts[i].NICs {
			f.Hosts[i].NICs[j].MTU = 9000
		}
	}
	for _, d := range append(applyPhysics(f, src), check(f, src)...) {
		if d.Summary == "Lossless MTU below the RoCE MTU" {
			t.Errorf("warned with lossless_mtu 4096: %s", d.Detail)
		}
	}
}

// TestRoCEPathMTUWarning: a RoCE NIC whose MTU is 4096-4191 runs RoCE at
// a path MTU of 2048 B and warns, naming the MTU that gives 4096 B; 4192
// and more, or an MTU that is meant to be small, do not.
func TestRoCEPathMTUWarning(t *testing.T) {
	for _, tc := range []struct {
		mtu  int
		want string
	}{
		{4096, "NIC h1:roce0 has MTU 4096, which gives a RoCE path MTU of 2,048 B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less 96 B of RoCE headers), so RoCE sends half-size packets. Write mtu = 4192 or more (4200 is usual; the switch port's MTU must be at least as large) for a RoCE path MTU of 4,096 B, or accept this warning where 2,048 B is meant."},
		{4191, "NIC h1:roce0 has MTU 4191, which gives a RoCE path MTU of 2,048 B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less 96 B of RoCE headers), so RoCE sends half-size packets. Write mtu = 4192 or more (4200 is usual; the switch port's MTU must be at least as large) for a RoCE path MTU of 4,096 B, or accept this warning where 2,048 B is meant."},
		{4192, ""}, {4200, ""}, {4095, ""}, {1500, ""}, {9000, ""},
	} {
		f := testFabric()
		src := testSources(f)
		f.Hosts[0].NICs[0].MTU = tc.mtu
		got := ""
		for _, d := range append(applyPhysics(f, src), check(f, src)...) {
			if d.Summary == "NIC MTU gives RoCE path MTU 2048" {
				got += d.Detail
			}
		}
		if got != tc.want {
			t.Errorf("MTU %d: got %q\nwant %q", tc.mtu, got, tc.want)
		}
	}
}

// TestLosslessMTUWarningPorts: the warning is about the PFC headroom of
// lossless priority groups, whose "lossless MTU" term is the last frame
// still arriving after PAUSE (checkLosslessMTU), so it names only ports
// that have a lossless group and are up. A port with PFC off has no
// lossless group and no headroom, and is not shut: it and its NIC are
// left out, as a shut port and its NIC are, and with no lossless port
// left there is no warning at all.
func TestLosslessMTUWarningPorts(t *testing.T) {
	const tail = " RoCE at a path MTU of 4096 B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less 96 B of RoCE headers), above the headroom policy's lossless_mtu of 1024 B, so the PFC headroom of the lossless switch ports facing "
	const fix = " is computed for a last frame 3,072 B shorter than RoCE sends. Write qos { headroom { lossless_mtu = 4096 } } (or more, for the frame's Ethernet, IP and UDP headers), or lower the NIC's MTU."
	h1Only := "NIC h1:roce0 (MTU 4200) runs" + tail + "it (leaf1:1/1)" + fix
	tests := []struct {
		name   string
		mutate func(f *model.Fabric)
		want   string // "" for no warning
	}{
		{"both lossless", func(*model.Fabric) {},
			"NICs h1:roce0 (MTU 4200), h2:roce0 (MTU 4200) run" + tail + "them (leaf1:1/1, leaf1:1/2)" + fix},
		{"h2's port PFC off, up", func(f *model.Fabric) { f.Switches[0].Ports[1].PFCPriorities = nil }, h1Only},
		{"h2's port shut", func(f *model.Fabric) { f.Switches[0].Ports[1].Shutdown = true }, h1Only},
		{"both PFC off, up", func(f *model.Fabric) {
			f.Switches[0].Ports[0].PFCPriorities = nil
			f.Switches[0].Ports[1].PFCPriorities = nil
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			src := testSources(f)
			f.QoS.Headroom.LosslessMTUBytes = 1024
			for i := range f.Hosts {
				f.Hosts[i].NICs[0].MTU = 4200
			}
			tt.mutate(f)
			var got []string
			for _, d := range append(applyPhysics(f, src), check(f, src)...) {
				if d.Summary == "Lossless MTU below the RoCE MTU" {
					got = append(got, d.Detail)
				}
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}
