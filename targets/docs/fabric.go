package docs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// RenderFabric writes fabric.md: what the fabric is, its topology, the
// cabling, the traffic classes, every switch's buffer budget and every
// warning of the build.
func RenderFabric(f *model.Fabric, warnings []Warning) (targets.File, error) {
	return renderFabric(f, warnings, false)
}

// RenderFabricMapped is RenderFabric with the file's source map
// (targets.SourceMap); warning/<i> elements are warnings[i].
func RenderFabricMapped(f *model.Fabric, warnings []Warning) (targets.File, error) {
	return renderFabric(f, warnings, true)
}

// renderFabric writes fabric.md, with its source map when mapped.
func renderFabric(f *model.Fabric, warnings []Warning, mapped bool) (targets.File, error) {
	if f == nil {
		return targets.File{}, fmt.Errorf("docs: no fabric given")
	}
	d := newDoc(mapped)
	d.at("fabric")
	d.h(1, "Fabric "+md(f.Name))
	if f.Description != "" {
		d.p(md(f.Description))
	}
	d.at()
	d.p("Written by `fabricc build` from the checked model; every device has its own document (linked below). " +
		"Sizes are in bytes (B); 1 KiB = 1,024 B.")
	writeSummary(d, f)
	writeTopology(d, f)
	writeCabling(d, f)
	writeVLANs(d, f)
	writeClasses(d, &f.QoS)
	writeBudgets(d, f)
	writeWarnings(d, warnings)
	writeSources(d, f)
	return d.file(FabricFile), nil
}

// writeSummary counts devices and lists platforms, OS versions and
// models.
func writeSummary(d *doc, f *model.Fabric) {
	d.h(2, "Summary")
	var body rows
	d.at()
	for _, sw := range f.Switches {
		d.also("switch", sw.Name)
	}
	body.add(d, "switches", strconv.Itoa(len(f.Switches)))
	d.at()
	for _, h := range f.Hosts {
		d.also("host", h.Name)
	}
	body.add(d, "hosts", strconv.Itoa(len(f.Hosts)))
	d.at()
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			d.also("host", h.Name, "nic", n.Name)
		}
	}
	body.add(d, "RDMA NICs", strconv.Itoa(nicCount(f)))
	d.at()
	for _, l := range f.Links {
		d.b.AlsoElement(targets.LinkElement(l.A))
	}
	body.add(d, "links", strconv.Itoa(len(f.Links)))
	d.at()
	for _, v := range f.VLANs {
		d.also("vlan", strconv.Itoa(v.ID))
	}
	body.add(d, "VLANs", strconv.Itoa(len(f.VLANs)))
	d.table([]string{"what", "count"}, &body, 1)
	if len(f.Switches) > 0 {
		c := counter{}
		for _, sw := range f.Switches {
			c.add(d, [4]string{string(sw.Platform), sw.OSVersion, sw.Hardware.Model, sw.Hardware.ASIC}, "switch", sw.Name)
		}
		d.table([]string{"switch platform", "OS version", "model", "ASIC", "switches"}, c.rows(), 4)
	}
	if len(f.Hosts) > 0 {
		c := counter{}
		for _, h := range f.Hosts {
			for _, n := range h.NICs {
				c.add(d, [4]string{string(h.OS), h.OSVersion, n.Model, n.Driver}, "host", h.Name, "nic", n.Name)
			}
		}
		d.table([]string{"host OS", "OS version", "NIC model", "driver", "NICs"}, c.rows(), 4)
	}
}

// counter counts devices by four texts, with the elements counted when
// the document records a source map.
type counter map[[4]string]*counted

// counted is one key's count and elements.
type counted struct {
	n     int
	elems []targets.Element
}

// add counts one more of key, the element with the given path parts.
func (c counter) add(d *doc, key [4]string, parts ...string) {
	e := c[key]
	if e == nil {
		e = &counted{}
		c[key] = e
	}
	e.n++
	if d.b.Mapped() {
		e.elems = append(e.elems, targets.Path(parts...))
	}
}

// rows are the counted keys as escaped rows, sorted by key.
func (c counter) rows() *rows {
	keys := make([][4]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return strings.Join(keys[i][:], "\x00") < strings.Join(keys[j][:], "\x00") })
	out := &rows{}
	for _, k := range keys {
		out.cells = append(out.cells, []string{md(k[0]), orDash(md(k[1])), md(k[2]), md(k[3]), strconv.Itoa(c[k].n)})
		if c[k].elems != nil {
			out.elems = append(out.elems, c[k].elems)
		}
	}
	return out
}

// nicCount is the number of NICs over all hosts.
func nicCount(f *model.Fabric) int {
	n := 0
	for _, h := range f.Hosts {
		n += len(h.NICs)
	}
	return n
}

