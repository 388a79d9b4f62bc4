package compiler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/internal/natural"
	"github.com/fabricc/fabricc/model"
)

// cage is a kind of front-panel port: how many electrical lanes it
// carries and the fastest lane it takes (Gb/s). A port's speed is its
// lane count times its lane rate (SFF/QSFP-DD/OSFP MSAs: SFP28 one 25G
// lane, QSFP28 four 25G lanes, QSFP56 four 50G, QSFP-DD eight 50G,
// QSFP112 four 100G, OSFP eight 50G or 100G).
type cage struct {
	name     string
	lanes    int
	maxLaneG int
}

// Cages of the hardware table.
var (
	sfpPlus  = cage{"SFP+", 1, 10}
	sfp28    = cage{"SFP28", 1, 25}
	qsfp28   = cage{"QSFP28", 4, 25}
	qsfp56   = cage{"QSFP56", 4, 50}
	qsfp28dd = cage{"QSFP28-DD", 8, 25}
	qsfpDD   = cage{"QSFP-DD", 8, 50}
	qsfp112  = cage{"QSFP112", 4, 100}
	osfp400  = cage{"OSFP", 8, 50}
	osfp800  = cage{"OSFP", 8, 100}
)

// laneRatesG lists the lane rates (Gb/s) each ASIC's SerDes runs:
// Spectrum and the Broadcom Trident3/Tomahawk 25G NRZ; Spectrum-2/-3 and
// Jericho2 add 50G PAM4; Spectrum-4 and Tomahawk5 add 100G PAM4 (NVIDIA
// Spectrum, Spectrum-2/-3/-4 and Broadcom product briefs; the 7060X6's
// 800G ports break out to 8 x 100G, sonic-buildimage
// x86_64-arista_7060x6_64pe platform.json). 10G is the 40G
// (4 x 10G) and 10G lane.
var laneRatesG = map[string][]int{
	"Spectrum":   {10, 25},
	"Spectrum-2": {10, 25, 50},
	"Spectrum-3": {10, 25, 50},
	"Spectrum-4": {10, 25, 50, 100},
	"Trident3":   {10, 25},
	"Tomahawk":   {10, 25},
	"Jericho2":   {10, 25, 50},
	"Tomahawk5":  {10, 25, 50, 100},
}

// portGroup is a run of front-panel ports with one cage. On a modular
// chassis the run is on the line card of every slot from firstSlot to
// lastSlot (0 on a fixed switch).
type portGroup struct {
	first, last         int
	cage                cage
	firstSlot, lastSlot int
}

// group builds a portGroup.
func group(first, last int, c cage) portGroup { return portGroup{first: first, last: last, cage: c} }

// onCards puts groups on the line cards in slots first to last of a
// modular chassis: every slot holds the same line card.
func onCards(first, last int, groups ...portGroup) []portGroup {
	for i := range groups {
		groups[i].firstSlot, groups[i].lastSlot = first, last
	}
	return groups
}

// slots are the line card slots of a modular model, first and last; 0, 0
// for a fixed switch.
func (m switchModel) slots() (first, last int) {
	if len(m.ports) == 0 {
		return 0, 0
	}
	return m.ports[0].firstSlot, m.ports[0].lastSlot
}

// ports lists groups in number order.
func ports(groups ...portGroup) []portGroup { return groups }

// laneCounts are the lane counts a port may use.
var laneCounts = []int{1, 2, 4, 8}

// laneOptions returns the lane counts on which a port of g on asic runs
// speedMbps, fewest first; none means the port cannot run the speed.
// 1G runs on single-lane cages only.
func laneOptions(asic string, g portGroup, speedMbps int) []int {
	if speedMbps == 1000 {
		if g.cage.lanes == 1 {
			return []int{1}
		}
		return nil
	}
	var out []int
	for _, l := range laneCounts {
		if l > g.cage.lanes || speedMbps%(l*1000) != 0 {
			continue
		}
		rate := speedMbps / l / 1000
		if rate <= g.cage.maxLaneG && slices.Contains(laneRatesG[asic], rate) {
			out = append(out, l)
		}
	}
	return out
}

