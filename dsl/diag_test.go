package dsl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// diagFixture is two files and three diagnostics given out of order: a
// warning with no detail, an error with a related place, and an error
// with no source place.
func diagFixture() (map[string]*hcl.File, hcl.Diagnostics) {
	a := []byte("fabric \"f\" {}\nswitch \"s\" {\n  mtu = 99999\n}\n")
	b := []byte("switch \"s\" {}\n")
	files := map[string]*hcl.File{"a.hcl": {Bytes: a}, "b.hcl": {Bytes: b}}
	mtu := hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: 3, Column: 9, Byte: 35}, End: hcl.Pos{Line: 3, Column: 14, Byte: 40}}
	dup := hcl.Range{Filename: "b.hcl", Start: hcl.Pos{Line: 1, Column: 1, Byte: 0}, End: hcl.Pos{Line: 1, Column: 11, Byte: 10}}
	first := hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: 2, Column: 1, Byte: 14}, End: hcl.Pos{Line: 2, Column: 11, Byte: 24}}
	dupDiag := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate switch", Detail: "Switch \"s\" is declared twice.", Subject: &dup}
	diags := hcl.Diagnostics{
		Also(dupDiag, "first declared here", first),
		{Severity: hcl.DiagWarning, Summary: "MTU out of range", Subject: &mtu},
		{Severity: hcl.DiagError, Summary: "Undeclared variable", Detail: "-var sets \"x\"."},
	}
	return files, diags
}

func TestWriteCompact(t *testing.T) {
	_, diags := diagFixture()
	var b bytes.Buffer
	if err := WriteCompact(&b, diags); err != nil {
		t.Fatal(err)
	}
	want := "error: Undeclared variable: -var sets \"x\".\n" +
		"a.hcl:3:9: warning: MTU out of range\n" +
		"b.hcl:1:1: error: Duplicate switch: Switch \"s\" is declared twice.\n" +
		"  a.hcl:2:1: note: first declared here\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("compact (-want +got):\n%s", d)
	}
}

func TestWriteText(t *testing.T) {
	files, diags := diagFixture()
	var b bytes.Buffer
	if err := WriteText(&b, files, diags, 0, false); err != nil {
		t.Fatal(err)
	}
	want := `Error: Undeclared variable

-var sets "x".

Warning: MTU out of range

  on a.hcl line 3, column 9:
   3:   mtu = 99999

Error: Duplicate switch

  on b.hcl line 1, column 1:
   1: switch "s" {}

Switch "s" is declared twice.

  first declared here:
  on a.hcl line 2, column 1:
   2: switch "s" {

`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
}

// linesFixture is a file of n one-line switch blocks and the range of
// line i (1-based).
func linesFixture(n int) (map[string]*hcl.File, func(i int) hcl.Range) {
	var src bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&src, "switch \"s%d\" {}\n", i)
	}
	lines := bytes.SplitAfter(src.Bytes(), []byte("\n"))
	at := func(i int) hcl.Range {
		start := 0
		for _, l := range lines[:i-1] {
			start += len(l)
		}
		return hcl.Range{Filename: "f.hcl", Start: hcl.Pos{Line: i, Column: 1, Byte: start}, End: hcl.Pos{Line: i, Column: 7, Byte: start + 6}}
	}
	return map[string]*hcl.File{"f.hcl": {Bytes: src.Bytes()}}, at
}

// A fabric of plain blocks raises one warning at every switch: the text
// form writes three of a summary and counts the rest, as Terraform does;
// errors are all written; --compact keeps every warning.
func TestWriteTextConsolidatesWarnings(t *testing.T) {
	files, at := linesFixture(6)
	var diags hcl.Diagnostics
	for i := 6; i >= 1; i-- {
		r := at(i)
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Same warning", Detail: fmt.Sprintf("Switch s%d.", i), Subject: &r})
	}
	r := at(5)
	diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "An error", Subject: &r})
	var b bytes.Buffer
	if err := WriteText(&b, files, diags, 0, false); err != nil {
		t.Fatal(err)
	}
	want := ""
	for i := 1; i <= 3; i++ {
		want += fmt.Sprintf("Warning: Same warning\n\n  on f.hcl line %d, column 1:\n   %d: switch \"s%d\" {}\n\nSwitch s%d.\n\n", i, i, i, i)
	}
	want += "(and 3 more warnings like this one elsewhere; --compact lists every one)\n\n" +
		"Error: An error\n\n  on f.hcl line 5, column 1:\n   5: switch \"s5\" {}\n\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
	b.Reset()
	if err := WriteCompact(&b, diags); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b.Bytes(), []byte("warning: Same warning")); n != 6 {
		t.Errorf("compact has %d warnings, want all 6:\n%s", n, b.String())
	}
}

