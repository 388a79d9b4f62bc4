package compiler

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
)

func TestPortBuffers(t *testing.T) {
	f := testFabric()
	physics(t, f, testSources(f))
	p := f.Switches[0].Ports[1] // leaf1 1/2, 5 m, traffic-pool style
	want := []model.PriorityGroup{
		{Index: 0, Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Pool: "lossy-default", SizeBytes: 10240, SharedAlpha: "8"},
		{Index: 3, Priorities: []int{3}, Lossless: true, Pool: "roce-lossless", SizeBytes: 63488, XoffBytes: 44032, XonBytes: 19456, SharedAlpha: "2"},
	}
	if diff := cmp.Diff(want, p.PriorityGroups, cmpopts.IgnoreFields(model.PriorityGroup{}, "Headroom")); diff != "" {
		t.Errorf("priority groups (-want +got):\n%s", diff)
	}
	if p.PriorityGroups[1].Headroom == nil || p.PriorityGroups[0].Headroom != nil {
		t.Errorf("headroom record: lossless %v lossy %v", p.PriorityGroups[1].Headroom, p.PriorityGroups[0].Headroom)
	}
	wantQ := []model.EgressQueue{
		{TrafficClass: 0, Pool: "lossy-default", ReservedBytes: 9216, SharedAlpha: "8"},
		{TrafficClass: 3, Pool: "roce-lossless", ReservedBytes: 1500, SharedAlpha: "inf"},
		{TrafficClass: 6, Pool: "lossy-default", ReservedBytes: 9216, SharedAlpha: "8"},
	}
	if diff := cmp.Diff(wantQ, p.EgressQueues); diff != "" {
		t.Errorf("egress queues (-want +got):\n%s", diff)
	}
}

func TestNoPFCPortHasNoLosslessPG(t *testing.T) {
	f := testFabric()
	f.Switches[0].Ports[3].PFCPriorities = nil
	physics(t, f, testSources(f))
	p := f.Switches[0].Ports[3]
	if len(p.PriorityGroups) != 1 || p.PriorityGroups[0].Lossless || len(p.PriorityGroups[0].Priorities) != 8 {
		t.Errorf("priority groups %+v", p.PriorityGroups)
	}
	if p.EgressQueues[1].Pool != "lossy-default" {
		t.Errorf("TC3 queue on a port without PFC: %+v", p.EgressQueues[1])
	}
}

