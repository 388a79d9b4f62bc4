package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// TestLanguageDCQCNRows keeps docs/language.md's table of DCQCN
// parameters equal to the compiler's (model.DCQCNSpecs): one row per
// parameter, in order, with its unit, range, firmware default and
// meaning.
func TestLanguageDCQCNRows(t *testing.T) {
	doc := readDoc(t, filepath.Join("docs", "language.md"))
	_, section, ok := strings.Cut(doc, "\n### DCQCN parameters\n")
	if !ok {
		t.Fatal("docs/language.md has no DCQCN parameters section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var got []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") && strings.Count(line, "|") == 6 {
			got = append(got, line)
		}
	}
	var want []string
	for _, s := range model.DCQCNSpecs {
		r := fmt.Sprintf("%d-%d", s.Min, s.Max)
		if s.LineRate {
			r = fmt.Sprintf("%d to the line rate", s.Min)
		}
		want = append(want, fmt.Sprintf("| `%s` | %s | %s | %d | %s |", s.Name, s.Unit, r, s.Default, s.Meaning))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs/language.md DCQCN rows (-model.DCQCNSpecs +docs):\n%s", d)
	}
}
