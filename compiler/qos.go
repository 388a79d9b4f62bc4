package compiler

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// Headroom policy defaults. When lossless_mtu is not written, each port
// takes the largest RoCE path MTU of the NICs it receives lossless
// traffic from (losslessMTUs), 4096 B when it knows none: SONiC's
// LOSSLESS_TRAFFIC_PATTERN mtu 1024 (sonic-buildimage buffers_config.j2)
// is a fallback for a switch that cannot see its NICs, and is 3 KB short
// for every NIC of MTU 4192 and up. The small-packet share is the worst case, 100 %:
// NVIDIA's static headroom tables for Spectrum assume every packet is
// small, while SONiC's dynamic default of 50 % (same file) gives up to 58 %
// less headroom on long cables and Spectrum-4. A fabric that knows its
// traffic may lower it with qos.headroom.small_packet_percent.
const (
	defaultLosslessMTU        = model.MaxRoCEPathMTU
	defaultSmallPacketPercent = 100
)

// lowerQoS resolves the qos block (or the default profile) into
// l.f.QoS and indexes the classes by name.
func (l *lowering) lowerQoS() {
	q := l.cfg.QoS
	if q == nil {
		q = &dsl.QoS{}
	}
	l.src.Set(q.DefRange, "qos")
	l.src.Set(q.ProfileRange, "qos", "profile")
	l.src.Set(q.RoCEClassRange, "qos", "roce_class")
	l.src.Set(q.CNPClassRange, "qos", "cnp_class")
	profile, ok := l.qosProfile(q)
	if !ok {
		return // an unknown profile would only cause follow-on errors
	}
	specs := l.mergeClasses(q, profile)
	apart := cnpApart(q, specs)
	var classes []model.Class
	for i := range specs {
		if c, ok := l.resolveClass(&specs[i], specs[i].Name == apart); ok {
			classes = append(classes, c)
		}
	}
	l.classes = map[string]*model.Class{}
	if len(classes) != len(specs) {
		return // errors reported; the maps below would only add noise
	}
	if !l.checkClassSet(q, specs, classes) {
		return
	}
	fillDefaultClass(specs, classes)
	sort.SliceStable(classes, func(i, j int) bool { return classes[i].TrafficClass < classes[j].TrafficClass })
	l.f.QoS.Classes = classes
	for i := range l.f.QoS.Classes {
		l.classes[classes[i].Name] = &l.f.QoS.Classes[i]
	}
	l.buildMaps()
	l.pickRoCEClass(q, specs, apart)
	l.pickCNPClass(q, specs)
	l.warnLosslessStrict(specs, l.f.QoS.CNPClass)
	l.lowerHeadroom(q.Headroom)
}

// qosProfile returns the profile's classes and records its name. A qos
// block that is absent, or has neither a profile nor classes, means the
// "nvidia-roce" profile.
func (l *lowering) qosProfile(q *dsl.QoS) ([]classSpec, bool) {
	name := profileNVIDIARoCE
	switch {
	case q.Profile != nil:
		name = *q.Profile
	case len(q.Classes) > 0:
		name = profileNone
	}
	switch name {
	case profileNVIDIARoCE:
		l.f.QoS.Profile = name
		specs := nvidiaRoCE()
		for i := range specs {
			// Profile classes point at the profile attribute (or the qos
			// block) until a class block overrides them.
			specs[i].DefRange = q.ProfileRange.Or(q.DefRange)
		}
		return specs, true
	case profileNone:
		return nil, true
	}
	l.errorf(q.ProfileRange.Or(q.DefRange), "Unknown QoS profile",
		"profile %q is not a built-in profile; write %s.%s", name, dsl.QuoteList(profiles), didYouMean(name, profiles))
	return nil, false
}

