package dsl

import (
	"os"
	"path/filepath"
	"testing"
)

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

// TestUnknownFunctionSuggestion checks that an unknown function gets
// Suggest's guess, the same on every run: HCL's own guess picks among
// equally close names ("abs" and "range" for "abge") in map order.
func TestUnknownFunctionSuggestion(t *testing.T) {
	for name, want := range map[string]string{
		"abge":    `There is no function named "abge".`,
		"formatt": `There is no function named "formatt". Did you mean "format"?`,
	} {
		path := filepath.Join(t.TempDir(), "f.hcl")
		src := "fabric \"f\" {}\nlocals { x = " + name + "(1) }\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			_, _, diags := Load(path, Options{})
			if len(diags) != 1 || diags[0].Detail != want {
				t.Fatalf("%s: got %v, want one diagnostic %q", name, diags, want)
			}
		}
	}
}
