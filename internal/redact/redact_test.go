package redact

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/internal/redact/redacttest"
)

// TestKeywordCase: a keyword is one in any case, and words that only
// contain one are not.
func TestKeywordCase(t *testing.T) {
	for w, want := range map[string]bool{
		"secret": true, "SECRET": true, "Password": true, "auth-SHA": true, "2c": true,
		"admin": false, "secrets": false, "message-digest-key": false, "authentication": false, "": false,
	} {
		if got := Keyword(w); got != want {
			t.Errorf("Keyword(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestLinesCoverEveryKeyword: every keyword has a line in redacttest.Lines
// (so the places that hide credentials are tested with each), and each
// line's Shown part ends at its first keyword and is followed by its
// credentials.
func TestLinesCoverEveryKeyword(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range redacttest.Lines {
		words := strings.Fields(l.Text)
		for _, w := range words {
			seen[strings.ToLower(w)] = true
		}
		shown := strings.Fields(l.Shown)
		if !strings.HasPrefix(l.Text, l.Shown+" ") || len(shown) == 0 {
			t.Errorf("%s line %q: Shown %q is not the start of the line", l.Platform, l.Text, l.Shown)
			continue
		}
		if i := slices.IndexFunc(words, Keyword); i != len(shown)-1 {
			t.Errorf("%s line %q: its first keyword is word %d, Shown %q ends at word %d", l.Platform, l.Text, i+1, l.Shown, len(shown))
		}
		rest := l.Text[len(l.Shown):]
		for _, s := range l.Secrets {
			if s == "" || !strings.Contains(rest, s) {
				t.Errorf("%s line %q: a credential of the table is not after Shown", l.Platform, l.Text)
			}
		}
	}
	for w := range keywords {
		if !seen[w] {
			t.Errorf("keyword %q has no line in redacttest.Lines; add one from the vendor's manual", w)
		}
	}
}
