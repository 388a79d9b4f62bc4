package cumulus

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// profileDefault is NVUE's built-in profile that applies to every port.
const profileDefault = "default-global"

// joinInts prints numbers as an NVUE list: "0,1,2".
func joinInts(xs []int) string { return targets.JoinInts(xs, ",") }

// trustKeyword maps the model's trust to `qos mapping <p> trust` (l2, l3,
// both; NVUE reference "nv set qos mapping <profile-id> trust").
func trustKeyword(t model.Trust) (string, error) {
	switch t {
	case model.TrustDSCP:
		return "l3", nil
	case model.TrustPCP:
		return "l2", nil
	case model.TrustBoth:
		return "both", nil
	}
	return "", fmt.Errorf("trust %q is not dscp, pcp or both", t)
}

// alphaKeywords maps the model's shared alpha to NVUE's enum (NVUE
// reference, "advance-buffer-config ... shared-alpha": alpha_0 ..
// alpha_infinity).
var alphaKeywords = map[string]string{
	"0": "alpha_0", "1/128": "alpha_1_128", "1/64": "alpha_1_64", "1/32": "alpha_1_32",
	"1/16": "alpha_1_16", "1/8": "alpha_1_8", "1/4": "alpha_1_4", "1/2": "alpha_1_2",
	"1": "alpha_1", "2": "alpha_2", "4": "alpha_4", "8": "alpha_8", "16": "alpha_16",
	"32": "alpha_32", "64": "alpha_64", "inf": "alpha_infinity",
}

// alphaKeyword converts "1/8" to "alpha_1_8".
func alphaKeyword(a string) (string, error) {
	if kw, ok := alphaKeywords[a]; ok {
		return kw, nil
	}
	return "", fmt.Errorf("shared alpha %q is not one of 0, 1/128 .. 1/2, 1 .. 64, inf", a)
}

// checkQoS rejects maps that are not complete.
func checkQoS(q *model.QoS) error { return targets.CheckQoSMaps(q) }

// renderBridge declares the fabric VLANs on the VLAN-aware bridge.
func renderBridge(p *plan, f *model.Fabric) {
	if len(f.VLANs) == 0 {
		return
	}
	p.at()
	p.sectionf("VLANs on the VLAN-aware bridge br_default")
	ids := make([]int, len(f.VLANs))
	var names []string
	for i, v := range f.VLANs {
		p.also("vlan", strconv.Itoa(v.ID))
		ids[i] = v.ID
		if v.Name != "" {
			names = append(names, fmt.Sprintf("%d %s", v.ID, v.Name))
		}
	}
	p.member("bridge domain br_default vlan " + joinInts(ids))
	if len(names) > 0 {
		p.notef("NVUE bridge VLANs carry no name; fabric VLAN names: %s", strings.Join(names, ", "))
	}
}

// renderMapping writes trust and the DSCP/PCP -> switch priority maps. The
// first port's trust goes in default-global (all ports); a port that trusts
// something else gets a custom profile "trust-<kw>" holding the same maps
// (QoS guide, "Port Groups": custom mapping profiles per interface). It
// returns the profile to attach per port ("" for default-global).
func renderMapping(p *plan, q *model.QoS, ports []model.Port) ([]string, error) {
	p.at()
	p.sectionf("Trust and DSCP/PCP -> switch priority maps")
	attach := make([]string, len(ports))
	var order []string
	kwOf := map[string]string{}
	for i, port := range ports {
		kw, err := trustKeyword(port.Trust)
		if err != nil {
			return nil, fmt.Errorf("port %s: %v", port.Name, err)
		}
		name := profileDefault
		if len(order) > 0 && kwOf[profileDefault] != kw {
			name = "trust-" + kw
			attach[i] = name
		}
		if _, seen := kwOf[name]; !seen {
			kwOf[name] = kw
			order = append(order, name)
		}
	}
	for _, name := range order {
		writeMapping(p, name, kwOf[name], q)
	}
	return attach, nil
}

