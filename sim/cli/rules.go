package cli

import (
	"fmt"
	"regexp"
	"strings"
)

// Rule maps one command syntax to a state setter: grammar as data.
//
// Syntax is a sequence of blank-separated elements:
//
//	word     a keyword; the CLI takes any unique prefix of it ("conf" for
//	         "configure"), case-insensitively
//	{a|b}    one keyword of the alternatives, captured as written here
//	<kind>   a value of a kind, captured: word (any token), int (digits),
//	         float, list (one or more tokens of digits, commas and
//	         hyphens: "1 2 3", "24-31", "0,3"), rest (the rest of the
//	         line as typed), or a kind the dialect names in Compile
//	[elem]   an optional keyword, {a|b} or <kind>; captured, "" when absent
//
// Do receives m: m[0] the line with every keyword written out in full,
// then one entry per captured element in order.
type Rule[S any] struct {
	Syntax string
	// Do applies the command. An error rejects the command with the
	// OS's error style and must leave the state unchanged. A nil Do makes
	// the syntax a known but unsimulated command: it takes part in
	// abbreviation (so "c" stays ambiguous where the device has several
	// c-commands) and answers ErrUnsupported.
	Do func(s S, m []string) error
}

// ErrUnsupported is what a Rule without Do returns.
var ErrUnsupported = fmt.Errorf("this command is not simulated")

// elem is one compiled syntax element.
type elem struct {
	words   []string // keyword alternatives; nil for a value
	capture bool
	kind    string
	match   *regexp.Regexp
	repeat  bool // one or more tokens (list kinds)
	rest    bool // the rest of the line
	absent  bool // an optional element left out: matches nothing, captures ""
}

// variant is one way a rule can be written (optional elements expanded).
type variant struct {
	rule  int
	elems []elem
}

// Grammar is a compiled rule table.
type Grammar[S any] struct {
	rules    []Rule[S]
	variants []variant
}

// builtinKinds are the value kinds every grammar knows; a kind whose
// name ends in "..." takes one or more tokens.
var builtinKinds = map[string]string{
	"word":    `\S+`,
	"int":     `\d+`,
	"float":   `\d+(?:\.\d+)?`,
	"list...": `\d[\d,\-]*`,
}

// Compile builds a grammar from rules; kinds adds value kinds (name ->
// regular expression for one token; a name ending in "..." repeats). It
// panics on a bad syntax, a programming error any test catches.
func Compile[S any](rules []Rule[S], kinds map[string]string) *Grammar[S] {
	all := map[string]*regexp.Regexp{}
	for _, src := range []map[string]string{builtinKinds, kinds} {
		for name, re := range src {
			all[name] = Anchored(re)
		}
	}
	g := &Grammar[S]{rules: rules}
	for i, r := range rules {
		elems, err := parseSyntax(r.Syntax, all)
		if err != nil {
			panic(fmt.Sprintf("cli: rule %q: %v", r.Syntax, err))
		}
		for _, v := range expandOptional(elems) {
			g.variants = append(g.variants, variant{rule: i, elems: v})
		}
	}
	return g
}

// optElem is a parsed element that may be optional.
type optElem struct {
	elem
	optional bool
}

func parseSyntax(syntax string, kinds map[string]*regexp.Regexp) ([]optElem, error) {
	var out []optElem
	for _, f := range strings.Fields(syntax) {
		var e optElem
		if strings.HasPrefix(f, "[") && strings.HasSuffix(f, "]") {
			e.optional, e.capture = true, true
			f = f[1 : len(f)-1]
		}
		switch {
		case strings.HasPrefix(f, "{") && strings.HasSuffix(f, "}"):
			e.words, e.capture = strings.Split(f[1:len(f)-1], "|"), true
		case strings.HasPrefix(f, "<") && strings.HasSuffix(f, ">"):
			e.kind, e.capture = f[1:len(f)-1], true
			if e.kind == "rest" {
				e.rest = true
				break
			}
			re, ok := kinds[e.kind]
			if !ok {
				if re, ok = kinds[e.kind+"..."]; !ok {
					return nil, fmt.Errorf("unknown kind <%s>", e.kind)
				}
				e.repeat = true
			}
			e.match = re
		default:
			e.words = []string{f}
		}
		out = append(out, e)
	}
	return out, nil
}

// expandOptional returns every combination of present and absent
// optional elements, the fullest first.
func expandOptional(es []optElem) [][]elem {
	out := [][]elem{nil}
	for _, e := range es {
		var next [][]elem
		for _, prefix := range out {
			next = append(next, append(append([]elem{}, prefix...), e.elem))
			if e.optional {
				absent := elem{capture: true, absent: true}
				next = append(next, append(append([]elem{}, prefix...), absent))
			}
		}
		out = next
	}
	return out
}

// Anchored compiles pattern to match a whole string; it panics on a bad
// pattern, which is a programming error caught by any test.
func Anchored(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + pattern + `)$`)
}

// Normalize trims a command line and collapses runs of blanks.
func Normalize(line string) string {
	return strings.Join(strings.Fields(line), " ")
}