// mergeClasses lays the written class blocks over the profile's classes:
// a block named like a profile class changes only the attributes it sets,
// any other block adds a class. Declaration order is kept.
func (l *lowering) mergeClasses(q *dsl.QoS, specs []classSpec) []classSpec {
	seen := map[string]dsl.Range{}
	for _, c := range q.Classes {
		if first, dup := seen[c.Name]; dup {
			d := l.errorf(c.DefRange, "Duplicate class", "class %q is declared twice; merge the two blocks.", c.Name)
			also(d, fmt.Sprintf("class %q is first declared here", c.Name), first)
			continue
		}
		seen[c.Name] = c.DefRange
		i := indexOfClass(specs, c.Name)
		if i < 0 {
			specs = append(specs, classSpec{Class: c})
			continue
		}
		overlayClass(&specs[i].Class, c)
	}
	return specs
}

// indexOfClass finds the class named name in specs, or returns -1.
func indexOfClass(specs []classSpec, name string) int {
	for i := range specs {
		if specs[i].Name == name {
			return i
		}
	}
	return -1
}

// overlayClass copies every attribute o sets onto c, with its range.
// Writing bandwidth without strict makes a strict profile class WRR, and
// writing strict = true drops the profile's bandwidth.
func overlayClass(c *dsl.Class, o dsl.Class) {
	c.DefRange, c.LabelRange = o.DefRange, o.LabelRange
	if o.Priority != nil {
		c.Priority, c.PriorityRange = o.Priority, o.PriorityRange
	}
	if o.Priorities != nil {
		c.Priorities, c.PrioritiesRange = o.Priorities, o.PrioritiesRange
	}
	if o.TrafficClass != nil {
		c.TrafficClass, c.TrafficClassRange = o.TrafficClass, o.TrafficClassRange
	}
	if o.DSCP != nil {
		c.DSCP, c.DSCPRange = o.DSCP, o.DSCPRange
	}
	if o.Lossless != nil {
		c.Lossless = o.Lossless
	}
	if o.Default != nil {
		c.Default = o.Default
	}
	overlaySchedule(c, o)
	if o.ECN != nil {
		if c.ECN == nil {
			c.ECN = &dsl.ECN{}
		}
		overlayECN(c.ECN, *o.ECN)
	}
}

// overlaySchedule applies strict and bandwidth from o.
func overlaySchedule(c *dsl.Class, o dsl.Class) {
	if o.Bandwidth != nil && o.Strict == nil {
		c.Strict = nil
	}
	if o.Strict != nil && *o.Strict && o.Bandwidth == nil {
		c.Bandwidth, c.BandwidthRange = nil, dsl.Range{}
	}
	if o.Strict != nil {
		c.Strict = o.Strict
	}
	if o.Bandwidth != nil {
		c.Bandwidth, c.BandwidthRange = o.Bandwidth, o.BandwidthRange
	}
}

// overlayECN copies every ECN attribute o sets onto e.
func overlayECN(e *dsl.ECN, o dsl.ECN) {
	e.DefRange = o.DefRange
	if o.Min != nil {
		e.Min, e.MinRange = o.Min, o.MinRange
	}
	if o.Max != nil {
		e.Max, e.MaxRange = o.Max, o.MaxRange
	}
	if o.Probability != nil {
		e.Probability, e.ProbabilityRange = o.Probability, o.ProbabilityRange
	}
}

