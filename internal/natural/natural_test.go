package natural

import (
	"slices"
	"strconv"
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

// lessByRuns is Less as it was defined before Compare: split both names
// into runs, and compare run by run. Compare must order every pair of
// names as it does.
func lessByRuns(a, b string) bool {
	ra, rb := Runs(a), Runs(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		x, y := ra[i], rb[i]
		if x == y {
			continue
		}
		nx, ex := strconv.Atoi(x)
		ny, ey := strconv.Atoi(y)
		if ex == nil && ey == nil && nx != ny {
			return nx < ny
		}
		return x < y
	}
	if len(ra) != len(rb) {
		return len(ra) < len(rb)
	}
	return a < b
}

// checkCompare requires Compare(a, b) to agree with lessByRuns both ways.
func checkCompare(t *testing.T, a, b string) {
	t.Helper()
	want := 0
	switch {
	case lessByRuns(a, b):
		want = -1
	case lessByRuns(b, a):
		want = 1
	}
	if got := Compare(a, b); got != want {
		t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
	}
}

func TestCompareIsLessByRuns(t *testing.T) {
	names := []string{"", "1", "01", "10", "a", "a1", "a01", "a1b", "a1b2", "ab", "1a", "swp1", "swp1s0", "swp10",
		"Ethernet1/2", "Ethernet1/10", "1/2", "1/10", "x99999999999999999999", "x99999999999999999998", "x9223372036854775808", "-1", "+1"}
	for _, a := range names {
		for _, b := range names {
			checkCompare(t, a, b)
		}
	}
}

func FuzzCompareIsLessByRuns(f *testing.F) {
	f.Add("swp1s0", "swp10")
	f.Add("Ethernet1/2", "Ethernet1/10")
	f.Add("x99999999999999999999", "x1")
	f.Fuzz(checkCompare)
}

// TestCompareAllocatesNothing: sorting the ports and links of a large
// fabric compares names millions of times.
func TestCompareAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Compare("Ethernet1/10", "Ethernet1/9") }); n != 0 {
		t.Errorf("Compare allocates %v times per call", n)
	}
}
