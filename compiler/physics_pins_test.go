package compiler

import (
	"fmt"
	"strings"
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

// TestParseSizeEdges: the largest size taken is 1 TiB (2^40 B, one byte
// more is refused), NaN and infinity are refused, and a fractional KB rounds to the nearest byte
// (0.7 KB = 0.7 x 1024 = 716.8 B -> 717 B; 2.3 MB = 2.3 x 1048576 =
// 2411724.8 B -> 2411725 B), KB and MB counting 1024 (Onyx, EOS and NVUE
// all count ECN thresholds in 1024-byte KB).
func TestParseSizeEdges(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64 // 0: refused
	}{
		{"1099511627776", 1 << 40},
		{"1099511627777", 0},
		{"1048576MB", 1 << 40},
		{"1073741824KB", 1 << 40},
		{"1073741825KB", 0},
		{"0.7KB", 717},
		{"2.3MB", 2411725},
		{"1KB", 1024},
		{"1MB", 1048576},
		{"1B", 1},
		// strconv.ParseFloat reads these; none is a size.
		{"NaNKB", 0},
		{"NaN", 0},
		{"InfKB", 0},
		{"+Inf", 0},
	} {
		got, err := parseSize(tc.in)
		if tc.want == 0 {
			if err == nil {
				t.Errorf("parseSize(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// TestHeadroomPolicyBounds: docs/language.md gives lossless_mtu 64-9216,
// small_packet_percent 0-100 and planning_length above 0 up to 100000 m
// (maxPlanningMeters); the ends are taken and one past them refused.
func TestHeadroomPolicyBounds(t *testing.T) {
	for _, tc := range []struct {
		attr, value string
		bad         string // the summary expected, "" for none
	}{
		{"lossless_mtu", "64", ""},
		{"lossless_mtu", "9216", ""},
		{"lossless_mtu", "63", "Invalid lossless MTU"},
		{"lossless_mtu", "9217", "Invalid lossless MTU"},
		{"small_packet_percent", "0", ""},
		{"small_packet_percent", "100", ""},
		{"small_packet_percent", "-1", "Invalid small packet percent"},
		{"small_packet_percent", "101", "Invalid small packet percent"},
		{"planning_length", "0.5", ""},
		{"planning_length", "100000", ""},
		{"planning_length", "0", "Invalid planning length"},
		{"planning_length", "-5", "Invalid planning length"},
		{"planning_length", "100000.5", "Invalid planning length"},
	} {
		_, _, diags := lowerSrc(t, edit("qos {\n  headroom {\n    "+tc.attr+" = "+tc.value+"\n  }\n}\n"))
		var got []string
		for _, d := range diags {
			if strings.Contains(d, ": Invalid ") {
				got = append(got, d)
			}
		}
		switch {
		case tc.bad == "" && len(got) > 0:
			t.Errorf("%s = %s: %q, want no error", tc.attr, tc.value, got)
		case tc.bad != "" && (len(got) != 1 || !strings.Contains(got[0], ": "+tc.bad+": ")):
			t.Errorf("%s = %s: %q, want one %q", tc.attr, tc.value, got, tc.bad)
		}
	}
}

// TestHeadroomTileSpectrum5: the lua adds the tile term for Spectrum-4
// and Spectrum-5 alike (kb_on_tile when the ASIC table key ends in 4 or
// 5). An 800G 8-lane port, 5 m, port MTU 9216, lossless MTU 4096, every
// packet small, on a Spectrum-5 of 192 B cells:
//
//	factor ceil(192 / 64) = 3, occupancy 3
//	cable 2 x 5 x 800e9 / 1.98e8 / 8 = 5050.5; peer 905 x 64 = 57920
//	tile 800 x 120 / 8 = 12000
//	prop 9216 + 5050.5 + 819 + 57920 + 12000 = 85005.5
//	xoff ceil1K(4096 + 3 x 85005.5 = 259112.5) = 253.04 KB -> 254 KB = 260096
//	(without the tile: ceil1K(4096 + 3 x 73005.5) = 223232)
//	8 lanes: xon 2 x 19456 = 38912; size 260096 + 38912 + 9216 = 308224
func TestHeadroomTileSpectrum5(t *testing.T) {
	hw := model.Hardware{ASIC: "Spectrum-5", CellBytes: 192, PipelineLatencyBytes: 19456, MACPHYDelayBytes: 819}
	h := computeHeadroom(headroomInput{speedMbps: 800000, lanes: 8, cableMeters: 5, portMTU: 9216,
		policy: model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 100}, hw: hw})
	if h.XoffBytes != 260096 || h.XonBytes != 38912 || h.SizeBytes != 308224 || h.PropagationBytes != 85006 {
		t.Errorf("xoff %d xon %d size %d propagation %d, want 260096 38912 308224 85006", h.XoffBytes, h.XonBytes, h.SizeBytes, h.PropagationBytes)
	}
}

// TestLosslessMTUEdges: a lossless MTU equal to the port's largest frame
// (Onyx port MTU 4082 + 14 B Ethernet header = 4096 B) is not clamped
// and says nothing of clamping, one byte above it is; an inter-switch port names the first of
// the fabric's NICs with the largest RoCE path MTU (h1 and h2 both MTU
// 9000: 9000 - 96 = 8904 -> 4096 B), so the sentence stays the same when
// a later NIC ties. A port facing a host's iWARP NIC knows no RoCE NIC:
// it takes 4096 B, not the largest RoCE path MTU of the fabric (h1 at
// MTU 1500: 1500 - 96 = 1404 -> 1024 B), which is for ports facing
// switches.
func TestLosslessMTUEdges(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 100}
	f.Switches[0].Ports[3].MTU = 4082
	physics(t, f, testSources(f))
	if h := f.Switches[0].Ports[3].PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4096 || h.LosslessMTUFrom != "" {
		t.Errorf("lossless_mtu 4096 on a 4096 B frame: %d B from %q, want 4096 B as written", h.LosslessMTUBytes, h.LosslessMTUFrom)
	}
	f = testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 100}
	f.Switches[0].Ports[3].MTU = 4081 // one byte short: 4081 + 14 = 4095 B
	physics(t, f, testSources(f))
	const clamped = "lossless_mtu 4096 B, clamped to the port's largest frame, MTU 4081 + 14 B Ethernet header = 4095 B"
	if h := f.Switches[0].Ports[3].PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4095 || h.LosslessMTUFrom != clamped {
		t.Errorf("lossless_mtu 4096 on a 4095 B frame: %d B from %q, want 4095 B from %q", h.LosslessMTUBytes, h.LosslessMTUFrom, clamped)
	}

	f = testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}
	physics(t, f, testSources(f))
	const want = "not written: the largest RoCE path MTU of the fabric's NICs, h1:roce0 (MTU 9000)"
	if h := f.Switches[0].Ports[2].PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4096 || h.LosslessMTUFrom != want {
		t.Errorf("inter-switch port: %d B from %q, want 4096 B from %q", h.LosslessMTUBytes, h.LosslessMTUFrom, want)
	}

	f = testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}
	f.Hosts[0].NICs[0].MTU = 1500
	f.Hosts[1].NICs[0].Transport = model.TransportIWARP
	physics(t, f, testSources(f))
	for _, tc := range []struct {
		port int
		mtu  int
		from string
	}{
		{1, 4096, "not written, no RoCE NIC known on this port: 4096 B, the largest RoCE path MTU"},
		{2, 1024, "not written: the largest RoCE path MTU of the fabric's NICs, h1:roce0 (MTU 1500)"},
	} {
		p := f.Switches[0].Ports[tc.port]
		if h := p.PriorityGroups[1].Headroom; h.LosslessMTUBytes != tc.mtu || h.LosslessMTUFrom != tc.from {
			t.Errorf("port %s: %d B from %q, want %d B from %q", p.Name, h.LosslessMTUBytes, h.LosslessMTUFrom, tc.mtu, tc.from)
		}
	}
}