// resolveClass turns one merged class into a model class, reporting every
// missing or out-of-range value. The default class's extra priorities and
// DSCP values are filled later by fillDefaultClass. A lossless CNP class
// apart from the RoCE class (cnpApart) is not told to add ECN: the CNP
// class checks say what is wrong with it.
func (l *lowering) resolveClass(s *classSpec, cnpApart bool) (model.Class, bool) {
	c := model.Class{Name: s.Name, CNP: s.cnp}
	l.recordClass(s)
	n := len(l.diags)
	if s.Priority == nil {
		l.errorf(s.DefRange, "Class has no priority",
			"class %q has no priority; set priority (0-7), or start from the built-in classes with profile = %q in the qos block.", s.Name, profileNVIDIARoCE)
	} else {
		c.Priority = *s.Priority
		l.checkRange(*s.Priority, 0, 7, s.PriorityRange, s.DefRange, "Invalid priority",
			"class %q priority %d is out of range; 802.1p priorities are 0-7.", s.Name)
	}
	for _, p := range s.Priorities {
		l.checkRange(p, 0, 7, s.PrioritiesRange, s.DefRange, "Invalid priority",
			"class %q priority %d is out of range; 802.1p priorities are 0-7.", s.Name)
	}
	c.Priorities = sortedUnique(append([]int{c.Priority}, s.Priorities...))
	c.TrafficClass = c.Priority
	if s.TrafficClass != nil {
		c.TrafficClass = *s.TrafficClass
		l.checkRange(c.TrafficClass, 0, 7, s.TrafficClassRange, s.DefRange, "Invalid traffic class",
			"class %q traffic_class %d is out of range; traffic classes (egress queues) are 0-7.", s.Name)
	}
	l.resolveDSCP(s, &c)
	c.Lossless = s.Lossless != nil && *s.Lossless
	c.ETS = l.resolveETS(s)
	c.ECN = l.resolveECN(s, c.Lossless && !cnpApart)
	return c, !l.failedSince(n)
}

// recordClass records the source ranges of a class.
func (l *lowering) recordClass(s *classSpec) {
	k := []string{"qos", "class", s.Name}
	l.src.Set(s.DefRange, k...)
	l.src.Set(s.PriorityRange, append(k, "priority")...)
	l.src.Set(s.PrioritiesRange, append(k, "priorities")...)
	l.src.Set(s.TrafficClassRange, append(k, "traffic_class")...)
	l.src.Set(s.DSCPRange, append(k, "dscp")...)
	l.src.Set(s.BandwidthRange, append(k, "bandwidth")...)
	if e := s.ECN; e != nil {
		l.src.Set(e.DefRange, append(k, "ecn")...)
		l.src.Set(e.MinRange, append(k, "ecn", "min")...)
		l.src.Set(e.MaxRange, append(k, "ecn", "max")...)
		l.src.Set(e.ProbabilityRange, append(k, "ecn", "probability")...)
	}
}

// checkRange reports v outside lo..hi at r (or fallback). detail takes
// the class name and v.
func (l *lowering) checkRange(v, lo, hi int, r, fallback dsl.Range, summary, detail, name string) bool {
	if v >= lo && v <= hi {
		return true
	}
	l.errorf(r.Or(fallback), summary, detail, name, v)
	return false
}

// resolveDSCP validates the class's DSCP values; the first written value
// is the marking.
func (l *lowering) resolveDSCP(s *classSpec, c *model.Class) {
	for _, v := range s.DSCP {
		l.checkRange(v, 0, 63, s.DSCPRange, s.DefRange, "Invalid DSCP",
			"class %q DSCP %d is out of range; DSCP values are 0-63.", s.Name)
	}
	c.DSCP = sortedUnique(s.DSCP)
	if len(s.DSCP) > 0 {
		c.MarkDSCP = s.DSCP[0]
		return
	}
	if s.Default == nil || !*s.Default {
		l.errorf(s.DefRange, "Class has no DSCP",
			"class %q has no dscp; list the DSCP values its traffic is marked with (the first is the one hosts mark), e.g. dscp = [26].", s.Name)
	}
}

// resolveETS reads strict and bandwidth into the class's ETS.
func (l *lowering) resolveETS(s *classSpec) model.ETS {
	strict := s.Strict != nil && *s.Strict
	switch {
	case strict && s.Bandwidth != nil:
		l.errorf(s.BandwidthRange.Or(s.DefRange), "Strict class with bandwidth",
			"class %q has strict = true and bandwidth = %d; a strict class is served first and has no WRR share. Remove one of the two.", s.Name, *s.Bandwidth)
	case strict:
		return model.ETS{Mode: model.ETSStrict}
	case s.Bandwidth == nil:
		l.errorf(s.DefRange, "Class has no bandwidth",
			"class %q is scheduled by WRR but has no bandwidth; set bandwidth (percent of the link) or strict = true.", s.Name)
	case *s.Bandwidth < 1 || *s.Bandwidth > 100:
		l.errorf(s.BandwidthRange.Or(s.DefRange), "Invalid bandwidth",
			"class %q bandwidth %d is out of range; write a percentage from 1 to 100.", s.Name, *s.Bandwidth)
	default:
		return model.ETS{Mode: model.ETSWRR, BandwidthPercent: *s.Bandwidth}
	}
	return model.ETS{}
}

