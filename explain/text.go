package explain

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fabricc/fabricc/internal/quote"
)

// WriteText prints ex for people: the line, then each element with its
// sources and derivation. Every string (file names, the line, values from
// the fabric) goes through quote.Visible, so no terminal control
// character reaches the terminal.
func WriteText(w io.Writer, ex *Explanation) error {
	p := &printer{w: w}
	// Tabs indent script lines; they show as spaces, anything else that
	// is not printable as its escape.
	p.printf("%s:%d: %s\n", v(ex.File), ex.Line, v(strings.ReplaceAll(ex.Text, "\t", "    ")))
	if ex.Fixed {
		p.printf("  fixed text: a comment or boilerplate that does not depend on the fabric\n")
		return p.err
	}
	for _, el := range ex.Elements {
		p.element(el)
	}
	return p.err
}

// printer writes and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

// printf writes unless an earlier write failed.
func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// element prints one element.
func (p *printer) element(el Element) {
	p.printf("\nfrom %s\n", v(el.What))
	tw := tabwriter.NewWriter(&writerOf{p}, 0, 4, 2, ' ', 0)
	for _, s := range el.Sources {
		fmt.Fprintf(tw, "  %s\t%s\n", v(s.What), place(s))
	}
	tw.Flush()
	if d := el.Derivation; d != nil {
		p.derivation(d)
	}
}

// derivation prints a derivation's formula, inputs and steps.
func (p *printer) derivation(d *Derivation) {
	p.printf("  %s\n", v(d.Name))
	if d.Formula != "" {
		p.printf("    formula: %s\n", v(d.Formula))
	}
	if d.Configured != "" {
		p.printf("    configured: %s\n", v(d.Configured))
	}
	tw := tabwriter.NewWriter(&writerOf{p}, 0, 4, 2, ' ', 0)
	if len(d.Inputs) > 0 {
		fmt.Fprintf(tw, "    inputs:\n")
	}
	for _, t := range d.Inputs {
		if o := origin(t); o != "" {
			fmt.Fprintf(tw, "      %s\t%s\t%s\n", v(t.Name), v(t.Value), o)
		} else {
			fmt.Fprintf(tw, "      %s\t%s\n", v(t.Name), v(t.Value))
		}
	}
	if len(d.Steps) > 0 {
		fmt.Fprintf(tw, "    steps:\n")
	}
	for _, t := range d.Steps {
		fmt.Fprintf(tw, "      %s\t%s\n", v(t.Name), v(t.Value))
	}
	tw.Flush()
}

// origin says where an input comes from: its range, and why when that
// is not simply where it is written.
func origin(t Term) string {
	var parts []string
	if t.Source != nil {
		parts = append(parts, place(*t.Source))
	}
	if t.From != "" {
		parts = append(parts, v(t.From))
	}
	return strings.Join(parts, "; ")
}

// place is "file:line:col", with a note when the value is not written
// there.
func place(s Source) string {
	r := s.Range
	out := fmt.Sprintf("%s:%d:%d", v(r.Filename), r.Start.Line, r.Start.Column)
	switch {
	case !s.Written && s.Default != "":
		out = "default " + v(s.Default) + " (not written; " + out + " is the block holding it)"
	case !s.Written:
		out += " (not written there: the block holding it)"
	case s.Computed:
		out = "computed at " + out
	}
	return out
}

// v makes s safe for a terminal.
func v(s string) string { return quote.Visible(s) }

// writerOf adapts the printer for tabwriter.
type writerOf struct{ p *printer }

// Write writes b unless an earlier write failed.
func (w *writerOf) Write(b []byte) (int, error) {
	if w.p.err != nil {
		return 0, w.p.err
	}
	n, err := w.p.w.Write(b)
	w.p.err = err
	return n, err
}
