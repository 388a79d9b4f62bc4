package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
)

// Unowned lists, each in one note for the switch, what the switch runs
// that the fabric does not own: the ports (unownedPFC), and the settings
// of traffic classes no priority maps to (unusedTCs).
func Unowned(want, got *State) []string {
	return append(append(unownedPFC(want, got), unusedTCs(want, got)...), unusedProfiles(got)...)
}

// unusedProfiles notes the NVUE profiles named as fabricc names its own
// that no port uses (State.UnusedProfiles): an earlier fabric's, which
// push removes; one left means the switch was changed since, or the
// last push was not this fabricc's.
func unusedProfiles(got *State) []string {
	if len(got.UnusedProfiles) == 0 {
		return nil
	}
	return []string{"profiles named as fabricc names its own that no port uses: " + strings.Join(got.UnusedProfiles, ", ") +
		"; not compared: the next push removes them (nv unset qos <kind> <name>)"}
}

// unusedTCs notes the ETS and ECN settings of the fabric's ports in
// traffic classes no priority maps to, which Compare does not compare
// (unusedClassOptions says why): a class removed from the fabric leaves them as an
// earlier fabric set them (README, Scope). One note for the switch, by
// setting, with the number of ports.
func unusedTCs(want, got *State) []string {
	if want.UsedTCs == nil {
		return nil
	}
	ports := map[string]int{}
	for n := range want.Ports {
		g := got.Ports[n]
		if g == nil {
			continue
		}
		for tc, e := range g.ETS {
			if !want.UsedTCs[tc] && !want.AllETS {
				ports[fmt.Sprintf("ETS TC%d %s", tc, etsText(e))]++
			}
		}
		for tc, e := range g.ECN {
			if !want.UsedTCs[tc] {
				ports[fmt.Sprintf("ECN TC%d %s", tc, ecnText(e))]++
			}
		}
	}
	if len(ports) == 0 {
		return nil
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(ports)) {
		parts = append(parts, fmt.Sprintf("%s (%s)", k, plural(ports[k], "port")))
	}
	return []string{"traffic classes no priority maps to keep an earlier fabric's settings: " + strings.Join(parts, ", ") +
		"; not compared: no traffic reaches them, and ETS lends an idle class's share to the others"}
}

// plural is "1 port", "2 ports".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// unownedPFC lists, in one note, the ports of the switch that the model does
// not have and that run PFC: push changes only the ports the fabric
// describes, so a port removed from the fabric keeps an earlier push's
// lossless priorities and the buffer they reserve, while the fabric's
// pools are sized without it (fabricc plan says so when the port goes).
// The operator's own lossless ports read the same way: a note, not a
// difference.
func unownedPFC(want, got *State) []string {
	var ports []string
	for _, n := range slices.SortedFunc(maps.Keys(got.Ports), naturalCmp) {
		if _, ok := want.Ports[n]; !ok && len(got.Ports[n].PFC) > 0 {
			ports = append(ports, fmt.Sprintf("%s (priority %s)", n, intsText(got.Ports[n].PFC)))
		}
	}
	if len(ports) == 0 {
		return nil
	}
	return []string{"not in the fabric but running PFC: " + strings.Join(ports, ", ") +
		"; that reserves buffer the fabric's pools do not count: clear it on the switch, or add the port to the fabric"}
}

// PFCLoss is one port outside the fabric that runs PFC on priorities a
// push takes out of the switch's lossless set: SwitchWide are those
// whose PFC the push disables for the whole switch (Onyx enables PFC
// per priority switch-wide, and the push writes `no dcb
// priority-flow-control priority N enable` for each priority the fabric
// does not make lossless: NVIDIA Onyx User Manual, "Priority Flow
// Control"); Pool are those the push moves out of the lossless buffer
// pool while the port still pauses them (NVUE `qos traffic-pool
// default-lossless switch-priority`: Cumulus Linux User Guide, Quality
// of Service, "Lossless and Lossy Traffic Pools"), so a paused priority
// has no lossless buffer behind it.
type PFCLoss struct {
	Port             string
	SwitchWide, Pool []int
}