// TestPoolsAndBudget checks the budget arithmetic of leaf1: four ports,
// three cabled (3 m, 5 m, 10 m) and one unused (5 m default), all 100G.
func TestPoolsAndBudget(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom.LosslessMTUBytes = 1024 // the numbers below are SONiC's default lossless MTU's
	physics(t, f, testSources(f))
	sw := f.Switches[0]
	var headroom int64
	for _, p := range sw.Ports {
		headroom += p.PriorityGroups[1].SizeBytes
	}
	// 3 m 62464, 5 m 63488, 10 m 63488 (cable 1262.6 B still rounds to the same KB), unused 5 m 63488.
	if headroom != 62464+3*63488 {
		t.Errorf("sum of headroom %d", headroom)
	}
	reserved := int64(4 * (10240 + 9216 + 1500 + 9216))
	// The pools are planned for 300 m cables whatever the actual ones:
	// a 100G port there needs xoff 84992 + xon 19456 = 104448 bytes.
	planned := int64(4 * 104448)
	// The SN2410's usable buffer (SONiC), not the 16 MB datasheet total.
	const usable = 13945824
	want := model.BufferBudget{TotalBytes: usable, HeadroomBytes: headroom, PlanningCableMeters: 300,
		HeadroomReserveBytes: planned, ReservedBytes: reserved, SharedBytes: usable - planned - reserved}
	if sw.Buffer != want {
		t.Errorf("budget %+v, want %+v", sw.Buffer, want)
	}
	half := want.SharedBytes / 2
	wantPools := []model.BufferPool{
		{Name: "lossy-default", Direction: "ingress", Type: "lossy", SizeBytes: 4*10240 + want.SharedBytes - half, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
		{Name: "roce-lossless", Direction: "ingress", Type: "lossless", SizeBytes: planned + half, Mode: "dynamic", Priorities: []int{3}},
		{Name: "lossy-default", Direction: "egress", Type: "lossy", SizeBytes: 8*9216 + want.SharedBytes - half, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
		// The whole buffer, as NVIDIA's advanced-mode recipe and SONiC's
		// Spectrum t1 buffers size it.
		{Name: "roce-lossless", Direction: "egress", Type: "lossless", SizeBytes: usable, Mode: "dynamic", Priorities: []int{3}},
	}
	if diff := cmp.Diff(wantPools, sw.Pools, cmpopts.IgnoreFields(model.BufferPool{}, "Percent")); diff != "" {
		t.Errorf("pools (-want +got):\n%s", diff)
	}
	for _, p := range sw.Pools {
		if p.Direction == "egress" && p.Type == "lossless" {
			if p.Percent != 100 {
				t.Errorf("egress lossless pool percent %v, want 100", p.Percent)
			}
			continue
		}
		if p.Percent < 45 || p.Percent > 55 || p.Percent*10 != float64(int(p.Percent*10)) {
			t.Errorf("pool %s %s percent %v", p.Name, p.Direction, p.Percent)
		}
	}
}

func TestPoolNamesByStyle(t *testing.T) {
	tests := []struct {
		platform model.Platform
		model    string
		version  string
		want     []string
	}{
		{model.PlatformOnyx, "SN2410", "3.6.4006", []string{"iPool0", "iPool1", "ePool0", "ePool1"}},
		{model.PlatformOnyx, "SN2410", "3.6.8190", []string{"lossy-default", "roce-lossless", "lossy-default", "roce-lossless"}},
		{model.PlatformEOS, "7050CX3-32S", "4.32.1F", []string{"lossy-default-ingress", "roce-lossless-ingress", "lossy-default-egress", "roce-lossless-egress"}},
	}
	for _, tt := range tests {
		f := testFabric()
		sw := &f.Switches[0]
		sw.Platform, sw.Hardware.Model, sw.OSVersion = tt.platform, tt.model, tt.version
		physics(t, f, testSources(f))
		var got []string
		for _, p := range sw.Pools {
			got = append(got, p.Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %s: pools (-want +got):\n%s", tt.platform, tt.version, diff)
		}
		if pg := sw.Ports[0].PriorityGroups[1]; pg.Pool != tt.want[1] {
			t.Errorf("%s: lossless PG pool %q", tt.platform, pg.Pool)
		}
	}
}

// TestCableTooLongForBuffer puts 40 km cables on the four 100G ports of
// leaf1 (SN2410): each needs about 5 MB of headroom (cable term 2 x 40000
// x 1e11 / 1.98e8 / 8 = 5.05 MB, times the 1.118 occupancy), 22 MB
// against 16 MB, while planning for 29 km still fits. Each link gets the
// error, at its length.
func TestCableTooLongForBuffer(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom.LosslessMTUBytes = 1024 // the numbers below are SONiC's default lossless MTU's
	for i := range f.Switches[0].Ports {
		f.Switches[0].Ports[i].Peer = &model.Peer{Kind: "host", Device: "h", Port: "p", CableMeters: 40000, CableKind: "fibre"}
	}
	src := testSources(f)
	for i, p := range f.Switches[0].Ports {
		src.spans[Key("switch", "leaf1", "port", p.Name, "link", "length")] = SpanOf(lineRange(900 + i))
	}
	diags := applyPhysics(f, src)
	if len(diags) != 4 {
		t.Fatalf("got %d diagnostics, want one per 40 km link: %v", len(diags), diags)
	}
	for i, d := range diags {
		port := f.Switches[0].Ports[i].Name
		if d.Summary != "Cable too long for the switch buffer" || keyAt(src, d.Subject) != "switch/leaf1/port/"+port+"/link/length" {
			t.Errorf("diagnostic %d: %s at %s", i, d.Summary, keyAt(src, d.Subject))
		}
		for _, want := range []string{"Link leaf1:" + port + " - h:p is 40000 m long", `Switch "leaf1" (SN2410, Spectrum)`, "at 40000 m that is 22827008 bytes", "more than the 13825136 bytes", "Up to 24000 m it fits"} {
			if !strings.Contains(d.Detail, want) {
				t.Errorf("detail %q lacks %q", d.Detail, want)
			}
		}
	}
}

// TestBudgetExceeded gives leaf1 (SN2410, 13,945,824 B usable) many
// lossless 100G ports on 5 m cables. 130 of them need 63,488 B each at
// 5 m (8,253,440 B), which fits, but 101,376 B each planned for 300 m
// (13,178,880 B), which does not: the error gives both numbers and the
// planning length that fits, and writing it makes the switch fit. 250
// ports do not fit even at 5 m, so the error names the other levers.
func TestBudgetExceeded(t *testing.T) {
	const levers = "lower small_packet_percent in qos { headroom { } } if the lossless traffic is mostly large frames, use fewer lossless classes or lossless ports, a smaller port MTU, or a switch with a larger buffer"
	for _, tc := range []struct {
		name     string
		ports    int
		planning float64
		want     string
	}{
		{"fits at the cables", 130, 0, `Switch "leaf1" (SN2410, Spectrum, 13945824 bytes of usable buffer): pool "roce-lossless" must hold the PFC headroom of 130 lossless priority groups, 8253440 bytes at the cables you have (longest here: 5 m) and 13178880 bytes at the planning length of 300 m, but only 10023464 bytes are left after 3922360 bytes of other reservations. At the cables you have it fits: plan the pools for them with qos { headroom { planning_length = 5 } } (at least the longest cable; recabling a port longer than it then resizes the pools), or ` + levers + "."},
		{"planning length written", 130, 5, ""},
		{"does not fit at the cables", 250, 0, `Switch "leaf1" (SN2410, Spectrum, 13945824 bytes of usable buffer): pool "roce-lossless" must hold the PFC headroom of 250 lossless priority groups, 15872000 bytes at the cables you have (longest here: 5 m) and 25344000 bytes at the planning length of 300 m, but only 6402824 bytes are left after 7543000 bytes of other reservations. Even at the cables you have the headroom does not fit, so a shorter planning length cannot help: ` + levers + "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := testFabric()
			f.QoS.Headroom.PlanningMeters = tc.planning
			sw := &f.Switches[0]
			sw.Ports = nil
			for i := 1; i <= tc.ports; i++ {
				sw.Ports = append(sw.Ports, testPort(fmt.Sprintf("1/%d", i), 100000, &model.Peer{Kind: "host", Device: "h", Port: "p", CableMeters: 5, CableKind: "dac"}))
			}
			src := testSources(f)
			diags := applyPhysics(f, src)
			if tc.want == "" {
				if len(diags) != 0 {
					t.Fatalf("got %v", diags)
				}
				if sw.Buffer.PlanningCableMeters != tc.planning {
					t.Errorf("planned for %g m, want %g m", sw.Buffer.PlanningCableMeters, tc.planning)
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != "Buffer budget exceeded" || keyAt(src, diags[0].Subject) != "switch/leaf1" {
				t.Fatalf("got %v", diags)
			}
			if diags[0].Detail != tc.want {
				t.Errorf("detail:\n%s\nwant:\n%s", diags[0].Detail, tc.want)
			}
		})
	}
}

// TestPlanningMeters: the pools are planned for the planning length
// (300 m, or planning_length), raised to the longest cable rounded up to
// 100 m when a cable is longer.
func TestPlanningMeters(t *testing.T) {
	for _, tc := range []struct {
		floor, cable, want float64
	}{
		{300, 10, 300}, {300, 450, 500}, {5, 3, 5}, {5, 30, 100}, {50, 50, 50},
	} {
		f := testFabric()
		for i := range f.Switches[0].Ports { // 1/50 has no link: 5 m
			if p := f.Switches[0].Ports[i].Peer; p != nil {
				p.CableMeters = tc.cable
			}
		}
		if got := planningMeters(f.QoS, &f.Switches[0], tc.floor); got != tc.want {
			t.Errorf("floor %g m, cable %g m: planned for %g m, want %g m", tc.floor, tc.cable, got, tc.want)
		}
	}
}

// TestCableTooLongSparesPFCOffPorts: of
// TestCableTooLongForBuffer's links, the one on a port with PFC off
// reserves no headroom and is not blamed for the budget, though it is
// longer than the length that fits.
func TestCableTooLongSparesPFCOffPorts(t *testing.T) {
	f := testFabric()
	f.QoS.Headroom.LosslessMTUBytes = 1024
	for i := range f.Switches[0].Ports {
		f.Switches[0].Ports[i].Peer = &model.Peer{Kind: "host", Device: "h", Port: "p", CableMeters: 40000, CableKind: "fibre"}
	}
	lossy := &f.Switches[0].Ports[3]
	lossy.PFCPriorities, lossy.Peer.CableMeters = nil, 39000
	src := testSources(f)
	for i, p := range f.Switches[0].Ports {
		src.spans[Key("switch", "leaf1", "port", p.Name, "link", "length")] = SpanOf(lineRange(900 + i))
	}
	var got []string
	for _, d := range applyPhysics(f, src) {
		got = append(got, d.Summary+" at "+keyAt(src, d.Subject))
	}
	var want []string
	for _, port := range []string{"1/1", "1/2", "1/49"} {
		want = append(want, "Cable too long for the switch buffer at switch/leaf1/port/"+port+"/link/length")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestPlanningIgnoresPFCOffPorts: a port with
// PFC off reserves no headroom, so its cable, however long, leaves the
// planning length where the lossless ports put it; the same cable on a
// PFC port raises it.
func TestPlanningIgnoresPFCOffPorts(t *testing.T) {
	for _, tc := range []struct {
		pfc  []int
		want float64
	}{{nil, 5}, {[]int{3}, 200}} {
		f := testFabric()
		p := &f.Switches[0].Ports[2] // leaf1 1/49, 10 m to spine1
		p.PFCPriorities, p.Peer.CableMeters = tc.pfc, 150
		if got := planningMeters(f.QoS, &f.Switches[0], 5); got != tc.want {
			t.Errorf("PFC %v on a 150 m port: planned for %g m, want %g m", tc.pfc, got, tc.want)
		}
	}
}

// TestRecablingKeepsPools: a cable change within the planning length
// changes that port's headroom and nothing else on the switch; a cable
// beyond it raises the planning length to the next 100 m.
func TestRecablingKeepsPools(t *testing.T) {
	a, b := testFabric(), testFabric()
	b.Switches[0].Ports[0].Peer.CableMeters = 250
	physics(t, a, testSources(a))
	physics(t, b, testSources(b))
	if diff := cmp.Diff(a.Switches[0].Pools, b.Switches[0].Pools); diff != "" {
		t.Errorf("pools moved with one cable (-before +after):\n%s", diff)
	}
	if a.Switches[0].Ports[0].PriorityGroups[1].SizeBytes == b.Switches[0].Ports[0].PriorityGroups[1].SizeBytes {
		t.Error("the recabled port's headroom did not change")
	}
	c := testFabric()
	c.Switches[0].Ports[0].Peer.CableMeters = 420
	physics(t, c, testSources(c))
	if got := c.Switches[0].Buffer.PlanningCableMeters; got != 500 {
		t.Errorf("planning length with a 420 m cable = %v, want 500", got)
	}
}

func TestPhysicsDeterministic(t *testing.T) {
	a, b := testFabric(), testFabric()
	physics(t, a, testSources(a))
	physics(t, b, testSources(b))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ:\n%s", diff)
	}
}

// TestLongCableKeepsECNMax: at 20 km the four ports of leaf1 (SN2410)
// still fit the buffer. The egress lossless pool is the whole buffer
// whatever the cables (NVIDIA's advanced-mode recipe, SONiC), so the roce
// class's 1500 KB ECN maximum stays below the queue limit: no error, and
// the pool is 16777216 bytes.
func TestLongCableKeepsECNMax(t *testing.T) {
	f := testFabric()
	for i := range f.Switches[0].Ports {
		f.Switches[0].Ports[i].Peer = &model.Peer{Kind: "host", Device: "h", Port: "p", CableMeters: 20000, CableKind: "fibre"}
	}
	src := testSources(f)
	physics(t, f, src)
	var got []string
	for _, d := range check(f, src) {
		if d.Severity == hcl.DiagError {
			got = append(got, d.Summary)
		}
	}
	if len(got) != 0 {
		t.Errorf("errors %q, want none", got)
	}
	if pool := egressLosslessPool(&f.Switches[0]); pool != 13945824 {
		t.Errorf("egress lossless pool %d, want the usable buffer, 13945824", pool)
	}
}

// TestPrioritySetComplement: the lossy priority group takes the
// priorities 0-7 that no lossless class has, ascending; a value out of
// range (the checks report it) takes none away, and with every priority
// lossless the list is empty, not null, in model.json.
func TestPrioritySetComplement(t *testing.T) {
	tests := []struct {
		add  []int
		want string
	}{
		{nil, "[0,1,2,3,4,5,6,7]"},
		{[]int{3}, "[0,1,2,4,5,6,7]"},
		{[]int{3, 4, 3}, "[0,1,2,5,6,7]"},
		{[]int{-1, 8, 9, 3}, "[0,1,2,4,5,6,7]"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, "[]"},
	}
	for _, tt := range tests {
		var s prioritySet
		s.add(tt.add...)
		got, err := json.Marshal(s.complement())
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("complement after add(%v) = %s, want %s", tt.add, got, tt.want)
		}
	}
}
