package docs

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// Every string that comes from a fabric (names, descriptions, interface
// names, file names of the source) is hostile: it may try to close a
// table cell, open an HTML tag, start a link or break a Mermaid label.
// Each output context has exactly one rule, and every fabric string goes
// through the rule of the context it lands in:
//
//	Markdown text and table cells   md        (backslash escapes)
//	Markdown link destinations      linkPath  (percent-encoding)
//	Mermaid node and edge labels    mermaid   (entity codes inside quotes)
//
// Mermaid node identifiers are never fabric strings: they are generated
// ("s1", "g2").

// visible replaces every character that must not stand in generated text
// as itself (control characters such as CR and LF, format characters such
// as bidirectional overrides, line and paragraph separators) by its Go
// escape ("\n", "\u202e"), so the text stays on its line and reads as
// what it is. The language refuses such characters already; this holds
// for a model built by hand too.
func visible(s string) string {
	if printableASCII(s) {
		return s // every character stands as itself
	}
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || unicode.IsGraphic(r) && !unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cf) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// printableASCII reports whether s holds only printable ASCII (space
// to tilde), which visible leaves as it is.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// mdSpecial are the characters that can start emphasis, code, a link, an
// HTML tag or entity, a table cell, a heading, an image or strikethrough.
// CommonMark 0.31.2, 2.4 Backslash escapes: "Any ASCII punctuation
// character may be backslash-escaped"; GitHub Flavored Markdown, 4.10
// Tables: "include a pipe in a cell's content by escaping it".
const mdSpecial = "\\`*_[]<>|#!&~"

// md returns s as inline Markdown text, safe in a paragraph, a heading,
// a list item or a table cell: one line, every special character
// backslash-escaped.
func md(s string) string {
	if printableASCII(s) && !strings.ContainsAny(s, mdSpecial) {
		return s // nothing to escape
	}
	s = visible(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// linkPath returns the relative link destination for the slash-separated
// path elements, each percent-encoded (url.PathEscape, and ":" too, so a
// name such as "javascript:x" cannot turn the link into a scheme), so no
// element can end the destination, add a title or leave the folder.
func linkPath(elems ...string) string {
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = strings.ReplaceAll(url.PathEscape(e), ":", "%3A")
	}
	return strings.Join(out, "/")
}

// mermaid returns s for a Mermaid label written between double quotes
// (`s1["..."]`, `---|"..."|`): letters, digits, space and -_.:/+,()
// stay; every other character becomes Mermaid's entity code "#<decimal>;"
// (Mermaid flowchart syntax, "Entity codes to escape characters"), so a
// quote cannot end the label and "<" cannot start HTML.
func mermaid(s string) string {
	s = visible(s)
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" -_.:/+,()", r)) {
			b.WriteRune(r)
			continue
		}
		b.WriteString("#" + strconv.Itoa(int(r)) + ";")
	}
	return b.String()
}

// Markdown is the Markdown rule for other packages (`fabricc plan
// --format markdown`): s as inline Markdown text, safe in a paragraph, a
// list item or a table cell.
func Markdown(s string) string { return md(s) }

// Visible is s on one line with control and format characters written
// as Go escapes, for plain text on a terminal.
func Visible(s string) string { return visible(s) }
