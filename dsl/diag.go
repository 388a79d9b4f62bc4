package dsl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fatih/color"
	"github.com/hashicorp/hcl/v2"
)

// SortDiagnostics returns diags sorted by file name, line and column,
// then summary, detail and instance (InstanceOf); diagnostics without a
// source place come first, and exact duplicates keep their original order.
func SortDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	out := append(hcl.Diagnostics(nil), diags...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := placeOf(out[i]), placeOf(out[j])
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Line != b.Start.Line {
			return a.Start.Line < b.Start.Line
		}
		if a.Start.Column != b.Start.Column {
			return a.Start.Column < b.Start.Column
		}
		// Two at one place (HCL reports some in map order): by text, so
		// the same fabric always prints the same.
		x, y := out[i], out[j]
		if x.Summary != y.Summary {
			return x.Summary < y.Summary
		}
		if x.Detail != y.Detail {
			return x.Detail < y.Detail
		}
		// One mistake in several instances of a dynamic block, which
		// the fast decoder evaluates on several goroutines.
		return InstanceOf(x) < InstanceOf(y)
	})
	return out
}

// placeOf is the diagnostic's subject, or an empty range.
func placeOf(d *hcl.Diagnostic) hcl.Range {
	if d.Subject == nil {
		return hcl.Range{}
	}
	return *d.Subject
}

// Count returns the number of errors and of warnings in diags.
func Count(diags hcl.Diagnostics) (errors, warnings int) {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errors++
		} else if d.Severity == hcl.DiagWarning {
			warnings++
		}
	}
	return errors, warnings
}

// Bounds of the text form, which a person reads: a fabric written as
// thousands of plain blocks can raise one warning at thousands of places,
// or one diagnostic with thousands of related places. The compact, JSON
// and GitHub forms keep every one.
const (
	// maxSameWarning is how many warnings of one summary are written in
	// full; the last of them counts the rest, as Terraform's
	// ConsolidateWarnings does.
	maxSameWarning = 3
	// maxRelatedShown is how many related places of one diagnostic are
	// written; a line counts the rest.
	maxRelatedShown = 5
)