// writeMapping writes one mapping profile.
func writeMapping(p *plan, name, kw string, q *model.QoS) {
	p.at("qos")
	p.set("qos mapping "+name+" trust", kw)
	if kw == "l3" || kw == "both" {
		for sp := 0; sp < 8; sp++ {
			var dscp []int
			for d, to := range q.DSCPToPriority {
				if to == sp {
					dscp = append(dscp, d)
				}
			}
			if len(dscp) > 0 {
				p.set(fmt.Sprintf("qos mapping %s dscp %s switch-priority", name, joinInts(dscp)), sp)
			}
		}
	}
	if kw == "l2" || kw == "both" {
		p.commentf("PCP n -> switch priority n: the model's class priority is both the 802.1p PCP and the switch priority")
		for pcp := 0; pcp < 8; pcp++ {
			p.set(fmt.Sprintf("qos mapping %s pcp %d switch-priority", name, pcp), pcp)
		}
	}
}

// renderEgressMapping writes switch priority -> traffic class; NVUE only
// supports default-global here (QoS guide, "Egress Queues").
func renderEgressMapping(p *plan, q *model.QoS) {
	p.at()
	p.sectionf("Switch priority -> traffic class (egress queue)")
	p.at("qos")
	for sp, tc := range q.PriorityToTC {
		p.set(fmt.Sprintf("qos egress-queue-mapping %s switch-priority %d traffic-class", profileDefault, sp), tc)
	}
}

// renderScheduler writes ETS: DWRR bandwidth percent or strict per
// class, and every other traffic class of default-global explicitly,
// as SchedulerETS gives them. Each line a class's share differs from the
// model's says why in a comment.
func renderScheduler(p *plan, q *model.QoS) error {
	p.at()
	p.sectionf("ETS: egress scheduler per traffic class")
	ets, idle, err := SchedulerETS(q)
	if err != nil {
		return err
	}
	for _, c := range q.Classes {
		p.at("qos", "class", c.Name, "ets")
		if c.ETS.Mode == model.ETSStrict {
			p.set(schedulerPath(c.TrafficClass)+" mode", "strict")
			continue
		}
		pct := ets[c.TrafficClass].BandwidthPercent
		if pct != c.ETS.BandwidthPercent {
			p.commentf("class %s: %d %% of the model's %d %% go to the idle traffic classes, 1 %% each (DWRR takes 1-100 and the profile sums to 100 at most)", c.Name, c.ETS.BandwidthPercent-pct, c.ETS.BandwidthPercent)
		}
		setDWRR(p, c.TrafficClass, pct)
	}
	if len(idle) == 0 {
		return nil
	}
	p.at("qos")
	p.commentf("traffic classes %s carry no class and no switch priority: DWRR at the least share NVUE takes, 1 %% each, not their default 12-13 %%", joinInts(idle))
	for _, tc := range idle {
		setDWRR(p, tc, IdleETS.BandwidthPercent)
	}
	return nil
}

// setDWRR writes default-global's traffic class tc as DWRR with share pct.
func setDWRR(p *plan, tc, pct int) {
	p.set(schedulerPath(tc)+" mode", "dwrr")
	p.set(schedulerPath(tc)+" bw-percent", pct)
}

// schedulerPath is default-global's scheduler entry of traffic class tc.
func schedulerPath(tc int) string {
	return fmt.Sprintf("qos egress-scheduler %s traffic-class %d", profileDefault, tc)
}

// IdleETS is the scheduling fabricc writes for a traffic class no class
// uses: DWRR at 1 %, the least share NVUE takes (SchedulerETS says why).
var IdleETS = model.ETS{Mode: model.ETSWRR, BandwidthPercent: 1}