// TestPlannedHeadroomPerPortMTU: the headroom the budget error and the
// cable limits recompute at another length takes each port's own
// lossless MTU, as the pools do. leaf1 (SN2410: cell 96 B, factor 2,
// every packet small: occupancy 2) with lossless_mtu not written: 1/1
// faces h1 (MTU 9000 -> 4096 B), 1/2 faces h2 (MTU 1500 -> 1500 - 96 =
// 1404 -> 1024 B), 1/49 a switch (4096 B), 1/50 nothing (4096 B). At
// 300 m and 100G:
//
//	prop 9216 + 37878.8 + 819 + 25216 = 73129.8
//	4096 B: xoff ceil1K(4096 + 146259.6 = 150355.6) = 150528, size + 19456 = 169984
//	1024 B: xoff ceil1K(1024 + 146259.6 = 147283.6) = 147456, size 166912
//	sum 3 x 169984 + 166912 = 676864
func TestPlannedHeadroomPerPortMTU(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}
	f.Hosts[1].NICs[0].MTU = 1500
	physics(t, f, testSources(f))
	sw := &f.Switches[0]
	if got := plannedHeadroom(f, sw, 300); got != 676864 || sw.Buffer.HeadroomReserveBytes != 676864 {
		t.Errorf("headroom at 300 m: recomputed %d, pools %d; want 676864", got, sw.Buffer.HeadroomReserveBytes)
	}
}