// resolveECN parses the class's ECN thresholds; lossless classes must
// have them.
func (l *lowering) resolveECN(s *classSpec, lossless bool) *model.ECN {
	e := s.ECN
	if e == nil {
		if lossless {
			l.errorf(s.DefRange, "Lossless class without ECN",
				`class %q is lossless but has no ecn block; lossless classes need ECN marking (DCQCN) so senders slow down before PFC pauses the link. Add ecn { min = "150KB" max = "1500KB" }.`, s.Name)
		}
		return nil
	}
	out := &model.ECN{MarkProbabilityPercent: 100}
	out.MinBytes = l.ecnSize(s.Name, "min", e.Min, e.MinRange, e.DefRange)
	out.MaxBytes = l.ecnSize(s.Name, "max", e.Max, e.MaxRange, e.DefRange)
	if e.Probability != nil {
		out.MarkProbabilityPercent = *e.Probability
		l.checkRange(*e.Probability, 1, 100, e.ProbabilityRange, e.DefRange, "Invalid ECN probability",
			"class %q ecn probability %d is out of range; write a percentage from 1 to 100.", s.Name)
	}
	return out
}

// ecnSize parses one ECN threshold.
func (l *lowering) ecnSize(class, attr string, v *string, r, block dsl.Range) int64 {
	if v == nil {
		l.errorf(block, "Incomplete ECN", "class %q ecn has no %s; set both min and max (e.g. \"150KB\" and \"1500KB\").", class, attr)
		return 0
	}
	n, err := parseSize(*v)
	if err != nil {
		l.errorf(r.Or(block), "Invalid size", "class %q ecn %s: %s.", class, attr, err)
	}
	return n
}

// checkClassSet checks the classes against each other: each priority and
// DSCP in one class, one default class, distinct traffic classes, WRR
// shares summing to 100.
func (l *lowering) checkClassSet(q *dsl.QoS, specs []classSpec, classes []model.Class) bool {
	n := len(l.diags)
	l.checkDefaultClass(q, specs)
	l.checkUnique(specs, "Priority", "priority", func(s *classSpec) ([]int, dsl.Range) {
		return append([]int{*s.Priority}, s.Priorities...), s.PrioritiesRange.Or(s.PriorityRange.Or(s.DefRange))
	})
	l.checkUnique(specs, "DSCP", "DSCP", func(s *classSpec) ([]int, dsl.Range) { return s.DSCP, s.DSCPRange.Or(s.DefRange) })
	l.checkTrafficClasses(specs, classes)
	l.checkWRRSum(q, specs, classes)
	return !l.failedSince(n)
}

// checkDefaultClass requires exactly one class with default = true.
func (l *lowering) checkDefaultClass(q *dsl.QoS, specs []classSpec) {
	first := -1
	for i := range specs {
		if specs[i].Default == nil || !*specs[i].Default {
			continue
		}
		if first >= 0 {
			d := l.errorf(specs[i].DefRange, "Two default classes",
				"classes %q and %q both have default = true; exactly one class takes the DSCP values and priorities no other class names.", specs[first].Name, specs[i].Name)
			also(d, fmt.Sprintf("class %q is the default class", specs[first].Name), specs[first].DefRange)
			continue
		}
		first = i
	}
	if first < 0 {
		l.errorf(q.DefRange, "No default class",
			"No class has default = true; exactly one class must take the DSCP values and priorities no other class names.")
	}
}

