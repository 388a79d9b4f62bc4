package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// SwitchWideChanges names the switch-wide settings that differ between
// before and after, a switch read before and after a push, each as
// "PFC priorities 3 -> 3,4": the VLANs, and, over the fabric's ports
// (want's), the DSCP map, the PFC priorities and the ETS, then the
// ingress buffer pools. These are the settings a path's switches must
// agree on, which a partial push leaves different on the switches it
// left out (rmig #11). nil when none moved.
func SwitchWideChanges(want, before, after *State) []string {
	var out []string
	if b, a := vlansText(before.VLANs), vlansText(after.VLANs); b != a {
		out = append(out, "VLANs "+b+" -> "+a)
	}
	ports := slices.SortedFunc(maps.Keys(want.Ports), naturalCmp)
	field := func(name string, text func(*Port) string) {
		for _, n := range ports {
			b, a := before.Ports[n], after.Ports[n]
			if b == nil || a == nil {
				continue
			}
			if tb, ta := text(b), text(a); tb != ta {
				out = append(out, fmt.Sprintf("%s %s -> %s", name, tb, ta))
				return // one port says it: the setting is the switch's
			}
		}
	}
	field("DSCP map", func(p *Port) string {
		if p.DSCPToTC == nil {
			return "-"
		}
		return runsText(p.DSCPToTC)
	})
	field("PFC priorities", func(p *Port) string { return intsText(p.PFC) })
	field("ETS", func(p *Port) string { return mapText(p.ETS, etsText) })
	for _, typ := range slices.Sorted(maps.Keys(joinKeys(before.Pools, after.Pools))) {
		if b, a := poolText(before.Pools, typ), poolText(after.Pools, typ); b != a {
			out = append(out, fmt.Sprintf("%s pool %s -> %s", typ, b, a))
		}
	}
	return out
}

// vlansText writes VLAN ids as "100,200", or "none".
func vlansText(v map[int]string) string {
	return intsText(slices.Sorted(maps.Keys(v)))
}

// poolText writes pool typ of pools as "50% priorities 3", or "none".
func poolText(pools map[string]Pool, typ string) string {
	p, ok := pools[typ]
	if !ok {
		return "none"
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", p.Percent), "0"), ".") + "% " + priorityText(p.Priorities)
}

// joinKeys is the union of a's and b's keys.
func joinKeys(a, b map[string]Pool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