// TestCableTooLongNamesPlannedHeadroom: with one 40 km cable among short
// ones, the error gives the headroom the pools reserve at the planning
// length (every port planned for 40 km), not the headroom of the cables
// each port has. Per 100G port at 40 km (lossless MTU 1024, 50 % small
// packets: occupancy 1.11765, TestHeadroomWorkedExample):
//
//	cable 2 x 40000 x 100e9 / 1.98e8 / 8 = 5050505.1
//	prop 9216 + 5050505.1 + 819 + 25216 = 5085756.1
//	xoff ceil1K(1024 + 5684080.3) = 5685248, + 2048 (all-small case far
//	above) = 5687296; size + 19456 = 5706752; four ports 22827008
//
// (the ports' own cables would give 5706752 + 62464 + 63488 + 63488).
func TestCableTooLongNamesPlannedHeadroom(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom.LosslessMTUBytes = 1024
	f.Switches[0].Ports[0].Peer.CableMeters = 40000
	src := testSources(f)
	diags := applyPhysics(f, src)
	if len(diags) != 1 || diags[0].Summary != "Cable too long for the switch buffer" {
		t.Fatalf("got %v, want one cable error", diags)
	}
	for _, want := range []string{"Link leaf1:1/1 - h1:roce0 is 40000 m long", "at 40000 m that is 22827008 bytes"} {
		if !strings.Contains(diags[0].Detail, want) {
			t.Errorf("detail %q lacks %q", diags[0].Detail, want)
		}
	}
}

// TestNoClassesNoEgressQueues: without traffic classes a port has no
// egress queues, and model.json says null for them, as it did before
// the queues were preallocated.
func TestNoClassesNoEgressQueues(t *testing.T) {
	f := testFabric()
	f.QoS.Classes = nil
	sw := &f.Switches[0]
	if !resolveHardware(sw) {
		t.Fatal("SN2410 unknown")
	}
	p := &sw.Ports[0]
	portBuffers(f, sw, p, namesFor(sw.BufferStyle), 300, usedTCs(f.QoS), newLosslessMTUs(f))
	if p.EgressQueues != nil {
		t.Errorf("egress queues %#v, want nil", p.EgressQueues)
	}
}

// TestECNLimitsAtTheirEnds puts the roce class's ECN thresholds exactly
// on the limits of testFabric's switches and one byte past them. The
// queue limit is the egress lossless pool, the whole usable buffer of
// the SN2410 and SN2700 (13945824 B): max at it is taken, one byte more
// is an error. The DCQCN bound beta x S / (k x (beta + 1)), beta 2, on
// leaf1 (lossless MTU 4096, 50 % small packets):
//
//	by bytes 6400 / ((50 x 64 + 50 x 4096) / 100) = 3.0769 %, occupancy 1.030769
//	per port at 300 m: prop 73129.8, xoff ceil1K(4096 + 75379.8) = 79872
//	+ 2048 (all-small 150528 is above 81920) = 81920; size 101376
//	planned 4 x 101376 = 405504; other reservations 4 x 30172 = 120688
//	shared 13945824 - 405504 - 120688 = 13419632, half 6709816 = S
//	k = 3 (1/1, 1/2, 1/49; 1/50 is uncabled)
//	bound 2 x 6709816 / (3 x 3) = 1491070.2 -> 1491070 B
//
// (spine1's is 2 x 6907138 / 3 = 4604758 B, far above): min at 1491070
// B does not warn, 1491071 B warns.
func TestECNLimitsAtTheirEnds(t *testing.T) {
	for _, tc := range []struct {
		min, max int64
		want     string // the one ECN finding, "" for none
		detail   string // in its text
	}{
		{150 * 1024, 13945824, "", ""},
		{150 * 1024, 13945825, "ECN maximum above queue limit", "up to 13945825 bytes, but on switch leaf1, spine1 a lossless queue can hold at most 13945824 bytes (the egress lossless pool)"},
		{1491070, 4 << 20, "", ""},
		{1491071, 4 << 20, "ECN minimum above DCQCN bound", "= 1491070 bytes on switch leaf1 (S = 6709816 bytes, k = 3), where"},
	} {
		f := testFabric()
		src := testSources(f)
		physics(t, f, src)
		f.QoS.Classes[1].ECN.MinBytes, f.QoS.Classes[1].ECN.MaxBytes = tc.min, tc.max
		var got []string
		for _, d := range check(f, src) {
			if strings.HasPrefix(d.Summary, "ECN ") {
				got = append(got, d.Summary+": "+d.Detail)
			}
		}
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("min %d max %d: %q, want nothing", tc.min, tc.max, got)
		case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want+": ") || !strings.Contains(got[0], tc.detail)):
			t.Errorf("min %d max %d: %q, want one %q", tc.min, tc.max, got, tc.want)
		}
	}
}