// checkUnique reports a value (priority or DSCP) that two classes claim.
func (l *lowering) checkUnique(specs []classSpec, title, what string, values func(*classSpec) ([]int, dsl.Range)) {
	owner := map[int]int{}
	for i := range specs {
		vs, r := values(&specs[i])
		for _, v := range sortedUnique(vs) {
			j, dup := owner[v]
			if !dup {
				owner[v] = i
				continue
			}
			_, fr := values(&specs[j])
			fix := ""
			if what == "priority" {
				fix = freePriorities(specs, &specs[i], v)
			}
			d := l.errorf(r, title+" in two classes",
				"%s %d is in class %q and in class %q; each %s belongs to one class only.%s", what, v, specs[j].Name, specs[i].Name, what, fix)
			also(d, fmt.Sprintf("class %q has %s %d", specs[j].Name, what, v), fr)
		}
	}
}

// freePriorities tells class s, which names priority v another class
// has, which priorities no class names: ` Give class "storage" a
// priority no class names, 1, 2, 4, 5 or 7 (priority = 1, say); the
// class's dscp values follow it.` When v is in its priorities list, the
// fix is taking it out (or swapping it for a free one).
func freePriorities(specs []classSpec, s *classSpec, v int) string {
	var used [8]bool
	mark := func(p int) {
		if p >= 0 && p < 8 {
			used[p] = true
		}
	}
	for i := range specs {
		if specs[i].Priority != nil {
			mark(*specs[i].Priority)
		}
		for _, p := range specs[i].Priorities {
			mark(p)
		}
	}
	var free []int
	for p, u := range used {
		if !u {
			free = append(free, p)
		}
	}
	if s.Priority == nil || *s.Priority != v {
		fix := fmt.Sprintf(" Take %d out of class %q's priorities", v, s.Name)
		if len(free) > 0 {
			fix += fmt.Sprintf(", or put a priority no class names in its place (%s)", intsOr(free))
		}
		return fix + "."
	}
	if len(free) == 0 {
		return ""
	}
	return fmt.Sprintf(" Give class %q a priority no class names, %s (priority = %d, say); the class's dscp values follow it.", s.Name, intsOr(free), free[0])
}

// checkTrafficClasses reports two classes sharing an egress queue.
func (l *lowering) checkTrafficClasses(specs []classSpec, classes []model.Class) {
	owner := map[int]int{}
	for i, c := range classes {
		j, dup := owner[c.TrafficClass]
		if !dup {
			owner[c.TrafficClass] = i
			continue
		}
		if queueFollowsPriority(specs[i], classes[i], classes[j]) || queueFollowsPriority(specs[j], classes[j], classes[i]) {
			continue // the "Priority in two classes" error; a new priority moves the queue too
		}
		d := l.errorf(specs[i].TrafficClassRange.Or(specs[i].DefRange), "Traffic class used twice",
			"classes %q and %q both use traffic class %d; give each class its own egress queue (traffic_class 0-7).", classes[j].Name, c.Name, c.TrafficClass)
		also(d, fmt.Sprintf("class %q uses traffic class %d", classes[j].Name, c.TrafficClass), specs[j].DefRange)
	}
}

// queueFollowsPriority reports a class whose traffic_class is not
// written anywhere (neither in its block nor by a profile), so it is its
// priority, and that priority is one of the other class's: the shared
// queue then only follows from the shared priority.
func queueFollowsPriority(s classSpec, c, other model.Class) bool {
	return s.TrafficClass == nil && slices.Contains(other.Priorities, c.Priority)
}