// writeCabling lists every link with both ends.
func writeCabling(d *doc, f *model.Fabric) {
	d.h(2, "Cabling")
	if len(f.Links) == 0 {
		d.p("No links.")
		return
	}
	var body rows
	ix := endIndex(f)
	for i, l := range f.Links {
		a, b := ix.of(l.A), ix.of(l.B)
		if d.b.Mapped() {
			d.b.Set([]targets.Element{targets.LinkElement(l.A), endElement(l.A), endElement(l.B)})
		}
		body.add(d, strconv.Itoa(i+1),
			deviceLink(l.A.Device), md(l.A.Port), deviceLink(l.B.Device), md(l.B.Port),
			speedPair(a.speed, b.speed), lanesPair(a.lanes, b.lanes), md(l.CableKind), Meters(l.CableMeters), mtuPair(a.mtu, b.mtu))
	}
	d.table([]string{"#", "A", "A port", "B", "B port", "speed", "lanes", "cable", "length", "MTU (A / B)"}, &body, 0, 6, 8)
}

// endElement is the element of a link end: a switch port or a host NIC.
func endElement(e model.Endpoint) targets.Element {
	if e.Kind == "switch" {
		return targets.Path("switch", e.Device, "port", e.Port)
	}
	return targets.Path("host", e.Device, "nic", e.Port)
}

// end is what the cabling table shows of one link end; lanes is 0 for a
// host NIC.
type end struct{ speed, mtu, lanes int }

// ends indexes the speed and MTU of every switch port and host NIC by
// kind, device and port, so large fabrics need no repeated search.
type ends map[[3]string]end

// endIndex builds the index of f.
func endIndex(f *model.Fabric) ends {
	ix := ends{}
	for _, sw := range f.Switches {
		for _, p := range sw.Ports {
			ix[[3]string{"switch", sw.Name, p.Name}] = end{p.SpeedMbps, p.MTU, p.Lanes}
		}
	}
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			ix[[3]string{"host", h.Name, n.Name}] = end{n.SpeedMbps, n.MTU, 0}
		}
	}
	return ix
}

// of is the speed and MTU of a link end (zero when unknown).
func (ix ends) of(e model.Endpoint) end { return ix[[3]string{e.Kind, e.Device, e.Port}] }

// speedPair is "100G", or "100G / 25G" when the ends disagree.
func speedPair(a, b int) string {
	if a == b || b == 0 {
		return Speed(a)
	}
	if a == 0 {
		return Speed(b)
	}
	return Speed(a) + " / " + Speed(b)
}

// lanesPair is the lanes of the switch ends: "4", "4 / 8" when two
// switch ports differ, "-" for a link between hosts.
func lanesPair(a, b int) string {
	switch {
	case a == b || b == 0:
		return intOrDash(a)
	case a == 0:
		return intOrDash(b)
	}
	return strconv.Itoa(a) + " / " + strconv.Itoa(b)
}

// mtuPair is "9216 / 9000" (A / B).
func mtuPair(a, b int) string { return intOrDash(a) + " / " + intOrDash(b) }

