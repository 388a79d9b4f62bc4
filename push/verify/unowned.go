package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Unowned lists, in one note, the ports of the switch that the model does
// not have and that run PFC: push changes only the ports the fabric
// describes, so a port removed from the fabric keeps an earlier push's
// lossless priorities and the buffer they reserve, while the fabric's
// pools are sized without it (fabricc plan says so when the port goes).
// The operator's own lossless ports read the same way: a note, not a
// difference.
func Unowned(want, got *State) []string {
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
