package openconfig

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// fixtureQoS is the nvidia-roce profile (modeltest) with NVIDIA's default
// DSCP map (priority = DSCP >> 3: DSCP 24-31 -> 3 for RoCE, 48-55 -> 6 for
// CNPs), an ETS split of 40/60 and headroom for a 1500 B MTU at 100 %
// small packets: classifier terms then carry several DSCP values and the
// WRR weights differ per class.
func fixtureQoS() model.QoS {
	q := modeltest.NVIDIARoCEQoS()
	for d := range q.DSCPToPriority {
		q.DSCPToPriority[d] = d >> 3
	}
	q.Classes[0].DSCP, q.Classes[0].ETS.BandwidthPercent = defaultDSCP(), 40
	q.Classes[1].DSCP, q.Classes[1].ETS.BandwidthPercent = dscpRange(24, 31), 60
	q.Classes[2].DSCP = dscpRange(48, 55)
	q.Headroom = model.HeadroomPolicy{LosslessMTUBytes: 1500, SmallPacketPercent: 100}
	return q
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
	lossless := modeltest.LosslessPG("ingress_lossless_pool", xoff, xon, "1/2")
	lossless.Headroom = &model.Headroom{XoffBytes: xoff, XonBytes: xon, SizeBytes: xoff + xon}
	return []model.PriorityGroup{modeltest.LossyPG("ingress_lossy_pool", 10240, "8"), lossless}
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
		Name:  "lab",
		QoS:   fixtureQoS(),
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
						Peer: modeltest.Cable("host", "host01", "roce0", 3, "dac")},
					{Name: "Ethernet31/1", Description: "spine1-swp1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeRouted,
						Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
						PriorityGroups: pgs(47104, 19456), EgressQueues: egress(),
						Peer: modeltest.Cable("switch", "spine1", "swp1", 30, "aoc")},
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
