package cli

import (
	"regexp"
	"strings"
)

// Rule maps one command pattern to a state setter: grammar as data.
type Rule[S any] struct {
	// Pattern is a regular expression for the whole command line
	// (anchored; words separated by single spaces after Normalize).
	Pattern string
	// Do applies the command to the state; m holds the submatches. An
	// error rejects the command with the OS's error style and must leave
	// the state unchanged.
	Do func(s S, m []string) error
	re *regexp.Regexp
}

// Rules is a compiled grammar.
type Rules[S any] []Rule[S]

// Compile anchors and compiles every pattern; it panics on a bad pattern,
// which is a programming error caught by any test.
func Compile[S any](rs []Rule[S]) Rules[S] {
	out := make(Rules[S], len(rs))
	for i, r := range rs {
		r.re = Anchored(r.Pattern)
		out[i] = r
	}
	return out
}

// Anchored compiles pattern to match a whole command line; it panics on a
// bad pattern, which is a programming error caught by any test.
func Anchored(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + pattern + `)$`)
}

// Find returns the first rule matching line and its submatches.
func (rs Rules[S]) Find(line string) (*Rule[S], []string) {
	for i := range rs {
		if m := rs[i].re.FindStringSubmatch(line); m != nil {
			return &rs[i], m
		}
	}
	return nil, nil
}

// Normalize trims a command line and collapses runs of blanks.
func Normalize(line string) string {
	return strings.Join(strings.Fields(line), " ")
}
