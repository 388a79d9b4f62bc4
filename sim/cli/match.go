package cli

import (
	"fmt"
	"strings"
)

// ErrorKind says why a line matched no rule.
type ErrorKind int

// The ways a line fails, as switch CLIs report them.
const (
	// Invalid: a token fits no command (EOS "% Invalid input (at token
	// N: 'x')", Onyx "% Unrecognized command "x".").
	Invalid ErrorKind = iota
	// Incomplete: the line is the start of a command.
	Incomplete
	// Ambiguous: a token abbreviates several keywords.
	Ambiguous
)

// SyntaxError is a line no rule accepts.
type SyntaxError struct {
	Kind ErrorKind
	// Token is the 0-based index of the token at fault; Word is it.
	Token int
	Word  string
	// Choices are the keywords an ambiguous token abbreviates.
	Choices []string
}

// Unmodelled is whether the line's first word is no command of the
// table: a command the vendor may have that the simulator does not
// model, which a simulator answers with its own "not simulated" text
// rather than the device's error for a command that does not exist
// (review rsim #7).
func (e *SyntaxError) Unmodelled() bool { return e.Kind == Invalid && e.Token == 0 }

// Error describes the fault: an incomplete command, an ambiguous token
// with its choices, or invalid input at a token.
func (e *SyntaxError) Error() string {
	switch e.Kind {
	case Incomplete:
		return "incomplete command"
	case Ambiguous:
		return fmt.Sprintf("ambiguous command at token %d: %q (%s)", e.Token, e.Word, strings.Join(e.Choices, ", "))
	}
	return fmt.Sprintf("invalid input at token %d: %q", e.Token, e.Word)
}

// Token is one word of a command line and where it starts.
type Token struct {
	Text  string
	Start int
}

// Tokens splits a line at blanks; a double-quoted string ("to gpu09
// port 1") is one token, quotes kept.
func Tokens(line string) []Token {
	var out []Token
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		start := i
		quoted := false
		for i < len(line) && (quoted || (line[i] != ' ' && line[i] != '\t')) {
			if line[i] == '"' {
				quoted = !quoted
			}
			i++
		}
		out = append(out, Token{Text: line[start:i], Start: start})
	}
	return out
}

// state is one rule variant being matched.
type state struct {
	v        *variant
	pos      int
	caps     []string
	words    []string // the tokens as written out
	inRepeat bool
}

// close skips absent optional elements, capturing "" for each.
func (s state) close() state {
	for s.pos < len(s.v.elems) && s.v.elems[s.pos].absent {
		s.caps = append(append([]string{}, s.caps...), "")
		s.pos++
	}
	return s
}

func (s state) done() bool { return s.pos == len(s.v.elems) }

// next is the element s expects for tok, leaving a repeat that tok does
// not continue.
func (s state) next(tok string) (state, *elem, bool) {
	if s.inRepeat {
		e := &s.v.elems[s.pos]
		if e.match.MatchString(tok) {
			return s, e, true
		}
		s.inRepeat = false
		s.pos++
		s = s.close()
	}
	if s.done() {
		return s, nil, false
	}
	return s, &s.v.elems[s.pos], false
}

// Match finds the rule line means: the first rule, in table order, that
// accepts all of it. Keywords may be abbreviated to a unique prefix among
// the keywords possible at that point.
func (g *Grammar[S]) Match(line string) (*Rule[S], []string, *SyntaxError) {
	toks := Tokens(line)
	if len(toks) == 0 {
		return nil, nil, &SyntaxError{Kind: Incomplete}
	}
	states := make([]state, 0, len(g.variants))
	for i := range g.variants {
		states = append(states, state{v: &g.variants[i]}.close())
	}
	var finals []state
	for i, tok := range toks {
		word, serr := g.resolve(states, tok.Text, i)
		if serr != nil {
			return nil, nil, serr
		}
		var next []state
		for _, s := range states {
			s2, ok, final := step(s, tok, line, word)
			switch {
			case final:
				finals = append(finals, s2)
			case ok:
				next = append(next, s2)
			}
		}
		if len(next) == 0 && len(finals) == 0 {
			return nil, nil, &SyntaxError{Kind: Invalid, Token: i, Word: tok.Text}
		}
		states = next
	}
	for _, s := range states {
		if s.inRepeat {
			s.inRepeat = false
			s.pos++
			s = s.close()
		}
		if s.done() {
			finals = append(finals, s)
		}
	}
	if len(finals) == 0 {
		return nil, nil, &SyntaxError{Kind: Incomplete, Token: len(toks)}
	}
	best := finals[0]
	for _, f := range finals[1:] {
		if f.v.rule < best.v.rule {
			best = f
		}
	}
	m := append([]string{strings.Join(best.words, " ")}, best.caps...)
	return &g.rules[best.v.rule], m, nil
}

// resolve finds the keyword tok abbreviates among the keywords the live
// states expect: an exact keyword wins, else a unique prefix. "" when no
// keyword fits (values may still take tok). A prefix of several keywords
// is ambiguous unless a value also takes tok.
func (g *Grammar[S]) resolve(states []state, tok string, i int) (string, *SyntaxError) {
	seen := map[string]bool{}
	var cands []string
	valueFits := false
	for _, s := range states {
		_, e, repeating := s.next(tok)
		switch {
		case e == nil:
		case repeating, e.rest, e.words == nil && e.match.MatchString(tok):
			valueFits = true
		default:
			for _, w := range e.words {
				if strings.EqualFold(w, tok) {
					return w, nil
				}
				if len(tok) <= len(w) && strings.EqualFold(w[:len(tok)], tok) && !seen[w] {
					seen[w] = true
					cands = append(cands, w)
				}
			}
		}
	}
	switch {
	case len(cands) == 1:
		return cands[0], nil
	case len(cands) > 1 && !valueFits:
		return "", &SyntaxError{Kind: Ambiguous, Token: i, Word: tok, Choices: cands}
	}
	return "", nil
}

// step feeds one token to s. ok reports that s lives on; final that s
// took the rest of the line and is complete.
func step(s state, tok Token, line, word string) (out state, ok, final bool) {
	s, e, repeating := s.next(tok.Text)
	if e == nil {
		return s, false, false
	}
	s.caps = append([]string{}, s.caps...)
	s.words = append([]string{}, s.words...)
	switch {
	case repeating:
		s.caps[len(s.caps)-1] += " " + tok.Text
		s.words = append(s.words, tok.Text)
		return s, true, false
	case e.rest:
		rest := strings.TrimSpace(line[tok.Start:])
		s.caps = append(s.caps, rest)
		s.words = append(s.words, rest)
		s.pos++
		s = s.close()
		return s, false, s.done()
	case e.words != nil:
		if word == "" || !containsWord(e.words, word) {
			return s, false, false
		}
		if e.capture {
			s.caps = append(s.caps, word)
		}
		s.words = append(s.words, word)
	default:
		if !e.match.MatchString(tok.Text) {
			return s, false, false
		}
		s.caps = append(s.caps, tok.Text)
		s.words = append(s.words, tok.Text)
		if e.repeat {
			s.inRepeat = true
			return s, true, false
		}
	}
	s.pos++
	return s.close(), true, false
}

func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}