// checkWRRSum requires the WRR shares to sum to 100 percent. Shares the
// profile gave are marked as such, and the detail shows the class block
// that overrides one of them to make the sum 100.
func (l *lowering) checkWRRSum(q *dsl.QoS, specs []classSpec, classes []model.Class) {
	sum, terms, at := 0, []string{}, q.DefRange
	var fromProfile []int // indexes of WRR classes whose share the profile gave
	for i, c := range classes {
		if c.ETS.Mode != model.ETSWRR {
			continue
		}
		sum += c.ETS.BandwidthPercent
		term := fmt.Sprintf("%s %d", c.Name, c.ETS.BandwidthPercent)
		if specs[i].BandwidthRange.Empty() && l.f.QoS.Profile != "" {
			term += " (profile)"
			fromProfile = append(fromProfile, i)
		}
		terms = append(terms, term)
		if at == q.DefRange && !specs[i].BandwidthRange.Empty() {
			at = specs[i].BandwidthRange
		}
	}
	if len(terms) == 0 || sum == 100 {
		return
	}
	l.errorf(at, "ETS bandwidths do not sum to 100",
		"The WRR classes share the link: %s = %d %%; make the bandwidths sum to 100.%s", strings.Join(terms, " + "), sum, l.profileShareFix(specs, classes, fromProfile, sum))
}

// profileShareFix names the profile's WRR classes and the class block
// that overrides one share so that the sum is 100, preferring the
// default class: ` The profile "nvidia-roce" gives roce and default
// their shares; a class block of the same name overrides only what it
// sets: class "default" { bandwidth = 30 }.` Empty when the profile gave
// none, or no single override makes 100.
func (l *lowering) profileShareFix(specs []classSpec, classes []model.Class, fromProfile []int, sum int) string {
	if len(fromProfile) == 0 {
		return ""
	}
	names := make([]string, len(fromProfile))
	pick, n := -1, 0
	for k, i := range fromProfile {
		names[k] = classes[i].Name
		want := classes[i].ETS.BandwidthPercent - (sum - 100)
		if want < 1 || want > 100 {
			continue
		}
		if pick < 0 || specs[i].Default != nil && *specs[i].Default {
			pick, n = i, want
		}
	}
	share := "their shares"
	if len(names) == 1 {
		share = "its share"
	}
	gives := fmt.Sprintf(" The profile %q gives %s %s", l.f.QoS.Profile, joinAnd(names), share)
	if pick < 0 {
		return gives + "; a class block of the same name overrides only what it sets."
	}
	return fmt.Sprintf("%s; a class block of the same name overrides only what it sets: class %q { bandwidth = %d }.", gives, classes[pick].Name, n)
}

// fillDefaultClass gives the default class every priority and DSCP value
// no other class names. specs and classes are index-aligned.
func fillDefaultClass(specs []classSpec, classes []model.Class) {
	var usedP [8]bool
	var usedD [64]bool
	def := -1
	for i, c := range classes {
		if specs[i].Default != nil && *specs[i].Default {
			def = i
			continue
		}
		for _, p := range c.Priorities {
			usedP[p] = true
		}
		for _, d := range c.DSCP {
			usedD[d] = true
		}
	}
	if def < 0 {
		return
	}
	c := &classes[def]
	for p := range usedP {
		if !usedP[p] {
			c.Priorities = append(c.Priorities, p)
		}
	}
	for d := range usedD {
		if !usedD[d] {
			c.DSCP = append(c.DSCP, d)
		}
	}
	c.Priorities = sortedUnique(c.Priorities)
	c.DSCP = sortedUnique(c.DSCP)
	if len(specs[def].DSCP) == 0 && len(c.DSCP) > 0 {
		c.MarkDSCP = c.DSCP[0]
	}
}

// buildMaps fills DSCPToPriority (64 entries), PriorityToTC (8 entries)
// and PFCPriorities from the resolved classes.
func (l *lowering) buildMaps() {
	q := &l.f.QoS
	q.DSCPToPriority = make([]int, 64)
	q.PriorityToTC = make([]int, 8)
	var pfc []int
	for _, c := range q.Classes {
		for _, d := range c.DSCP {
			q.DSCPToPriority[d] = c.Priority
		}
		for _, p := range c.Priorities {
			q.PriorityToTC[p] = c.TrafficClass
		}
		if c.Lossless {
			pfc = append(pfc, c.Priorities...)
		}
	}
	q.PFCPriorities = sortedUnique(pfc)
}