// WriteText writes diags the way HCL tools do (summary, source snippet,
// detail), each followed by a snippet of its related places introduced
// by their labels. color adds VT100 highlighting; width wraps details (0:
// no wrapping). Warnings of one summary after the first maxSameWarning,
// and related places after the first maxRelatedShown, are counted instead
// of written (--compact lists every one).
func WriteText(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics, width uint, color bool) error {
	for _, s := range consolidateWarnings(SortDiagnostics(diags)) {
		if err := writeDiagnostic(w, files, s.diag, width, color); err != nil {
			return err
		}
		if err := writeRelatedPlaces(w, files, RelatedOf(s.diag), color); err != nil {
			return err
		}
		if s.alike > 0 {
			if _, err := fmt.Fprintf(w, "(and %s like this one elsewhere; --compact lists every one)\n\n", english.Count(s.alike, "more warning")); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeRelatedPlaces writes the first maxRelatedShown of rels and counts
// the rest.
func writeRelatedPlaces(w io.Writer, files map[string]*hcl.File, rels []Related, color bool) error {
	for i, rel := range rels {
		if i == maxRelatedShown {
			_, err := fmt.Fprintf(w, "  and %s (--compact lists every one)\n\n", english.Count(len(rels)-i, "more place"))
			return err
		}
		if err := writeRelated(w, files, rel, color); err != nil {
			return err
		}
	}
	return nil
}

// shownDiagnostic is a diagnostic the text form writes and how many
// warnings like it (of its summary) it stands for and leaves out.
type shownDiagnostic struct {
	diag  *hcl.Diagnostic
	alike int
}

// consolidateWarnings keeps the first maxSameWarning warnings of each
// summary in sorted, the last one kept counting the rest; errors all
// stay.
func consolidateWarnings(sorted hcl.Diagnostics) []shownDiagnostic {
	total := map[string]int{}
	for _, d := range sorted {
		if d.Severity == hcl.DiagWarning {
			total[d.Summary]++
		}
	}
	kept := map[string]int{}
	out := make([]shownDiagnostic, 0, len(sorted))
	for _, d := range sorted {
		if d.Severity != hcl.DiagWarning {
			out = append(out, shownDiagnostic{diag: d})
			continue
		}
		kept[d.Summary]++
		if n := kept[d.Summary]; n < maxSameWarning {
			out = append(out, shownDiagnostic{diag: d})
		} else if n == maxSameWarning {
			out = append(out, shownDiagnostic{diag: d, alike: total[d.Summary] - n})
		}
	}
	return out
}

// highlight marks the part of a related place's line the diagnostic is
// about, bold and underlined, as HCL's writer marks the subject.
func highlight(s string) string {
	c := color.New(color.Bold, color.Underline)
	c.EnableColor() // the caller decided: WriteText's color argument
	return c.Sprint(s)
}

// maxRelatedLines bounds the snippet of a related place.
const maxRelatedLines = 5

// writeRelated writes one related place: its label, then its source lines.
func writeRelated(w io.Writer, files map[string]*hcl.File, rel Related, color bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:\n", rel.Label)
	fmt.Fprintf(&b, "  on %s line %d, column %d:\n", fileName(rel.Range.Filename), rel.Range.Start.Line, rel.Range.Start.Column)
	f := files[rel.Range.Filename]
	if f == nil || f.Bytes == nil {
		b.WriteString("  (source code not available)\n\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	hl := rel.Range
	if hl.Empty() {
		hl.End.Byte++
		hl.End.Column++
	}
	// Scan from the place's line, not from the file's first (window.go).
	start := hcl.Pos{Byte: lineStart(f.Bytes, rel.Range.Start.Byte), Line: rel.Range.Start.Line, Column: 1}
	sc := hcl.NewRangeScannerFragment(f.Bytes, rel.Range.Filename, start, bufio.ScanLines)
	shown := 0
	for sc.Scan() && shown < maxRelatedLines {
		line := sc.Range()
		if line.Start.Byte >= hl.End.Byte {
			break // past the place: the rest of a 70 MB file is not read
		}
		if !line.Overlaps(hl) {
			continue
		}
		shown++
		before, mid, after := line.PartitionAround(hl)
		text := string(sc.Bytes())
		if color && !mid.Empty() {
			text = string(before.SliceBytes(f.Bytes)) + highlight(string(mid.SliceBytes(f.Bytes))) + string(after.SliceBytes(f.Bytes))
		}
		fmt.Fprintf(&b, "%4d: %s\n", line.Start.Line, text)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCompact writes one line per diagnostic,
//
//	FILE:LINE:COL: error: SUMMARY: DETAIL
//
// (": DETAIL" left out when there is none; "FILE:LINE:COL: " left out for
// a diagnostic without a source place), and one indented line per related
// place, "  FILE:LINE:COL: note: LABEL".
func WriteCompact(w io.Writer, diags hcl.Diagnostics) error {
	var b strings.Builder
	for _, d := range SortDiagnostics(diags) {
		if d.Subject != nil {
			b.WriteString(Position(*d.Subject) + ": ")
		}
		b.WriteString(severityName(d.Severity) + ": " + oneLine(d.Summary))
		if d.Detail != "" {
			b.WriteString(": " + oneLine(d.Detail))
		}
		b.WriteString("\n")
		for _, rel := range RelatedOf(d) {
			fmt.Fprintf(&b, "  %s: note: %s\n", Position(rel.Range), oneLine(rel.Label))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Position is FILE:LINE:COL of r's start, as the compact format and
// messages name a place.
func Position(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", fileName(r.Filename), r.Start.Line, r.Start.Column)
}

// fileName is a file's name as diagnostics print it: one line of
// printable text (quote.Visible), since a name can hold what a terminal
// takes as a command (ESC, a line break), as the file's bytes cannot.
func fileName(name string) string { return quote.Visible(name) }

// oneLine folds line breaks so a message fits on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// severityName is the JSON name of a severity: "error" or "warning".
func severityName(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

// JSONReport is the --json form of a diagnostics list.
type JSONReport struct {
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Errors      int              `json:"errors"`
	Warnings    int              `json:"warnings"`
}

// JSONDiagnostic is one diagnostic in JSON.
type JSONDiagnostic struct {
	Severity string        `json:"severity"`
	Summary  string        `json:"summary"`
	Detail   string        `json:"detail"`
	Range    *JSONRange    `json:"range,omitempty"`
	Related  []JSONRelated `json:"related,omitempty"`
	// Instances are the instances of a repeated block (a dynamic block,
	// a for_each, a port range) the diagnostic stands for, every one.
	Instances []string `json:"instances,omitempty"`
}

// JSONRelated is a related place of a diagnostic.
type JSONRelated struct {
	Label string    `json:"label"`
	Range JSONRange `json:"range"`
}

// JSONRange is a source range; lines and columns count from 1, bytes
// from 0.
type JSONRange struct {
	Filename string  `json:"filename"`
	Start    JSONPos `json:"start"`
	End      JSONPos `json:"end"`
}

// JSONPos is one position in a source file.
type JSONPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// NewJSONReport converts diags (sorted) into their JSON form.
func NewJSONReport(diags hcl.Diagnostics) JSONReport {
	rep := JSONReport{Diagnostics: []JSONDiagnostic{}}
	for _, d := range SortDiagnostics(diags) {
		jd := JSONDiagnostic{Severity: severityName(d.Severity), Summary: d.Summary, Detail: d.Detail}
		if d.Subject != nil {
			r := jsonRange(*d.Subject)
			jd.Range = &r
		}
		for _, rel := range RelatedOf(d) {
			jd.Related = append(jd.Related, JSONRelated{Label: rel.Label, Range: jsonRange(rel.Range)})
		}
		jd.Instances = InstancesOf(d)
		rep.Diagnostics = append(rep.Diagnostics, jd)
	}
	rep.Errors, rep.Warnings = Count(diags)
	return rep
}

// WriteJSON writes diags as a JSONReport, indented, with a final newline.
func WriteJSON(w io.Writer, diags hcl.Diagnostics) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewJSONReport(diags))
}

// jsonRange converts an HCL range to its JSON form.
func jsonRange(r hcl.Range) JSONRange {
	return JSONRange{
		Filename: r.Filename,
		Start:    JSONPos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:      JSONPos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}
