package compiler

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

func spectrum() model.Hardware {
	return model.Hardware{ASIC: "Spectrum", CellBytes: 96, PipelineLatencyBytes: 19456, MACPHYDelayBytes: 819}
}

// TestHeadroomWorkedExample reproduces by hand 100G, 5 m, port MTU 9216,
// lossless MTU 1024, 50 % small packets on Spectrum (cell 96 B):
//
//	worst case factor = ceil(2 x 96 / 97) = 2
//	spp by bytes      = 6400 / ((50 x 64 + 50 x 1024) / 100) = 6400 / 544 = 11.765
//	cell occupancy    = (100 - 11.765 + 2 x 11.765) / 100 = 1.11765
//	peer response     = 394 quanta x 512 / 8 = 25216 B
//	cable             = 2 x 5 x 100000e6 / 1.98e8 / 8 = 631.3 B
//	propagation       = 9216 + 631.3 + 819 + 25216 = 35882.3 B
//	xoff              = ceil1K(1024 + 35882.3 x 1.11765) = ceil1K(41127.8) = 41984
//	all-small xoff    = ceil1K(1024 + 35882.3 x 2) = 72704 + 1024 = 74752 > 41984 + 2048, so xoff = 44032
//	xon               = ceil1K(19 x 1024) = 19456
//	size              = 44032 + 19456 = 63488
func TestHeadroomWorkedExample(t *testing.T) {
	h := computeHeadroom(headroomInput{100000, 5, 9216, model.HeadroomPolicy{LosslessMTUBytes: 1024, SmallPacketPercent: 50}, spectrum(), 4})
	got := []int64{int64(h.PauseQuanta), int64(h.PeerResponseBytes), int64(h.CableBytes), int64(h.PropagationBytes), h.XoffBytes, h.XonBytes, h.SizeBytes}
	want := []int64{394, 25216, 632, 35883, 44032, 19456, 63488}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("quanta, peer, cable, propagation, xoff, xon, size = %v, want %v", got, want)
		}
	}
	if h.CellOccupancy < 1.1176 || h.CellOccupancy > 1.1177 || h.Formula == "" {
		t.Errorf("occupancy %v formula %q", h.CellOccupancy, h.Formula)
	}
}

func TestHeadroomTable(t *testing.T) {
	p := model.HeadroomPolicy{LosslessMTUBytes: 1024, SmallPacketPercent: 50}
	spectrum4 := model.Hardware{ASIC: "Spectrum-4", CellBytes: 192, PipelineLatencyBytes: 19456, MACPHYDelayBytes: 819}
	spectrum3 := model.Hardware{ASIC: "Spectrum-3", CellBytes: 144, PipelineLatencyBytes: 19456, MACPHYDelayBytes: 819}
	tests := []struct {
		name  string
		speed int
		lanes int
		cable float64
		hw    model.Hardware
		xoff  int64
		size  int64
	}{
		// 25G, 5 m: peer 80x64=5120, cable 157.8, prop 9216+157.8+819+5120=15312.8,
		// xoff ceil1K(1024+17114.3)=18432, all-small 31744 > 20480 -> 20480; size 39936.
		{"25G 5m", 25000, 1, 5, spectrum(), 20480, 39936},
		// 100G, 300 m: cable 37878.8, prop 73129.8, xoff ceil1K(82757)=82944+2048.
		{"100G 300m", 100000, 4, 300, spectrum(), 84992, 104448},
		// 400G on an SN5600 is 4 x 100G: no 8-lane terms, xon 19456.
		// Cell 192 > 2 x 64: factor ceil(192/64) = 3, occupancy
		// (100 - 11.765 + 3 x 11.765) / 100 = 1.23529; peer 905 x 64 =
		// 57920, cable 2 x 5 x 400e9 / 1.98e8 / 8 = 2525.3, Spectrum-4
		// tile 400 x 120 / 8 = 6000, prop 9216 + 2525.3 + 819 + 57920 +
		// 6000 = 76480.3; xoff ceil1K(1024 + 94475.6) = 96256, all-small
		// ceil1K(1024 + 3 x 76480.3) = 231424 > 98304 -> 98304;
		// size ceil1K(98304 + 19456) = 117760.
		{"400G 5m SN5600", 400000, 4, 5, spectrum4, 98304, 117760},
		// 400G on an SN4700 is 8 x 50G: xon doubles to 38912 and size
		// adds the port MTU (buffer_headroom_mellanox.lua, is_8lane).
		// Cell 144 > 128: factor ceil(144/64) = ceil(2.25) = 3; no tile
		// term before Spectrum-4, prop 70480.3; xoff ceil1K(1024 +
		// 87063.9) = 89088 + 2048 = 91136; size ceil1K(91136 + 38912 +
		// 9216) = 139264.
		{"400G 5m SN4700", 400000, 8, 5, spectrum3, 91136, 139264},
		// 800G on an SN5600 is 8 x 100G: cable 5050.5, tile 12000, prop
		// 85005.5; xoff ceil1K(1024 + 105006.8) = 106496 + 2048 =
		// 108544; size ceil1K(108544 + 38912 + 9216) = 156672.
		{"800G 5m SN5600", 800000, 8, 5, spectrum4, 108544, 156672},
	}
	for _, tt := range tests {
		h := computeHeadroom(headroomInput{tt.speed, tt.cable, 9216, p, tt.hw, tt.lanes})
		if h.XoffBytes != tt.xoff || h.SizeBytes != tt.size {
			t.Errorf("%s: xoff %d size %d, want %d %d", tt.name, h.XoffBytes, h.SizeBytes, tt.xoff, tt.size)
		}
		if h.SizeBytes%1024 != 0 || h.SizeBytes < h.XoffBytes+h.XonBytes {
			t.Errorf("%s: size %d not rounded or below xoff+xon", tt.name, h.SizeBytes)
		}
		eight := h.XonBytes == 38912 && h.SizeBytes == ceilKB(float64(h.XoffBytes+h.XonBytes)+9216)
		plain := h.XonBytes == 19456 && h.SizeBytes == ceilKB(float64(h.XoffBytes+h.XonBytes))
		if (tt.lanes == 8 && !eight) || (tt.lanes != 8 && !plain) || h.Lanes != tt.lanes {
			t.Errorf("%s: %d lanes, got xon %d size %d (xoff %d), lanes %d", tt.name, tt.lanes, h.XonBytes, h.SizeBytes, h.XoffBytes, h.Lanes)
		}
	}
}