// namedClass is the class name of the qos block, or nil. When the qos
// block declares classes but not name, it reports an unknown class at
// at: "<who> <uses> "name", which the qos block does not declare", as
// in `nic "n" rides class "x"`.
func (l *lowering) namedClass(name string, at dsl.Range, who, uses string) *model.Class {
	c := l.classes[name]
	if c == nil && len(l.classes) > 0 {
		l.errorf(at, "Unknown class", "%s %s %q, which the qos block does not declare; the classes are %s.%s",
			who, uses, name, dsl.QuoteList(l.classNames()), didYouMean(name, l.classNames()))
	}
	return c
}

// classNames returns the class names in model order.
func (l *lowering) classNames() []string {
	names := make([]string, 0, len(l.f.QoS.Classes))
	for _, c := range l.f.QoS.Classes {
		names = append(names, c.Name)
	}
	return names
}

// pickRoCEClass sets QoS.RoCEClass: qos.roce_class, else the only
// lossless class other than skip (a lossless CNP class, cnpApart).
func (l *lowering) pickRoCEClass(q *dsl.QoS, specs []classSpec, skip string) {
	if q.RoCEClass != nil {
		if l.classes[*q.RoCEClass] == nil {
			l.errorf(q.RoCEClassRange.Or(q.DefRange), "Unknown RoCE class",
				"roce_class %q names no class; the classes are %s.%s", *q.RoCEClass, dsl.QuoteList(l.classNames()), didYouMean(*q.RoCEClass, l.classNames()))
			return
		}
		l.f.QoS.RoCEClass = *q.RoCEClass
		return
	}
	var lossless []string
	for _, s := range specs {
		if s.Lossless != nil && *s.Lossless && s.Name != skip {
			lossless = append(lossless, s.Name)
		}
	}
	switch len(lossless) {
	case 0:
		l.errorf(q.DefRange, "No RoCE class",
			"No class is lossless, so fabricc cannot tell which class RoCE rides in; make the RoCE class lossless or set roce_class.")
	case 1:
		l.f.QoS.RoCEClass = lossless[0]
	default:
		l.errorf(q.DefRange, "Ambiguous RoCE class", "%s", ambiguousRoCEText(lossless))
	}
}

// ambiguousRoCEText says which lossless classes roce_class must choose
// among, and what the choice decides.
func ambiguousRoCEText(lossless []string) string {
	quoted := make([]string, len(lossless))
	for i, name := range lossless {
		quoted[i] = fmt.Sprintf("%q", name)
	}
	all := "all"
	if len(lossless) == 2 {
		all = "both"
	}
	return fmt.Sprintf("Classes %s are %s lossless, so fabricc cannot tell which is the RoCE class; set roce_class to one of them. roce_class is the class a NIC without class rides (its RoCE priority and DSCP), the class cluster_class must not name, and the class the fabric document and the OpenConfig notes call RoCE's; a NIC with class rides that class whatever roce_class says.",
		joinAnd(quoted), all)
}

// cnpApart names the CNP class (cnp_class, else the profile's) when it is
// lossless and is not the RoCE class: roce_class names another class, or
// another class is lossless. Such a class is a mistake about CNPs
// (checkCNPClass warns, cnp-class-lossless), so neither the "Lossless
// class without ECN" error, which would ask for ECN on CNPs, nor the
// RoCE class's choice among the lossless classes counts it.
func cnpApart(q *dsl.QoS, specs []classSpec) string {
	name := cnpName(q, specs)
	i := indexOfClass(specs, name)
	if i < 0 || specs[i].Lossless == nil || !*specs[i].Lossless {
		return ""
	}
	if q.RoCEClass != nil {
		if *q.RoCEClass == name {
			return ""
		}
		return name
	}
	for _, s := range specs {
		if s.Name != name && s.Lossless != nil && *s.Lossless {
			return name
		}
	}
	return ""
}

