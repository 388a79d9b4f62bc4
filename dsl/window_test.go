package dsl

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// writeBoth writes d with HCL's writer over the whole file and through
// writeDiagnostic's window, each with and without color and wrapping.
func writeBoth(t *testing.T, files map[string]*hcl.File, d *hcl.Diagnostic) {
	t.Helper()
	defer func(n int) { windowMin = n }(windowMin)
	windowMin = 0
	for _, color := range []bool{false, true} {
		for _, width := range []uint{0, 60} {
			var whole, win bytes.Buffer
			if err := hcl.NewDiagnosticTextWriter(&whole, files, width, color).WriteDiagnostic(d); err != nil {
				t.Fatal(err)
			}
			if err := writeDiagnostic(&win, files, d, width, color); err != nil {
				t.Fatal(err)
			}
			// HCL's header names the line; fabricc's the column too.
			if w := withColumn(whole.String(), d); win.String() != w {
				t.Errorf("color %v, width %d: from a window:\n%q\nwhole:\n%q", color, width, win.String(), w)
			}
		}
	}
}

// TestWindowedIsWhole: every diagnostic of the broken examples, and
// diagnostics at places all over a large file (first and last line, a
// subject over several lines, a context before the subject, empty ranges
// at a line's end and at the end of the file, values of the expression),
// print the same from a window as from the whole file.
func TestWindowedIsWhole(t *testing.T) {
	paths, _ := filepath.Glob("../examples/bad/*.hcl")
	if len(paths) < 20 {
		t.Fatalf("%d broken examples", len(paths))
	}
	n := 0
	for _, p := range paths {
		_, files, diags := Load(p, Options{})
		for _, d := range diags {
			// A character the file may not hold is shown from its own
			// line (badline.go), not from the file.
			if d.Subject != nil && shownLineOf(d) == nil {
				n++
				writeBoth(t, files, d)
			}
		}
	}
	if n < 10 { // most broken examples fail in the compiler, which this package cannot import
		t.Fatalf("only %d diagnostics with a place", n)
	}

	src := plainFabric(300) + "last = var.x + local.y"
	file, diags := hclsyntax.ParseConfig([]byte(src), "big.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"big.hcl": file}
	lines := strings.Count(src, "\n") + 1
	at := func(line, col, length int) hcl.Range { // a range on one line
		sc := hcl.NewRangeScanner([]byte(src), "big.hcl", bufio.ScanLines)
		for sc.Scan() {
			if r := sc.Range(); r.Start.Line == line {
				start := hcl.Pos{Line: line, Column: col, Byte: r.Start.Byte + col - 1}
				end := hcl.Pos{Line: line, Column: col + length, Byte: start.Byte + length}
				return hcl.Range{Filename: "big.hcl", Start: start, End: end}
			}
		}
		t.Fatalf("no line %d", line)
		return hcl.Range{}
	}
	last := file.Body.(*hclsyntax.Body).Attributes["last"]
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var":   cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("a\"b")}),
		"local": cty.ObjectVal(map[string]cty.Value{"y": cty.ListVal([]cty.Value{cty.NumberIntVal(1)})}),
	}}
	ranges := map[string]hcl.Range{
		"first line":      at(1, 1, 6),
		"middle":          at(lines/2, 3, 4),
		"last line":       at(lines, 1, 4),
		"end of a line":   at(lines/3, 2, 0),
		"end of the file": at(lines, len("last = var.x + local.y")+1, 0),
		"several lines":   hcl.RangeOver(at(lines/2, 1, 3), at(lines/2+3, 1, 2)),
	}
	for name, r := range ranges {
		t.Run(name, func(t *testing.T) {
			r := r
			d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Something: wrong", Detail: "It is " + name + ", said at length so that the wrapping of a detail shows.", Subject: &r}
			writeBoth(t, files, d)
			warn := *d
			warn.Severity = hcl.DiagWarning
			writeBoth(t, files, &warn)
		})
	}
	t.Run("context before the subject", func(t *testing.T) {
		subject, context := at(lines/2+2, 5, 3), hcl.RangeOver(at(lines/2, 1, 2), at(lines/2+2, 5, 3))
		writeBoth(t, files, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "In context", Subject: &subject, Context: &context})
	})
	t.Run("values of the expression", func(t *testing.T) {
		r := last.Expr.Range()
		writeBoth(t, files, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid operand", Detail: "Unsuitable value.", Subject: &r, Expression: last.Expr, EvalContext: ctx})
	})
}

// TestRelatedFromItsLine: a related place late in a large file is shown
// with its own line numbers and text.
func TestRelatedFromItsLine(t *testing.T) {
	src := plainFabric(300)
	file, _ := hclsyntax.ParseConfig([]byte(src), "big.hcl", hcl.InitialPos)
	all := strings.Split(src, "\n")
	line := len(all) - 5
	start := strings.Index(src, all[line-1]+"\n"+all[line])
	r := hcl.Range{Filename: "big.hcl", Start: hcl.Pos{Line: line, Column: 1, Byte: start}, End: hcl.Pos{Line: line + 1, Column: 3, Byte: start + len(all[line-1]) + 3}}
	d := Also(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "S"}, "declared here", r)
	var b bytes.Buffer
	if err := WriteText(&b, map[string]*hcl.File{"big.hcl": file}, hcl.Diagnostics{d}, 0, false); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("  declared here:\n  on big.hcl line %d, column 1:\n%4d: %s\n%4d: %s\n\n", line, line, all[line-1], line+1, all[line])
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("got:\n%s\nwant it to end:\n%s", b.String(), want)
	}
}