// intOrDash is n, or "-" for zero.
func intOrDash(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// orDash is s, or "-" when s is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeVLANs lists the VLANs with the switches and ports that carry
// each and the NICs in it, so a reviewer sees a VLAN missing from an
// uplink (a VLAN on fewer switches than its NICs sit on).
func writeVLANs(d *doc, f *model.Fabric) {
	if len(f.VLANs) == 0 {
		return
	}
	d.h(2, "VLANs")
	use := vlanUse(f)
	var body rows
	for _, v := range f.VLANs {
		d.at("vlan", strconv.Itoa(v.ID))
		u := use[v.ID]
		body.add(d, strconv.Itoa(v.ID), md(v.Name), orDash(switchList(u.switches)), strconv.Itoa(u.ports), strconv.Itoa(u.nics))
	}
	d.table([]string{"VLAN", "name", "carried on", "ports", "NICs"}, &body, 0, 3, 4)
	writeOverlay(d, f)
}

// vlanCount is where one VLAN is used: the switches whose ports carry
// it (in fabric order), how many ports carry it and how many NICs are in
// it.
type vlanCount struct {
	switches    []string
	ports, nics int
}

// vlanUse counts, in one pass over the ports, where each VLAN is used.
// A NIC is in its own vlan, or in the untagged VLAN of its switch port.
func vlanUse(f *model.Fabric) map[int]*vlanCount {
	use := make(map[int]*vlanCount, len(f.VLANs))
	for _, v := range f.VLANs {
		use[v.ID] = &vlanCount{}
	}
	untagged := make(map[[2]string]int) // (host, NIC) -> its port's untagged VLAN
	for i := range f.Switches {
		sw := &f.Switches[i]
		for j := range sw.Ports {
			p := &sw.Ports[j]
			if p.Peer != nil && p.Peer.Kind == "host" {
				untagged[[2]string{p.Peer.Device, p.Peer.Port}] = p.UntaggedVLAN()
			}
			for _, v := range p.CarriedVLANs() {
				u := use[v]
				if u == nil {
					continue
				}
				if n := len(u.switches); n == 0 || u.switches[n-1] != sw.Name {
					u.switches = append(u.switches, sw.Name)
				}
				u.ports++
			}
		}
	}
	for i := range f.Hosts {
		h := &f.Hosts[i]
		for _, n := range h.NICs {
			v := n.VLAN
			if v == 0 {
				v = untagged[[2]string{h.Name, n.Name}]
			}
			if u := use[v]; u != nil {
				u.nics++
			}
		}
	}
	return use
}

// switchList names the first five switches and counts the rest.
func switchList(names []string) string {
	out := make([]string, 0, 5)
	for _, n := range names[:min(len(names), 5)] {
		out = append(out, md(n))
	}
	s := strings.Join(out, ", ")
	if len(names) > 5 {
		s += fmt.Sprintf(" and %d more", len(names)-5)
	}
	return s
}

// cnpLanding says where the switches put CNPs of the firmware marking:
// "which DSCP-trusting ports put in class `other`".
func cnpLanding(q *model.QoS) string {
	byDSCP, byPCP := q.ClassOfDSCP(model.FirmwareCNPDSCP), q.ClassOfPriority(model.FirmwareCNPPriority)
	s := "which DSCP-trusting ports put in no class"
	if byDSCP != nil {
		s = "which DSCP-trusting ports put in class " + md(byDSCP.Name)
	}
	if byPCP != nil && byPCP != byDSCP {
		s += " and PCP-trusting ports in class " + md(byPCP.Name)
	}
	return s
}

// writeClasses lists the traffic classes and the headroom policy.
func writeClasses(d *doc, q *model.QoS) {
	d.h(2, "Traffic classes")
	intro := "Every switch port and host NIC uses these classes. RoCE data rides class " + md(q.RoCEClass)
	if q.CNPClass != "" {
		intro += ", DCQCN congestion notification packets (CNP) ride class " + md(q.CNPClass)
	} else {
		intro += ", DCQCN congestion notification packets (CNP) keep the NICs' firmware marking, DSCP " + strconv.Itoa(model.FirmwareCNPDSCP) + " and priority " + strconv.Itoa(model.FirmwareCNPPriority) + " (the fabric has no CNP class), " + cnpLanding(q)
	}
	if q.Profile != "" {
		intro += "; the classes start from the built-in profile " + md(q.Profile)
	}
	d.at("qos")
	d.p(intro + ".")
	var body rows
	for _, c := range q.Classes {
		d.at("qos", "class", c.Name)
		body.add(d, md(c.Name), strconv.Itoa(c.Priority), Ranges(c.Priorities), strconv.Itoa(c.TrafficClass),
			strconv.Itoa(c.MarkDSCP), Ranges(c.DSCP), yesNo(c.Lossless, "yes (PFC)", "no"), ecnText(c.ECN), etsText(c.ETS), yesNo(c.CNP, "yes", ""))
	}
	d.table([]string{"class", "priority", "priorities", "TC", "DSCP marked", "DSCP classified", "lossless", "ECN min / max / mark", "ETS", "CNP"}, &body, 1, 3, 4)
	d.at("qos")
	d.also("qos", "headroom")
	frames := "of up to " + Bytes(int64(q.Headroom.LosslessMTUBytes))
	if q.Headroom.LosslessMTUFromNICs {
		frames = "of each port's NICs' RoCE path MTU (lossless_mtu not written; " + Bytes(int64(q.Headroom.LosslessMTUBytes)) + ", the largest RoCE path MTU, where a port knows none)"
	}
	d.printf("PFC is on for %s %s. PFC headroom assumes lossless frames %s and %d %% small packets (see each switch's document for the per-port figures).",
		yesNo(len(q.PFCPriorities) == 1, "priority", "priorities"), Ranges(q.PFCPriorities), frames, q.Headroom.SmallPacketPercent)
}

// yesNo picks one of two words.
func yesNo(v bool, yes, no string) string {
	if v {
		return yes
	}
	return no
}

// ecnText is "153,600 B / 1,536,000 B / 100 %", or "-".
func ecnText(e *model.ECN) string {
	if e == nil {
		return "-"
	}
	return fmt.Sprintf("%s / %s / %d %%", Bytes(e.MinBytes), Bytes(e.MaxBytes), e.MarkProbabilityPercent)
}

// etsText is "WRR 50 %" or "strict".
func etsText(e model.ETS) string {
	if e.Mode == model.ETSStrict {
		return "strict"
	}
	return fmt.Sprintf("WRR %d %%", e.BandwidthPercent)
}

// writeBudgets lists every switch's buffer budget and its pools.
func writeBudgets(d *doc, f *model.Fabric) {
	if len(f.Switches) == 0 {
		return
	}
	d.h(2, "Buffer budget")
	d.p("Headroom in use is the buffer of every lossless priority group (in flight after PAUSE + PAUSE threshold, SONiC's xoff + xon; fabricc's computation, not configured, on a switch whose document says so); the lossless pool is sized " +
		"for the headroom the same ports would need at the planning cable length, so recabling within it changes no pool. " +
		"Demand is what the ports reserve in a pool; used is demand as a share of the pool.")
	var budgets rows
	for _, sw := range f.Switches {
		b := sw.Buffer
		d.at("switch", sw.Name, "buffer")
		budgets.add(d, deviceLink(sw.Name), md(sw.Hardware.Model), Bytes(b.TotalBytes), Bytes(b.HeadroomBytes),
			Bytes(b.HeadroomReserveBytes), Meters(b.PlanningCableMeters), Bytes(b.ReservedBytes), Bytes(b.SharedBytes),
			link("chart", sw.Name, sw.Name+ChartSuffix))
	}
	d.table([]string{"switch", "model", "buffer", "headroom in use", "headroom planned", "planned for", "other reservations", "shared", "picture"},
		&budgets, 2, 3, 4, 5, 6, 7)
	var pools rows
	for _, sw := range f.Switches {
		for _, u := range Pools(&sw) {
			d.at("switch", sw.Name, "pool", u.Pool.Name, u.Pool.Direction)
			pools.add(d, poolRow(md(sw.Name), u)...)
		}
	}
	d.table([]string{"switch", "pool", "direction", "type", "size", "share of buffer", "demand", "used"}, &pools, 4, 5, 6, 7)
	for i := range f.Switches {
		sw := &f.Switches[i]
		if note := eosProfileNote(sw); note != "" {
			d.at("switch", sw.Name, "buffer")
			d.p(note)
		}
	}
}

// poolRow is one row of a pool table; first is the switch cell.
func poolRow(first string, u PoolUse) []string {
	p := u.Pool
	return []string{first, md(p.Name), md(p.Direction), md(p.Type), Bytes(p.SizeBytes), Percent(p.Percent), Bytes(u.DemandBytes), Percent(u.PercentUsed)}
}

// writeWarnings lists every warning of the build with its places.
func writeWarnings(d *doc, warnings []Warning) {
	d.h(2, "Warnings")
	if len(warnings) == 0 {
		d.p("None.")
		return
	}
	for i, w := range warnings {
		d.at("warning", strconv.Itoa(i))
		head := fmt.Sprintf("%d. **%s**", i+1, md(w.Summary))
		if w.Place.File != "" {
			head += " at " + placeText(w.Place)
		}
		d.line(head)
		if w.Detail != "" {
			d.line("")
			d.line("   " + md(w.Detail))
		}
		if len(w.Related) > 0 {
			d.line("")
		}
		for _, r := range w.Related {
			d.line("   - " + md(r.Label) + ": " + placeText(r))
		}
		d.line("")
	}
}

// placeText is "switches.hcl:8:5".
func placeText(p Place) string {
	return md(fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column))
}