// cnpName is the CNP class's name: qos.cnp_class, else the profile's CNP
// class, else "".
func cnpName(q *dsl.QoS, specs []classSpec) string {
	if q.CNPClass != nil {
		return *q.CNPClass
	}
	for _, s := range specs {
		if s.cnp {
			return s.Name
		}
	}
	return ""
}

// pickCNPClass sets QoS.CNPClass (cnpName). It stays empty with profile
// "none" and no cnp_class: the NICs then keep their firmware's CNP
// marking (nicRoCE) and checkNoCNPClass says where it lands. Class.CNP
// follows the choice.
func (l *lowering) pickCNPClass(q *dsl.QoS, specs []classSpec) {
	name := cnpName(q, specs)
	if q.CNPClass != nil {
		if l.classes[name] == nil {
			l.errorf(q.CNPClassRange.Or(q.DefRange), "Unknown CNP class",
				"cnp_class %q names no class; the classes are %s.%s", name, dsl.QuoteList(l.classNames()), didYouMean(name, l.classNames()))
			return
		}
	}
	l.f.QoS.CNPClass = name
	for i := range l.f.QoS.Classes {
		c := &l.f.QoS.Classes[i]
		c.CNP = c.Name == name
	}
}

// lowerHeadroom resolves the headroom policy with its defaults (see
// defaultSmallPacketPercent).
func (l *lowering) lowerHeadroom(h *dsl.Headroom) {
	hp := model.HeadroomPolicy{LosslessMTUBytes: defaultLosslessMTU, LosslessMTUFromNICs: true, SmallPacketPercent: defaultSmallPacketPercent}
	if h != nil {
		l.src.Set(h.DefRange, "qos", "headroom")
		if v := h.LosslessMTU; v != nil {
			hp.LosslessMTUBytes, hp.LosslessMTUFromNICs = *v, false
			if *v < 64 || *v > 9216 {
				l.errorf(h.DefRange, "Invalid lossless MTU", "headroom lossless_mtu %d is out of range; write the largest lossless frame in bytes, 64-9216.", *v)
			}
		}
		if v := h.PlanningLength; v != nil {
			hp.PlanningMeters = *v
			if *v <= 0 || *v > maxPlanningMeters {
				l.errorf(h.DefRange, "Invalid planning length", "headroom planning_length %g is out of range; write the cable length in metres the buffer pools are planned for, above 0 and at most %g (a switch's longest cable raises it anyway).", *v, float64(maxPlanningMeters))
			}
		}
		if v := h.SmallPacketPercent; v != nil {
			hp.SmallPacketPercent = *v
			if *v < 0 || *v > 100 {
				l.errorf(h.DefRange, "Invalid small packet percent", "headroom small_packet_percent %d is out of range; write a percentage from 0 to 100.", *v)
			}
		}
		hp.Mode = l.headroomMode(h)
	}
	l.f.QoS.Headroom = hp
}

// headroomMode is the model's HeadroomPolicy.Mode for the block's mode:
// "" for "computed" or none, model.HeadroomPlatform for "platform"; any
// other value is an error at the value.
func (l *lowering) headroomMode(h *dsl.Headroom) string {
	if h.Mode == nil {
		return ""
	}
	l.src.Set(h.ModeRange, "qos", "headroom", "mode")
	switch *h.Mode {
	case model.HeadroomComputed:
		return ""
	case model.HeadroomPlatform:
		return model.HeadroomPlatform
	}
	l.errorf(h.ModeRange.Or(h.DefRange), "Invalid headroom mode",
		"headroom mode %q is not known; write %q (fabricc writes the PFC headroom it computes, the default) or %q (each switch derives it from the cable length; see docs/language.md, Headroom).%s",
		*h.Mode, model.HeadroomComputed, model.HeadroomPlatform, didYouMean(*h.Mode, []string{model.HeadroomComputed, model.HeadroomPlatform}))
	return ""
}
