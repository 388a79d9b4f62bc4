package plan

import (
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// compareSwitches compares the switches by name. Every switch in both
// revisions gets the fabric's effects (fabricEffects) after its own
// changes.
func compareSwitches(base, head *model.Fabric, fabricItems []Item, fabricCauses []string, effects func(pa, pb model.Platform) []Item) []Device {
	before, after := byName(base.Switches, switchName), byName(head.Switches, switchName)
	var out []Device
	for _, n := range deviceNames(base.Switches, head.Switches, switchName) {
		a, b := before[n], after[n]
		d := Device{Name: n, Kind: "switch", Status: "changed"}
		switch {
		case a == nil:
			d.Status, d.Items = "added", []Item{{Changes: added(switchSummary(b))}}
		case b == nil:
			d.Status, d.Items = "removed", []Item{{Changes: removed(switchSummary(a))}}
		default:
			d.Items = switchItems(a, b, fabricCauses, effects(a.Platform, b.Platform))
			d.Items = item(d.Items, vtepItem(base, head, a, b, fabricItems))
			if len(d.Items) > 0 {
				d.Impact = switchImpact(a, b)
			}
		}
		if len(d.Items) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// vtepItem is the change in the overlay VLANs switch a (base) and b
// (head) is a VTEP for: those a port of it carries (model.Fabric
// OverlayVLANs). A Cumulus VTEP gets the VXLAN DSCP lines
// (targets/cumulus, renderVXLANDSCP), which the note names when the
// switch becomes one. The cause is the fabric's VLAN changes, if any;
// otherwise the switch's own port changes, listed above it.
func vtepItem(base, head *model.Fabric, a, b *model.Switch, fabricItems []Item) Item {
	before, after := base.OverlayVLANs(a), head.OverlayVLANs(b)
	it := Item{Effects: change("VTEP for VLANs", rangesOrNone(before), rangesOrNone(after), ""), Because: vlanCauses(fabricItems)}
	if len(it.Effects) > 0 && len(before) == 0 && b.Platform == model.PlatformCumulus {
		it.Effects[0].Note = "push writes nv set nve vxlan encapsulation dscp action copy and nv set nve vxlan decapsulation dscp action preserve, which keep the host's DSCP in the outer header and the inner one"
	}
	return it
}

// rangesOrNone is "100-101", or "none" for no ids.
func rangesOrNone(ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	return docs.Ranges(ids)
}

// switchName is the name of a switch.
func switchName(sw *model.Switch) string { return sw.Name }

// switchSummary is "cumulus 5.9.2 on SN2700, 32 ports".
func switchSummary(sw *model.Switch) string {
	return platform(sw) + " on " + sw.Hardware.Model + ", " + strconv.Itoa(len(sw.Ports)) + " ports"
}

// platform is "cumulus 5.9.2".
func platform(sw *model.Switch) string { return string(sw.Platform) + " " + sw.OSVersion }

// switchItems compares two revisions of one switch: the switch itself,
// what the fabric-wide changes change on it (effects), every port, every
// pool and the budget.
func switchItems(a, b *model.Switch, fabricCauses []string, effects []Item) []Item {
	self := Item{Changes: concat(
		change("platform", platform(a), platform(b), ""),
		change("model", a.Hardware.Model, b.Hardware.Model, ""),
		change("ASIC", a.Hardware.ASIC, b.Hardware.ASIC, ""),
		amountChange("buffer", a.Hardware.BufferBytes, b.Hardware.BufferBytes, "B"),
		amountChange("cell", int64(a.Hardware.CellBytes), int64(b.Hardware.CellBytes), "B"),
		change("buffer configuration", a.BufferStyle, b.BufferStyle, ""),
		headroomChange(a, b),
		change("PFC watchdog", watchdog(a.PFCWatchdog), watchdog(b.PFCWatchdog), ""))}
	// Derived values of a port with no changed input of its own come from
	// the switch or the fabric policy.
	var causes []string
	if len(self.Changes) > 0 {
		causes = []string{"the switch changes above"}
	}
	items := item(nil, self)
	for _, e := range effects {
		// A new platform writes the same classes its own way
		// (platformETS): the fabric's items are shared, so copied.
		if len(e.Because) == 0 && a.Platform != b.Platform {
			e.Because = causes
		}
		items = append(items, e)
	}
	causes = append(causes, fabricCauses...)
	portItems, headroomMoved := comparePorts(a, b, causes)
	items = append(items, portItems...)
	poolCauses := causes
	if headroomMoved {
		poolCauses = []string{"the port changes above"}
	}
	pools := poolItems(a, b, poolCauses)
	if u, ok := docs.HeadroomUnconfigured(b); ok && headroomMoved {
		for i := range pools {
			if pools[i].Subject == "ingress lossless pool" {
				pools[i].Note = "the demand counts fabricc's computed headroom, not a configured one: " + u.Who
			}
		}
	}
	items = append(items, pools...)
	return item(items, budgetItem(a, b, poolCauses))
}

// headroomNote is the note of a port whose priority-group numbers
// change on a switch where fabricc does not configure them
// (docs.HeadroomUnconfigured): they are fabricc's computation, for
// comparison, and the switch's own headroom is to be checked; "" on
// other switches or when no priority group changes.
func headroomNote(sw *model.Switch, port string, effects []Change) string {
	u, ok := docs.HeadroomUnconfigured(sw)
	if !ok {
		return ""
	}
	for _, c := range effects {
		if strings.HasPrefix(c.Field, "PG") {
			return u.ComputedNote(port)
		}
	}
	return ""
}

// watchdog is "drop after 200 ms" or "off".
func watchdog(w model.PFCWatchdog) string {
	if !w.Enabled {
		return "off"
	}
	return w.Action + " after " + strconv.Itoa(w.TimeoutMs) + " ms"
}

// comparePorts compares ports by name; a port that disappears while a
// port cabled to the same peer appears (the new platform names it
// differently) is compared with that port as renamed. It reports whether
// any priority group or egress queue reservation changed.
func comparePorts(a, b *model.Switch, causes []string) ([]Item, bool) {
	renamed := renamedPorts(a, b)
	var names []string
	for _, p := range a.Ports {
		names = append(names, p.Name)
	}
	for _, p := range b.Ports {
		names = append(names, p.Name)
	}
	var items []Item
	moved := false
	for _, n := range union(names, nil) {
		pa, pb := a.Port(n), b.Port(n)
		it := Item{Subject: n}
		switch {
		case pa == nil && renamed[n] != "":
			continue // shown with its old name
		case pb == nil && renamed[n] != "":
			pb = b.Port(renamed[n])
			it.Subject = n + " -> " + pb.Name
			fallthrough
		case pa != nil && pb != nil:
			it.Changes = portChanges(pa, pb)
			it.Effects = bufferEffects(a, b, pa, pb)
			if len(it.Effects) > 0 {
				moved = true
				if len(it.Changes) == 0 {
					it.Because = causes
				}
				it.Note = headroomNote(b, pb.Name, it.Effects)
			}
			if it.Subject != n && len(it.Changes)+len(it.Effects) == 0 {
				it.Changes = []Change{portRename(a, b, n, pb.Name)}
			}
		case pa == nil:
			it.Changes, it.Effects, moved = addedPort(pb), addedBuffers(pb), true
			it.Note = headroomNote(b, pb.Name, it.Effects)
		default:
			it.Changes, moved = removed(portSummary(pa)), true
			it.Changes[0].Note = portLeftNote(a, pa)
		}
		items = item(items, it)
	}
	return items, moved
}

// portRename is the change of a port that keeps its cable under another
// name: "renamed" on the same platform, and on a replaced platform the
// same front-panel port named the new platform's way, which is no
// rename of anything on a running switch.
func portRename(a, b *model.Switch, from, to string) Change {
	if a.Platform != b.Platform {
		return Change{Field: "port name", Before: from, After: to}
	}
	return Change{Field: "renamed", Before: from, After: to}
}

// renamedPorts pairs ports only in a with ports only in b that are
// cabled to the same peer; the map holds both directions (old -> new,
// new -> old).
func renamedPorts(a, b *model.Switch) map[string]string {
	gone := map[string]string{}
	for _, p := range a.Ports {
		if p.Peer != nil && b.Port(p.Name) == nil {
			gone[peer(p.Peer)] = p.Name
		}
	}
	out := map[string]string{}
	for _, p := range b.Ports {
		if p.Peer == nil || a.Port(p.Name) != nil {
			continue
		}
		if old, ok := gone[peer(p.Peer)]; ok {
			out[old], out[p.Name] = p.Name, old
		}
	}
	return out
}

// portSummary is "100G access VLAN 101, to gpu01:roce0".
func portSummary(p *model.Port) string {
	s := docs.Speed(p.SpeedMbps) + " " + string(p.Mode)
	if v := vlans(p); v != "-" {
		s += " VLAN " + v
	}
	if p.Peer != nil {
		s += ", to " + p.Peer.Device + ":" + p.Peer.Port
	}
	return s
}

// portChanges compares the inputs of two revisions of one port.
func portChanges(a, b *model.Port) []Change {
	return concat(
		change("description", a.Description, b.Description, ""),
		change("peer", peer(a.Peer), peer(b.Peer), ""),
		change("cable", peerCable(a.Peer), peerCable(b.Peer), ""),
		change("speed", docs.Speed(a.SpeedMbps), docs.Speed(b.SpeedMbps), ""),
		change("lanes", strconv.Itoa(a.Lanes), strconv.Itoa(b.Lanes), ""),
		change("MTU", strconv.Itoa(a.MTU), strconv.Itoa(b.MTU), ""),
		change("mode", string(a.Mode), string(b.Mode), ""),
		change("VLANs", vlans(a), vlans(b), ""),
		change("trust", string(a.Trust), string(b.Trust), ""),
		change("PFC", docs.Ranges(a.PFCPriorities), docs.Ranges(b.PFCPriorities), ""),
		change("link pause", onOff(a.LinkPause), onOff(b.LinkPause), ""),
		change("PFC watchdog", onOff(a.PFCWatchdog), onOff(b.PFCWatchdog), ""),
		change("shutdown", onOff(a.Shutdown), onOff(b.Shutdown), ""))
}

// vlans is "101", "101, 102 native 101" or "-".
func vlans(p *model.Port) string {
	switch p.Mode {
	case model.ModeAccess:
		return strconv.Itoa(p.AccessVLAN)
	case model.ModeTrunk:
		s := docs.Ranges(p.TrunkVLANs)
		if p.NativeVLAN != 0 {
			s += " native " + strconv.Itoa(p.NativeVLAN)
		}
		return s
	}
	return "-"
}

// peer is "gpu01:roce0" or "none".
func peer(p *model.Peer) string {
	if p == nil {
		return "none"
	}
	return p.Device + ":" + p.Port
}

// peerCable is "3 m dac" or "none".
func peerCable(p *model.Peer) string {
	if p == nil {
		return "none"
	}
	return cable(p.CableMeters, p.CableKind)
}

// bufferEffects compares the priority groups and egress queues of
// port a of switch swa with port b of switch swb. Pools are compared by
// kind (lossless or lossy): a renamed pool shows once, in the pool lines.
func bufferEffects(swa, swb *model.Switch, a, b *model.Port) []Change {
	kindA := func(pool string) string { return poolKind(swa, "ingress", pool) }
	kindB := func(pool string) string { return poolKind(swb, "ingress", pool) }
	var out []Change
	for _, idx := range pgIndexes(a, b) {
		ga, gb := pg(a, idx), pg(b, idx)
		name := "PG" + strconv.Itoa(idx)
		switch {
		case ga == nil:
			out = append(out, Change{Field: name, Before: "none", After: pgSummary(gb)})
		case gb == nil:
			out = append(out, Change{Field: name, Before: pgSummary(ga), After: "none"})
		default:
			out = append(out, concat(
				change(name+" priorities", docs.Ranges(ga.Priorities), docs.Ranges(gb.Priorities), ""),
				change(name+" pool", kindA(ga.Pool), kindB(gb.Pool), ""),
				// SONiC's xoff, xon and size, named as the switch documents
				// name them: Onyx's and NVUE's xoff keywords are the PAUSE
				// threshold, not the in-flight bytes.
				amountChange(name+" in flight after PAUSE", ga.XoffBytes, gb.XoffBytes, "B"),
				amountChange(name+" PAUSE threshold", ga.XonBytes, gb.XonBytes, "B"),
				amountChange(name+" buffer", ga.SizeBytes, gb.SizeBytes, "B"))...)
		}
	}
	for _, tc := range queueTCs(a, b) {
		qa, qb := queue(a, tc), queue(b, tc)
		name := "TC" + strconv.Itoa(tc) + " queue"
		out = append(out, concat(
			change(name+" pool", queueField(qa, func(q *model.EgressQueue) string { return poolKind(swa, "egress", q.Pool) }),
				queueField(qb, func(q *model.EgressQueue) string { return poolKind(swb, "egress", q.Pool) }), ""),
			reservedChange(name+" reserved", qa, qb))...)
	}
	return out
}

// poolKind is the type ("lossless", "lossy") of the pool of that name
// and direction, or the name when the switch has no such pool.
func poolKind(sw *model.Switch, dir, name string) string {
	for _, p := range sw.Pools {
		if p.Direction == dir && p.Name == name {
			return p.Type
		}
	}
	return name
}

// pgSummary is "priorities 3, size 62,464 B".
func pgSummary(g *model.PriorityGroup) string {
	return "priorities " + docs.Ranges(g.Priorities) + ", size " + docs.Bytes(g.SizeBytes)
}

// pgIndexes are the PG indexes of both ports, ascending.
func pgIndexes(a, b *model.Port) []int {
	seen := [8]bool{}
	for _, p := range []*model.Port{a, b} {
		for _, g := range p.PriorityGroups {
			if g.Index >= 0 && g.Index < 8 {
				seen[g.Index] = true
			}
		}
	}
	var out []int
	for i, ok := range seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// pg returns the priority group of index idx, or nil.
func pg(p *model.Port, idx int) *model.PriorityGroup {
	for i := range p.PriorityGroups {
		if p.PriorityGroups[i].Index == idx {
			return &p.PriorityGroups[i]
		}
	}
	return nil
}

// queueTCs are the egress queue traffic classes of both ports, ascending.
func queueTCs(a, b *model.Port) []int {
	seen := [8]bool{}
	for _, p := range []*model.Port{a, b} {
		for _, q := range p.EgressQueues {
			if q.TrafficClass >= 0 && q.TrafficClass < 8 {
				seen[q.TrafficClass] = true
			}
		}
	}
	var out []int
	for i, ok := range seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// queue returns the egress queue of traffic class tc, or nil.
func queue(p *model.Port, tc int) *model.EgressQueue {
	for i := range p.EgressQueues {
		if p.EgressQueues[i].TrafficClass == tc {
			return &p.EgressQueues[i]
		}
	}
	return nil
}

// queueField reads a field of q, or "none" without a queue.
func queueField(q *model.EgressQueue, f func(*model.EgressQueue) string) string {
	if q == nil {
		return "none"
	}
	return f(q)
}

// reservedText is the queue's reservation in bytes.
func reservedText(q *model.EgressQueue) string { return docs.Thousands(q.ReservedBytes) }

// reservedChange compares two queues' reservations, "none" for a queue
// a side does not have, with the number of each side that has one.
func reservedChange(field string, qa, qb *model.EgressQueue) []Change {
	c := change(field, queueField(qa, reservedText), queueField(qb, reservedText), "B")
	if len(c) == 0 {
		return nil
	}
	if qa != nil {
		v := qa.ReservedBytes
		c[0].BeforeValue = &v
	}
	if qb != nil {
		v := qb.ReservedBytes
		c[0].AfterValue = &v
	}
	return c
}

// poolItems compares the pools by direction and name, with their
// demand.
func poolItems(a, b *model.Switch, causes []string) []Item {
	ua, ub := poolMap(a), poolMap(b)
	var keys []string
	for _, u := range docs.Pools(a) {
		keys = append(keys, poolKey(u.Pool))
	}
	for _, u := range docs.Pools(b) {
		keys = append(keys, poolKey(u.Pool))
	}
	var items []Item
	for _, k := range union(keys, nil) {
		pa, inA := ua[k]
		pb, inB := ub[k]
		it := Item{Subject: k + " pool"}
		switch {
		case !inA:
			it.Effects = []Change{{Field: "added", After: poolSummary(pb)}}
		case !inB:
			it.Effects = []Change{{Field: "removed", Before: poolSummary(pa)}}
		default:
			it.Effects = poolChanges(a, b, pa, pb)
		}
		if len(it.Effects) > 0 {
			it.Because = causes
		}
		items = item(items, it)
	}
	return items
}

// poolChanges compares the size of one pool as switches swa and swb
// are told it (poolSizeChange), and its demand.
func poolChanges(swa, swb *model.Switch, a, b docs.PoolUse) []Change {
	out := concat(change("name", a.Pool.Name, b.Pool.Name, ""),
		poolSizeChange(swa, swb, a.Pool, b.Pool))
	if a.DemandBytes != b.DemandBytes {
		c := amountChange("demand", a.DemandBytes, b.DemandBytes, "B")
		c[0].Note = signed(b.DemandBytes-a.DemandBytes) + " B, used " + usedText(a.PercentUsed, b.PercentUsed)
		out = append(out, c...)
	} else if a.PercentUsed != b.PercentUsed {
		out = append(out, change("used", docs.Percent(a.PercentUsed), docs.Percent(b.PercentUsed), "")...)
	}
	return out
}

// usedText is "5.8 % -> 5.9 %", or "5.8 %" when it stays.
func usedText(a, b float64) string {
	if a == b {
		return docs.Percent(b)
	}
	return docs.Percent(a) + " -> " + docs.Percent(b)
}

// signed is "+4,096" or "-4,096".
func signed(n int64) string {
	if n > 0 {
		return "+" + docs.Thousands(n)
	}
	return docs.Thousands(n)
}

// poolMap indexes a switch's pools by poolKey.
func poolMap(sw *model.Switch) map[string]docs.PoolUse {
	out := map[string]docs.PoolUse{}
	for _, u := range docs.Pools(sw) {
		out[poolKey(u.Pool)] = u
	}
	return out
}

// poolKey is "ingress lossless": a switch has one pool of each
// direction and type, whatever the platform names it (Onyx traffic pools
// share one name in both directions).
func poolKey(p model.BufferPool) string { return p.Direction + " " + p.Type }

// poolSummary is "roce-lossless-ingress, 8,685,712 B, demand 505,856 B".
func poolSummary(u docs.PoolUse) string {
	return u.Pool.Name + ", " + docs.Bytes(u.Pool.SizeBytes) + ", demand " + docs.Bytes(u.DemandBytes)
}

// budgetItem compares what the lossless pool is planned for (the
// headroom in use shows as the lossless pool's demand, the shared rest
// as the pool sizes).
func budgetItem(a, b *model.Switch, causes []string) Item {
	x, y := a.Buffer, b.Buffer
	it := Item{Subject: "buffer budget", Effects: concat(
		amountChange("headroom planned", x.HeadroomReserveBytes, y.HeadroomReserveBytes, "B"),
		change("planned for", docs.Meters(x.PlanningCableMeters), docs.Meters(y.PlanningCableMeters), ""))}
	if len(it.Effects) > 0 {
		it.Because = causes
	}
	return it
}

// changeText is "cable 3 m dac -> 30 m dac" or "xoff 43,008 -> 47,104 B".
func changeText(c Change) string {
	var s string
	switch {
	case c.Field != "added" && c.Field != "removed" && c.Before != "" && c.Before == c.After:
		// A value push leaves as it is: "TC3 ECN 150,000..1,500,000 B at 100 % stays".
		s = c.Field + " " + c.Before + " stays"
	default:
		s = fieldChangeText(c)
	}
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	return s
}

// fieldChangeText is changeText without the note, for a value that
// changes.
func fieldChangeText(c Change) string {
	var s string
	switch c.Field {
	case "added":
		s = "added: " + c.After
	case "removed":
		s = "removed: " + c.Before
	case "renamed":
		s = "renamed"
	case "port name":
		s = "the same cable, on the port as the new platform names it"
	default:
		s = c.Field + " " + orNone(c.Before) + " -> " + orNone(c.After)
		switch {
		case c.Unit != "" && orNone(c.After) == "none":
			// The unit goes with the one number: "2 m -> none".
			s = c.Field + " " + c.Before + " " + c.Unit + " -> none"
		case c.Unit != "":
			s += " " + c.Unit
		}
	}
	return s
}

// orNone is s, or "none" when empty.
func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "none"
	}
	return s
}

// headroomChange is who sizes a Cumulus switch's PFC headroom, before
// and after: "fabricc" (port-buffer and thresholds written) or
// "switchd" (qos headroom mode "platform"); nothing where either side is
// another platform (the mode changes nothing there, and a platform
// change is a replacement).
func headroomChange(a, b *model.Switch) []Change {
	if a.Platform != model.PlatformCumulus || b.Platform != model.PlatformCumulus {
		return nil
	}
	sizer := func(sw *model.Switch) string {
		if sw.HeadroomLeftToSwitch {
			return "switchd"
		}
		return "fabricc"
	}
	return change("headroom", sizer(a), sizer(b), "")
}
