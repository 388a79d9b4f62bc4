package docs

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/targets"
)

// doc accumulates one Markdown document, and its source map when one was
// asked for: the lines written after at come from its element. Every
// method takes Markdown that is already safe: fabric strings reach it
// only through md, link or the table cells built from them.
type doc struct {
	b *targets.Text
	// size is told the document's size when it is done (device
	// documents); nil for fabric.md, one per build.
	size *targets.SizeHint
}

// deviceDocSize sizes the next device document's buffer
// (targets.SizeHint).
var deviceDocSize targets.SizeHint

// newDoc starts fabric.md; mapped asks for a source map.
func newDoc(mapped bool) *doc { return &doc{b: targets.NewText(mapped)} }

// newDeviceDoc starts a device's document.
func newDeviceDoc(mapped bool) *doc {
	return &doc{b: deviceDocSize.NewText(mapped), size: &deviceDocSize}
}

// at says that the lines written next come from the element with the
// given path parts (targets.Element); at() with none: fixed text.
func (d *doc) at(parts ...string) { d.b.At(parts...) }

// also adds an element to those of the lines written next.
func (d *doc) also(parts ...string) { d.b.Also(parts...) }

// h writes a heading of the given level, as fixed text unless a title
// (level 1, naming its device).
func (d *doc) h(level int, text string) {
	if d.b.Len() > 0 && !bytes.HasSuffix(d.b.Bytes(), []byte("\n\n")) {
		d.b.Fixed("\n")
	}
	if level > 1 {
		d.b.At()
	}
	d.b.WriteString(strings.Repeat("#", level) + " " + text + "\n\n")
}

// p writes a paragraph.
func (d *doc) p(text string) { d.b.WriteString(text + "\n\n") }

// line writes one line (a list item, a fence).
func (d *doc) line(text string) { d.b.WriteString(text + "\n") }

// printf writes a formatted paragraph.
func (d *doc) printf(format string, args ...any) { d.p(fmt.Sprintf(format, args...)) }

// rows is the body of a table: its rows, and with a source map the
// elements each row comes from.
type rows struct {
	cells [][]string
	elems [][]targets.Element
}

// add appends a row that comes from the document's current elements (set
// with at and also before it).
func (r *rows) add(d *doc, cells ...string) {
	r.cells = append(r.cells, cells)
	if d.b.Mapped() {
		r.elems = append(r.elems, d.b.Elements())
	}
}

// table writes a GitHub Flavored Markdown table; right lists the columns
// (by index) that hold numbers and are right-aligned. Header and
// delimiter rows are fixed text; each body row comes from its elements.
// What follows the table is fixed text until at is called.
func (d *doc) table(head []string, body *rows, right ...int) {
	if len(body.cells) == 0 {
		return
	}
	align := make([]string, len(head))
	for i := range align {
		align[i] = "---"
	}
	for _, i := range right {
		align[i] = "--:"
	}
	d.b.At()
	d.row(head)
	d.row(align)
	for i, r := range body.cells {
		if body.elems != nil {
			d.b.Set(body.elems[i])
		}
		d.row(r)
	}
	d.b.At()
	d.b.WriteString("\n")
}

// row writes one table row; an empty cell is written as a space.
func (d *doc) row(cells []string) {
	d.b.WriteString("|")
	for _, c := range cells {
		if c == "" {
			c = " "
		}
		d.b.WriteString(" ")
		d.b.WriteString(c)
		d.b.WriteString(" |")
	}
	d.b.WriteString("\n")
}

// bytes returns the document.
func (d *doc) bytes() []byte {
	return append(bytes.TrimRight(d.b.Bytes(), "\n"), '\n')
}

// file returns the document as the file name, with its source map.
func (d *doc) file(name string) targets.File {
	data := d.bytes()
	if d.size != nil {
		d.size.Done(len(data))
	}
	return targets.File{Name: name, Target: Target, Mode: 0o644, Data: data, Map: d.b.SourceMapOf(data)}
}

// link is a Markdown link whose text is a fabric string and whose
// destination is a relative path of fabric strings.
func link(text string, path ...string) string {
	return "[" + md(text) + "](" + linkPath(path...) + ")"
}

// deviceLink links a device name from fabric.md to its document.
func deviceLink(name string) string { return link(name, name, name+".md") }