// TestLosslessMTUUnknownMTUs: a NIC whose MTU is not known (0) or too
// small for any RoCE path MTU (300 - 96 = 204 B, below the smallest IB
// MTU, 256) tells its port nothing: the port takes 4096 B, as one facing
// no RoCE NIC. A port whose own MTU is not known (0) is not clamped to
// a "largest frame" of 0 + 14 B.
func TestLosslessMTUUnknownMTUs(t *testing.T) {
	const none = "not written, no RoCE NIC known on this port: 4096 B, the largest RoCE path MTU"
	for _, nicMTU := range []int{0, 300} {
		f := testFabric()
		f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}
		f.Hosts[0].NICs[0].MTU = nicMTU
		physics(t, f, testSources(f))
		if h := f.Switches[0].Ports[0].PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4096 || h.LosslessMTUFrom != none {
			t.Errorf("NIC MTU %d: port 1/1 takes %d B from %q, want 4096 B from %q", nicMTU, h.LosslessMTUBytes, h.LosslessMTUFrom, none)
		}
	}
	f := testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, SmallPacketPercent: 100}
	f.Switches[0].Ports[3].MTU = 0
	physics(t, f, testSources(f))
	if h := f.Switches[0].Ports[3].PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4096 || h.LosslessMTUFrom != "" {
		t.Errorf("port MTU 0: %d B from %q, want 4096 B as written", h.LosslessMTUBytes, h.LosslessMTUFrom)
	}
}

// TestLongCableWarningNeedsLosslessTraffic: the long-cable warning on a
// switch that sizes its own headroom is for a link that carries lossless
// traffic. On the 1500 m leaf1-spine1 link (both Onyx traffic pools,
// TestLongCableOnSelfSizingSwitch) a shut-down end, or an end without
// PFC (no lossless priority group), does not warn.
func TestLongCableWarningNeedsLosslessTraffic(t *testing.T) {
	f := testFabric()
	f.Switches[0].Ports[2].Peer.CableMeters = 1500
	f.Switches[1].Ports[0].Peer.CableMeters = 1500
	f.Switches[0].Ports[2].PFCPriorities = nil
	f.Switches[1].Ports[0].Shutdown = true
	if got := headroomCableWarnings(t, f); len(got) != 0 {
		t.Errorf("warnings %q, want none", got)
	}
}

// TestLosslessMTUWarningRoCEOnly: the lossless-MTU warning is about RoCE
// frames; an iWARP NIC of MTU 9000 behind a lossless port does not make
// a written lossless_mtu of 1024 short (h1 is RoCE at MTU 1500: path MTU
// 1500 - 96 = 1404 -> 1024 B, not above it).
func TestLosslessMTUWarningRoCEOnly(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 1024, SmallPacketPercent: 100}
	f.Hosts[0].NICs[0].MTU = 1500
	f.Hosts[1].NICs[0].Transport = model.TransportIWARP
	physics(t, f, src)
	for _, d := range check(f, src) {
		if d.Summary == "Lossless MTU below the RoCE MTU" {
			t.Errorf("warned: %s", d.Detail)
		}
	}
}

