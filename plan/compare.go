package plan

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// Compare returns what changes from base to head. Neither is modified.
func Compare(base, head *model.Fabric) *Plan {
	p := &Plan{Fabric: head.Name}
	if p.Fabric == "" {
		p.Fabric = base.Name
	}
	p.FabricItems = fabricItems(base, head)
	causes := qosCauses(p.FabricItems)
	p.Devices = append(p.Devices, compareSwitches(base, head, p.FabricItems, causes, fabricEffects(base, head, p.FabricItems))...)
	p.Devices = append(p.Devices, compareHosts(base, head, causes)...)
	sortDevices(p.Devices)
	markRenames(p, base, head)
	p.Rollout = Rollouts(base, head)
	return p
}

// fabricItems compares the fabric-wide parts: name, traffic policy,
// classes, VLANs and which links exist.
func fabricItems(base, head *model.Fabric) []Item {
	var items []Item
	items = item(items, Item{Subject: "fabric", Changes: concat(
		change("name", base.Name, head.Name, ""),
		change("description", base.Description, head.Description, ""))})
	items = append(items, qosItems(&base.QoS, &head.QoS)...)
	// Links show at their ends: a port's or NIC's peer and cable.
	return append(items, vlanItems(base.VLANs, head.VLANs)...)
}

// qosItems compares the policy and each class.
func qosItems(a, b *model.QoS) []Item {
	items := item(nil, Item{Subject: "qos", Changes: concat(
		change("profile", a.Profile, b.Profile, ""),
		change("PFC priorities", docs.Ranges(a.PFCPriorities), docs.Ranges(b.PFCPriorities), ""),
		change("RoCE class", a.RoCEClass, b.RoCEClass, ""),
		change("CNP class", a.CNPClass, b.CNPClass, ""),
		amountChange("lossless MTU", int64(a.Headroom.LosslessMTUBytes), int64(b.Headroom.LosslessMTUBytes), "B"),
		amountChange("small packets", int64(a.Headroom.SmallPacketPercent), int64(b.Headroom.SmallPacketPercent), "%"),
		change("headroom mode", headroomMode(a.Headroom), headroomMode(b.Headroom), ""))})
	names := union(classNames(a), classNames(b))
	for _, n := range names {
		ca, cb := a.Class(n), b.Class(n)
		it := Item{Subject: "class " + n}
		switch {
		case ca == nil:
			it.Changes = added(classSummary(cb))
		case cb == nil:
			it.Changes = removed(classSummary(ca))
		default:
			it.Changes = classChanges(ca, cb)
		}
		items = item(items, it)
	}
	return items
}

// classNames lists the classes' names in order.
func classNames(q *model.QoS) []string {
	out := make([]string, len(q.Classes))
	for i, c := range q.Classes {
		out[i] = c.Name
	}
	return out
}

// classChanges compares two classes of the same name.
func classChanges(a, b *model.Class) []Change {
	return concat(
		change("priority", strconv.Itoa(a.Priority), strconv.Itoa(b.Priority), ""),
		change("priorities", docs.Ranges(a.Priorities), docs.Ranges(b.Priorities), ""),
		change("TC", strconv.Itoa(a.TrafficClass), strconv.Itoa(b.TrafficClass), ""),
		change("DSCP", docs.Ranges(a.DSCP), docs.Ranges(b.DSCP), ""),
		change("marked DSCP", strconv.Itoa(a.MarkDSCP), strconv.Itoa(b.MarkDSCP), ""),
		change("lossless", onOff(a.Lossless), onOff(b.Lossless), ""),
		change("CNP", onOff(a.CNP), onOff(b.CNP), ""),
		change("ETS", etsText(a.ETS), etsText(b.ETS), ""),
		change("ECN", ecnText(a.ECN), ecnText(b.ECN), ""))
}

// classSummary is "priority 3, TC3, DSCP 26, lossless, WRR 50 %".
func classSummary(c *model.Class) string {
	s := fmt.Sprintf("priority %d, TC%d, DSCP %s", c.Priority, c.TrafficClass, docs.Ranges(c.DSCP))
	if c.Lossless {
		s += ", lossless"
	}
	return s + ", " + etsText(c.ETS)
}

// vlanItems compares the VLANs by id.
func vlanItems(a, b []model.VLAN) []Item {
	before, after := map[int]model.VLAN{}, map[int]model.VLAN{}
	var ids []int
	for _, v := range a {
		before[v.ID] = v
		ids = append(ids, v.ID)
	}
	for _, v := range b {
		if _, ok := before[v.ID]; !ok {
			ids = append(ids, v.ID)
		}
		after[v.ID] = v
	}
	sort.Ints(ids)
	var items []Item
	for _, id := range ids {
		va, inA := before[id]
		vb, inB := after[id]
		it := Item{Subject: "VLAN " + strconv.Itoa(id)}
		switch {
		case !inA:
			it.Changes = added(vlanSummary(vb))
		case !inB:
			it.Changes = removed(vlanSummary(va))
			it.Changes[0].Note = vlanLeftNote(id)
		default:
			it.Changes = concat(change("name", va.Name, vb.Name, ""), change("overlay", overlayText(va), overlayText(vb), ""))
		}
		items = item(items, it)
	}
	return items
}

// vlanSummary is "name compute", or "name tenant, overlay vxlan".
func vlanSummary(v model.VLAN) string {
	if v.Overlay == "" {
		return "name " + v.Name
	}
	return "name " + v.Name + ", overlay " + v.Overlay
}

// overlayText is a VLAN's overlay, "none" without one.
func overlayText(v model.VLAN) string {
	if v.Overlay == "" {
		return "none"
	}
	return v.Overlay
}

// vlanLeftNote follows a VLAN removed from the fabric: push takes it off
// every fabric port (trunk lists are written whole), but leaves the VLAN
// itself defined on the switches, since fabricc cannot know whether a
// port outside the fabric uses it.
func vlanLeftNote(id int) string {
	return fmt.Sprintf("push takes VLAN %d off the fabric's ports but leaves it defined on the switches, which may have ports outside the fabric in it: once nothing uses it, remove it there (EOS and Onyx: no vlan %d; Cumulus Linux: nv unset bridge domain br_default vlan %d)", id, id, id)
}

// added and removed describe a whole subject appearing or going.
func added(summary string) []Change { return []Change{{Field: "added", After: summary}} }

// removed: see added.
func removed(summary string) []Change { return []Change{{Field: "removed", Before: summary}} }

// concat joins change lists.
func concat(lists ...[]Change) []Change {
	var out []Change
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// onOff is "on" or "off".
func onOff(v bool) string {
	if v {
		return "on"
	}
	return "off"
}

// etsText is "WRR 50 %" or "strict".
func etsText(e model.ETS) string {
	if e.Mode == model.ETSStrict {
		return "strict"
	}
	return fmt.Sprintf("WRR %d %%", e.BandwidthPercent)
}

// ecnText is "153,600..1,536,000 B at 100 %", or "off".
func ecnText(e *model.ECN) string {
	if e == nil {
		return "off"
	}
	return fmt.Sprintf("%s..%s B at %d %%", docs.Thousands(e.MinBytes), docs.Thousands(e.MaxBytes), e.MarkProbabilityPercent)
}

// cable is "3 m dac".
func cable(m float64, kind string) string { return docs.Meters(m) + " " + kind }

// headroomMode is the policy's qos.headroom.mode as the language writes
// it.
func headroomMode(h model.HeadroomPolicy) string {
	if h.LeftToPlatform() {
		return model.HeadroomPlatform
	}
	return model.HeadroomComputed
}
