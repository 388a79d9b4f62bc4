package compiler

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// Buffer constants. Alphas and reservations come from the advanced
// buffer recipe for MLNX-OS < 3.6.5000 in att/netarbiter
// nvmf/RoCE_Deployment.md (github.com/att/netarbiter):
//
//	ingress-buffer iPort.pg3 map pool iPool1 type lossless reserved 67538 xoff 18432 xon 18432 shared alpha 2
//	ingress-buffer iPort.pg6 map pool iPool0 type lossy reserved 10240 shared alpha 8
//	egress-buffer ePort.tc3 map pool ePool1 reserved 1500 shared alpha inf
const (
	losslessPGAlpha      = "2"
	lossyPGAlpha         = "8"
	lossyPGReserved      = 10240
	losslessQueueAlpha   = "inf"
	losslessQueueReserve = 1500
	// lossyQueueReserve is one jumbo frame, SONiC's egress_lossy_profile
	// size on Spectrum (ACS-MSN2700 buffers_defaults_objects.j2: 9216);
	// that recipe shows no lossy egress queue. Its alpha reuses the
	// recipe's lossy alpha 8.
	lossyQueueReserve = 9216
	lossyQueueAlpha   = "8"
)

// poolNames are the four pool names of one buffer style.
type poolNames struct {
	inLossless, inLossy, egLossless, egLossy string
}

// namesFor returns the pool names of a buffer style. "advanced" uses the
// Onyx pool names of that recipe (the Demartek RoCE Deployment Guide,
// "Deploying RoCE on a Network Switch" step 9, uses iPool0 and ePool0);
// Onyx traffic pools are not directional, so the
// "traffic-pool" style gives the ingress and egress entry of a pool the
// same name (the Onyx target renders each name once); "profile" uses the
// NVUE-style directional names.
func namesFor(style string) poolNames {
	switch style {
	case "advanced":
		return poolNames{"iPool1", "iPool0", "ePool1", "ePool0"}
	case "traffic-pool":
		return poolNames{"roce-lossless", "lossy-default", "roce-lossless", "lossy-default"}
	}
	return poolNames{"roce-lossless-ingress", "lossy-default-ingress", "roce-lossless-egress", "lossy-default-egress"}
}

// portBuffers fills a port's priority groups and egress queues and
// returns its headroom and other reservations in bytes.
func portBuffers(f *model.Fabric, sw *model.Switch, p *model.Port, names poolNames, planMeters float64, tcs []int, mtus *losslessMTUs) (headroom, planned, reserved int64) {
	p.PriorityGroups, p.EgressQueues = nil, nil
	policy := mtus.policy
	var mtuFrom string
	policy.LosslessMTUBytes, mtuFrom = mtus.forPort(sw, p)
	var losslessPrio prioritySet
	var lossless []model.PriorityGroup
	for _, c := range f.QoS.Classes {
		if !c.Lossless || !p.Lossless(c.Priority) {
			continue
		}
		in := headroomInput{
			speedMbps:   p.SpeedMbps,
			lanes:       p.Lanes,
			cableMeters: cableMeters(p),
			portMTU:     p.MTU,
			policy:      policy,
			hw:          sw.Hardware,
		}
		h := computeHeadroom(in)
		h.LosslessMTUFrom = mtuFrom
		in.cableMeters = planMeters
		planned += computeHeadroom(in).SizeBytes
		lossless = append(lossless, model.PriorityGroup{
			Index: c.TrafficClass, Priorities: append([]int(nil), c.Priorities...),
			Lossless: true, Pool: names.inLossless,
			SizeBytes: h.SizeBytes, XoffBytes: h.XoffBytes, XonBytes: h.XonBytes,
			SharedAlpha: losslessPGAlpha, Headroom: &h,
		})
		losslessPrio.add(c.Priorities...)
		headroom += h.SizeBytes
	}
	p.PriorityGroups = make([]model.PriorityGroup, 0, 1+len(lossless))
	p.PriorityGroups = append(p.PriorityGroups, model.PriorityGroup{
		Index: 0, Priorities: losslessPrio.complement(), Pool: names.inLossy,
		SizeBytes: lossyPGReserved, SharedAlpha: lossyPGAlpha,
	})
	p.PriorityGroups = append(p.PriorityGroups, lossless...)
	slices.SortStableFunc(p.PriorityGroups, func(a, b model.PriorityGroup) int { return cmp.Compare(a.Index, b.Index) })
	reserved = lossyPGReserved
	if len(tcs) > 0 {
		p.EgressQueues = make([]model.EgressQueue, 0, len(tcs)) // nil without classes, as before
	}
	for _, tc := range tcs {
		q := model.EgressQueue{TrafficClass: tc, Pool: names.egLossy, ReservedBytes: lossyQueueReserve, SharedAlpha: lossyQueueAlpha}
		if c := f.QoS.ClassForTC(tc); c != nil && c.Lossless && p.Lossless(c.Priority) {
			q = model.EgressQueue{TrafficClass: tc, Pool: names.egLossless, ReservedBytes: losslessQueueReserve, SharedAlpha: losslessQueueAlpha}
		}
		p.EgressQueues = append(p.EgressQueues, q)
		reserved += q.ReservedBytes
	}
	return headroom, planned, reserved
}