// writeSources lists the public documents the figures come from.
func writeSources(d *doc, f *model.Fabric) {
	d.h(2, "Sources")
	seen := map[string]bool{}
	var items rows
	add := func(what, src string) {
		if src == "" || seen[what+src] {
			return
		}
		seen[what+src] = true
		items.add(d, "- "+what+": "+md(src))
	}
	for _, sw := range f.Switches {
		// The switch model names the hardware figures and their source.
		d.at("switch", sw.Name, "model")
		add("switch buffer and ASIC constants of "+md(sw.Hardware.Model), sw.Hardware.Source)
	}
	d.at()
	for _, sw := range f.Switches {
		for _, p := range sw.Ports {
			for _, pg := range p.PriorityGroups {
				if pg.Headroom != nil {
					add("PFC headroom", pg.Headroom.Formula)
				}
			}
		}
	}
	if len(f.Switches) > 0 {
		add("pool split", poolSplitSource)
		add("planning cable length", planningSource)
	}
	if len(items.cells) == 0 {
		d.p("No derived figures.")
		return
	}
	for i, it := range items.cells {
		if items.elems != nil {
			d.b.Set(items.elems[i])
		}
		d.line(it[0])
	}
}

// Public sources of the pool sizing rules the compiler applies.
const (
	poolSplitSource = "Cumulus Linux user guide, RoCE, \"Default RoCE Configuration\" (the RoCE pool gets 50 % of the memory)"
	planningSource  = "sonic-buildimage files/build_templates/cable_length.j2 (5 m server, 40 m leaf, 300 m spine cables)"
)
