package dsl

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Diagnostics in a large file. HCL's text writer finds the lines of a
// snippet by scanning the file from its first line, with a scanner and a
// 4 KB buffer for every line: one warning near the end of a 36 MB fabric
// took 17 s to print. writeDiagnostic hands it instead a window of the
// file, the lines the snippet shows and one more, as if they were a file
// of their own, and puts the file's line numbers back into the two
// places the writer prints them: the "on FILE line N" header and the
// number before each snippet line. TestWindowedIsWhole compares the two
// ways on every example diagnostic and on places all over a large file.

// windowMin is the size from which a file's diagnostics are written
// from a window; tests set it to 0.
var windowMin = 256 << 10

// writeDiagnostic writes d with HCL's text writer, from a window of its
// subject's file when the file is large.
func writeDiagnostic(w io.Writer, files map[string]*hcl.File, d *hcl.Diagnostic, width uint, color bool) error {
	var f *hcl.File
	if d.Subject != nil {
		f = files[d.Subject.Filename]
	}
	if sl := shownLineOf(d); sl != nil && (f == nil || f.Bytes == nil) {
		return writeShownLine(w, d, sl, width, color)
	}
	var b strings.Builder
	if f == nil || f.Bytes == nil || len(f.Bytes) < windowMin {
		if err := hcl.NewDiagnosticTextWriter(&b, files, width, color).WriteDiagnostic(d); err != nil {
			return err
		}
		_, err := io.WriteString(w, withColumn(b.String(), d))
		return err
	}
	win, shifted := window(f, d)
	if err := hcl.NewDiagnosticTextWriter(&b, map[string]*hcl.File{d.Subject.Filename: win.file}, width, color).WriteDiagnostic(shifted); err != nil {
		return err
	}
	_, err := io.WriteString(w, withColumn(win.renumber(b.String(), shifted), d))
	return err
}

// withColumn puts the column of d's subject into text, the writer's
// output for d: HCL's header "  on FILE line N, in BLOCK:" names the
// line only, and every place fabricc prints names file, line and column
// ("  on FILE line N, column C, in BLOCK:"), as --compact's FILE:LINE:COL
// does.
func withColumn(text string, d *hcl.Diagnostic) string {
	if d.Subject == nil || d.Subject.Start.Column < 1 {
		return text
	}
	i := strings.Index(text, ": ")
	if i < 0 {
		return text
	}
	head := text[:i] + ": " + d.Summary + "\n\n" // text[:i] is "Error", or colored
	header := head + fmt.Sprintf("  on %s line %d", fileName(d.Subject.Filename), d.Subject.Start.Line)
	if !strings.HasPrefix(text, header) {
		return text // not the shape this knows: leave it
	}
	return header + fmt.Sprintf(", column %d", d.Subject.Start.Column) + text[len(header):]
}

// fileWindow is a run of whole lines of a file, from byte start (the
// start of line line), as a file of its own.
type fileWindow struct {
	file        *hcl.File
	start, line int
}

// window cuts f to the lines d's snippet shows, and one more, and moves
// d's subject and context into it.
func window(f *hcl.File, d *hcl.Diagnostic) (fileWindow, *hcl.Diagnostic) {
	snip := *d.Subject
	if d.Context != nil {
		snip = hcl.RangeOver(snip, *d.Context)
	}
	src := f.Bytes
	from := min(max(snip.Start.Byte, 0), len(src))
	start := lineStart(src, from)
	end := min(max(snip.End.Byte, from)+1, len(src))
	for lines := 0; end < len(src) && lines < 2; end++ {
		if src[end] == '\n' {
			lines++
		}
	}
	win := fileWindow{start: start, line: snip.Start.Line}
	win.file = &hcl.File{Bytes: src[start:end], Nav: shiftedNav{nav: f.Nav, by: start}}
	shifted := *d
	shifted.Subject = win.shift(d.Subject)
	shifted.Context = win.shift(d.Context)
	return win, &shifted
}

// lineStart is the offset of the start of the line holding offset,
// which is clamped into src.
func lineStart(src []byte, offset int) int {
	return bytes.LastIndexByte(src[:min(max(offset, 0), len(src))], '\n') + 1
}

// shift moves r from the file into the window.
func (win fileWindow) shift(r *hcl.Range) *hcl.Range {
	if r == nil {
		return nil
	}
	out := *r
	for _, p := range []*hcl.Pos{&out.Start, &out.End} {
		p.Byte -= win.start
		p.Line -= win.line - 1
	}
	return &out
}

// renumber puts the file's line numbers into text, the writer's output
// for the shifted diagnostic d: after the severity line, the header
// "  on FILE line N" and the snippet lines ("%4d: ...") up to the empty
// line that ends them.
func (win fileWindow) renumber(text string, d *hcl.Diagnostic) string {
	i := strings.Index(text, ": ")
	if i < 0 {
		return text
	}
	head := text[:i] + ": " + d.Summary + "\n\n" // text[:i] is "Error", or colored
	header := fmt.Sprintf("  on %s line %d", fileName(d.Subject.Filename), d.Subject.Start.Line)
	if !strings.HasPrefix(text, head) || !strings.HasPrefix(text[len(head):], header) {
		return text // not the shape this knows: leave it
	}
	var b strings.Builder
	b.WriteString(head)
	fmt.Fprintf(&b, "  on %s line %d", fileName(d.Subject.Filename), d.Subject.Start.Line+win.line-1)
	rest := text[len(head)+len(header):]
	eol := strings.IndexByte(rest, '\n') + 1
	b.WriteString(rest[:eol])
	rest = rest[eol:]
	for rest != "" && rest[0] != '\n' {
		line, after, _ := strings.Cut(rest, "\n")
		num, code, ok := strings.Cut(line, ": ")
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil {
			break
		}
		fmt.Fprintf(&b, "%4d: %s\n", n+win.line-1, code)
		rest = after
	}
	b.WriteString(rest)
	return b.String()
}

// shiftedNav answers HCL's question about the block around a place in
// a window with the file's answer for the same place.
type shiftedNav struct {
	nav any
	by  int
}

// ContextString is the file's ContextString at offset in the file.
func (n shiftedNav) ContextString(offset int) string {
	if c, ok := n.nav.(interface{ ContextString(int) string }); ok {
		return c.ContextString(offset + n.by)
	}
	return ""
}