// planningFloor is the planning length of a headroom policy: the written
// planning_length, or SONiC's longest default cable class, 300 m
// (sonic-buildimage files/build_templates/cable_length.j2: 5m server,
// 40m leaf, 300m spine). It is a policy, not physics: a fabric whose
// cables are all short may plan for them.
func planningFloor(p model.HeadroomPolicy) float64 {
	if p.PlanningMeters > 0 {
		return p.PlanningMeters
	}
	return planningCableFloor
}

// planningMeters is the cable length a switch's pools are planned for:
// the floor (planningFloor), or the longest cable of a lossless port
// (one with a lossless priority group, losslessPort) rounded up to the
// next 100 m when one is longer. A port with PFC off reserves no
// headroom (IEEE 802.1Qbb: headroom is per PFC-enabled port and
// priority), so its cable does not count. Planning for a fixed length, not the actual cables, keeps
// the pool sizes stable: recabling a port within it changes that port's
// headroom lines and nothing else, which is what a reviewer of a config
// diff expects. The cost is buffer reserved for headroom that short cables
// do not use: at 100G about 40 KB per lossless port.
func planningMeters(q model.QoS, sw *model.Switch, floor float64) float64 {
	plan := floor
	for i := range sw.Ports {
		p := &sw.Ports[i]
		if m := cableMeters(p); m > plan && losslessPort(q, p) {
			plan = math.Ceil(m/100) * 100
		}
	}
	return plan
}

// losslessPort reports whether p gets a lossless priority group: PFC on
// for the priority of some lossless class (as portBuffers decides).
func losslessPort(q model.QoS, p *model.Port) bool {
	for _, c := range q.Classes {
		if c.Lossless && p.Lossless(c.Priority) {
			return true
		}
	}
	return false
}

// headroomPolicy fills a zero lossless MTU with the largest RoCE path
// MTU, so the formula never divides by zero on a model built without
// lowering.
func headroomPolicy(p model.HeadroomPolicy) model.HeadroomPolicy {
	if p.LosslessMTUBytes <= 0 {
		p.LosslessMTUBytes = model.MaxRoCEPathMTU
	}
	return p
}

// cableMeters is the port's cable length, or the SONiC default of 5 m
// for a port with no link (or a link with no length).
func cableMeters(p *model.Port) float64 {
	if p.Peer == nil || p.Peer.CableMeters <= 0 {
		return defaultCableMeters
	}
	return p.Peer.CableMeters
}

// prioritySet is a set of 802.1p priorities, one bit each; values
// outside 0-7 (which the checks report) are left out. portBuffers keeps
// one per port of the fabric, where a map cost an allocation each.
type prioritySet uint8

// add puts the priorities ps in s.
func (s *prioritySet) add(ps ...int) {
	for _, p := range ps {
		if p >= 0 && p < 8 {
			*s |= 1 << p
		}
	}
}

// has reports whether priority p is in s.
func (s prioritySet) has(p int) bool { return p >= 0 && p < 8 && s&(1<<p) != 0 }

// complement returns the priorities 0-7 not in s, ascending.
func (s prioritySet) complement() []int {
	out := make([]int, 0, 8)
	for q := 0; q < 8; q++ {
		if !s.has(q) {
			out = append(out, q)
		}
	}
	return out
}

