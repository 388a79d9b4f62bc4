package plan

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/cumulus"
	"github.com/fabricc/fabricc/targets/docs"
)

// Every switch's configuration holds the fabric's traffic classes and
// VLANs, whatever its ports: the OpenConfig JSON every switch gets
// writes the queues, classifiers, scheduler and ECN profiles of every
// class and every fabric VLAN (targets/openconfig); NVUE writes the
// maps, ETS and ECN once for the switch (default-global) and every VLAN
// in the bridge's list; EOS writes every VLAN ("vlan N"), the DSCP map
// and, in every interface, the tx-queues; Onyx writes every VLAN ("vlan
// N") and, on each port in service, the class binding, ETS and ECN. An
// unused VLAN is therefore on every switch, and a class change reaches
// every switch (a port-less Onyx switch through its OpenConfig alone).
// The marked DSCP and the CNP class are for hosts; a switch holds them
// only in the OpenConfig note, a document, and they are not compared.

// fabricEffects returns, for a switch on platform pa in the base and pb
// in the head, the items it gets from the fabric-wide changes: what its
// traffic-class settings and its VLAN list become, each with the
// fabric-wide changes that cause it. Each has no subject: it is about
// the switch itself. The traffic-class settings are those push leaves
// on that platform (qosEffects), so they differ per vendor; each pair
// of platforms is computed once.
func fabricEffects(base, head *model.Fabric, fabricItems []Item) func(pa, pb model.Platform) []Item {
	memo := map[[2]model.Platform][]Item{}
	return func(pa, pb model.Platform) []Item {
		k := [2]model.Platform{pa, pb}
		if items, ok := memo[k]; ok {
			return items
		}
		items := item(nil, Item{Effects: qosEffects(&base.QoS, &head.QoS, pa, pb), Because: qosCauses(fabricItems)})
		items = item(items, Item{Effects: vlanEffects(base.VLANs, head.VLANs), Because: vlanCauses(fabricItems)})
		memo[k] = items
		return items
	}
}

// qosEffects compares what a switch configures from the traffic
// classes: ETS, then per traffic class its class, priorities and ECN,
// then per priority the DSCP values mapped to it. pa and pb are the
// switch's platform in each revision: ETS reads as that platform's
// renderer writes it (platformETS), and a traffic class the head no
// longer uses keeps its settings on EOS and Onyx (keptTCs).
func qosEffects(a, b *model.QoS, pa, pb model.Platform) []Change {
	kept := keptTCs(a, b, pa, pb)
	out := change("ETS", platformETS(a, pa), platformETS(b, pb), "")
	if len(out) > 0 && len(kept) > 0 {
		out[0].Note = keptETSNote(a, kept)
	}
	for tc := range 8 {
		ca, cb := a.ClassForTC(tc), b.ClassForTC(tc)
		name := "TC" + strconv.Itoa(tc)
		ecn := change(name+" ECN", classECN(ca), classECN(cb), "")
		if slices.Contains(kept, tc) && len(ecn) > 0 {
			// The thresholds stay: "TC3 ECN 150,000..1,500,000 B at 100 % stays".
			ecn[0].After, ecn[0].Note = ecn[0].Before, keptNote(pb, tc)
		}
		out = concat(out,
			change(name+" class", classNameOrNone(ca), classNameOrNone(cb), ""),
			change(name+" priorities", docs.Ranges(mappedTo(a.PriorityToTC, tc)), docs.Ranges(mappedTo(b.PriorityToTC, tc)), ""),
			ecn)
	}
	for prio := range 8 {
		out = concat(out, change("priority "+strconv.Itoa(prio)+" DSCP",
			docs.Ranges(mappedTo(a.DSCPToPriority, prio)), docs.Ranges(mappedTo(b.DSCPToPriority, prio)), ""))
	}
	return out
}

// keptTCs are the traffic classes a class of a uses and no class or
// priority of b does, on a switch that stays on EOS or Onyx: their
// renderers write the ETS and ECN lines of each class's traffic class
// only (EOS a `uc-tx-queue N` block per class, Onyx `traffic-class N
// dcb ets` and `congestion-control` per class), so push leaves such a
// traffic class as the earlier fabric set it, and verify notes it
// ("traffic classes no priority maps to keep an earlier fabric's
// settings"; README, "Left as an earlier fabric set them"). Cumulus
// writes all eight traffic classes of default-global, an unused one
// as DWRR 1 % with ECN off, so nothing stays there.
func keptTCs(a, b *model.QoS, pa, pb model.Platform) []int {
	if pa != pb || pb == model.PlatformCumulus {
		return nil
	}
	var out []int
	for _, tc := range cumulus.IdleTrafficClasses(b) {
		if a.ClassForTC(tc) != nil {
			out = append(out, tc)
		}
	}
	return out
}

// keptNote follows the ECN of traffic class tc, which push leaves on
// platform p.
func keptNote(p model.Platform, tc int) string {
	return "push leaves it on " + platformName(p) + ": no priority maps to TC" + strconv.Itoa(tc) + " any more, so it marks nothing"
}

