package onyx

import "github.com/fabricc/fabricc/model"

// nvidiaDSCP is the NVIDIA RoCE profile's DSCP map as the fixture uses
// it: DSCP 26 -> priority 3 (RoCE), DSCP 48 -> priority 6 (CNP), every
// other DSCP -> priority 0.
func nvidiaDSCP() []int {
	m := make([]int, 64)
	m[26] = 3
	m[48] = 6
	return m
}

// otherDSCP lists the DSCP values of the default class.
func otherDSCP() []int {
	var out []int
	for d := 0; d < 64; d++ {
		if d != 26 && d != 48 {
			out = append(out, d)
		}
	}
	return out
}

// fixtureQoS is the NVIDIA RoCE profile: roce TC3 lossless DSCP 26 with
// ECN 153600..1536000 B at 100 %, cnp TC6 strict DSCP 48, default TC0;
// roce and default share WRR 50/50.
func fixtureQoS() model.QoS {
	return model.QoS{
		Profile: "nvidia-roce",
		Classes: []model.Class{
			{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0,
				DSCP: otherDSCP(), ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
			{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: []int{26}, MarkDSCP: 26,
				Lossless: true, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
				ECN: &model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}},
			{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: []int{48}, MarkDSCP: 48,
				CNP: true, ETS: model.ETS{Mode: model.ETSStrict}},
		},
		DSCPToPriority: nvidiaDSCP(),
		PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
		PFCPriorities:  []int{3},
		RoCEClass:      "roce",
		CNPClass:       "cnp",
		Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 1500, SmallPacketPercent: 100},
	}
}

// pgs returns a host or uplink port's priority groups and egress queues:
// pg0 lossy for the other priorities, pg3 lossless with headroom xoff/xon.
func pgs(lossy, lossless, egress string, xoff, xon int64) ([]model.PriorityGroup, []model.EgressQueue) {
	groups := []model.PriorityGroup{
		{Index: 0, Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Pool: lossy, SizeBytes: 20480, SharedAlpha: "8"},
		{Index: 3, Priorities: []int{3}, Lossless: true, Pool: lossless, SizeBytes: xoff + xon,
			XoffBytes: xoff, XonBytes: xon, SharedAlpha: "2"},
	}
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
		g, q := pgs(lossy, lossless, egress, xoff, xon)
		return model.Port{Name: name, Description: desc, SpeedMbps: speed, MTU: 9216, Mode: model.ModeTrunk,
			TrunkVLANs: []int{2}, Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true,
			PriorityGroups: g, EgressQueues: q,
			Peer: &model.Peer{Kind: "host", Device: desc, Port: "roce0", CableMeters: 3, CableKind: "dac"}}
	}
	p1 := host("1/1", "server1 roce0", 25000, 17408, 19456)
	p2 := host("1/2", "server2 roce0", 25000, 17408, 19456)
	p2.TrunkVLANs = []int{2, 10}
	p2.NativeVLAN = 10
	p3 := host("1/3", "server3 roce0", 100000, 36864, 19456)
	up := host("1/31", "spine1 1/1", 100000, 40960, 19456)
	up.TrunkVLANs = []int{2, 10}
	up.PFCWatchdog = false
	up.Peer = &model.Peer{Kind: "switch", Device: "spine1", Port: "1/1", CableMeters: 30, CableKind: "aoc"}
	unused := model.Port{Name: "1/32", SpeedMbps: 100000, MTU: 1500, Mode: model.ModeAccess, Trust: model.TrustDSCP, Shutdown: true}
	return &model.Fabric{
		Name:  "lab",
		QoS:   fixtureQoS(),
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