// usedTCs returns the traffic classes used by some class, ascending.
func usedTCs(q model.QoS) []int {
	seen := map[int]bool{}
	var out []int
	for _, c := range q.Classes {
		if !seen[c.TrafficClass] {
			seen[c.TrafficClass] = true
			out = append(out, c.TrafficClass)
		}
	}
	sort.Ints(out)
	return out
}

// switchBuffers sizes every port's buffers, the pools and the budget of
// one switch. It returns an error diagnostic when the reservations do not
// fit in the switch's buffer.
//
// Pool sizing rule: the shared remainder S = total - planned headroom -
// all other reservations (planned headroom: see planningMeters) is split
// in half between the lossless and the lossy side
// (NVIDIA's default for `roce`: the RoCE traffic pool gets 50 % of the
// memory; Cumulus Linux user guide, RoCE, "Default RoCE Configuration").
// A pool holds its own reservations plus its half of S: the ingress
// lossless pool holds the headroom of every lossless PG, the ingress
// lossy pool the lossy PG reservations, the egress lossy pool its queue
// reservations. The egress lossless pool is the whole buffer instead
// (see buildPools). Without lossless PGs there are no lossless pools and
// the lossy pools get all of S.
func switchBuffers(f *model.Fabric, sw *model.Switch, src Sources, mtus *losslessMTUs) hcl.Diagnostics {
	names := namesFor(sw.BufferStyle)
	planM := planningMeters(f.QoS, sw, planningFloor(f.QoS.Headroom))
	tcs := usedTCs(f.QoS)
	var headroom, planned, pgLossy, egLossless, egLossy int64
	for i := range sw.Ports {
		h, plan, _ := portBuffers(f, sw, &sw.Ports[i], names, planM, tcs, mtus)
		headroom += h
		planned += plan
		for _, pg := range sw.Ports[i].PriorityGroups {
			if !pg.Lossless {
				pgLossy += pg.SizeBytes
			}
		}
		for _, q := range sw.Ports[i].EgressQueues {
			if q.Pool == names.egLossless {
				egLossless += q.ReservedBytes
			} else {
				egLossy += q.ReservedBytes
			}
		}
	}
	total := sw.Hardware.UsableBufferBytes // the budget carves usable memory (hardware.go)
	if total <= 0 {
		total = sw.Hardware.BufferBytes
	}
	selfSized := selfSizedBudget(sw)
	if selfSized {
		total = onChipBytes(sw) // per chip, every chip in use (jericho.go)
	}
	reserved := pgLossy + egLossless + egLossy
	sw.Buffer = model.BufferBudget{
		TotalBytes: total, HeadroomBytes: headroom, PlanningCableMeters: planM, HeadroomReserveBytes: planned,
		ReservedBytes: reserved, SharedBytes: total - planned - reserved,
	}
	var warnings hcl.Diagnostics
	if sw.Buffer.SharedBytes < 0 && selfSized {
		who, _ := headroomWriter(sw)
		d := selfSizedBudgetWarning(sw, who)
		d.Subject = src.At("switch", sw.Name)
		warnings = hcl.Diagnostics{d}
		sw.Buffer.SharedBytes = 0 // the pools are comments here; none is negative
	}
	if sw.Buffer.SharedBytes < 0 {
		if diags := cableBudgetErrors(f, sw, src); len(diags) > 0 {
			return diags
		}
		d := budgetError(f, sw, names)
		d.Subject = src.At("switch", sw.Name)
		return hcl.Diagnostics{d}
	}
	res := [4]int64{planned, pgLossy, egLossless, egLossy}
	sw.Pools = buildPools(f.QoS, sw.Buffer, names, headroom > 0, res)
	if d := wholePercentPools(sw, names, res); d != nil {
		d.Subject = src.At("switch", sw.Name)
		return hcl.Diagnostics{d}
	}
	return warnings
}

