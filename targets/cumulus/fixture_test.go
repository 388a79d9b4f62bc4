package cumulus

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// losslessPG is a lossless PG for priority 3 with a headroom record.
func losslessPG(speed int, cable float64, xoff, xon int64) model.PriorityGroup {
	pg := modeltest.LosslessPG("ingress_lossless_pool", xoff, xon, "1/2")
	pg.Headroom = &model.Headroom{
		SpeedMbps: speed, CableMeters: cable, PortMTUBytes: 9216, LosslessMTUBytes: 4096,
		SmallPacketPercent: 100, CellBytes: 144, XoffBytes: xoff, XonBytes: xon, SizeBytes: xoff + xon,
		Formula: "SONiC Mellanox buffer_pg headroom (test fixture)",
	}
	return pg
}

// lossyPG is PG 0 holding the lossy priorities.
func lossyPG() model.PriorityGroup {
	return modeltest.LossyPG("ingress_lossy_pool", 0, "1")
}

// queues are the egress buffers every in-use port carries.
func queues() []model.EgressQueue {
	return []model.EgressQueue{
		{TrafficClass: 0, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "1"},
		{TrafficClass: 3, Pool: "egress_lossless_pool", ReservedBytes: 0, SharedAlpha: "inf"},
		{TrafficClass: 6, Pool: "egress_lossy_pool", ReservedBytes: 9216, SharedAlpha: "1"},
	}
}

// hostPort is a host-facing trunk with PFC on priority 3.
func hostPort(name, host string, speed int, cable float64, xoff, xon int64) model.Port {
	p := modeltest.PFCTrunk(name, speed, 9216, 100, 200)
	p.Description = host + " roce0"
	p.PriorityGroups = []model.PriorityGroup{lossyPG(), losslessPG(speed, cable, xoff, xon)}
	p.EgressQueues = queues()
	p.Peer = modeltest.Cable("host", host, "roce0", cable, "dac")
	return p
}

// fixture is a small RoCE fabric with one Cumulus leaf: two 100G hosts on
// 3 m DAC, one 25G host on 2.5 m DAC, a 100G uplink on 30 m fibre and an
// unused port.
func fixture() *model.Fabric {
	uplink := hostPort("swp32", "spine01", 100000, 30, 56000, 19000)
	uplink.Description = "uplink spine01 swp1"
	uplink.Peer = modeltest.Cable("switch", "spine01", "swp1", 30, "fibre")
	uplink.NativeVLAN = 100
	return &model.Fabric{
		Name:  "lab-roce",
		QoS:   modeltest.NVIDIARoCEQoS(),
		VLANs: []model.VLAN{{ID: 100, Name: "storage"}, {ID: 200, Name: "compute"}},
		Switches: []model.Switch{{
			Name: "leaf01", Platform: model.PlatformCumulus, OSVersion: "5.9.1",
			Hardware:    model.Hardware{Model: "SN2700", ASIC: "spectrum", BufferBytes: 16777216, CellBytes: 96},
			PFCWatchdog: model.PFCWatchdog{Enabled: true, Action: "drop", TimeoutMs: 400, PollingIntervalMs: 100, RestoreMs: 400},
			BufferStyle: "profile",
			Pools: []model.BufferPool{
				{Name: "ingress_lossless_pool", Direction: "ingress", Type: "lossless", SizeBytes: 7549747, Percent: 45.0, Mode: "dynamic", Priorities: []int{3}},
				{Name: "ingress_lossy_pool", Direction: "ingress", Type: "lossy", SizeBytes: 7130317, Percent: 42.5, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
				{Name: "egress_lossless_pool", Direction: "egress", Type: "lossless", SizeBytes: 16777216, Percent: 100, Mode: "dynamic", Priorities: []int{3}},
			},
			Ports: []model.Port{
				hostPort("swp1", "host01", 100000, 3, 38000, 19000),
				hostPort("swp2", "host02", 100000, 3, 38000, 19000),
				hostPort("swp3", "host03", 25000, 2.5, 19000, 19000),
				{Name: "swp31", SpeedMbps: 100000, MTU: 9216, Mode: model.ModeTrunk, TrunkVLANs: []int{100}, Trust: model.TrustDSCP, Shutdown: true,
					PriorityGroups: []model.PriorityGroup{lossyPG()}},
				uplink,
			},
		}},
	}
}
