package onyx

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// pgs returns a host or uplink port's priority groups and egress queues:
// pg0 lossy for the other priorities, pg3 lossless with headroom xoff/xon.
func pgs(lossy, lossless, egress string, xoff, xon int64) ([]model.PriorityGroup, []model.EgressQueue) {
	groups := []model.PriorityGroup{modeltest.LossyPG(lossy, 20480, "8"), modeltest.LosslessPG(lossless, xoff, xon, "2")}
	queues := []model.EgressQueue{{TrafficClass: 3, Pool: egress, ReservedBytes: 4096, SharedAlpha: "inf"}}
	return groups, queues
}

// fixture returns a small realistic fabric with one Onyx SN2410 switch in
// the given buffer style: two 25G host trunks (one with a native VLAN),
// a 100G host trunk, a 100G uplink, and an unused shut-down port.
func fixture(style string) *model.Fabric {
	lossy, lossless, egress := "lossy-default", "roce", "roce"
	pools := []model.BufferPool{
		{Name: "lossy-default", Direction: "ingress", Type: "lossy", SizeBytes: 3932160, Percent: 30.0, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
		{Name: "roce", Direction: "ingress", Type: "lossless", SizeBytes: 6553600, Percent: 50.0, Mode: "dynamic", Priorities: []int{3}},
		{Name: "roce", Direction: "egress", Type: "lossless", SizeBytes: 6553600, Percent: 50.0, Mode: "dynamic", Priorities: []int{3}},
	}
	version := "3.6.8190"
	if style == StyleAdvanced {
		version = "3.6.4006"
		lossy, lossless, egress = "iPool0", "iPool1", "ePool1"
		pools = []model.BufferPool{
			{Name: "iPool0", Direction: "ingress", Type: "lossy", SizeBytes: 5242880, Percent: 40.0, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
			{Name: "iPool1", Direction: "ingress", Type: "lossless", SizeBytes: 5242880, Percent: 40.0, Mode: "dynamic", Priorities: []int{3}},
			{Name: "ePool0", Direction: "egress", Type: "lossy", SizeBytes: 5242880, Percent: 40.0, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
			{Name: "ePool1", Direction: "egress", Type: "lossless", SizeBytes: 12582912, Percent: 96.0, Mode: "dynamic", Priorities: []int{3}},
		}
	}
	host := func(name, desc string, speed int, xoff, xon int64) model.Port {
		p := modeltest.PFCTrunk(name, speed, 9216, 2)
		p.Description = desc
		p.PriorityGroups, p.EgressQueues = pgs(lossy, lossless, egress, xoff, xon)
		p.Peer = modeltest.Cable("host", desc, "roce0", 3, "dac")
		return p
	}
	p1 := host("1/1", "server1 roce0", 25000, 17408, 19456)
	p2 := host("1/2", "server2 roce0", 25000, 17408, 19456)
	p2.TrunkVLANs = []int{2, 10}
	p2.NativeVLAN = 10
	p3 := host("1/3", "server3 roce0", 100000, 36864, 19456)
	up := host("1/31", "spine1 1/1", 100000, 40960, 19456)
	up.TrunkVLANs = []int{2, 10}
	up.PFCWatchdog = false
	up.Peer = modeltest.Cable("switch", "spine1", "1/1", 30, "aoc")
	unused := model.Port{Name: "1/32", SpeedMbps: 100000, MTU: 1500, Mode: model.ModeAccess, Trust: model.TrustDSCP, Shutdown: true}
	return &model.Fabric{
		Name:  "lab",
		QoS:   modeltest.NVIDIARoCEQoS(),
		VLANs: []model.VLAN{{ID: 2, Name: "roce"}, {ID: 10, Name: "storage"}},
		Switches: []model.Switch{{
			Name: "leaf1", Platform: model.PlatformOnyx, OSVersion: version,
			Hardware:    model.Hardware{Model: "SN2410", ASIC: "Spectrum", BufferBytes: 13107200, CellBytes: 96},
			PFCWatchdog: model.PFCWatchdog{Enabled: true, Action: "drop", TimeoutMs: 200, PollingIntervalMs: 100, RestoreMs: 400},
			BufferStyle: style,
			Pools:       pools,
			Ports:       []model.Port{p1, p2, p3, up, unused},
		}},
	}
}