// TestEightLaneSpectrumOnly: the 8-lane terms
// (pipeline x 2, + port MTU) are a Spectrum buffer split (Linux mlxsw
// "spectrum: Adjust headroom buffers for 8x ports"); a Broadcom 8-lane
// port's estimate leaves them out, a Spectrum-3 one keeps them.
func TestEightLaneSpectrumOnly(t *testing.T) {
	p := model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 100}
	for _, tc := range []struct {
		asic            string
		cell            int
		wantXon, extra  int64
		wantFormulaTail bool
	}{
		{"Spectrum-3", 144, 38912, 9216, true},
		{"Jericho2", 256, 19456, 0, false},
		{"Tomahawk5", 254, 19456, 0, false},
	} {
		hw := model.Hardware{ASIC: tc.asic, CellBytes: tc.cell, PipelineLatencyBytes: 19456, MACPHYDelayBytes: 819}
		h := computeHeadroom(headroomInput{400000, 3, 9214, p, hw, 8})
		if h.XonBytes != tc.wantXon || h.SizeBytes != ceilKB(float64(h.XoffBytes+h.XonBytes+tc.extra)) {
			t.Errorf("%s 8 lanes: xon %d size %d (xoff %d), want xon %d and %d B of 8-lane overhead", tc.asic, h.XonBytes, h.SizeBytes, h.XoffBytes, tc.wantXon, tc.extra)
		}
		if got := strings.Contains(h.Formula, "8-lane port"); got != tc.wantFormulaTail {
			t.Errorf("%s: formula %q", tc.asic, h.Formula)
		}
	}
}

func TestPauseQuanta(t *testing.T) {
	for speed, want := range map[int]int{100000: 394, 25000: 80, 56000: 394, 1000000: 905, 400000: 905} {
		if got := pauseQuanta(speed); got != want {
			t.Errorf("pauseQuanta(%d) = %d, want %d", speed, got, want)
		}
	}
}

// TestCableChangesOnlyThatPort (3 m at 100G: cable 378.8 B, xoff
// ceil1K(1024 + 35629.8 x 1.11765) + 2048 = 43008, size 62464) changes one host cable and checks that
// only that port's headroom and the switch budget change.
func TestCableChangesOnlyThatPort(t *testing.T) {
	a, b := testFabric(), testFabric()
	b.Switches[0].Ports[0].Peer.CableMeters = 100
	physics(t, a, testSources(a))
	physics(t, b, testSources(b))
	for si := range a.Switches {
		for pi := range a.Switches[si].Ports {
			pa, pb := a.Switches[si].Ports[pi], b.Switches[si].Ports[pi]
			ha, hb := pa.PriorityGroups[1].SizeBytes, pb.PriorityGroups[1].SizeBytes
			changed := si == 0 && pi == 0
			if changed != (ha != hb) {
				t.Errorf("%s port %s: headroom %d -> %d (changed=%v expected)", a.Switches[si].Name, pa.Name, ha, hb, changed)
			}
		}
	}
	if pa := a.Switches[0].Ports[0].PriorityGroups[1]; pa.Headroom.CableMeters != 3 || pa.SizeBytes != 62464 {
		t.Errorf("3 m port: %+v", pa)
	}
	if got := b.Switches[0].Ports[0].PriorityGroups[1].Headroom.CableMeters; got != 100 {
		t.Errorf("cable %v, want 100", got)
	}
	if a.Switches[0].Buffer.HeadroomBytes >= b.Switches[0].Buffer.HeadroomBytes {
		t.Errorf("budget headroom did not grow: %d -> %d", a.Switches[0].Buffer.HeadroomBytes, b.Switches[0].Buffer.HeadroomBytes)
	}
}
