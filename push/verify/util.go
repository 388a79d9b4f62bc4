package verify

import (
	"sort"
	"strconv"
	"strings"
)

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

func addSorted(list []int, v int) []int {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	list = append(list, v)
	sort.Ints(list)
	return list
}

// expandList reads "10,20-22" or "10 20" into ascending ints.
func expandList(s string) []int {
	var out []int
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
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
		for i := a; i <= b && i-a < 4096; i++ {
			out = addSorted(out, i)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
