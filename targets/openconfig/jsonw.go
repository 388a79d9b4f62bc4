package openconfig

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonWriter writes indented JSON exactly as json.MarshalIndent(v, "",
// "  ") lays it out (what ygot.EmitJSON returns): one member or element
// per line, two spaces per level, "key": value, empty objects and arrays
// as {} and [], strings escaped as encoding/json escapes them with HTML
// escaping off (as ygot's encoder does). The caller writes members in sorted key order,
// as MarshalIndent does for the maps ygot builds.
type jsonWriter struct {
	buf *bytes.Buffer
	// first[i] is true while level i has no member or element yet.
	first []bool
	// braces writes "{" and "}" in strings as \u007b and \u007d, and
	// each byte of invalid UTF-8 as U+FFFD itself (the set request file,
	// setrequest.go).
	braces bool
	// module, when set, qualifies the member names written at level
	// moduleLevel that name no module (module + ":" + name).
	module      string
	moduleLevel int
}

// nested returns a writer of the members or elements at depth level
// (each level opened and still empty) into buf.
func nested(buf *bytes.Buffer, level int) *jsonWriter {
	w := &jsonWriter{buf: buf, first: make([]bool, level)}
	for i := range w.first {
		w.first[i] = true
	}
	return w
}

// open starts an object ('{') or array ('[') as the next value.
func (w *jsonWriter) open(c byte) {
	w.buf.WriteByte(c)
	w.first = append(w.first, true)
}

// close ends the innermost object ('}') or array (']').
func (w *jsonWriter) close(c byte) {
	empty := w.first[len(w.first)-1]
	w.first = w.first[:len(w.first)-1]
	if !empty {
		w.newline()
	}
	w.buf.WriteByte(c)
}

// newline ends a line and indents to the current level.
func (w *jsonWriter) newline() {
	w.buf.WriteByte('\n')
	n := 2 * len(w.first)
	for n > len(indentation) {
		w.buf.WriteString(indentation)
		n -= len(indentation)
	}
	w.buf.WriteString(indentation[:n])
}

// indentation is the spaces newline writes, taken a slice at a time.
const indentation = "                                "

// next starts the next member or element of the innermost level.
func (w *jsonWriter) next() {
	if n := len(w.first) - 1; n >= 0 {
		if !w.first[n] {
			w.buf.WriteByte(',')
		}
		w.first[n] = false
		w.newline()
	}
}

// key starts member k of the innermost object; its value follows.
func (w *jsonWriter) key(k string) {
	w.next()
	if w.module != "" && len(w.first) == w.moduleLevel && strings.IndexByte(k, ':') < 0 {
		// Names are fabricc's own YANG identifiers: nothing to escape.
		w.buf.WriteByte('"')
		w.buf.WriteString(w.module)
		w.buf.WriteByte(':')
		w.buf.WriteString(k)
		w.buf.WriteString(`": `)
		return
	}
	w.str(k)
	w.buf.WriteString(": ")
}

// object starts member k as an object.
func (w *jsonWriter) object(k string) {
	w.key(k)
	w.open('{')
}

// array starts member k as an array.
func (w *jsonWriter) array(k string) {
	w.key(k)
	w.open('[')
}

// element starts the next array element as an object.
func (w *jsonWriter) element() {
	w.next()
	w.open('{')
}

// member writes k: s for a string s.
func (w *jsonWriter) member(k, s string) {
	w.key(k)
	w.str(s)
}

// number writes k: n.
func (w *jsonWriter) number(k string, n uint64) {
	w.key(k)
	w.buf.WriteString(strconv.FormatUint(n, 10))
}

// boolean writes k: true or false.
func (w *jsonWriter) boolean(k string, b bool) {
	w.key(k)
	w.buf.WriteString(strconv.FormatBool(b))
}

// numbers writes k: [n, ...], one number per line.
func (w *jsonWriter) numbers(k string, ns []uint64) {
	w.array(k)
	for _, n := range ns {
		w.next()
		w.buf.WriteString(strconv.FormatUint(n, 10))
	}
	w.close(']')
}

// str writes s as a JSON string: plain printable ASCII as it is, anything
// else through encoding/json so the escaping is the same.
func (w *jsonWriter) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || (w.braces && (c == '{' || c == '}')) {
			w.escaped(s)
			return
		}
	}
	w.buf.WriteByte('"')
	w.buf.WriteString(s)
	w.buf.WriteByte('"')
}

// escaped writes s as encoding/json does with HTML escaping off, and with
// braces set, "{" and "}" as \u007b and \u007d: gnmic reads a request
// file as a Go text/template before it parses it (gnmic documentation,
// "set" command, "Templated Set Request file"), so a "{{" in a
// description would otherwise be run as a template action. The escapes
// read back as the same characters in JSON and YAML alike. With braces
// set, a byte of invalid UTF-8 is written as U+FFFD itself rather than
// as the escape \ufffd encoding/json writes: the same character read
// back, and what the request file has always held.
func (w *jsonWriter) escaped(s string) {
	if w.braces && !utf8.ValidString(s) {
		s = validUTF8(s)
	}
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	lit := bytes.TrimSuffix(q.Bytes(), []byte("\n"))
	if w.braces {
		lit = bytes.ReplaceAll(lit, []byte("{"), []byte(`\u007b`))
		lit = bytes.ReplaceAll(lit, []byte("}"), []byte(`\u007d`))
	}
	w.buf.Write(lit)
}

// validUTF8 replaces each byte of s that is not part of a UTF-8 sequence
// with U+FFFD, byte by byte as encoding/json does (strings.ToValidUTF8
// replaces a run of them with one).
func validUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
