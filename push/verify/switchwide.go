package verify

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// SwitchWideChanges names the switch-wide settings that differ between
// before and after, a switch read before and after a push, each as
// "PFC priorities 3 -> 3,4": the VLANs, and, over the fabric's ports
// (want's), the DSCP map (dscpMapChanges), the PFC priorities and the
// ETS, then the ingress buffer pools. These are the settings a path's switches must
// agree on, which a partial push leaves different on the switches it
// left out (rmig #11). nil when none moved.
func SwitchWideChanges(want, before, after *State) []string {
	var out []string
	if b, a := vlansText(before.VLANs), vlansText(after.VLANs); b != a {
		out = append(out, "VLANs "+b+" -> "+a)
	}
	ports := slices.SortedFunc(maps.Keys(want.Ports), naturalCmp)
	// One port says it: each of these is the switch's, or the fabric's.
	for _, n := range ports {
		b, a := before.Ports[n], after.Ports[n]
		if b == nil || a == nil {
			continue
		}
		moved := dscpMapChanges(b, a)
		if tb, ta := intsText(b.PFC), intsText(a.PFC); tb != ta {
			moved = append(moved, "PFC priorities "+tb+" -> "+ta)
		}
		moved = append(moved, keyChanges("ETS", "TC", b.ETS, a.ETS, etsText, "")...)
		if len(moved) > 0 {
			out = append(out, moved...)
			break
		}
	}
	for _, typ := range unionKeys(before.Pools, after.Pools) {
		if b, a := poolText(before.Pools, typ), poolText(after.Pools, typ); b != a {
			out = append(out, fmt.Sprintf("%s pool %s -> %s", typ, b, a))
		}
	}
	return out
}

// dscpMapChanges names the DSCP map's change by the stage that moved,
// as Compare does (compareStages): where both reads have the two stages,
// "DSCP 26 switch priority 0 -> 3" for the DSCP -> switch priority map
// and "switch priority 3 traffic class 3 -> 0" for the egress map, so a
// change of the egress map is not worded as one of every DSCP that lands
// in it; else the composed map, "DSCP 26 TC0 -> TC3".
func dscpMapChanges(before, after *Port) []string {
	b, a := *before, *after
	compareStages(&b, &a)
	var out []string
	if b.DSCPToPriority != nil {
		out = append(out, stageChanges("DSCP", "switch priority", b.DSCPToPriority, a.DSCPToPriority)...)
	}
	if b.PriorityToTC != nil {
		out = append(out, stageChanges("switch priority", "traffic class", b.PriorityToTC, a.PriorityToTC)...)
	}
	if b.DSCPToTC != nil {
		out = append(out, keyChanges("DSCP", "", b.DSCPToTC, a.DSCPToTC, func(tc int) string { return fmt.Sprintf("TC%d", tc) }, "")...)
	}
	return out
}

// stageChanges names one stage of the DSCP map as Compare's field names
// do: "switch priority 3 traffic class 3 -> 0, 4 traffic class 4 -> 3".
func stageChanges(name, value string, before, after map[int]int) []string {
	return keyChanges(name, "", before, after, strconv.Itoa, " "+value)
}

// keyChanges names, as one "ETS TC3 wrr 50% -> wrr 60%, TC4 ..." entry,
// the keys whose values differ between before and after; none when
// none does. A key on one side only reads "none" on the other. key
// goes before each key's number and what (" traffic class") after it.
func keyChanges[V comparable](name, key string, before, after map[int]V, text func(V) string, what string) []string {
	var parts []string
	for _, k := range unionKeys(before, after) {
		b, bok := before[k]
		a, aok := after[k]
		if bok == aok && b == a {
			continue
		}
		side := func(v V, ok bool) string {
			if !ok {
				return "none"
			}
			return text(v)
		}
		parts = append(parts, fmt.Sprintf("%s%d%s %s -> %s", key, k, what, side(b, bok), side(a, aok)))
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{name + " " + strings.Join(parts, ", ")}
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

// unionKeys is the union of a's and b's keys, sorted.
func unionKeys[K cmp.Ordered, V any](a, b map[K]V) []K {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