// PFCTakenOut compares each port the fabric does not have (not in
// want) that runs PFC in before, the switch as read before a push, with
// what the push leaves lossless: with switchWide (the platform enables
// PFC per priority for the whole switch) the union of want's ports'
// PFC priorities, and the priorities of want's lossless pool when both
// states have one. Ports in natural order; nil when no port loses a
// priority, and when before is nil (the switch was not read before).
func PFCTakenOut(want, before *State, switchWide bool) []PFCLoss {
	if before == nil {
		return nil
	}
	kept := map[int]bool{}
	for _, p := range want.Ports {
		for _, prio := range p.PFC {
			kept[prio] = true
		}
	}
	wantPool, wok := want.Pools["lossless"]
	beforePool, bok := before.Pools["lossless"]
	var out []PFCLoss
	for _, n := range slices.SortedFunc(maps.Keys(before.Ports), naturalCmp) {
		p := before.Ports[n]
		if _, ok := want.Ports[n]; ok || len(p.PFC) == 0 {
			continue
		}
		l := PFCLoss{Port: n}
		for _, prio := range p.PFC {
			switch {
			case switchWide && !kept[prio]:
				l.SwitchWide = append(l.SwitchWide, prio)
			case wok && bok && slices.Contains(beforePool.Priorities, prio) && !slices.Contains(wantPool.Priorities, prio):
				l.Pool = append(l.Pool, prio)
			}
		}
		if len(l.SwitchWide)+len(l.Pool) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// Warning is the dry run's and the push's warning of l, without the
// switch's name: "1/10 (not in the fabric) runs PFC on priority 4; this
// push disables PFC on priority 4 switch-wide: ...".
func (l PFCLoss) Warning() string {
	lost := append(append([]int(nil), l.SwitchWide...), l.Pool...)
	slices.Sort(lost)
	return fmt.Sprintf("%s (not in the fabric) runs PFC on %s; this push %s: its traffic becomes lossy. "+
		"Add the port to the fabric, or move it to a lossless class the fabric keeps.", quote.Visible(l.Port), priorityText(lost), l.did(false))
}

// did is what the push does to l's priorities, as the warning before it
// says it (past false: "disables PFC on priority 4 switch-wide and
// moves priority 3 out of the lossless buffer pool, while the port
// still pauses it") or the note after it (past true: "disabled PFC on
// priority 4 switch-wide and moved priority 3 out of the lossless
// pool").
func (l PFCLoss) did(past bool) string {
	var what []string
	if len(l.SwitchWide) > 0 {
		verb := "disables"
		if past {
			verb = "disabled"
		}
		what = append(what, verb+" PFC on "+priorityText(l.SwitchWide)+" switch-wide")
	}
	if len(l.Pool) > 0 {
		moved := "moves " + priorityText(l.Pool) + " out of the lossless buffer pool, while the port still pauses it"
		if past {
			moved = "moved " + priorityText(l.Pool) + " out of the lossless pool"
		}
		what = append(what, moved)
	}
	return strings.Join(what, " and ")
}

// priorityText is "priority 4" or "priorities 3,4".
func priorityText(v []int) string {
	if len(v) == 1 {
		return "priority " + intsText(v)
	}
	return "priorities " + intsText(v)
}

// UnownedAfter is Unowned for the state a push left, got, told against
// before, the switch as read before the push: a port outside the
// fabric whose lossless priorities the push took away (PFCTakenOut)
// is named with what it had and what the push did, not only with what
// it runs now, which understates it (rmig #3). A nil before (the
// switch was not read before the push) gives Unowned's notes.
func UnownedAfter(want, before, got *State, switchWide bool) []string {
	notes := Unowned(want, got)
	losses := PFCTakenOut(want, before, switchWide)
	if len(losses) == 0 {
		return notes
	}
	var parts []string
	for _, l := range losses {
		parts = append(parts, fmt.Sprintf("%s (PFC on %s before the push, which %s)", quote.Visible(l.Port), priorityText(before.Ports[l.Port].PFC), l.did(true)))
	}
	return append([]string{"not in the fabric and no longer lossless: " + strings.Join(parts, ", ") +
		"; their traffic is lossy now: add the ports to the fabric, or move them to a lossless class the fabric keeps"}, notes...)
}

// BroughtUp are the fabric's ports (want's) that before, the switch as
// read before a push, shows administratively down and that the fabric
// does not shut: the push writes each one's administrative state, so it
// brings them up, also a port an operator shut by hand for a reason (a
// flapping optic, a pause storm). Natural order.
func BroughtUp(want, before *State) []string {
	var out []string
	for _, n := range slices.SortedFunc(maps.Keys(want.Ports), naturalCmp) {
		if b := before.Ports[n]; b != nil && b.Shutdown && !want.Ports[n].Shutdown {
			out = append(out, n)
		}
	}
	return out
}