// buildPools makes the pools of one switch; res holds the reservations
// of the ingress lossless, ingress lossy, egress lossless and egress
// lossy pools.
//
// The egress lossless pool is the whole buffer, not a share: lossless
// traffic is held back at ingress by PFC, and an egress limit on it could
// only drop what PFC promised not to. NVIDIA's "Lossless RoCE
// Configuration for MLNX-OS Switches in DSCP-Based QoS Mode (advanced
// mode)" writes `pool ePool1 size 16777000` (the whole 16 MB) beside
// 5 MB for each other pool, and SONiC's Spectrum t1 buffers
// (ACS-MSN2700 buffers_defaults_t1.j2) give egress_lossless_pool_size
// 13945824, all usable memory, beside 3302912 for each other pool.
func buildPools(q model.QoS, b model.BufferBudget, n poolNames, hasLossless bool, res [4]int64) []model.BufferPool {
	losslessPrio, lossyPrio := poolPriorities(q)
	half := b.SharedBytes / 2
	lossyShare := b.SharedBytes - half
	if !hasLossless {
		lossyShare = b.SharedBytes
	}
	pools := []model.BufferPool{
		pool(n.inLossy, "ingress", "lossy", res[1]+lossyShare, b.TotalBytes, lossyPrio),
		pool(n.egLossy, "egress", "lossy", res[3]+lossyShare, b.TotalBytes, lossyPrio),
	}
	if hasLossless {
		pools = append(pools,
			pool(n.inLossless, "ingress", "lossless", res[0]+half, b.TotalBytes, losslessPrio),
			pool(n.egLossless, "egress", "lossless", b.TotalBytes, b.TotalBytes, losslessPrio))
	}
	sort.SliceStable(pools, func(i, j int) bool {
		if pools[i].Direction != pools[j].Direction {
			return pools[i].Direction == "ingress"
		}
		return pools[i].Name < pools[j].Name
	})
	return pools
}

// pool builds one dynamic pool with its share of the total to one decimal.
func pool(name, dir, typ string, size, total int64, prios []int) model.BufferPool {
	pct := 0.0
	if total > 0 {
		pct = math.Round(float64(size)*1000/float64(total)) / 10
	}
	return model.BufferPool{Name: name, Direction: dir, Type: typ, SizeBytes: size, Percent: pct, Mode: "dynamic", Priorities: prios}
}

// poolPriorities splits priorities 0-7 into the lossless ones (those of
// lossless classes) and the rest.
func poolPriorities(q model.QoS) (lossless, lossy []int) {
	var set prioritySet
	for _, c := range q.Classes {
		if c.Lossless {
			set.add(c.Priorities...)
		}
	}
	for p := 0; p < 8; p++ {
		if set.has(p) {
			lossless = append(lossless, p)
		}
	}
	return lossless, set.complement()
}

// budgetError reports a switch whose reservations exceed its buffer. It
// gives the headroom at the cables the switch has and at the planning
// length, and the levers that work: a planning_length down to the
// longest cable when the pools would then fit, and otherwise the
// traffic assumptions, the lossless classes and ports, the MTU and the
// switch.
func budgetError(f *model.Fabric, sw *model.Switch, n poolNames) *hcl.Diagnostic {
	b := sw.Buffer
	lossless := 0
	var maxCable float64
	for _, p := range sw.Ports {
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				lossless++
				maxCable = math.Max(maxCable, pg.Headroom.CableMeters)
			}
		}
	}
	avail := b.TotalBytes - b.ReservedBytes
	levers := "lower small_packet_percent in qos { headroom { } } if the lossless traffic is mostly large frames, use fewer lossless classes or lossless ports, a smaller port MTU, or a switch with a larger buffer"
	advice := "Even at the cables you have the headroom does not fit, so a shorter planning length cannot help: " + levers + "."
	if maxCable < b.PlanningCableMeters && plannedHeadroom(f, sw, maxCable) <= avail {
		advice = fmt.Sprintf("At the cables you have it fits: plan the pools for them with qos { headroom { planning_length = %g } } (at least the longest cable; recabling a port longer than it then resizes the pools), or %s.", maxCable, levers)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Buffer budget exceeded",
		Detail: fmt.Sprintf("Switch %q (%s, %s, %d bytes of usable buffer): pool %q must hold the PFC headroom of %d lossless priority groups, %d bytes at the cables you have (longest here: %g m) and %d bytes at the planning length of %g m, but only %d bytes are left after %d bytes of other reservations. %s",
			sw.Name, sw.Hardware.Model, sw.Hardware.ASIC, b.TotalBytes, n.inLossless, lossless, b.HeadroomBytes, maxCable, b.HeadroomReserveBytes, b.PlanningCableMeters, avail, b.ReservedBytes, advice),
	}
}
