package compiler

import "testing"

func TestClosest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"onxy", []string{"onyx", "eos", "cumulus"}, "onyx"},
		{"swp01", []string{"swp1", "swp2", "swp3"}, "swp1"},
		{"swp5", []string{"swp1", "swp2", "swp3", "swp4"}, ""},
		{"ConnectX-8", []string{"ConnectX-4", "ConnectX-5", "ConnectX-7"}, ""},
		{"SWP3", []string{"swp1", "swp3"}, "swp3"},
		{"spine9", []string{"leaf1", "gpu01"}, ""},
		{"x", nil, ""},
	} {
		if got := closest(tc.name, tc.cands); got != tc.want {
			t.Errorf("closest(%q, %v) = %q, want %q", tc.name, tc.cands, got, tc.want)
		}
	}
}
