package plan

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
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

// fabricEffects are the items every switch present in both revisions
// gets from the fabric-wide changes: what its traffic-class settings
// and its VLAN list become, each with the fabric-wide changes that
// cause it. Each has no subject: it is about the switch itself.
func fabricEffects(base, head *model.Fabric, fabricItems []Item) []Item {
	items := item(nil, Item{Effects: qosEffects(&base.QoS, &head.QoS), Because: qosCauses(fabricItems)})
	return item(items, Item{Effects: vlanEffects(base.VLANs, head.VLANs), Because: vlanCauses(fabricItems)})
}

// qosEffects compares what a switch configures from the traffic
// classes: ETS, then per traffic class its class, priorities and ECN,
// then per priority the DSCP values mapped to it.
func qosEffects(a, b *model.QoS) []Change {
	out := change("ETS", nicETS(switchETS(a)), nicETS(switchETS(b)), "")
	for tc := range 8 {
		ca, cb := a.ClassForTC(tc), b.ClassForTC(tc)
		name := "TC" + strconv.Itoa(tc)
		out = concat(out,
			change(name+" class", classNameOrNone(ca), classNameOrNone(cb), ""),
			change(name+" priorities", docs.Ranges(mappedTo(a.PriorityToTC, tc)), docs.Ranges(mappedTo(b.PriorityToTC, tc)), ""),
			change(name+" ECN", classECN(ca), classECN(cb), ""))
	}
	for prio := range 8 {
		out = concat(out, change("priority "+strconv.Itoa(prio)+" DSCP",
			docs.Ranges(mappedTo(a.DSCPToPriority, prio)), docs.Ranges(mappedTo(b.DSCPToPriority, prio)), ""))
	}
	return out
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
