package eos

import "github.com/fabricc/fabricc/model"

// nvidiaDSCPToPriority is the NVIDIA default DSCP -> priority map
// (priority = DSCP >> 3): DSCP 24-31 -> 3 (RoCE, DSCP 26), 48-55 -> 6 (CNP,
// DSCP 48).
func nvidiaDSCPToPriority() []int {
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

// lossyPG0 is the lossy priority group carrying every non-RoCE priority.
func lossyPG0() model.PriorityGroup {
	return model.PriorityGroup{Index: 0, Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Pool: "ingress_lossy_pool", SizeBytes: 10240, SharedAlpha: "8"}
}

// losslessPG3 is the RoCE headroom priority group for one cable.
func losslessPG3(speed int, meters float64, xoff, xon int64) model.PriorityGroup {
	return model.PriorityGroup{
		Index: 3, Priorities: []int{3}, Lossless: true, Pool: "ingress_lossless_pool",
		SizeBytes: xoff + xon, XoffBytes: xoff, XonBytes: xon, SharedAlpha: "1/2",
		Headroom: &model.Headroom{SpeedMbps: speed, CableMeters: meters, XoffBytes: xoff, XonBytes: xon, SizeBytes: xoff + xon},
	}
}

// egressQueues are the per-port egress buffers of TC0, TC3 and TC6; TC3
// is in the lossless pool only on ports with PFC (as the compiler does).
func egressQueues(pfc bool) []model.EgressQueue {
	tc3 := model.EgressQueue{TrafficClass: 3, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "8"}
	if pfc {
		tc3 = model.EgressQueue{TrafficClass: 3, Pool: "egress_lossless_pool", ReservedBytes: 1500, SharedAlpha: "inf"}
	}
	return []model.EgressQueue{
		{TrafficClass: 0, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "8"},
		tc3,
		{TrafficClass: 6, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "8"},
	}
}

// testFabric is a small realistic RoCE fabric with one EOS leaf on a
// Tomahawk ASIC: two host-facing trunks (100G and 25G), a routed uplink
// and an unused port.
func testFabric() *model.Fabric {
	return &model.Fabric{
		Name: "lab",
		QoS: model.QoS{
			Profile: "nvidia-roce",
			Classes: []model.Class{
				{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0, DSCP: defaultDSCP(), MarkDSCP: 0,
					ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
				{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: dscpRange(24, 31), MarkDSCP: 26, Lossless: true,
					ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
					ECN: &model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}},
				{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: dscpRange(48, 55), MarkDSCP: 48, CNP: true,
					ETS: model.ETS{Mode: model.ETSStrict}},
			},
			DSCPToPriority: nvidiaDSCPToPriority(),
			PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
			PFCPriorities:  []int{3},
			RoCEClass:      "roce",
			CNPClass:       "cnp",
			Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 1500, SmallPacketPercent: 100},
		},
		VLANs: []model.VLAN{{ID: 100, Name: "rdma"}, {ID: 101, Name: "rdma-b"}, {ID: 102, Name: "storage"}, {ID: 200, Name: "mgmt"}},
		Switches: []model.Switch{{
			Name: "leaf1", Platform: model.PlatformEOS, OSVersion: "4.32.1F",
			Hardware:    model.Hardware{Model: "DCS-7060CX-32S", ASIC: "Tomahawk", BufferBytes: 16 << 20, CellBytes: 208},
			PFCWatchdog: model.PFCWatchdog{Enabled: true, Action: "drop", TimeoutMs: 200, PollingIntervalMs: 100, RestoreMs: 400},
			BufferStyle: "profile",
			Pools: []model.BufferPool{
				{Name: "ingress_lossless_pool", Direction: "ingress", Type: "lossless", SizeBytes: 7340032, Percent: 43.8, Mode: "dynamic", Priorities: []int{3}},
				{Name: "ingress_lossy_pool", Direction: "ingress", Type: "lossy", SizeBytes: 6291456, Percent: 37.5, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
				{Name: "egress_lossless_pool", Direction: "egress", Type: "lossless", SizeBytes: 16777216, Percent: 100, Mode: "dynamic", Priorities: []int{3}},
				{Name: "egress_lossy_pool", Direction: "egress", Type: "lossy", SizeBytes: 6291456, Percent: 37.5, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
			},
			Ports: []model.Port{
				{Name: "Ethernet1/1", Description: "host01-roce0", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeTrunk,
					TrunkVLANs: []int{100, 101, 102, 200}, Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
					PriorityGroups: []model.PriorityGroup{lossyPG0(), losslessPG3(100000, 3, 38912, 19456)},
					EgressQueues:   egressQueues(true),
					Peer:           &model.Peer{Kind: "host", Device: "host01", Port: "roce0", CableMeters: 3, CableKind: "dac"}},
				{Name: "Ethernet2/1", Description: "host02-roce0", SpeedMbps: 25000, MTU: 9214, Mode: model.ModeTrunk,
					TrunkVLANs: []int{100, 101}, NativeVLAN: 100, Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
					PriorityGroups: []model.PriorityGroup{lossyPG0(), losslessPG3(25000, 5, 20480, 19456)},
					EgressQueues:   egressQueues(true),
					Peer:           &model.Peer{Kind: "host", Device: "host02", Port: "roce0", CableMeters: 5, CableKind: "dac"}},
				{Name: "Ethernet31/1", Description: "spine1-Ethernet1/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeRouted,
					Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
					PriorityGroups: []model.PriorityGroup{lossyPG0(), losslessPG3(100000, 30, 47104, 19456)},
					EgressQueues:   egressQueues(true),
					Peer:           &model.Peer{Kind: "switch", Device: "spine1", Port: "Ethernet1/1", CableMeters: 30, CableKind: "aoc"}},
				{Name: "Ethernet32/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeAccess, Trust: model.TrustDSCP, Shutdown: true,
					PriorityGroups: []model.PriorityGroup{{Index: 0, Priorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, Pool: "ingress_lossy_pool", SizeBytes: 10240, SharedAlpha: "8"}},
					EgressQueues:   egressQueues(false)},
			},
		}},
	}
}
