package push

import (
	"maps"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/push/verify"
)

// switchWideChanges are the switch-wide settings a push changed on a
// switch, read before and after: verify.SwitchWideChanges, whose DSCP
// map (by the stage that moved where the platform reads two, DSCP ->
// switch priority and switch priority -> traffic class, as verify's
// Compare words them), PFC priorities and ETS each port reads, counted
// only when the setting moved on every fabric port read on both sides. A switch-wide
// setting (Onyx's `dcb priority-flow-control priority 3 enable`, EOS's
// `qos map dscp`, NVUE's default-global profiles) moves on every port at
// once; one that some ports alone show is theirs (PFC restored on one
// port), no setting that the switches left out of a partial push lack.
// Where ports moved from different values, the most common change is
// named.
func switchWideChanges(want, before, after *verify.State) []string {
	var ports []string
	for _, name := range slices.Sorted(maps.Keys(want.Ports)) {
		if before.Ports[name] != nil && after.Ports[name] != nil {
			ports = append(ports, name)
		}
	}
	if len(ports) == 0 {
		return verify.SwitchWideChanges(want, before, after)
	}
	var fields []string            // in the order the first port names them
	seen := map[string]int{}       // field -> ports that moved it
	texts := map[string][]string{} // field -> each port's change
	for _, name := range ports {
		one := &verify.State{Ports: map[string]*verify.Port{name: want.Ports[name]}}
		for _, c := range verify.SwitchWideChanges(one, before, after) {
			f, _, _ := strings.Cut(c, " ")
			if seen[f] == 0 {
				fields = append(fields, f)
			}
			seen[f]++
			texts[f] = append(texts[f], c)
		}
	}
	var out []string
	for _, f := range fields {
		if seen[f] == len(ports) {
			out = append(out, mostCommon(texts[f]))
		}
	}
	return out
}

// mostCommon is the string of v that occurs most often; on a tie, the
// one that reached that count first.
func mostCommon(v []string) string {
	best, n := "", 0
	counts := map[string]int{}
	for _, s := range v {
		counts[s]++
		if counts[s] > n {
			best, n = s, counts[s]
		}
	}
	return best
}