// SchedulerETS is the egress scheduling fabricc writes in default-global
// for each traffic class 0-7 a class or an idle traffic class uses.
//
// Cumulus Linux 5.9 User Guide, Quality of Service, "Egress Scheduler":
// "In dwrr mode, you must define a bandwidth percent value between 1 and
// 100", and "The combined total of values you assign to bw_percent must
// be less than or equal to 100"; in qos_features.conf, which NVUE
// writes, "If you specify a value of 0 for an egress queue, Cumulus
// Linux assigns strict priority mode to the egress queue". So an idle
// traffic class can be neither DWRR 0 (undocumented in NVUE, strict in
// the file) nor left unset (default-global's default gives each queue 12
// or 13 %, which with the model's shares, already 100 %, makes more than
// 100), nor strict (an empty queue ahead of every DWRR queue, and the
// guide warns strict "can lead to starvation of other queues"). Each idle
// class gets DWRR 1 % (IdleETS), taken from the classes' shares: from
// the lossy DWRR classes first, the largest share first, each kept at 1 %
// or more, so a lossless class keeps its share exactly wherever a lossy
// class can give. DWRR is work conserving: an idle queue's 1 % goes to
// the queues with traffic, so their shares relative to one another move
// by at most the points taken. No frame reaches an idle queue: the
// egress-queue-mapping sends every switch priority to a class's traffic
// class. idle is IdleTrafficClasses(q), which the scheduler lists too.
func SchedulerETS(q *model.QoS) (ets map[int]model.ETS, idle []int, err error) {
	ets = map[int]model.ETS{}
	var donors []int // indexes in q.Classes of the DWRR classes
	total := 0
	for i, c := range q.Classes {
		switch c.ETS.Mode {
		case model.ETSStrict:
			ets[c.TrafficClass] = model.ETS{Mode: model.ETSStrict}
		case model.ETSWRR:
			if c.ETS.BandwidthPercent < 1 || c.ETS.BandwidthPercent > 100 {
				return nil, nil, fmt.Errorf("class %q: NVUE dwrr bw-percent must be 1-100, the model gives %d", c.Name, c.ETS.BandwidthPercent)
			}
			ets[c.TrafficClass] = c.ETS
			donors = append(donors, i)
			total += c.ETS.BandwidthPercent
		default:
			return nil, nil, fmt.Errorf("class %q: ETS mode %q is not strict or wrr", c.Name, c.ETS.Mode)
		}
	}
	idle = IdleTrafficClasses(q)
	for _, tc := range idle {
		ets[tc] = IdleETS
	}
	need := total + len(idle)*IdleETS.BandwidthPercent - 100
	sort.SliceStable(donors, func(a, b int) bool {
		ca, cb := q.Classes[donors[a]], q.Classes[donors[b]]
		if ca.Lossless != cb.Lossless {
			return !ca.Lossless
		}
		return ca.ETS.BandwidthPercent > cb.ETS.BandwidthPercent
	})
	for _, i := range donors {
		if need <= 0 {
			break
		}
		tc := q.Classes[i].TrafficClass
		e := ets[tc]
		give := min(need, e.BandwidthPercent-1)
		e.BandwidthPercent -= give
		ets[tc] = e
		need -= give
	}
	if need > 0 {
		return nil, nil, fmt.Errorf("the DWRR shares of the classes leave no 1 %% for each of the idle traffic classes %s; NVUE's egress scheduler sums to 100 %% at most", joinInts(idle))
	}
	return ets, idle, nil
}

// IdleTrafficClasses are the traffic classes 0-7 that no class of q
// uses and no switch priority maps to, in order. (The compiler's one
// default class takes every priority no other class names, so a class's
// traffic class is the only one a priority maps to.)
func IdleTrafficClasses(q *model.QoS) []int {
	used := map[int]bool{}
	for _, c := range q.Classes {
		used[c.TrafficClass] = true
	}
	for _, tc := range q.PriorityToTC {
		used[tc] = true
	}
	var idle []int
	for tc := 0; tc < 8; tc++ {
		if !used[tc] {
			idle = append(idle, tc)
		}
	}
	return idle
}