// keptETSNote is the ETS change's note on a switch that keeps the
// shares of the traffic classes kept: "TC3 stays at 50 % on the switch
// (...)".
func keptETSNote(a *model.QoS, kept []int) string {
	var parts []string
	for _, tc := range kept {
		parts = append(parts, etsPart(tc, a.ClassForTC(tc).ETS))
	}
	return strings.Join(parts, ", ") + " stays on the switch: push leaves a traffic class no priority maps to any more, and ETS lends its share to the classes with traffic"
}

// platformName is "EOS", "Onyx" or "Cumulus Linux".
func platformName(p model.Platform) string {
	switch p {
	case model.PlatformEOS:
		return "EOS"
	case model.PlatformOnyx:
		return "Onyx"
	case model.PlatformCumulus:
		return "Cumulus Linux"
	}
	return string(p)
}

// platformETS is the ETS a switch on platform p gets: on Cumulus the
// shares NVUE's default-global scheduler is given
// (cumulus.SchedulerETS: each idle traffic class DWRR 1 %, taken from
// the lossy classes' shares), "TC0 45 %, TC4 50 %, TC6 strict; TC1-3,
// 5, 7 idle at 1 %"; elsewhere the classes' own shares.
func platformETS(q *model.QoS, p model.Platform) string {
	if p != model.PlatformCumulus {
		return nicETS(switchETS(q))
	}
	ets, idle, err := cumulus.SchedulerETS(q)
	if err != nil {
		return nicETS(switchETS(q)) // the renderer refuses this fabric and says why
	}
	per := make([]model.ETS, 8)
	for tc, e := range ets {
		if tc >= 0 && tc < 8 && !slices.Contains(idle, tc) {
			per[tc] = e
		}
	}
	s := nicETS(per)
	if len(idle) > 0 {
		s += "; TC" + docs.Ranges(idle) + " idle at " + strconv.Itoa(cumulus.IdleETS.BandwidthPercent) + " %"
	}
	return s
}

// switchETS is the ETS of each traffic class (8 entries), from the
// classes.
func switchETS(q *model.QoS) []model.ETS {
	out := make([]model.ETS, 8)
	for _, c := range q.Classes {
		if c.TrafficClass >= 0 && c.TrafficClass < 8 {
			out[c.TrafficClass] = c.ETS
		}
	}
	return out
}

// classNameOrNone is the class's name, or "none".
func classNameOrNone(c *model.Class) string {
	if c == nil {
		return "none"
	}
	return c.Name
}

// classECN is the class's ECN marking, or "off".
func classECN(c *model.Class) string {
	if c == nil {
		return ecnText(nil)
	}
	return ecnText(c.ECN)
}

// mappedTo lists, ascending, the indexes of m whose value is to.
func mappedTo(m []int, to int) []int {
	var out []int
	for i, v := range m {
		if v == to {
			out = append(out, i)
		}
	}
	return out
}

// vlanEffects compares the VLAN list every switch declares and the
// names it gives them.
func vlanEffects(a, b []model.VLAN) []Change {
	out := change("VLANs", docs.Ranges(vlanIDs(a)), docs.Ranges(vlanIDs(b)), "")
	if gone := removedIDs(vlanIDs(a), vlanIDs(b)); len(out) > 0 && len(gone) > 0 {
		out[0].Note = "push leaves VLAN " + docs.Ranges(gone) + " defined on the switch; see the fabric-wide change"
	}
	names := map[int]string{}
	for _, v := range a {
		names[v.ID] = v.Name
	}
	for _, v := range sortedVLANs(b) {
		if old, ok := names[v.ID]; ok {
			out = concat(out, change("VLAN "+strconv.Itoa(v.ID)+" name", old, v.Name, ""))
		}
	}
	return out
}

// removedIDs are the ids of a that b lacks.
func removedIDs(a, b []int) []int {
	var out []int
	for _, id := range a {
		if !slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	return out
}

// vlanIDs are the VLANs' ids, ascending.
func vlanIDs(vs []model.VLAN) []int {
	out := make([]int, len(vs))
	for i, v := range sortedVLANs(vs) {
		out[i] = v.ID
	}
	return out
}

// sortedVLANs is a copy of vs by id.
func sortedVLANs(vs []model.VLAN) []model.VLAN {
	out := append([]model.VLAN(nil), vs...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// qosCauses names the fabric-wide changes that move derived per-switch,
// per-port and per-NIC values (traffic-class settings, headroom, NIC
// marking and PFC).
func qosCauses(items []Item) []string {
	return causes(items, func(subject string) bool {
		return subject == "qos" || strings.HasPrefix(subject, "class ")
	})
}

// vlanCauses names the VLAN changes.
func vlanCauses(items []Item) []string {
	return causes(items, func(subject string) bool { return strings.HasPrefix(subject, "VLAN ") })
}

// causes names the changes of the fabric-wide items whose subject
// matches: the change itself when there is one, else "the fabric-wide
// changes above".
func causes(items []Item, match func(subject string) bool) []string {
	var out []string
	for _, it := range items {
		if !match(it.Subject) {
			continue
		}
		for _, c := range it.Changes {
			c.Note = "" // said where the change itself is listed
			out = append(out, it.Subject+" "+changeText(c))
		}
	}
	if len(out) > 1 {
		return []string{"the fabric-wide changes above"}
	}
	return out
}
