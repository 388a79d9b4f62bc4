package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// runChecks applies physics and the checks to f and renders the result
// with diagLine.
func runChecks(t *testing.T, f *model.Fabric, src Sources) []string {
	t.Helper()
	diags := applyPhysics(f, src)
	diags = append(diags, check(f, src)...)
	var out []string
	for _, d := range diags {
		out = append(out, diagLine(src, d))
	}
	return out
}

func TestChecksCleanFabric(t *testing.T) {
	f := testFabric()
	if got := runChecks(t, f, testSources(f)); len(got) != 0 {
		t.Errorf("clean fabric has diagnostics: %q", got)
	}
}

func TestChecks(t *testing.T) {
	h1 := func(f *model.Fabric) *model.NIC { return &f.Hosts[0].NICs[0] }
	h2 := func(f *model.Fabric) *model.NIC { return &f.Hosts[1].NICs[0] }
	leaf := func(f *model.Fabric, i int) *model.Port { return &f.Switches[0].Ports[i] }
	spine := func(f *model.Fabric) *model.Port { return &f.Switches[1].Ports[0] }
	roce := func(f *model.Fabric) *model.Class { return &f.QoS.Classes[1] }
	tests := []struct {
		name   string
		mutate func(f *model.Fabric, src Sources)
		want   []string
	}{
		{"host speed mismatch", func(f *model.Fabric, _ Sources) { h1(f).SpeedMbps = 25000 },
			[]string{"error|Link speed mismatch|host/h1/nic/roce0/speed|switch/leaf1/port/1/1/speed"}},
		{"switch speed mismatch", func(f *model.Fabric, _ Sources) { spine(f).SpeedMbps = 40000 },
			[]string{"error|Link speed mismatch|switch/leaf1/port/1/49/speed|switch/spine1/port/1/1/speed"}},
		{"switch MTU mismatch", func(f *model.Fabric, _ Sources) { spine(f).MTU = 9000 },
			[]string{"error|Link MTU mismatch|switch/leaf1/port/1/49/mtu|switch/spine1/port/1/1/mtu"}},
		{"host MTU above port", func(f *model.Fabric, _ Sources) { h1(f).MTU = 9500 },
			[]string{"error|Host MTU above switch port MTU|host/h1/nic/roce0/mtu|switch/leaf1/port/1/1/mtu"}},
		{"host VLAN not allowed", func(f *model.Fabric, _ Sources) { h1(f).VLAN = 200 },
			[]string{"error|VLAN not allowed on switch port|host/h1/nic/roce0/vlan|switch/leaf1/port/1/1/vlans"}},
		{"host tags the VLAN of its access port", func(f *model.Fabric, _ Sources) {
			p := leaf(f, 0)
			p.Mode, p.TrunkVLANs, p.AccessVLAN = model.ModeAccess, nil, 100
		}, []string{"error|Tagged NIC on untagged VLAN|host/h1/nic/roce0/vlan|switch/leaf1/port/1/1"}},
		{"untagged host on access port", func(f *model.Fabric, _ Sources) {
			p := leaf(f, 0)
			p.Mode, p.TrunkVLANs, p.AccessVLAN = model.ModeAccess, nil, 100
			h1(f).VLAN = 0
		}, nil},
		{"trunk VLAN mismatch", func(f *model.Fabric, _ Sources) { spine(f).TrunkVLANs = []int{100, 200} },
			[]string{"error|Link VLAN mismatch|switch/leaf1/port/1/49/vlans|switch/spine1/port/1/1/vlans"}},
		{"switch PFC mismatch", func(f *model.Fabric, _ Sources) { spine(f).PFCPriorities = []int{3, 4} },
			[]string{"error|Link PFC priorities mismatch|switch/leaf1/port/1/49|switch/spine1/port/1/1"}},
		{"switch trust mismatch", func(f *model.Fabric, _ Sources) { spine(f).Trust = model.TrustPCP },
			[]string{"error|Link trust mismatch|switch/leaf1/port/1/49/trust|switch/spine1/port/1/1/trust"}},
		{"NIC trust mismatch", func(f *model.Fabric, _ Sources) { h1(f).RoCE.Trust = model.TrustPCP },
			[]string{"error|Link trust mismatch|host/h1/nic/roce0/trust|switch/leaf1/port/1/1/trust"}},
		{"RoCE priority not lossless", func(f *model.Fabric, _ Sources) { h1(f).RoCE.Priority = 5 },
			[]string{"error|RoCE priority not lossless|host/h1/nic/roce0/priority|switch/leaf1/port/1/1"}},
		{"RoCE DSCP lossy", func(f *model.Fabric, _ Sources) { h1(f).RoCE.DSCP = 10 },
			[]string{"error|RoCE DSCP maps to lossy priority|host/h1/nic/roce0/dscp|switch/leaf1/port/1/1/trust"}},
		{"RoCE DSCP ignored under PCP trust", func(f *model.Fabric, _ Sources) {
			h1(f).RoCE.DSCP, h1(f).RoCE.Trust, leaf(f, 0).Trust = 10, model.TrustPCP, model.TrustPCP
		}, nil},
		{"NIC PFC differs", func(f *model.Fabric, _ Sources) { h1(f).RoCE.PFCPriorities = []int{3, 4} },
			[]string{"error|NIC PFC priorities differ from switch port|host/h1/nic/roce0/pfc_priorities|switch/leaf1/port/1/1"}},
		{"CNP DSCP mismatch", func(f *model.Fabric, _ Sources) { h2(f).RoCE.CNPDSCP = 46 },
			[]string{"error|CNP DSCP mismatch|host/h2/nic/roce0/cnp_dscp|qos/class/cnp/dscp"}},
		{"CNP priority mismatch", func(f *model.Fabric, _ Sources) { h2(f).RoCE.CNPPriority = 7 },
			[]string{"error|CNP priority mismatch|host/h2/nic/roce0/cnp_priority|qos/class/cnp/priority"}},
		{"pfc=false facing RoCE host", func(f *model.Fabric, src Sources) {
			leaf(f, 0).PFCPriorities = nil
			src.spans[Key(portPath("leaf1", "1/1", "pfc")...)] = SpanOf(lineRange(900))
		}, []string{
			// The NIC-side lossless checks defer to this one error.
			"error|PFC disabled on port facing RoCE traffic|switch/leaf1/port/1/1/pfc|host/h1/nic/roce0",
		}},
		{"pfc=false facing iWARP host is fine", func(f *model.Fabric, src Sources) {
			leaf(f, 0).PFCPriorities = nil
			h1(f).Transport = model.TransportIWARP
			f.Hosts[1].NICs[0].Transport = model.TransportIWARP
			src.spans[Key(portPath("leaf1", "1/1", "pfc")...)] = SpanOf(lineRange(900))
		}, nil},
		// spine1 hangs off leaf1 alone: no RoCE crosses it (roceFlow).
		{"PFC missing on a cabled port", func(f *model.Fabric, _ Sources) {
			leaf(f, 2).PFCPriorities, spine(f).PFCPriorities = nil, nil
		}, []string{
			"error|Lossless class without PFC on port|switch/leaf1/port/1/49|",
			"error|Lossless class without PFC on port|switch/spine1/port/1/1|",
		}},
		{"PFC missing on a spine with RoCE behind it", func(f *model.Fabric, _ Sources) {
			leaf(f, 2).PFCPriorities, spine(f).PFCPriorities = nil, nil
			hostBehindSpine(f)
		}, []string{
			"error|Lossless class without PFC on port|switch/leaf1/port/1/49|",
			// h3's own port has PFC off too:
			"error|Lossless class without PFC on port|switch/spine1|",
			"error|No lossless ports on switch|switch/spine1|",
			"error|Lossless class without PFC on port|switch/spine1/port/1/1|",
			"error|RoCE priority not lossless|<none>|switch/spine1",
			"error|RoCE DSCP maps to lossy priority|<none>|switch/spine1",
			"error|NIC PFC priorities differ from switch port|<none>|switch/spine1",
		}},
		{"ECN min not below max", func(f *model.Fabric, _ Sources) { roce(f).ECN.MinBytes = 2 << 20 },
			[]string{"warning|ECN minimum above DCQCN bound|qos/class/roce/ecn/min|",
				"error|ECN minimum not below maximum|qos/class/roce/ecn/min|qos/class/roce/ecn/max"}},
		{"ECN max above queue limit", func(f *model.Fabric, _ Sources) { roce(f).ECN.MaxBytes = 20 << 20 },
			[]string{"error|ECN maximum above queue limit|qos/class/roce/ecn/max|"}},
		// leaf1: 2 x 8125512 / (3 x 3) = 1805669 B, between 1700 and 1800 KiB (its
		// lossless pool's shared part over three cabled lossless ports;
		// the unused one does not count); spine1 (one lossless port)
		// allows 5548556 B.
		{"ECN min above DCQCN bound", func(f *model.Fabric, _ Sources) { roce(f).ECN.MinBytes, roce(f).ECN.MaxBytes = 1800*1024, 4<<20 },
			[]string{"warning|ECN minimum above DCQCN bound|qos/class/roce/ecn/min|"}},
		{"ECN min below DCQCN bound", func(f *model.Fabric, _ Sources) { roce(f).ECN.MinBytes, roce(f).ECN.MaxBytes = 1400*1024, 4<<20 }, nil},
		{"ETS sum", func(f *model.Fabric, _ Sources) { f.QoS.Classes[0].ETS.BandwidthPercent = 40 },
			[]string{"error|ETS shares do not sum to 100|qos|qos/class/default/bandwidth,qos/class/roce/bandwidth"}},
		{"NIC ETS sum", func(f *model.Fabric, _ Sources) { h1(f).RoCE.ETS[3].BandwidthPercent = 60 },
			[]string{"error|ETS shares do not sum to 100|host/h1/nic/roce0|"}},
		{"DSCP in two classes", func(f *model.Fabric, _ Sources) { f.QoS.Classes[2].DSCP = []int{26, 48} },
			[]string{"error|DSCP in more than one class|qos/class/cnp/dscp|qos/class/roce/dscp"}},
		{"priority out of range", func(f *model.Fabric, _ Sources) { h1(f).RoCE.Priority = 9 },
			[]string{"error|Priority out of range|host/h1/nic/roce0/priority|",
				"error|RoCE priority not lossless|host/h1/nic/roce0/priority|switch/leaf1/port/1/1"}},
		{"DSCP out of range", func(f *model.Fabric, _ Sources) { h1(f).RoCE.DSCP = 64 },
			[]string{"error|DSCP out of range|host/h1/nic/roce0/dscp|"}},
		{"VLAN out of range", func(f *model.Fabric, _ Sources) {
			spine(f).TrunkVLANs = []int{100, 4095}
			leaf(f, 2).TrunkVLANs = []int{100, 4095}
		},
			[]string{"error|VLAN id out of range|switch/leaf1/port/1/49/vlans|", "error|VLAN id out of range|switch/spine1/port/1/1/vlans|"}},
		{"RoCE v1 across subnets", func(f *model.Fabric, _ Sources) {
			h1(f).RoCE.Mode, h2(f).RoCE.Mode = "v1", "v1"
			h2(f).Addresses = []string{"10.0.1.2/24"}
		}, []string{"error|RoCE v1 across subnets|host/h2/nic/roce0/roce_mode|host/h1/nic/roce0/addresses"}},
		{"RoCE v1 in one subnet", func(f *model.Fabric, _ Sources) { h1(f).RoCE.Mode, h2(f).RoCE.Mode = "v1", "v1" }, nil},
		{"RoCE v1 across VLANs", func(f *model.Fabric, _ Sources) {
			h1(f).RoCE.Mode, h2(f).RoCE.Mode = "v1", "v1"
			h2(f).VLAN, leaf(f, 1).TrunkVLANs = 200, []int{100, 200}
		}, []string{"error|RoCE v1 across subnets|host/h2/nic/roce0/roce_mode|host/h1/nic/roce0/addresses"}},
		{"iWARP linked to RoCE", func(f *model.Fabric, _ Sources) { h2(f).Transport = model.TransportIWARP },
			[]string{"error|iWARP NIC linked to RoCE NIC|host/h2/nic/roce0/transport|host/h1/nic/roce0/transport"}},
		// An iWARP NIC alone in a VLAN of its own is
		// separated from the RoCE NICs at layer 2, though on their cables.
		{"iWARP in a VLAN without RoCE", func(f *model.Fabric, _ Sources) {
			h2(f).Transport, h2(f).VLAN, leaf(f, 1).TrunkVLANs = model.TransportIWARP, 200, []int{100, 200}
			h2(f).Addresses = []string{"10.0.1.2/24"}
		}, nil},
		// Arista's own RoCEv2 design uses priority 3 (checkPriority3).
		{"priority 3 on EOS", func(f *model.Fabric, _ Sources) {
			f.Switches[0].Platform, f.Switches[0].Hardware.Model = model.PlatformEOS, "7050CX3-32S"
		}, nil},
		{"priority 3 on Cumulus Trident3", func(f *model.Fabric, _ Sources) {
			f.Switches[1].Platform, f.Switches[1].Hardware.Model = model.PlatformCumulus, "S5248F-ON"
		}, []string{"warning|Priority 3 may be taken by FCoE|qos/class/roce/priority|switch/spine1/platform"}},
		{"priority 3 on Cumulus Spectrum", func(f *model.Fabric, _ Sources) {
			f.Switches[1].Platform, f.Switches[1].Hardware.Model = model.PlatformCumulus, "SN2700"
		}, nil},
		{"QLogic note", func(f *model.Fabric, _ Sources) { h1(f).Vendor, h1(f).Model = "qlogic", "QL45212" },
			[]string{"warning|QLogic RoCE priority is set in UEFI|host/h1/nic/roce0/model|"}},
		{"link pause with PFC", func(f *model.Fabric, _ Sources) { leaf(f, 3).LinkPause = true },
			[]string{"error|Link pause with PFC|switch/leaf1/port/1/50|"}},
		{"lossless class without PFC priority", func(f *model.Fabric, _ Sources) { f.QoS.PFCPriorities = nil },
			[]string{"error|Lossless class without PFC priority|qos/class/roce/lossless|"}},
		{"switch without lossless ports", func(f *model.Fabric, src Sources) {
			spine(f).PFCPriorities = nil
			hostBehindSpine(f)
			src.spans[Key(portPath("spine1", "1/1", "pfc")...)] = SpanOf(lineRange(901))
		}, []string{
			"error|Link PFC priorities mismatch|switch/leaf1/port/1/49|switch/spine1/port/1/1/pfc",
			// h3's own port has PFC off too:
			"error|Lossless class without PFC on port|switch/spine1|",
			"error|No lossless ports on switch|switch/spine1|",
			"error|PFC disabled on port facing RoCE traffic|switch/spine1/port/1/1/pfc|switch/leaf1/port/1/49",
			"error|RoCE priority not lossless|<none>|switch/spine1",
			"error|RoCE DSCP maps to lossy priority|<none>|switch/spine1",
			"error|NIC PFC priorities differ from switch port|<none>|switch/spine1",
		}},
		// A PFC-off spine that only a lossy island
		// hangs off (no RoCE NIC behind it) faces no RoCE traffic.
		{"PFC off on a dead-end switch", func(f *model.Fabric, src Sources) {
			spine(f).PFCPriorities = nil
			src.spans[Key(portPath("spine1", "1/1", "pfc")...)] = SpanOf(lineRange(901))
		}, []string{
			"error|Link PFC priorities mismatch|switch/leaf1/port/1/49|switch/spine1/port/1/1/pfc",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			src := testSources(f)
			tt.mutate(f, src)
			if diff := cmp.Diff(tt.want, runChecks(t, f, src)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHostToHost checks two NICs cabled back to back.
func TestHostToHost(t *testing.T) {
	f := testFabric()
	f.Switches = nil
	f.Hosts[0].NICs[0].Peer = &model.Peer{Kind: "host", Device: "h2", Port: "roce0", CableMeters: 1}
	f.Hosts[1].NICs[0].Peer = &model.Peer{Kind: "host", Device: "h1", Port: "roce0", CableMeters: 1}
	f.Hosts[1].NICs[0].RoCE.DSCP = 24
	f.Hosts[1].NICs[0].MTU = 4200
	f.Links = []model.Link{{A: model.Endpoint{Kind: "host", Device: "h1", Port: "roce0"}, B: model.Endpoint{Kind: "host", Device: "h2", Port: "roce0"}, CableMeters: 1}}
	src := testSources(f)
	want := []string{
		"error|Link MTU mismatch|host/h1/nic/roce0/mtu|host/h2/nic/roce0/mtu",
		"error|RoCE settings differ between NICs|host/h1/nic/roce0/dscp|host/h2/nic/roce0/dscp",
	}
	if diff := cmp.Diff(want, runChecks(t, f, src)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestDCQCNBoundPaper reproduces the paper's arithmetic: B = 12000 KB,
// n = 32 ports with 8 lossless priorities each (k = 8n = 256 groups),
// 8 x 32 x 22.4 KB of headroom, beta = 8 would give 21.76 KB; with our
// beta = 2 the same switch gives 2 x 6265.6 KB / (256 x 3) = 16.3 KB. The
// lossless pool is the whole buffer there, as in the paper, where all
// traffic is lossless.
func TestDCQCNBoundPaper(t *testing.T) {
	sw := &model.Switch{Buffer: model.BufferBudget{TotalBytes: 12000 * 1024, HeadroomBytes: 5872026, HeadroomReserveBytes: 5872026}, // 8 x 32 x 22.4 KB, rounded
		Pools: []model.BufferPool{{Name: "lossless", Direction: "ingress", Type: "lossless", SizeBytes: 12000 * 1024}}}
	eight := make([]model.PriorityGroup, 8)
	for i := range eight {
		eight[i] = model.PriorityGroup{Index: i, Lossless: true}
	}
	for i := 0; i < 32; i++ {
		sw.Ports = append(sw.Ports, model.Port{PriorityGroups: eight, Peer: &model.Peer{}})
	}
	// Neither a port without lossless PG nor an unused port counts.
	sw.Ports = append(sw.Ports, model.Port{Peer: &model.Peer{}}, model.Port{PriorityGroups: []model.PriorityGroup{{Lossless: true}}})
	got, ok := dcqcnBound(sw)
	want := int64(2 * (12000*1024 - 5872026) / (8 * 32 * 3))
	if !ok || got.bytes != want || got.bytes/1024 != 16 || got.groups != 256 {
		t.Errorf("bound %+v, want %d (about 16.3 KB) over 256 groups", got, want)
	}
}

// TestDCQCNBoundOneLosslessPriority: with one lossless priority per port
// k counts one group per port, not the paper's 8, and S is the lossless
// pool's shared part, not the whole buffer: 2 x (8,000,000 - 300,000) /
// (3 x 3) = 1,711,111 B.
func TestDCQCNBoundOneLosslessPriority(t *testing.T) {
	sw := &model.Switch{Buffer: model.BufferBudget{TotalBytes: 16 << 20, HeadroomBytes: 250000, HeadroomReserveBytes: 300000},
		Pools: []model.BufferPool{
			{Name: "lossy", Direction: "ingress", Type: "lossy", SizeBytes: 7000000},
			{Name: "lossless", Direction: "ingress", Type: "lossless", SizeBytes: 8000000},
			{Name: "lossless", Direction: "egress", Type: "lossless", SizeBytes: 9000000}}}
	for i := 0; i < 3; i++ {
		sw.Ports = append(sw.Ports, model.Port{PriorityGroups: []model.PriorityGroup{{Index: 0}, {Index: 3, Lossless: true}}, Peer: &model.Peer{}})
	}
	got, ok := dcqcnBound(sw)
	if want := (dcqcnTerms{bytes: 1711111, shared: 7700000, groups: 3}); !ok || got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestChecksSortedAndDeterministic(t *testing.T) {
	mutate := func(f *model.Fabric) {
		f.Hosts[1].NICs[0].SpeedMbps = 25000
		f.Hosts[0].NICs[0].MTU = 9500
		f.QoS.Classes[0].ETS.BandwidthPercent = 40
	}
	a, b := testFabric(), testFabric()
	mutate(a)
	mutate(b)
	srcA, srcB := testSources(a), testSources(b)
	da := append(applyPhysics(a, srcA), check(a, srcA)...)
	db := append(applyPhysics(b, srcB), check(b, srcB)...)
	if len(da) != 3 || len(db) != 3 {
		t.Fatalf("got %d and %d diagnostics", len(da), len(db))
	}
	for i := range da {
		if diagLine(srcA, da[i]) != diagLine(srcB, db[i]) {
			t.Errorf("run differs at %d", i)
		}
		if i > 0 && da[i-1].Subject.Start.Byte > da[i].Subject.Start.Byte {
			t.Errorf("not sorted at %d", i)
		}
	}
}

// TestRangeErrorDetails checks the words of the range errors of a port
// and a NIC, which checkPortRanges and checkNICRanges make only for a
// value out of range: the place, the value and the range, once per
// value, and nothing for values in range (a trunk, access or native VLAN
// of 0 is no VLAN).
func TestRangeErrorDetails(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	leaf := &f.Switches[0].Ports[0]
	leaf.PFCPriorities = []int{3, 8}
	leaf.TrunkVLANs, leaf.AccessVLAN, leaf.NativeVLAN = []int{100, 4095}, 0, 0
	nic := &f.Hosts[0].NICs[0]
	nic.RoCE.ECNPriorities = []int{3, -1}
	nic.RoCE.CNPDSCP = 64
	nic.VLAN = 5000
	c := &checker{f: f, src: src}
	c.checkRanges()
	var got []string
	for _, d := range c.diags {
		got = append(got, d.Summary+": "+d.Detail+" @ "+keyAt(src, d.Subject))
	}
	want := []string{
		"Priority out of range: port leaf1:1/1 PFC uses priority 8; 802.1p priorities are 0-7. @ switch/leaf1/port/1/1",
		"VLAN id out of range: port leaf1:1/1 uses VLAN 4095; VLAN ids are 1-4094 (0 and 4095 are reserved). @ switch/leaf1/port/1/1/vlans",
		"Priority out of range: NIC h1:roce0 uses priority -1; 802.1p priorities are 0-7. @ host/h1/nic/roce0/pfc_priorities",
		"DSCP out of range: NIC h1:roce0 uses DSCP 64; DSCP values are 0-63. @ host/h1/nic/roce0/cnp_dscp",
		"VLAN id out of range: NIC h1:roce0 uses VLAN 5000; VLAN ids are 1-4094 (0 and 4095 are reserved). @ host/h1/nic/roce0/vlan",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("range errors (-want +got):\n%s", diff)
	}
}

// TestECNLimitsText: the ECN findings give each switch its own limit
// (leaf1 is an SN2410, spine1 an SN2700, with different buffers and
// ports), in the words of one limit when all the switches share it.
func TestECNLimitsText(t *testing.T) {
	const terms = `, where S is the shared part of the switch's ingress lossless pool (the pool less the headroom reserved in it; the paper's B - 8n x t_flight), k the lossless priority groups of its cabled ports (the paper's 8n: 8 priorities on each of n ports) and beta = 2, the dynamic-threshold factor (alpha) of the lossless priority groups; see "Terms" in docs/language.md; PFC may pause before ECN slows the senders.`
	for _, tc := range []struct {
		name          string
		minB, maxB    int64
		summary, want string
	}{
		// The egress lossless pool is the whole buffer (the usable 13945824 B of both
		// Spectrum switches), so one limit holds for both.
		{"max above both switches' limits", 150 * 1024, 20 << 20, "ECN maximum above queue limit",
			`Class "roce" marks ECN up to 20971520 bytes, but on switch leaf1, spine1 a lossless queue can hold at most 13945824 bytes (the egress lossless pool), so marking never reaches its maximum. Lower max below 13945824 bytes.`},
		{"max above one switch's limit", 150 * 1024, 17 << 20, "ECN maximum above queue limit",
			`Class "roce" marks ECN up to 17825792 bytes, but on switch leaf1, spine1 a lossless queue can hold at most 13945824 bytes (the egress lossless pool), so marking never reaches its maximum. Lower max below 13945824 bytes.`},
		{"max within the buffer, above half of it", 150 * 1024, 8200000, "ECN maximum above queue limit", ``},
		{"min above both switches' bounds", 6 << 20, 20 << 20, "ECN minimum above DCQCN bound",
			`Class "roce" starts ECN marking at 6291456 bytes, above the DCQCN ECN-before-PFC bound beta x S / (k x (beta + 1)) = 1489704 bytes on switch leaf1 (S = 6703672 bytes, k = 3); 4603734 bytes on switch spine1 (S = 6905602 bytes, k = 1)` + terms + ` Lower min below 1489704 bytes or use fewer lossless ports per switch.`},
		{"min above one switch's bound", 2 << 20, 20 << 20, "ECN minimum above DCQCN bound",
			`Class "roce" starts ECN marking at 2097152 bytes, above the DCQCN ECN-before-PFC bound beta x S / (k x (beta + 1)) = 1489704 bytes on switch leaf1 (S = 6703672 bytes, k = 3)` + terms + ` Lower min below 1489704 bytes or use fewer lossless ports per switch.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := testFabric()
			f.QoS.Headroom.LosslessMTUBytes = 1024 // the limits below are SONiC's default lossless MTU's
			src := testSources(f)
			f.QoS.Classes[1].ECN.MinBytes, f.QoS.Classes[1].ECN.MaxBytes = tc.minB, tc.maxB
			got := ""
			for _, d := range append(applyPhysics(f, src), check(f, src)...) {
				if d.Summary == tc.summary {
					got = d.Detail
				}
			}
			if got != tc.want {
				t.Errorf("%s:\n%s\nwant:\n%s", tc.summary, got, tc.want)
			}
		})
	}
}

// TestSwitchLimitsText: switches with one limit share an entry, entries
// go smallest first, and past five values the rest are counted.
func TestSwitchLimitsText(t *testing.T) {
	var ls switchLimits
	for i, sw := range []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"} {
		ls.add(sw, int64(100-i%7))
	}
	want := "94 bytes on switch s7; 95 bytes on switch s6; 96 bytes on switch s5; 97 bytes on switch s4; 98 bytes on switch s3; more on 3 other switches"
	if got := ls.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	ls = nil
	ls.add("leaf1", 7)
	ls.add("spine", 9)
	ls.add("leaf2", 7)
	if got, want := ls.String(), "7 bytes on switch leaf1, leaf2; 9 bytes on switch spine"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// hostBehindSpine cables a third RoCE host, h3, to a new spine1 port
// 1/2 (PFC as the spine's 1/1 has it when called), so that RoCE crosses
// the leaf1-spine1 link (h1 and h2 to h3).
func hostBehindSpine(f *model.Fabric) {
	peer := &model.Peer{Kind: "host", Device: "h3", Port: "roce0", CableMeters: 3, CableKind: "dac"}
	p := testPort("1/2", 100000, peer)
	p.PFCPriorities = f.Switches[1].Ports[0].PFCPriorities
	f.Switches[1].Ports = append(f.Switches[1].Ports, p)
	f.Hosts = append(f.Hosts, model.Host{Name: "h3", OS: model.OSLinux,
		NICs: []model.NIC{testNIC("10.0.0.3/24", &model.Peer{Kind: "switch", Device: "spine1", Port: "1/2", CableMeters: 3, CableKind: "dac"})}})
	f.Links = append(f.Links, model.Link{A: model.Endpoint{Kind: "switch", Device: "spine1", Port: "1/2"},
		B: model.Endpoint{Kind: "host", Device: "h3", Port: "roce0"}, CableMeters: 3, CableKind: "dac"})
}