// renderECN writes ECN marking per class. NVUE's default-global marks ECN
// on traffic class 0 out of the box (QoS guide, "Congestion Control"), so a
// class without ECN in the model is switched off explicitly, and so is
// every idle traffic class (idleECN).
func renderECN(p *plan, q *model.QoS, t target) error {
	p.at()
	p.sectionf("ECN (WRED marking) per traffic class; thresholds in bytes, as NVUE takes them")
	for _, c := range q.Classes {
		p.at("qos", "class", c.Name, "ecn")
		base := fmt.Sprintf("qos congestion-control %s traffic-class %d", profileDefault, c.TrafficClass)
		if c.ECN == nil {
			p.set(base+" ecn", t.ecnOff)
			continue
		}
		e := c.ECN
		if e.MarkProbabilityPercent < 1 || e.MarkProbabilityPercent > 100 {
			return fmt.Errorf("class %q: NVUE ECN probability must be 1-100, the model gives %d", c.Name, e.MarkProbabilityPercent)
		}
		if e.MinBytes <= 0 || e.MaxBytes < e.MinBytes {
			return fmt.Errorf("class %q: ECN thresholds %d/%d B need 0 < min <= max", c.Name, e.MinBytes, e.MaxBytes)
		}
		p.set(base+" min-threshold", e.MinBytes)
		p.set(base+" max-threshold", e.MaxBytes)
		p.set(base+" probability", e.MarkProbabilityPercent)
		p.set(base+" ecn", t.ecnOn)
		// Marking only: the model has no RED drop, and a lossless class
		// must not drop.
		p.set(base+" red", t.ecnOff)
	}
	idleECN(p, q, t)
	return nil
}

// idleECN switches ECN marking off on the traffic classes no class uses
// (IdleTrafficClasses), as renderScheduler writes their ETS: a patch
// only adds, so a class removed from the fabric (docs/changes.md, moving
// the lossless priority, step 3, or the rollback of its step 1) left its
// `ecn enable` and thresholds in default-global, the switch went on
// marking that queue, and verification, which compares ECN on all eight
// traffic classes of the profile fabricc owns, failed. `ecn disable` is
// the documented off state ("Enables and disables ECN bit marking for
// the traffic class": NVUE Command Reference, Set and Unset Commands,
// QoS, `nv set qos congestion-control <profile-id> traffic-class
// <qos-tc-id> ecn`, since 5.3.0); an unset would instead return the
// class to NVUE's default, which marks traffic class 0, so the off
// state would depend on which class went idle. The thresholds an earlier
// class left stay, unused while marking is off.
func idleECN(p *plan, q *model.QoS, t target) {
	idle := IdleTrafficClasses(q)
	if len(idle) == 0 {
		return
	}
	p.at("qos")
	p.commentf("traffic classes %s carry no class and no switch priority: no ECN marking, whatever an earlier fabric set", joinInts(idle))
	for _, tc := range idle {
		p.set(fmt.Sprintf("qos congestion-control %s traffic-class %d ecn", profileDefault, tc), t.ecnOff)
	}
}

// nvuePool names the NVUE traffic pool for an ingress pool type (QoS
// guide, "Flow Control Buffers": default-lossless, default-lossy).
var nvuePool = map[string]string{"lossless": "default-lossless", "lossy": "default-lossy"}

// PoolPercent is the memory-percent fabricc writes for a pool: NVUE takes
// a whole percent and the traffic pools must sum to 100 or less, so the
// model's share is rounded down. The compiler has made every share hold
// its pool's reservations after this rounding (compiler
// wholePercentPools), rounding a pool up in the model where needed.
func PoolPercent(pool model.BufferPool) int { return int(math.Floor(pool.Percent)) }

// TrafficPool is the NVUE traffic pool whose memory-percent fabricc
// writes from pools[i], and false where it writes none: an egress pool
// (a traffic pool sizes ingress and egress together; EgressPool writes
// egress pools), a type NVUE has no traffic pool for, or an ingress pool
// of a type whose traffic pool an earlier pool already sizes.
func TrafficPool(pools []model.BufferPool, i int) (string, bool) {
	return firstOfType(pools, i, "ingress")
}

