package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

// These tests pin values of the physics that mutation testing showed no
// other test held: each expected value is worked out by hand from its
// source (the comment shows the arithmetic), never by calling the code.

// TestPauseQuantaEverySpeed holds every row of the pause quanta table,
// IEEE 802.3 Annex 31B.3.7 as sonic-swss buffer_headroom_mellanox.lua
// tabulates it (pause_quanta_per_speed: 400G 905, 200G 453, 100G 394,
// 50G 147, 40G 118, 25G 80, 10G 67, 1G 2, 100M 1; 800G takes 905 as
// well), and the fallback for a speed the table lacks: the next faster
// speed listed, the 800G value above it.
func TestPauseQuantaEverySpeed(t *testing.T) {
	for _, tc := range []struct{ speed, want int }{
		{800000, 905}, {400000, 905}, {200000, 453}, {100000, 394}, {50000, 147},
		{40000, 118}, {25000, 80}, {10000, 67}, {1000, 2}, {100, 1},
		// Not in the table: the next faster speed's quanta.
		{10, 1}, {2500, 67}, {5000, 67}, {20000, 80}, {30000, 118}, {45000, 147},
		{150000, 453}, {300000, 905}, {1600000, 905},
	} {
		if got := pauseQuanta(tc.speed); got != tc.want {
			t.Errorf("pauseQuanta(%d Mb/s) = %d, want %d", tc.speed, got, tc.want)
		}
	}
}

// TestHeadroomDocumentedExamples are the all-small-packets examples
// docs/language.md ("Headroom") gives, on the switches' own hardware rows
// (asic_table.j2: Spectrum cell 96 B, Spectrum-4 cell 192 B, pipeline
// 19 KB, MAC/PHY 819 B), port MTU 9216 B:
//
//	SN2700 100G 5 m, lossless MTU 1024:
//	  factor ceil(2 x 96 / 97) = 2; spp 100 %: by bytes 100 %, occupancy 2
//	  cable 2 x 5 x 100e9 / 1.98e8 / 8 = 631.3; peer 394 x 64 = 25216
//	  prop 9216 + 631.3 + 819 + 25216 = 35882.3
//	  xoff ceil1K(1024 + 2 x 35882.3 = 72788.6) = 71.08 KB -> 72 KB = 73728
//	  (no 2 KB compensation at 100 %); xon 19456; size 93184
//	SN2700 100G 300 m: cable 2 x 300 x 100e9 / 1.98e8 / 8 = 37878.8
//	  prop 9216 + 37878.8 + 819 + 25216 = 73129.8
//	  xoff ceil1K(1024 + 146259.6 = 147283.6) = 143.8 KB -> 144 KB = 147456
//	SN5600 400G (4 lanes) 3 m, lossless MTU 4096:
//	  factor ceil(192 / 64) = 3, occupancy 3
//	  cable 2 x 3 x 400e9 / 1.98e8 / 8 = 1515.2; peer 905 x 64 = 57920
//	  tile 400 x 120 / 8 = 6000
//	  prop 9216 + 1515.2 + 819 + 57920 + 6000 = 75470.2
//	  xoff ceil1K(4096 + 3 x 75470.2 = 230506.5) = 225.1 KB -> 226 KB = 231424
func TestHeadroomDocumentedExamples(t *testing.T) {
	for _, tc := range []struct {
		name       string
		model      string
		speed      int
		lanes      int
		meters     float64
		lossless   int
		occupancy  float64
		xoff, size int64
	}{
		{"SN2700 100G 5 m", "SN2700", 100000, 4, 5, 1024, 2, 73728, 73728 + 19456},
		{"SN2700 100G 300 m", "SN2700", 100000, 4, 300, 1024, 2, 147456, 147456 + 19456},
		{"SN5600 400G 3 m", "SN5600", 400000, 4, 3, 4096, 3, 231424, 231424 + 19456},
	} {
		sw := model.Switch{Platform: model.PlatformCumulus, Hardware: model.Hardware{Model: tc.model}}
		if !resolveHardware(&sw) {
			t.Fatalf("%s: model %s unknown", tc.name, tc.model)
		}
		h := computeHeadroom(headroomInput{speedMbps: tc.speed, lanes: tc.lanes, cableMeters: tc.meters, portMTU: 9216,
			policy: model.HeadroomPolicy{LosslessMTUBytes: tc.lossless, SmallPacketPercent: 100}, hw: sw.Hardware})
		if h.XoffBytes != tc.xoff || h.XonBytes != 19456 || h.SizeBytes != tc.size || h.CellOccupancy != tc.occupancy {
			t.Errorf("%s: xoff %d xon %d size %d occupancy %v, want %d 19456 %d %v", tc.name, h.XoffBytes, h.XonBytes, h.SizeBytes, h.CellOccupancy, tc.xoff, tc.size, tc.occupancy)
		}
	}
}

// TestPoolPercentsRounded holds the percentages of leaf1's pools in
// TestPoolsAndBudget's fabric (SN2410, 13,945,824 B usable), rounded to
// one decimal:
//
//	planned headroom 4 x 104448 = 417792; other reservations
//	4 x (10240 + 9216 + 1500 + 9216) = 120688;
//	shared 13945824 - 417792 - 120688 = 13407344, half 6703672
//	ingress lossy    4 x 10240 + 6703672 =  6744632 = 48.363 % -> 48.4
//	ingress lossless 417792 + 6703672    =  7121464 = 51.065 % -> 51.1
//	egress lossy     8 x 9216 + 6703672  =  6777400 = 48.598 % -> 48.6
//	egress lossless  the whole buffer               = 100 %
func TestPoolPercentsRounded(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom.LosslessMTUBytes = 1024
	physics(t, f, testSources(f))
	want := map[string]float64{
		"ingress lossy": 48.4, "ingress lossless": 51.1, "egress lossy": 48.6, "egress lossless": 100,
	}
	for _, p := range f.Switches[0].Pools {
		k := p.Direction + " " + p.Type
		if p.Percent != want[k] {
			t.Errorf("pool %s (%s): %v %%, want %v %%", p.Name, k, p.Percent, want[k])
		}
		delete(want, k)
	}
	if len(want) != 0 {
		t.Errorf("pools missing: %v", want)
	}
}
