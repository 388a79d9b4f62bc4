package targets

import (
	"bytes"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// Element names one part of the model that lines of an artifact come
// from, as a path whose parts are those of the compiler's source keys
// (compiler.Sources), so that `fabricc explain` can find the HCL that set
// it:
//
//	fabric                                  the fabric block
//	qos                                     the fabric-wide maps (DSCP -> priority -> traffic class)
//	qos/class/<name>[/ecn|/ets]             a traffic class, its ECN thresholds, its ETS share
//	qos/headroom                            the headroom policy (lossless MTU, small packets)
//	vlan/<id>
//	switch/<name>[/<attr>]                  the switch; attr: platform, model, os_version, pfc_watchdog, buffer
//	switch/<name>/pool/<pool>/<direction>   a buffer pool (direction ingress or egress)
//	switch/<name>/port/<port>[/<attr>]      a port; attr is its HCL attribute (speed, mtu, mode,
//	                                        vlans, native_vlan, trust, pfc, lanes, description, link)
//	switch/<name>/port/<port>/pg/<index>    an ingress priority group (its headroom)
//	switch/<name>/port/<port>/queue/<tc>    an egress queue
//	host/<name>[/<attr>]                    a host; attr: os, os_version, tuning
//	host/<name>/nic/<nic>[/<attr>]          a NIC; attr is its HCL attribute (mtu, vlan, addresses,
//	                                        priority, dscp, cnp_priority, cnp_dscp, pfc_priorities,
//	                                        trust, applications, link, ...)
//	warning/<index>                         a build warning, as listed in fabric.md
//
// Port names hold slashes ("1/1", "Ethernet1/1"), so the parts are kept
// apart: Parts returns them.
type Element string

// sep separates the parts of an Element. The language refuses control
// characters in names, so no part holds it.
const sep = "\x1f"

// Path makes the Element of the given parts.
func Path(parts ...string) Element { return Element(strings.Join(parts, sep)) }

// Parts returns the path parts of e.
func (e Element) Parts() []string { return strings.Split(string(e), sep) }

// String is e with its parts joined by "/", for people.
func (e Element) String() string { return strings.ReplaceAll(string(e), sep, "/") }

// SourceMap says, for each line of one artifact, which model elements the
// line came from. A line with no element is fixed text: a comment or
// boilerplate that does not depend on the fabric.
type SourceMap struct {
	// Lines holds line n's elements at index n-1.
	Lines [][]Element
}

// Line returns the elements of line n (from 1); nil for fixed text or a
// line the file does not have.
func (m *SourceMap) Line(n int) []Element {
	if m == nil || n < 1 || n > len(m.Lines) {
		return nil
	}
	return m.Lines[n-1]
}

// recorder collects where the current elements change while a renderer
// writes; Text owns one only when a source map was asked for.
type recorder struct {
	marks []mark
	cur   []Element
}

// mark says that from byte offset off on, the lines come from elems.
type mark struct {
	off   int
	elems []Element
}

// set makes elems current from offset off.
func (r *recorder) set(off int, elems []Element) {
	r.cur = elems
	if n := len(r.marks); n > 0 && r.marks[n-1].off == off {
		r.marks[n-1].elems = elems
		return
	}
	r.marks = append(r.marks, mark{off: off, elems: elems})
}

// lineMap turns the marks into one entry per line of data: a line gets
// the elements current at its first byte, together with those of every
// change made before its end (a change in mid-line adds to the line).
func (r *recorder) lineMap(data string) *SourceMap {
	m := &SourceMap{}
	next := 0
	var cur []Element
	for start := 0; start < len(data); {
		end := strings.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		for next < len(r.marks) && r.marks[next].off <= start {
			cur = r.marks[next].elems
			next++
		}
		line := cur
		for k := next; k < len(r.marks) && r.marks[k].off < end; k++ {
			line = union(line, r.marks[k].elems)
		}
		m.Lines = append(m.Lines, line)
		start = end + 1
	}
	return m
}

// union returns a's elements followed by those of b that a lacks.
func union(a, b []Element) []Element {
	out := append([]Element(nil), a...)
	for _, e := range b {
		if !contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// contains reports whether list holds e.
func contains(list []Element, e Element) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// Text is the buffer a renderer writes one artifact into: a
// bytes.Buffer (whose Bytes become the file's data without a copy) that,
// when a source map was asked for, also records which model elements the
// lines come from. A renderer sets the element once per block (At,
// Also); the lines it writes afterwards belong to it. Without a source
// map every call is a nil check and records nothing.
type Text struct {
	bytes.Buffer
	rec *recorder
}

// NewText returns an empty Text; mapped asks for a source map.
func NewText(mapped bool) *Text {
	t := &Text{}
	if mapped {
		t.rec = &recorder{}
	}
	return t
}

// Mapped reports whether t records a source map.
func (t *Text) Mapped() bool { return t.rec != nil }

// At says that the lines written from here on come from the element with
// the given path parts (see Element). At() with no parts: fixed text.
func (t *Text) At(parts ...string) {
	if t.rec == nil {
		return
	}
	if len(parts) == 0 {
		t.rec.set(t.Len(), nil)
		return
	}
	t.rec.set(t.Len(), []Element{Path(parts...)})
}

// Also adds the element with the given path parts to those the lines
// written from here on come from.
func (t *Text) Also(parts ...string) {
	if t.rec == nil {
		return
	}
	t.rec.set(t.Len(), union(t.rec.cur, []Element{Path(parts...)}))
}

// AlsoElement adds e to the elements of the lines written from here on.
func (t *Text) AlsoElement(e Element) {
	if t.rec == nil {
		return
	}
	t.rec.set(t.Len(), union(t.rec.cur, []Element{e}))
}

// Elements returns the current elements, to restore with Set after a
// nested block; nil without a source map.
func (t *Text) Elements() []Element {
	if t.rec == nil {
		return nil
	}
	return t.rec.cur
}

// Set makes elems (from Elements) the current elements again.
func (t *Text) Set(elems []Element) {
	if t.rec == nil {
		return
	}
	t.rec.set(t.Len(), elems)
}

// Fixed writes s, whole lines of fixed text (section headers,
// boilerplate), and keeps the current elements for what follows.
func (t *Text) Fixed(s string) {
	if t.rec == nil {
		t.WriteString(s)
		return
	}
	cur := t.rec.cur
	t.rec.set(t.Len(), nil)
	t.WriteString(s)
	t.rec.set(t.Len(), cur)
}

// SourceMap returns the source map of what was written; nil when none
// was asked for.
func (t *Text) SourceMap() *SourceMap {
	if t.rec == nil {
		return nil
	}
	return t.rec.lineMap(t.String())
}

// Recorder records a source map by byte offsets into an output, for a
// renderer that assembles its bytes without a Text (one plan written as
// two files). A nil *Recorder records nothing.
type Recorder struct{ r recorder }

// Set makes elems current from byte offset off of the output.
func (r *Recorder) Set(off int, elems []Element) {
	if r == nil {
		return
	}
	r.r.set(off, elems)
}

// SourceMap maps data, the output the offsets refer to.
func (r *Recorder) SourceMap(data []byte) *SourceMap {
	if r == nil {
		return nil
	}
	return r.r.lineMap(string(data))
}

// Append writes what u holds, with u's source map: each of u's lines
// comes from u's elements for it and from t's current elements (a block
// rendered once and written into several others, such as the tx-queue
// sub-blocks of every EOS interface).
func (t *Text) Append(u *Text) {
	if t.rec == nil || u.rec == nil {
		t.Write(u.Bytes())
		return
	}
	base, cur := t.Len(), t.rec.cur
	for _, m := range u.rec.marks {
		t.rec.set(base+m.off, union(cur, m.elems))
	}
	t.Write(u.Bytes())
	t.rec.set(t.Len(), cur)
}

// SourceMapOf is SourceMap for data, which is what was written with its
// end changed (trailing blank lines trimmed): offsets past its end are
// ignored.
func (t *Text) SourceMapOf(data []byte) *SourceMap {
	if t.rec == nil {
		return nil
	}
	return t.rec.lineMap(string(data))
}

// Uniform maps every line of data to elems: a file drawn as one whole
// from one part of the model (a chart).
func Uniform(data []byte, elems ...Element) *SourceMap {
	n := strings.Count(string(data), "\n")
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	m := &SourceMap{Lines: make([][]Element, n)}
	for i := range m.Lines {
		m.Lines[i] = elems
	}
	return m
}

// LinkElement is the element of a cable: the link of its A end (the
// switch end when it has one), whose source is the link block.
func LinkElement(a model.Endpoint) Element {
	if a.Kind == "switch" {
		return Path("switch", a.Device, "port", a.Port, "link")
	}
	return Path("host", a.Device, "nic", a.Port, "link")
}