// firstOfType is the NVUE traffic pool of pools[i]'s type when pools[i]
// is the first pool of that type in direction dir, and false otherwise.
func firstOfType(pools []model.BufferPool, i int, dir string) (string, bool) {
	name, ok := nvuePool[pools[i].Type]
	if pools[i].Direction != dir || !ok {
		return "", false
	}
	for _, q := range pools[:i] {
		if q.Direction == dir && nvuePool[q.Type] == name {
			return "", false
		}
	}
	return name, true
}

// servicePool is the advance-buffer-config service pool a traffic pool
// sizes, in both directions: "default-lossy memory-percent" is
// ingress-pool 0 and egress-pool 0, "default-lossless memory-percent"
// ingress-pool 1 and egress-pool 1 (Cumulus Linux 5.9 User Guide,
// Quality of Service, "Advanced Buffer Tuning", the table of default
// traffic pools and advanced buffer properties).
var servicePool = map[string]int{"default-lossy": 0, "default-lossless": 1}

// egressPool is what fabricc writes for pools[i], the first egress pool
// of NVUE pool name (firstOfType), and false where it writes nothing: a
// release before advance-buffer-config (5.4). A pool of the whole buffer
// is `infinite true` (the pool infinite flag, "Advanced Buffer Tuning",
// Service Pools), not memory-percent 100: "The sum of memory-percent
// values across all egress pools must be less than or equal to 100
// percent", and egress pool 0 keeps the lossy share.
func egressPool(pools []model.BufferPool, i int, name string, t target) (EgressPoolWrite, bool) {
	if !t.rel.atLeast(sinceAdvanceBuffer) {
		return EgressPoolWrite{}, false
	}
	w := EgressPoolWrite{Keyword: t.egressPool(), ID: servicePool[name], TrafficPool: name, TrafficPercent: trafficPercent(pools, name)}
	if pools[i].Percent >= 100 {
		w.Infinite = true
		return w, true
	}
	if pct := PoolPercent(pools[i]); pct != w.TrafficPercent {
		w.MemoryPercent = pct
	}
	return w, true
}

// writtenEgressPool is egressPool of pools[i] when it is the first
// egress pool of its type, and false where fabricc writes nothing for
// it: an ingress pool, an egress pool after the first of its type, a
// release before advance-buffer-config (5.4).
func writtenEgressPool(pools []model.BufferPool, i int, t target) (EgressPoolWrite, bool) {
	name, ok := firstOfType(pools, i, "egress")
	if !ok {
		return EgressPoolWrite{}, false
	}
	return egressPool(pools, i, name, t)
}

// trafficPercent is the memory-percent fabricc writes for traffic pool
// name, and -1 where it writes none.
func trafficPercent(pools []model.BufferPool, name string) int {
	for i := range pools {
		if tp, ok := TrafficPool(pools, i); ok && tp == name {
			return PoolPercent(pools[i])
		}
	}
	return -1
}

// renderPools writes traffic-pool memory-percent and switch priorities
// for the ingress pools, then the egress pools.
func renderPools(p *plan, sw string, pools []model.BufferPool, t target) error {
	if len(pools) == 0 {
		return nil
	}
	p.at()
	p.sectionf("Buffer pools (traffic-pool, egress pools under advance-buffer-config); memory-percent is a whole percent and the pools must sum to 100 or less, so fabricc rounds down")
	for i, pool := range pools {
		if pool.Direction == "egress" {
			continue
		}
		p.at("switch", sw, "pool", pool.Name, pool.Direction)
		name, ok := TrafficPool(pools, i)
		if !ok {
			p.notef("pool %s (%s %s, %d B, %.1f%%, %s, priorities %s) has no NVUE traffic-pool: fabricc writes one traffic pool per type", pool.Name, pool.Direction, pool.Type, pool.SizeBytes, pool.Percent, pool.Mode, joinInts(pool.Priorities))
			continue
		}
		writeTrafficPool(p, name, pool)
	}
	return renderEgressPools(p, sw, pools, t)
}