// TestLosslessMTUWithoutRoCENICs: with lossless_mtu not written and no
// RoCE NIC in the fabric (both NICs iWARP), a port facing a switch knows
// no RoCE NIC either: it takes 4096 B, the largest RoCE path MTU.
func TestLosslessMTUWithoutRoCENICs(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100}
	for i := range f.Hosts {
		f.Hosts[i].NICs[0].Transport = model.TransportIWARP
	}
	physics(t, f, testSources(f))
	const none = "not written, no RoCE NIC known on this port: 4096 B, the largest RoCE path MTU"
	for _, sw := range f.Switches {
		for _, p := range sw.Ports {
			if h := p.PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4096 || h.LosslessMTUFrom != none {
				t.Errorf("%s:%s: %d B from %q, want 4096 B from %q", sw.Name, p.Name, h.LosslessMTUBytes, h.LosslessMTUFrom, none)
			}
		}
	}
}

// TestLinkPauseWithoutPFC: 802.3x link pause conflicts with PFC, not
// with a port that has no PFC priority: such a port raises no "Link
// pause with PFC" error.
func TestLinkPauseWithoutPFC(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	p := &f.Switches[0].Ports[3] // the spare port: shut down, no link
	p.PFCPriorities, p.LinkPause = nil, true
	physics(t, f, src)
	for _, d := range check(f, src) {
		if d.Summary == "Link pause with PFC" {
			t.Errorf("error on a port without PFC: %s", d.Detail)
		}
	}
	p.PFCPriorities = []int{3}
	found := false
	for _, d := range check(f, src) {
		found = found || d.Summary == "Link pause with PFC" && strings.Contains(d.Detail, "Port leaf1:1/50 has 802.3x link pause on and PFC on priorities 3;")
	}
	if !found {
		t.Error("no error for link pause with PFC on priority 3")
	}
}

// TestNoQueueLimitWithoutPools: a switch whose buffer budget failed has
// no pools, so no queue limit is known; its ECN maximum is not reported
// above a limit of 0 bytes (250 lossless 100G ports on leaf1 do not fit,
// TestBudgetExceeded).
func TestNoQueueLimitWithoutPools(t *testing.T) {
	f := testFabric()
	sw := &f.Switches[0]
	sw.Ports = nil
	for i := 1; i <= 250; i++ {
		sw.Ports = append(sw.Ports, testPort(fmt.Sprintf("1/%d", i), 100000, &model.Peer{Kind: "host", Device: "h", Port: "p", CableMeters: 5, CableKind: "dac"}))
	}
	src := testSources(f)
	if diags := applyPhysics(f, src); len(diags) != 1 || diags[0].Summary != "Buffer budget exceeded" || sw.Pools != nil {
		t.Fatalf("got %v and pools %v, want the budget error and no pools", diags, sw.Pools)
	}
	for _, d := range check(f, src) {
		if d.Summary == "ECN maximum above queue limit" {
			t.Errorf("queue limit error without pools: %s", d.Detail)
		}
	}
}

// TestECNProbabilityDefault: an ecn block without probability marks
// with probability 100 % at max, the value of the nvidia-roce profile
// (docs/language.md, profile table: "probability 100"), also without a
// profile.
func TestECNProbabilityDefault(t *testing.T) {
	f, _ := mustLower(t, minimalFabric+`
qos {
  profile    = "none"
  roce_class = "rdma"
  class "rdma" {
    priority      = 5
    traffic_class = 1
    dscp          = [34]
    lossless      = true
    bandwidth     = 70
    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }
  class "rest" {
    priority  = 0
    default   = true
    bandwidth = 30
  }
}
`)
	if e := f.QoS.Classes[1].ECN; e == nil || *e != (model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}) {
		t.Errorf("ecn = %+v, want 153600-1536000 B at 100 %%", e)
	}
}

// TestZeroLosslessMTUPolicy: a model built without lowering may carry a
// lossless MTU of 0; the headroom then takes 4096 B, the largest RoCE
// path MTU, not a 0-byte last frame.
func TestZeroLosslessMTUPolicy(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom = model.HeadroomPolicy{SmallPacketPercent: 100}
	physics(t, f, testSources(f))
	if h := f.Switches[0].Ports[0].PriorityGroups[1].Headroom; h.LosslessMTUBytes != 4096 {
		t.Errorf("lossless MTU %d B, want 4096 B", h.LosslessMTUBytes)
	}
}
