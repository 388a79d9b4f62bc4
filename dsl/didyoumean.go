package dsl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
)

// Suggest returns the candidate closest to name by edit distance,
// ignoring case, or "" when none is close enough to be a likely typo.
// This is fabricc's one "did you mean" rule, for every kind of name
// (attributes, variables, models, devices, ports, VLAN ids): a candidate
// is close when at most max(2, len(name)/3) single-character edits turn
// name into it. When several candidates are equally close no guess is
// made: a guess between "swp1" and "swp4" for "swp5" would mislead.
func Suggest(name string, candidates []string) string {
	best, bestD, ties := "", -1, 0
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		d := levenshtein.Distance(strings.ToLower(name), strings.ToLower(c), nil)
		switch {
		case bestD < 0 || d < bestD:
			best, bestD, ties = c, d, 1
		case d == bestD:
			ties++
		}
	}
	if bestD < 0 || ties > 1 || bestD > SuggestDistance(name) {
		return ""
	}
	return best
}

// SuggestDistance is the largest edit distance Suggest accepts for name.
func SuggestDistance(name string) int {
	return max(2, len(name)/3)
}

// DidYouMean returns ` Did you mean "x"?` for Suggest's candidate, or "".
func DidYouMean(name string, candidates []string) string {
	if c := Suggest(name, candidates); c != "" {
		return fmt.Sprintf(" Did you mean %q?", c)
	}
	return ""
}

// sortedKeys returns the keys of m in name order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
