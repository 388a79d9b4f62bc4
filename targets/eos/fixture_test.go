package eos

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// fixtureQoS is the nvidia-roce profile with NVIDIA's default DSCP map
// (priority = DSCP >> 3) instead of the profile's two entries, so the
// RoCE class carries DSCP 24-31 (marking 26), the CNP class 48-55
// (marking 48) and the default class the rest: every traffic class then
// has several DSCP values on its "qos map dscp" line.
func fixtureQoS() model.QoS {
	q := modeltest.NVIDIARoCEQoS()
	q.DSCPToPriority = make([]int, 64)
	var other []int
	for d := range q.DSCPToPriority {
		q.DSCPToPriority[d] = d >> 3
		if d>>3 != 3 && d>>3 != 6 {
			other = append(other, d)
		}
	}
	q.Classes[0].DSCP = other
	q.Classes[1].DSCP = dscpRange(24, 31)
	q.Classes[2].DSCP = dscpRange(48, 55)
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

// lossyPG0 is the lossy priority group carrying every non-RoCE priority.
func lossyPG0() model.PriorityGroup {
	return modeltest.LossyPG("ingress_lossy_pool", 10240, "8")
}

// losslessPG3 is the RoCE headroom priority group for one cable.
func losslessPG3(speed int, meters float64, xoff, xon int64) model.PriorityGroup {
	pg := modeltest.LosslessPG("ingress_lossless_pool", xoff, xon, "1/2")
	pg.Headroom = &model.Headroom{SpeedMbps: speed, CableMeters: meters, PortMTUBytes: 9214, LosslessMTUBytes: 1024, SmallPacketPercent: 100,
		XoffBytes: xoff, XonBytes: xon, SizeBytes: xoff + xon}
	return pg
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

// hostPort is a host-facing PFC trunk at MTU 9214 cabled with DAC to the
// host's roce0.
func hostPort(name, host string, speed int, meters float64, xoff, xon int64, vlans ...int) model.Port {
	p := modeltest.PFCTrunk(name, speed, 9214, vlans...)
	p.Description = host + "-roce0"
	p.PriorityGroups = []model.PriorityGroup{lossyPG0(), losslessPG3(speed, meters, xoff, xon)}
	p.EgressQueues = egressQueues(true)
	p.Peer = modeltest.Cable("host", host, "roce0", meters, "dac")
	return p
}

// testFabric is a small realistic RoCE fabric with one EOS leaf on a
// Tomahawk ASIC: two host-facing trunks (100G and 25G), a routed uplink
// and an unused port.
func testFabric() *model.Fabric {
	host02 := hostPort("Ethernet2/1", "host02", 25000, 5, 20480, 19456, 100, 101)
	host02.NativeVLAN = 100
	return &model.Fabric{
		Name:  "lab",
		QoS:   fixtureQoS(),
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
				hostPort("Ethernet1/1", "host01", 100000, 3, 38912, 19456, 100, 101, 102, 200),
				host02,
				{Name: "Ethernet31/1", Description: "spine1-Ethernet1/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeRouted,
					Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
					PriorityGroups: []model.PriorityGroup{lossyPG0(), losslessPG3(100000, 30, 47104, 19456)},
					EgressQueues:   egressQueues(true),
					Peer:           modeltest.Cable("switch", "spine1", "Ethernet1/1", 30, "aoc")},
				{Name: "Ethernet32/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeAccess, Trust: model.TrustDSCP, Shutdown: true,
					PriorityGroups: []model.PriorityGroup{{Index: 0, Priorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, Pool: "ingress_lossy_pool", SizeBytes: 10240, SharedAlpha: "8"}},
					EgressQueues:   egressQueues(false)},
			},
		}},
	}
}
