package push

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// onyxAllowedLine is a port's "switchport trunk|hybrid allowed-vlan ..." line.
var onyxAllowedLine = regexp.MustCompile(`^interface ethernet (\S+) switchport (?:trunk|hybrid) allowed-vlan (.+)$`)

// onyxSameVLANs drops from want the allowed-vlan lines of every port whose
// allowed set the running configuration already holds. fabricc writes a
// trunk's list as "allowed-vlan none" plus one "add" per VLAN, while a
// running config prints the list its own way ("allowed-vlan 101,102" in
// the simulator, "none" plus "add" lines on some Onyx releases), so the
// lines cannot be compared one to one; the sets can. A port whose set
// differs keeps all its lines, so the device's list is replaced, not
// added to.
func onyxSameVLANs(want, running []string) []string {
	have := onyxAllowedSets(running)
	wanted := onyxAllowedSets(want)
	var out []string
	for _, l := range want {
		if m := onyxAllowedLine.FindStringSubmatch(l); m != nil {
			h, ok := have[m[1]]
			if ok && slices.Equal(h, wanted[m[1]]) {
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// onyxAllowedSets applies each port's allowed-vlan lines in order: "none"
// empties the list, "add" and "remove" change it, a bare list replaces it.
func onyxAllowedSets(lines []string) map[string][]int {
	sets := map[string][]int{}
	for _, l := range lines {
		m := onyxAllowedLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		cur := sets[m[1]]
		switch f[0] {
		case "none", "all":
			cur = []int{}
			if f[0] == "all" {
				cur = nil // every VLAN: never equal to an explicit list
			}
		case "add":
			cur = onyxUnion(cur, onyxIDs(f[1:]))
		case "remove":
			cur = slices.DeleteFunc(slices.Clone(cur), func(v int) bool { return slices.Contains(onyxIDs(f[1:]), v) })
		default:
			cur = onyxUnion(nil, onyxIDs(f))
		}
		sets[m[1]] = cur
	}
	return sets
}

// onyxIDs reads VLAN ids and ranges ("101,102", "101-104", "101 102").
func onyxIDs(words []string) []int {
	var out []int
	for _, part := range strings.FieldsFunc(strings.Join(words, ","), func(r rune) bool { return r == ',' || r == ' ' }) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for v := a; v <= b && v-a < 4096; v++ {
			out = append(out, v)
		}
	}
	return out
}

// onyxUnion returns the sorted union of a and b, never nil.
func onyxUnion(a, b []int) []int {
	out := append(append([]int{}, a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
