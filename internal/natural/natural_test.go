package natural

import (
	"slices"
	"testing"
)

func TestRuns(t *testing.T) {
	for s, want := range map[string][]string{
		"Ethernet1/10": {"Ethernet", "1", "/", "10"},
		"swp1s0":       {"swp", "1", "s", "0"},
		"12":           {"12"},
		"":             nil,
	} {
		if got := Runs(s); !slices.Equal(got, want) {
			t.Errorf("Runs(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestLess(t *testing.T) {
	names := []string{"swp10", "Ethernet1/10", "swp2", "1/10", "swp1s1", "Ethernet1/2", "1/2", "swp01", "swp1", "swp1s0"}
	slices.SortFunc(names, func(a, b string) int {
		switch {
		case Less(a, b):
			return -1
		case Less(b, a):
			return 1
		}
		return 0
	})
	want := []string{"1/2", "1/10", "Ethernet1/2", "Ethernet1/10", "swp01", "swp1", "swp1s0", "swp1s1", "swp2", "swp10"}
	if !slices.Equal(names, want) {
		t.Errorf("sorted = %q\nwant     %q", names, want)
	}
}