// Exactly three warnings of a summary are all written, with no count.
func TestWriteTextKeepsThreeWarnings(t *testing.T) {
	files, at := linesFixture(3)
	var diags hcl.Diagnostics
	for i := 1; i <= 3; i++ {
		r := at(i)
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Same warning", Subject: &r})
	}
	var b bytes.Buffer
	if err := WriteText(&b, files, diags, 0, false); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b.Bytes(), []byte("Warning: Same warning")); n != 3 || bytes.Contains(b.Bytes(), []byte("more warning")) {
		t.Errorf("want the 3 warnings and no count:\n%s", b.String())
	}
}

// A diagnostic with 7 related places writes 5 and counts 2.
func TestWriteTextBoundsRelatedPlaces(t *testing.T) {
	files, at := linesFixture(8)
	r := at(8)
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Many places", Subject: &r}
	for i := 1; i <= 7; i++ {
		d = Also(d, fmt.Sprintf("place %d", i), at(i))
	}
	var b bytes.Buffer
	if err := WriteText(&b, files, hcl.Diagnostics{d}, 0, false); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.Contains(got, "  place 5:\n") || strings.Contains(got, "place 6") ||
		!strings.HasSuffix(got, "   5: switch \"s5\" {}\n\n  and 2 more places (--compact lists every one)\n\n") {
		t.Errorf("want places 1-5 then a count of 2:\n%s", got)
	}
}

func TestWriteTextColor(t *testing.T) {
	files, diags := diagFixture()
	var b bytes.Buffer
	if err := WriteText(&b, files, diags[:1], 0, true); err != nil {
		t.Fatal(err)
	}
	if want := "   2: \x1b[1;4mswitch \"s\"\x1b[22;24m {\n"; !bytes.Contains(b.Bytes(), []byte(want)) {
		t.Errorf("coloured related snippet missing %q in:\n%q", want, b.String())
	}
}

func TestWriteJSON(t *testing.T) {
	_, diags := diagFixture()
	var b bytes.Buffer
	if err := WriteJSON(&b, diags); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	pos := func(line, col, byt float64) map[string]any {
		return map[string]any{"line": line, "column": col, "byte": byt}
	}
	want := map[string]any{
		"errors":   2.0,
		"warnings": 1.0,
		"diagnostics": []any{
			map[string]any{"severity": "error", "summary": "Undeclared variable", "detail": "-var sets \"x\"."},
			map[string]any{"severity": "warning", "summary": "MTU out of range", "detail": "",
				"range": map[string]any{"filename": "a.hcl", "start": pos(3, 9, 35), "end": pos(3, 14, 40)}},
			map[string]any{"severity": "error", "summary": "Duplicate switch", "detail": "Switch \"s\" is declared twice.",
				"range": map[string]any{"filename": "b.hcl", "start": pos(1, 1, 0), "end": pos(1, 11, 10)},
				"related": []any{map[string]any{"label": "first declared here",
					"range": map[string]any{"filename": "a.hcl", "start": pos(2, 1, 14), "end": pos(2, 11, 24)}}}},
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("JSON (-want +got):\n%s", d)
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"diagnostics\": [],\n  \"errors\": 0,\n  \"warnings\": 0\n}\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestSortDiagnosticsStable(t *testing.T) {
	r := func(file string, line, col int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: col}}
	}
	diags := hcl.Diagnostics{
		{Summary: "b2", Subject: r("b", 1, 1)},
		{Summary: "a3-first", Subject: r("a", 3, 2)},
		{Summary: "a3-second", Subject: r("a", 3, 2)},
		{Summary: "a1", Subject: r("a", 1, 9)},
		{Summary: "a3-col1", Subject: r("a", 3, 1)},
	}
	var got []string
	for _, d := range SortDiagnostics(diags) {
		got = append(got, d.Summary)
	}
	want := []string{"a1", "a3-col1", "a3-first", "a3-second", "b2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}