// groupSpeeds lists the speeds (Mb/s, ascending) a port of g runs, with
// the lane count each uses by default (the fewest).
func groupSpeeds(asic string, g portGroup) (speeds []int, lanes map[int]int) {
	lanes = map[int]int{}
	for _, s := range sortedSpeeds() {
		if opts := laneOptions(asic, g, s); len(opts) > 0 {
			speeds = append(speeds, s)
			lanes[s] = opts[0]
		}
	}
	return speeds, lanes
}

// portRef is a port name taken apart: the front-panel number and, for a
// split port (Onyx 1/N/M, Cumulus swpNsM) or an EOS lane (EthernetN/M),
// the sub-port or lane index M; on an EOS modular chassis
// (EthernetS/N/M) also the line card slot S.
type portRef struct {
	number  int
	sub     int
	hasSub  bool
	slot    int
	hasSlot bool
}

// portSyntax is how a platform writes a port name: prefix, the
// front-panel number N without a leading zero, then optionally sep and
// the sub-port or lane index M, without a leading zero, or any digits
// when subFromZero (Cumulus counts breakouts from swpNs0). Onyx writes
// 1/N and 1/N/M, EOS EthernetN and EthernetN/M, Cumulus swpN and swpNsM.
// slotted syntaxes also take a line card slot first, S sep N sep M: EOS
// names the ports of a modular chassis EthernetS/N/M (`interface
// Ethernet3/1/1`, line card slot 3, port 1, lane 1, in the public
// AVD-generated configurations of modular spines; slots 1 and 2 hold the
// supervisors, so line cards start at slot 3).
type portSyntax struct {
	prefix      string
	sep         byte
	subFromZero bool
	slotted     bool
}

// parse takes name apart, or is false when it is not a port name of the
// syntax. A number too large for an int is 0 (no model has such a port).
func (ps portSyntax) parse(name string) (portRef, bool) {
	rest, ok := strings.CutPrefix(name, ps.prefix)
	if ps.prefix == "" || !ok {
		return portRef{}, false
	}
	num, rest, ok := leadingNumber(rest, false)
	if !ok {
		return portRef{}, false
	}
	r := portRef{number: atoiOrZero(num)}
	if rest == "" {
		return r, true
	}
	if rest[0] != ps.sep {
		return portRef{}, false
	}
	sub, rest, ok := leadingNumber(rest[1:], ps.subFromZero)
	if !ok {
		return portRef{}, false
	}
	r.sub, r.hasSub = atoiOrZero(sub), true
	if rest == "" {
		return r, true
	}
	if !ps.slotted || rest[0] != ps.sep {
		return portRef{}, false
	}
	lane, rest, ok := leadingNumber(rest[1:], ps.subFromZero)
	if !ok || rest != "" {
		return portRef{}, false
	}
	return portRef{slot: r.number, hasSlot: true, number: r.sub, sub: atoiOrZero(lane), hasSub: true}, true
}

// leadingNumber splits the ASCII digits s starts with from the rest; it
// is false when there are none, or when they start with a 0 and
// zeroFirst is false.
func leadingNumber(s string, zeroFirst bool) (digits, rest string, ok bool) {
	n := 0
	for n < len(s) && natural.IsDigit(s[n]) {
		n++
	}
	if n == 0 || s[0] == '0' && !zeroFirst {
		return "", s, false
	}
	return s[:n], s[n:], true
}

// atoiOrZero is the value of a run of digits, or 0 past an int.
func atoiOrZero(digits string) int {
	n, _ := strconv.Atoi(digits)
	return n
}

// parsePortRef takes a port name of platform p apart.
func parsePortRef(p model.Platform, name string) (portRef, bool) {
	info, ok := platforms[p]
	if !ok {
		return portRef{}, false
	}
	return info.ports.parse(name)
}

// groupOf returns the group holding front-panel port n.
func (m switchModel) groupOf(n int) (portGroup, bool) {
	for _, g := range m.ports {
		if n >= g.first && n <= g.last {
			return g, true
		}
	}
	return portGroup{}, false
}

// portName writes front-panel port n the way platform p names an
// unsplit port of cage c.
func portName(p model.Platform, n int, c cage) string {
	switch p {
	case model.PlatformOnyx:
		return fmt.Sprintf("1/%d", n)
	case model.PlatformEOS:
		if c.lanes > 1 {
			return fmt.Sprintf("Ethernet%d/1", n)
		}
		return fmt.Sprintf("Ethernet%d", n)
	}
	return fmt.Sprintf("swp%d", n)
}

