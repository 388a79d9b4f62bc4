package cli

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ValueError is a number outside its range or not a number at all; the
// dialects print it in their own style (EOS names the token).
type ValueError struct {
	Value  string
	Lo, Hi int
}

// Error names the value and the range it must be in.
func (e *ValueError) Error() string {
	return fmt.Sprintf("%q is not a number in %d-%d", e.Value, e.Lo, e.Hi)
}

// Ints parses a list of integers written with spaces, commas and ranges
// ("24 25 26", "0,3", "24-31", "100,200-202") into ascending, unique
// values, each within [lo, hi].
func Ints(s string, lo, hi int) ([]int, error) {
	seen := map[int]bool{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		a, b, isRange := strings.Cut(f, "-")
		from, err := strconv.Atoi(a)
		if err != nil {
			return nil, &ValueError{Value: a, Lo: lo, Hi: hi}
		}
		to := from
		if isRange {
			if to, err = strconv.Atoi(b); err != nil {
				return nil, &ValueError{Value: b, Lo: lo, Hi: hi}
			}
		}
		if from < lo || to > hi || from > to {
			return nil, &ValueError{Value: f, Lo: lo, Hi: hi}
		}
		for v := from; v <= to; v++ {
			seen[v] = true
		}
	}
	if len(seen) == 0 {
		return nil, &ValueError{Value: s, Lo: lo, Hi: hi}
	}
	return SortedKeys(seen), nil
}

// Int parses one integer within [lo, hi].
func Int(s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, &ValueError{Value: s, Lo: lo, Hi: hi}
	}
	return v, nil
}

// SortedKeys returns the keys of a map (VLAN IDs, pool names) in
// ascending order.
func SortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	return slices.Sorted(maps.Keys(m))
}

// Join writes ints separated by sep.
func Join(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// Ranges writes ascending ints in compact range form ("1-3,7").
func Ranges(v []int) string {
	var parts []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", v[i], v[j]))
		} else {
			parts = append(parts, strconv.Itoa(v[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// PortLess orders port names naturally: "swp2" < "swp10",
// "Ethernet1/2" < "Ethernet1/10", "1/2" < "1/10".
func PortLess(a, b string) bool {
	for a != "" && b != "" {
		na, ra := leadNum(a)
		nb, rb := leadNum(b)
		switch {
		case na >= 0 && nb >= 0:
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
		case a[0] != b[0]:
			return a[0] < b[0]
		default:
			a, b = a[1:], b[1:]
		}
	}
	return len(a) < len(b)
}

func leadNum(s string) (int, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return -1, s
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:]
}

// Entry returns m[k], first storing newV() there when k is absent: the
// get-or-create of every "enter this object" command.
func Entry[K comparable, V any](m map[K]*V, k K, newV func() *V) *V {
	v, ok := m[k]
	if !ok {
		v = newV()
		m[k] = v
	}
	return v
}

// PortNames returns the keys of a port map in natural order (PortLess);
// names PortLess ties stay in byte order, so the order is always the same.
func PortNames[V any](m map[string]V) []string {
	names := SortedKeys(m)
	sort.SliceStable(names, func(i, j int) bool { return PortLess(names[i], names[j]) })
	return names
}

// VersionAtLeast compares dotted releases numerically field by field
// ("3.10.4206" >= "3.6.6000"); letters after a field's digits ("32F")
// are ignored and a missing field counts as 0.
func VersionAtLeast(v, min string) bool {
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := leadField(a, i), leadField(b, i)
		if x != y {
			return x > y
		}
	}
	return true
}

func leadField(f []string, i int) int {
	if i >= len(f) {
		return 0
	}
	n, _ := leadNum(f[i])
	return max(n, 0)
}
