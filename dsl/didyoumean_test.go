package dsl

import "testing"

// TestSuggest pins fabricc's one "did you mean" rule: case-insensitive
// edit distance at most max(2, len/3), no guess on ties.
func TestSuggest(t *testing.T) {
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
		{"SN2411", []string{"SN2410", "SN2700", "7050CX3-32S"}, "SN2410"},
		{"sn2410", []string{"SN2410"}, "SN2410"},
		{"leaf_cont", []string{"leaf_count", "spine_count"}, "leaf_count"},
		{"hosts_per_lef", []string{"hosts_per_leaf"}, "hosts_per_leaf"},
		{"200", []string{"100", "300"}, ""},
		{"201", []string{"100", "200"}, "200"},
		{"x", nil, ""},
		{"x", []string{"x", "x"}, "x"},
	} {
		if got := Suggest(tc.name, tc.cands); got != tc.want {
			t.Errorf("Suggest(%q, %v) = %q, want %q", tc.name, tc.cands, got, tc.want)
		}
	}
	if got := DidYouMean("onxy", []string{"onyx"}); got != ` Did you mean "onyx"?` {
		t.Errorf("DidYouMean = %q", got)
	}
}
