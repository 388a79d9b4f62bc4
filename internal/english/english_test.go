package english

import (
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{0, "host", "0 hosts"}, {1, "host", "1 host"}, {2, "switch", "2 switches"}, {1, "switch", "1 switch"},
		{3, "difference", "3 differences"}, {2, "DIFF line", "2 DIFF lines"}, {2, "box", "2 boxes"},
		{2, "class", "2 classes"}, {2, "mesh", "2 meshes"}, {1, "cabled port", "1 cabled port"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// TestRuns: runs of three or more become ranges, runs of two stay two
// numbers.
func TestRuns(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{5}, "5"},
		{[]int{8, 9, 11, 12, 13, 14, 15}, "8|9|11-15"},
		{[]int{0, 1, 2, 4, 6, 7}, "0-2|4|6|7"},
	} {
		if got := strings.Join(Runs(tc.in), "|"); got != tc.want {
			t.Errorf("Runs(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOr(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := Or(c.in); got != c.want {
			t.Errorf("Or(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