// slotName is portName on the line card in slot (EOS EthernetS/N/M), or
// portName itself when slot is 0.
func slotName(p model.Platform, slot, n int, c cage) string {
	name := portName(p, n, c)
	if slot == 0 || p != model.PlatformEOS {
		return name
	}
	return fmt.Sprintf("Ethernet%d/%s", slot, strings.TrimPrefix(name, "Ethernet"))
}

// groupRange writes a group as platform p names it: "swp1-32",
// "1/49-1/56", "Ethernet1/1-32/1" (EOS lanes), "Ethernet33-34", and on
// the line cards of a modular chassis "EthernetS/1/1-S/36/1 (line card
// slot S: 3-10)".
func groupRange(p model.Platform, g portGroup) string {
	first := portName(p, g.first, g.cage)
	r := first
	if g.first != g.last {
		last := portName(p, g.last, g.cage)
		switch p {
		case model.PlatformOnyx:
			r = first + "-" + last
		case model.PlatformEOS:
			r = first + "-" + strings.TrimPrefix(last, "Ethernet")
		default:
			r = first + "-" + strings.TrimPrefix(last, "swp")
		}
	}
	if g.firstSlot == 0 || p != model.PlatformEOS {
		return r
	}
	rest := strings.TrimPrefix(r, "Ethernet")
	return fmt.Sprintf("EthernetS/%s (line card slot S: %d-%d)", strings.ReplaceAll(rest, "-", "-S/"), g.firstSlot, g.lastSlot)
}

// portsText describes a model's ports as platform p names them:
// "swp1-48 (SFP28), swp49-56 (QSFP28)".
func (m switchModel) portsText(p model.Platform) string {
	parts := make([]string, len(m.ports))
	for i, g := range m.ports {
		parts[i] = fmt.Sprintf("%s (%s)", groupRange(p, g), g.cage.name)
	}
	return strings.Join(parts, ", ")
}

// nameProblem says why name does not fit a port of model m on platform
// p, or "" when it does: the front-panel port must exist, a single-lane
// cage cannot be split, and EOS names a multi-lane port by its first
// lane (EthernetN/1), never EthernetN. fix is the name the port has on
// the platform when the mistake is only its spelling.
func nameProblem(p model.Platform, modelName string, m switchModel, name string) (why, fix string) {
	ref, ok := parsePortRef(p, name)
	if !ok {
		return "", "" // the platform's naming check reports it
	}
	if why := m.slotProblem(p, modelName, ref, name); why != "" {
		return why, ""
	}
	g, ok := m.groupOf(ref.number)
	if !ok {
		return fmt.Sprintf("the %s has no port %s; its ports are %s", modelName, name, m.portsText(p)), ""
	}
	unsplit := slotName(p, ref.slot, ref.number, g.cage)
	switch {
	case p == model.PlatformEOS && g.cage.lanes > 1 && !ref.hasSub:
		return fmt.Sprintf("port %d of the %s is a %s cage with %d lanes, and EOS names such a port by its first lane: write %s", ref.number, modelName, g.cage.name, g.cage.lanes, unsplit), unsplit
	case g.cage.lanes == 1 && ref.hasSub:
		return fmt.Sprintf("port %d of the %s is a single-lane %s cage and cannot be split: write %s", ref.number, modelName, g.cage.name, unsplit), unsplit
	case ref.hasSub && subIndex(p, ref) >= g.cage.lanes:
		return fmt.Sprintf("port %d of the %s is a %s cage with %d lanes, so %s does not exist", ref.number, modelName, g.cage.name, g.cage.lanes, name), ""
	}
	return "", ""
}

// slotProblem says why name's line card slot does not fit model m: a
// modular chassis names every port by its slot (EthernetS/N/M), a fixed
// switch by none, and the slot must hold a line card.
func (m switchModel) slotProblem(p model.Platform, modelName string, ref portRef, name string) string {
	first, last := m.slots()
	switch {
	case first == 0 && ref.hasSlot:
		return fmt.Sprintf("the %s is a fixed switch, so %s, a line card port (EthernetS/N/M), does not exist; its ports are %s", modelName, name, m.portsText(p))
	case first == 0:
		return ""
	case !ref.hasSlot:
		return fmt.Sprintf("the %s is a modular chassis, and EOS names its ports by line card slot, port and lane (EthernetS/N/M, e.g. Ethernet%d/1/1): %s has no slot; its ports are %s", modelName, first, name, m.portsText(p))
	case ref.slot < first || ref.slot > last:
		return fmt.Sprintf("%s is in slot %d, but the line cards of the %s are in slots %d-%d (slots 1 and 2 hold the supervisors)", name, ref.slot, modelName, first, last)
	}
	return ""
}