// writeTrafficPool writes one traffic pool's share and priorities.
func writeTrafficPool(p *plan, name string, pool model.BufferPool) {
	pct := PoolPercent(pool)
	if float64(pct) != pool.Percent {
		p.commentf("pool %s: %.1f%% of the buffer rounds down to %d%%", pool.Name, pool.Percent, pct)
	}
	p.set("qos traffic-pool "+name+" memory-percent", pct)
	if len(pool.Priorities) > 0 {
		// `nv set` and a patch only add members, so each pool's
		// list is cleared first (the script, and push before its
		// patch): the factory default-lossy holds switch priorities
		// 0-7 (`nv config show` of a fresh 5.5 switch), and
		// default-lossless keeps the lossless priorities of an
		// earlier fabric (priority 3 stayed there after a change to
		// 4, and the lossless pool then held 3,4).
		p.unsetPath("qos traffic-pool " + name + " switch-priority")
		p.member("qos traffic-pool " + name + " switch-priority " + joinInts(pool.Priorities))
	}
	if pool.Mode != "" && pool.Mode != "dynamic" {
		p.notef("pool %s is %s; NVUE traffic pools are dynamic (alpha based)", pool.Name, pool.Mode)
	}
}

// renderEgressPools writes the egress pools as egressPool gives them: a
// traffic pool's memory-percent sizes its egress service pool too, so an
// egress pool of another size is written under advance-buffer-config.
func renderEgressPools(p *plan, sw string, pools []model.BufferPool, t target) error {
	sum := 0
	for i, pool := range pools {
		if pool.Direction != "egress" {
			continue
		}
		p.at("switch", sw, "pool", pool.Name, pool.Direction)
		name, typed := firstOfType(pools, i, "egress")
		if !typed {
			p.notef("pool %s (%s %s, %d B, %.1f%%, %s, priorities %s) has no NVUE egress pool: fabricc writes one egress pool per type", pool.Name, pool.Direction, pool.Type, pool.SizeBytes, pool.Percent, pool.Mode, joinInts(pool.Priorities))
			continue
		}
		w, ok := egressPool(pools, i, name, t)
		if !ok {
			p.notef("pool %s (egress %s, %.1f%%) gets traffic-pool %s's memory-percent: an egress pool of its own needs advance-buffer-config (Cumulus Linux %s)", pool.Name, pool.Type, pool.Percent, name, sinceAdvanceBuffer)
			continue
		}
		base := "qos advance-buffer-config " + profileDefault + " " + w.Path()
		sum += commentEgressPool(p, pool, w)
		clearEgressPool(p, base, w)
		if w.Infinite {
			p.set(base+" infinite", true)
		} else if w.MemoryPercent > 0 {
			p.set(base+" memory-percent", w.MemoryPercent)
		}
		if pool.Mode != "" && pool.Mode != "dynamic" {
			p.notef("pool %s is %s; fabricc leaves NVUE egress pool %d dynamic (alpha based)", pool.Name, pool.Mode, w.ID)
		}
	}
	if sum > 100 {
		return fmt.Errorf("the egress pools' memory-percent sum to %d; NVUE takes 100 at most (Cumulus Linux 5.9 User Guide, Quality of Service, \"Advanced Buffer Tuning\")", sum)
	}
	return nil
}

