package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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
// (usedOnly says why): a class removed from the fabric leaves them as an
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
				ports[fmt.Sprintf("ECN TC%d min %s max %s", tc, sizeText(e.MinBytes), sizeText(e.MaxBytes))]++
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