// subIndex is the 0-based sub-port (Onyx, Cumulus) or lane (EOS) index.
func subIndex(p model.Platform, ref portRef) int {
	if p == model.PlatformCumulus {
		return ref.sub
	}
	return ref.sub - 1
}

// portLanes returns the lanes port name uses at speedMbps on model m,
// given the lanes written (0: not written), or a problem saying why the
// port cannot run that. Without lanes written the port uses the fewest
// lanes that carry the speed (the fastest lane rate), e.g. 400G on an
// SN5600 is 4 x 100G and on an SN4700 8 x 50G. A split port (Onyx 1/N/M,
// Cumulus swpNsM) is sub-port M of equal parts, so it starts at lane
// M x lanes; an EOS EthernetN/M starts at lane M.
func portLanes(p model.Platform, modelName string, m switchModel, name string, speedMbps, written int) (int, string) {
	ref, ok := parsePortRef(p, name)
	if !ok {
		return 0, ""
	}
	g, ok := m.groupOf(ref.number)
	if !ok {
		return 0, ""
	}
	opts := laneOptions(m.asic.name, g, speedMbps)
	if len(opts) == 0 {
		speeds, _ := groupSpeeds(m.asic.name, g)
		return 0, fmt.Sprintf("ports %s of the %s are %s cages (%d x %dG lanes on %s), which run %s, not %s",
			groupRange(p, g), modelName, g.cage.name, g.cage.lanes, min(g.cage.maxLaneG, maxRate(m.asic.name)), m.asic.name, speedList(speeds), speedText(speedMbps))
	}
	lanes := opts[0]
	if written != 0 {
		if !slices.Contains(opts, written) {
			return 0, fmt.Sprintf("%s on ports %s of the %s (%s) runs on %s lanes, not %d", speedText(speedMbps), groupRange(p, g), modelName, g.cage.name, intsOr(opts), written)
		}
		lanes = written
	}
	return lanes, splitProblem(p, ref, g, name, lanes)
}

// splitProblem checks that a split port or EOS lane fits in its cage.
func splitProblem(p model.Platform, ref portRef, g portGroup, name string, lanes int) string {
	if !ref.hasSub {
		return ""
	}
	start := subIndex(p, ref) * lanes
	if p == model.PlatformEOS {
		start = subIndex(p, ref)
		if start%lanes != 0 {
			var starts []int
			for l := 0; l+lanes <= g.cage.lanes; l += lanes {
				starts = append(starts, l+1)
			}
			return fmt.Sprintf("%s starts at lane %d, but a %d-lane port of a %s cage starts at lane %s", name, ref.sub, lanes, g.cage.name, intsOr(starts))
		}
	} else if lanes == g.cage.lanes {
		return fmt.Sprintf("%s is a split port, but at this speed it takes all %d lanes of the %s cage: name it %s", name, lanes, g.cage.name, slotName(p, ref.slot, ref.number, g.cage))
	}
	if start+lanes > g.cage.lanes {
		return fmt.Sprintf("%s would take lanes %d-%d of a %d-lane %s cage", name, start+1, start+lanes, g.cage.lanes, g.cage.name)
	}
	return ""
}

// maxRate is the fastest lane rate of an ASIC in Gb/s.
func maxRate(asic string) int {
	r := laneRatesG[asic]
	if len(r) == 0 {
		return 0
	}
	return slices.Max(r)
}

// speedList renders speeds as "10G, 25G and 100G".
func speedList(speeds []int) string {
	names := make([]string, len(speeds))
	for i, s := range speeds {
		names[i] = speedText(s)
	}
	return joinAnd(names)
}

// intsOr renders numbers as "2 or 4".
func intsOr(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return english.Or(s)
}

// joinAnd renders names as "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