// commentEgressPool says where the size of egress pool w, written for
// pool, comes from, and returns the memory-percent it takes of the 100
// the egress pools share: an infinite pool its traffic pool's, which
// sizes the egress pool too.
func commentEgressPool(p *plan, pool model.BufferPool, w EgressPoolWrite) int {
	switch {
	case w.Infinite:
		p.commentf("pool %s: the whole buffer, dynamic, so that a frame admitted to a lossless PG is not dropped at egress; traffic-pool %s sizes egress pool %d too, and the egress pools sum to 100 %% at most, so the pool is infinite", pool.Name, w.TrafficPool, w.ID)
		return max(w.TrafficPercent, 0)
	case w.MemoryPercent > 0:
		p.commentf("pool %s: %.1f%% of the buffer, not the %d%% traffic-pool %s gives egress pool %d", pool.Name, pool.Percent, w.TrafficPercent, w.TrafficPool, w.ID)
		return w.MemoryPercent
	}
	p.commentf("pool %s: egress pool %d gets traffic-pool %s's %d%%", pool.Name, w.ID, w.TrafficPool, w.TrafficPercent)
	return w.TrafficPercent
}

// clearEgressPool unsets the egress pool settings w does not write, so
// that an `infinite` or `memory-percent` an earlier fabric wrote does not
// stay (a patch and nv set only add): push verification compares both
// (EgressPools), and a leftover would fail every push of the switch.
func clearEgressPool(p *plan, base string, w EgressPoolWrite) {
	if !w.Infinite {
		p.unsetPath(base + " infinite")
	}
	if w.MemoryPercent == 0 {
		p.unsetPath(base + " memory-percent")
	}
}

// EgressPoolSetting is what fabricc writes for one NVUE egress service
// pool under `qos advance-buffer-config default-global egress-pool
// <ID>` (egress-service-pool from 5.11): Infinite is `infinite true`,
// MemoryPercent `memory-percent N`; neither is set (the zero value) where
// the pool keeps its traffic pool's memory-percent.
type EgressPoolSetting struct {
	Infinite      bool
	MemoryPercent int
}

// EgressPoolWrite is what renderEgressPools writes for one egress pool
// of the model, with the names plan output uses: Keyword and ID name the
// service pool (`egress-pool 0`; `egress-service-pool 0` from 5.11), and
// TrafficPool and TrafficPercent the NVUE traffic pool whose
// memory-percent sizes it where the setting is the zero value
// (TrafficPercent -1 where fabricc writes none).
type EgressPoolWrite struct {
	EgressPoolSetting
	Keyword        string
	ID             int
	TrafficPool    string
	TrafficPercent int
}

// Path is the pool's path below `qos advance-buffer-config
// default-global`: "egress-pool 0".
func (w EgressPoolWrite) Path() string { return fmt.Sprintf("%s %d", w.Keyword, w.ID) }

// WrittenEgressPool is what fabricc writes for sw.Pools[i], by the
// renderer's own rule (writtenEgressPool), and false where it writes
// nothing for it: an ingress pool, an egress pool after the first of its
// type, a release before advance-buffer-config (5.4), an os_version that
// does not parse (Render refuses it too).
func WrittenEgressPool(sw *model.Switch, i int) (EgressPoolWrite, bool) {
	t, err := newTarget(sw.OSVersion)
	if err != nil {
		return EgressPoolWrite{}, false
	}
	return writtenEgressPool(sw.Pools, i, t)
}

// EgressPools are the egress service pools renderEgressPools writes for
// sw, by pool ID, each as writtenEgressPool gives it (the zero setting
// where the traffic pool's share is kept, so a leftover `infinite` or
// `memory-percent` is a difference), for push verification to compare
// with what the switch holds; nil where fabricc writes none: a release
// before advance-buffer-config (5.4), an os_version that does not parse
// (Render refuses it too), no egress pool in the model.
func EgressPools(sw *model.Switch) map[int]EgressPoolSetting {
	t, err := newTarget(sw.OSVersion)
	if err != nil {
		return nil
	}
	var out map[int]EgressPoolSetting
	for i := range sw.Pools {
		w, ok := writtenEgressPool(sw.Pools, i, t)
		if !ok {
			continue
		}
		if out == nil {
			out = map[int]EgressPoolSetting{}
		}
		out[w.ID] = w.EgressPoolSetting
	}
	return out
}
