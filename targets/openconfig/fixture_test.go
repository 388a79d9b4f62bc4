package openconfig

import "github.com/fabricc/fabricc/model"

// dscpToPriority is the NVIDIA default DSCP -> priority map (priority =
// DSCP >> 3): DSCP 24-31 -> 3 (RoCE, DSCP 26), 48-55 -> 6 (CNP, DSCP 48).
func dscpToPriority() []int {
	m := make([]int, 64)
	for d := range m {
		m[d] = d >> 3
	}
	return m
}

// dscpRange returns the DSCP values from lo to hi inclusive.
func dscpRange(lo, hi int) []int {
	var out []int
	for d := lo; d <= hi; d++ {
		out = append(out, d)
	}
	return out
}

// defaultDSCP is every DSCP value the default class carries.
func defaultDSCP() []int {
	var out []int
	for d := 0; d < 64; d++ {
		if (d < 24 || d > 31) && (d < 48 || d > 55) {
			out = append(out, d)
		}
	}
	return out
}

// pgs are the ingress priority groups of a PFC port: lossy PG0 and the
// lossless RoCE PG3 with its headroom.
func pgs(xoff, xon int64) []model.PriorityGroup {
	return []model.PriorityGroup{
		{Index: 0, Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Pool: "ingress_lossy_pool", SizeBytes: 10240, SharedAlpha: "8"},
		{Index: 3, Priorities: []int{3}, Lossless: true, Pool: "ingress_lossless_pool", SizeBytes: xoff + xon,
			XoffBytes: xoff, XonBytes: xon, SharedAlpha: "1/2", Headroom: &model.Headroom{XoffBytes: xoff, XonBytes: xon, SizeBytes: xoff + xon}},
	}
}

// egress are the egress queue buffers of TC0, TC3 and TC6.
func egress() []model.EgressQueue {
	return []model.EgressQueue{
		{TrafficClass: 0, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "8"},
		{TrafficClass: 3, Pool: "egress_lossless_pool", ReservedBytes: 1500, SharedAlpha: "inf"},
		{TrafficClass: 6, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "8"},
	}
}

// pools are the shared buffer pools of every fixture switch.
func pools() []model.BufferPool {
	return []model.BufferPool{
		{Name: "ingress_lossless_pool", Direction: "ingress", Type: "lossless", SizeBytes: 7340032, Percent: 43.75, Mode: "dynamic", Priorities: []int{3}},
		{Name: "egress_lossy_pool", Direction: "egress", Type: "lossy", SizeBytes: 6291456, Percent: 37.5, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
	}
}

// testFabric is a small RoCE fabric with one switch per platform: an EOS
// leaf with trunk, routed and shut access ports, an Onyx leaf with a
// PCP-trusting access port and a Cumulus spine with a "both" trust port.
func testFabric() *model.Fabric {
	return &model.Fabric{
		Name: "lab",
		QoS: model.QoS{
			Profile: "nvidia-roce",
			Classes: []model.Class{
				{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0, DSCP: defaultDSCP(),
					ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 40}},
				{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: dscpRange(24, 31), MarkDSCP: 26, Lossless: true,
					ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 60},
					ECN: &model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}},
				{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: dscpRange(48, 55), MarkDSCP: 48, CNP: true,
					ETS: model.ETS{Mode: model.ETSStrict}},
			},
			DSCPToPriority: dscpToPriority(),
			PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
			PFCPriorities:  []int{3},
			RoCEClass:      "roce",
			CNPClass:       "cnp",
			Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 1500, SmallPacketPercent: 100},
		},
		VLANs: []model.VLAN{{ID: 100, Name: "rdma"}, {ID: 101, Name: "rdma-b"}, {ID: 200, Name: "mgmt"}},
		Switches: []model.Switch{
			{
				Name: "leaf1", Platform: model.PlatformEOS, OSVersion: "4.32.1F",
				Hardware:    model.Hardware{Model: "DCS-7060CX-32S", ASIC: "Tomahawk", BufferBytes: 16 << 20, CellBytes: 208},
				PFCWatchdog: model.PFCWatchdog{Enabled: true, Action: "drop", TimeoutMs: 200, PollingIntervalMs: 100, RestoreMs: 400},
				BufferStyle: "profile", Pools: pools(),
				Ports: []model.Port{
					{Name: "Ethernet1/1", Description: "host01-roce0", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeTrunk,
						TrunkVLANs: []int{100, 101, 200}, NativeVLAN: 100, Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
						PriorityGroups: pgs(38912, 19456), EgressQueues: egress(),
						Peer: &model.Peer{Kind: "host", Device: "host01", Port: "roce0", CableMeters: 3, CableKind: "dac"}},
					{Name: "Ethernet31/1", Description: "spine1-swp1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeRouted,
						Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
						PriorityGroups: pgs(47104, 19456), EgressQueues: egress(),
						Peer: &model.Peer{Kind: "switch", Device: "spine1", Port: "swp1", CableMeters: 30, CableKind: "aoc"}},
					{Name: "Ethernet32/1", SpeedMbps: 25000, MTU: 1500, Mode: model.ModeAccess, AccessVLAN: 200, Trust: model.TrustDSCP,
						LinkPause: true, Shutdown: true, EgressQueues: egress()},
				},
			},
			{
				Name: "leaf2", Platform: model.PlatformOnyx, OSVersion: "3.6.8190",
				Hardware:    model.Hardware{Model: "SN2700", ASIC: "Spectrum", BufferBytes: 16 << 20, CellBytes: 96},
				BufferStyle: "traffic-pool", Pools: pools(),
				Ports: []model.Port{
					{Name: "1/1", Description: "host02-roce0", SpeedMbps: 40000, MTU: 9216, Mode: model.ModeAccess, AccessVLAN: 101,
						Trust: model.TrustPCP, PFCPriorities: []int{3}, PriorityGroups: pgs(20480, 19456), EgressQueues: egress()},
				},
			},
			{
				Name: "spine1", Platform: model.PlatformCumulus, OSVersion: "5.9.1",
				Hardware:    model.Hardware{Model: "SN3700", ASIC: "Spectrum-2", BufferBytes: 42 << 20, CellBytes: 144},
				BufferStyle: "profile", Pools: pools(),
				Ports: []model.Port{
					{Name: "swp1", Description: "leaf1-Ethernet31/1", SpeedMbps: 100000, MTU: 9216, Mode: model.ModeRouted,
						Trust: model.TrustBoth, PFCPriorities: []int{3}, PriorityGroups: pgs(47104, 19456), EgressQueues: egress()},
				},
			},
		},
	}
}
