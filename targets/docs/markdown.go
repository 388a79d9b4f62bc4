package docs

import (
	"fmt"
	"strings"
)

// doc accumulates one Markdown document. Every method takes Markdown
// that is already safe: fabric strings reach it only through md, link
// or the table cells built from them.
type doc struct{ b strings.Builder }

// h writes a heading of the given level.
func (d *doc) h(level int, text string) {
	if d.b.Len() > 0 && !strings.HasSuffix(d.b.String(), "\n\n") {
		d.b.WriteString("\n")
	}
	d.b.WriteString(strings.Repeat("#", level) + " " + text + "\n\n")
}

// p writes a paragraph.
func (d *doc) p(text string) { d.b.WriteString(text + "\n\n") }

// line writes one line (a list item, a fence).
func (d *doc) line(text string) { d.b.WriteString(text + "\n") }

// printf writes a formatted paragraph.
func (d *doc) printf(format string, args ...any) { d.p(fmt.Sprintf(format, args...)) }

// table writes a GitHub Flavored Markdown table; right lists the columns
// (by index) that hold numbers and are right-aligned.
func (d *doc) table(head []string, rows [][]string, right ...int) {
	if len(rows) == 0 {
		return
	}
	align := make([]string, len(head))
	for i := range align {
		align[i] = "---"
	}
	for _, i := range right {
		align[i] = "--:"
	}
	d.row(head)
	d.row(align)
	for _, r := range rows {
		d.row(r)
	}
	d.b.WriteString("\n")
}

// row writes one table row; an empty cell is written as a space.
func (d *doc) row(cells []string) {
	d.b.WriteString("|")
	for _, c := range cells {
		if c == "" {
			c = " "
		}
		d.b.WriteString(" " + c + " |")
	}
	d.b.WriteString("\n")
}

// bytes returns the document.
func (d *doc) bytes() []byte {
	return []byte(strings.TrimRight(d.b.String(), "\n") + "\n")
}

// link is a Markdown link whose text is a fabric string and whose
// destination is a relative path of fabric strings.
func link(text string, path ...string) string {
	return "[" + md(text) + "](" + linkPath(path...) + ")"
}

// deviceLink links a device name from fabric.md to its document.
func deviceLink(name string) string { return link(name, name, name+".md") }
