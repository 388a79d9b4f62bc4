package openconfig

import (
	"bytes"
	"encoding/json"
	"strconv"
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
	for range w.first {
		w.buf.WriteString("  ")
	}
}

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
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var q bytes.Buffer
			enc := json.NewEncoder(&q)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			w.buf.Write(bytes.TrimSuffix(q.Bytes(), []byte("\n")))
			return
		}
	}
	w.buf.WriteByte('"')
	w.buf.WriteString(s)
	w.buf.WriteByte('"')
}
