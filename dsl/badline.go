package dsl

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/hashicorp/hcl/v2"
)

// A file refused for a character it may not hold (checkBytes: invalid
// UTF-8, NUL, ESC, a bidirectional override, a stray byte order mark) is
// not parsed, so it is not among the files HCL's text writer cuts
// snippets from, and its line cannot be shown as it is: the character
// would reach the terminal raw. The diagnostic carries the line made
// printable instead, and the text form shows it as the snippet of every
// other diagnostic, with a caret line under the escaped character: an
// escape such as \x00 reads the same as those four characters typed in
// the file, and the caret says which one the file holds.

// shownLine is a line of a file, made printable: text, and the escape of
// the refused character in it from byte at, width bytes long.
type shownLine struct {
	text      string
	at, width int
}

// shownLineAround is the line of src that holds the refused character at
// byte i, as lineAround bounds it ("..." marking what is cut off), with every character that is not printable (tab aside) escaped
// as quote.Visible writes it: \x00, \x1b, \ufeff, \xe9 for a byte of
// invalid UTF-8.
func shownLineAround(src []byte, i int) *shownLine {
	lo, hi, cutBefore, cutAfter := lineAround(src, i)
	var b strings.Builder
	if cutBefore {
		b.WriteString("...")
	}
	out := &shownLine{}
	for j := lo; j < hi; {
		r, n := utf8.DecodeRune(src[j:])
		if j == i {
			out.at = b.Len()
		}
		if r == '\t' || !(r == utf8.RuneError && n == 1) && quote.Printable(r) {
			b.Write(src[j : j+n])
		} else {
			b.WriteString(quote.Visible(string(src[j : j+n])))
		}
		if j == i {
			out.width = b.Len() - out.at
		}
		j += n
	}
	if cutAfter {
		b.WriteString("...")
	}
	out.text = b.String()
	return out
}

// shownLineOf is the line recorded with d, or nil.
func shownLineOf(d *hcl.Diagnostic) *shownLine {
	if e, ok := d.Extra.(*extra); ok {
		return e.shown
	}
	return nil
}

// writeShownLine writes d, whose file is not among the parsed files,
// with sl as its snippet and a caret line under the refused character.
func writeShownLine(w io.Writer, d *hcl.Diagnostic, sl *shownLine, width uint, color bool) error {
	name := d.Subject.Filename
	start := hcl.Pos{Line: 1, Column: utf8.RuneCountInString(sl.text[:sl.at]) + 1, Byte: sl.at}
	end := hcl.Pos{Line: 1, Column: start.Column + sl.width, Byte: sl.at + sl.width}
	shifted := *d
	shifted.Subject = &hcl.Range{Filename: name, Start: start, End: end}
	shifted.Context = nil
	var b strings.Builder
	files := map[string]*hcl.File{name: {Bytes: []byte(sl.text)}}
	if err := hcl.NewDiagnosticTextWriter(&b, files, width, color).WriteDiagnostic(&shifted); err != nil {
		return err
	}
	win := fileWindow{line: d.Subject.Start.Line}
	text := withColumn(win.renumber(b.String(), &shifted), d)
	_, err := io.WriteString(w, withCaret(text, d.Subject.Start.Line, sl))
	return err
}

// withCaret puts a line of carets under the refused character after the
// snippet line of line in text.
func withCaret(text string, line int, sl *shownLine) string {
	prefix := fmt.Sprintf("\n%4d: ", line)
	i := strings.Index(text, prefix)
	if i < 0 {
		return text
	}
	eol := i + len(prefix) + strings.IndexByte(text[i+len(prefix):], '\n')
	var pad strings.Builder
	pad.WriteString(strings.Repeat(" ", len(prefix)-1))
	for _, r := range sl.text[:sl.at] {
		if r == '\t' {
			pad.WriteByte('\t') // the tab above moves as far
		} else {
			pad.WriteByte(' ')
		}
	}
	return text[:eol+1] + pad.String() + strings.Repeat("^", sl.width) + "\n" + text[eol+1:]
}
