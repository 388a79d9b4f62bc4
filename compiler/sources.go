package compiler

import (
	"strings"
	"unique"

	"github.com/hashicorp/hcl/v2"
)

// Sources remembers where each value of the model was written, so that a
// check made on resolved values can still point at the HCL that set them.
//
// Keys are slash-separated paths:
//
//	fabric
//	qos, qos/class/<name>, qos/class/<name>/<attr>, qos/class/<name>/ecn/<attr>
//	vlan/<id>
//	switch/<name>, switch/<name>/<attr>
//	switch/<name>/port/<port>, switch/<name>/port/<port>/<attr>
//	host/<name>, host/<name>/<attr>
//	host/<name>/nic/<nic>, host/<name>/nic/<nic>/<attr>
//	link/<index>, link/<index>/<attr>   (index in declaration order)
//	switch/<name>/port/<port>/link, .../link/length (the port's link)
//
// <attr> is the HCL attribute name ("mtu", "speed", "priority", "a").
// A port declared by a range maps to the range's label, and an attribute
// set by an `override` block maps to that block's attribute.
type Sources map[string]Span

// Span is an hcl.Range held in half the space: the file name as a
// unique handle and the positions as 32-bit numbers. A 4,096-switch
// fabric records about 30 ranges per device, 3.8 million in all, and
// as hcl.Range they were most of what compiling it held in memory.
type Span struct {
	file       unique.Handle[string]
	start, end spanPos
}

// spanPos is an hcl.Pos in 32-bit numbers (fabric files are far smaller
// than 4 GiB).
type spanPos struct{ line, column, byte uint32 }

// SpanOf returns r as a Span.
func SpanOf(r hcl.Range) Span {
	return Span{file: unique.Make(r.Filename), start: posOf(r.Start), end: posOf(r.End)}
}

func posOf(p hcl.Pos) spanPos {
	return spanPos{uint32(p.Line), uint32(p.Column), uint32(p.Byte)}
}

func (p spanPos) pos() hcl.Pos {
	return hcl.Pos{Line: int(p.line), Column: int(p.column), Byte: int(p.byte)}
}

// Range returns the span as an hcl.Range.
func (s Span) Range() hcl.Range {
	return hcl.Range{Filename: s.file.Value(), Start: s.start.pos(), End: s.end.pos()}
}

// Key joins path elements into a Sources key.
func Key(parts ...string) string { return strings.Join(parts, "/") }

// Set records r for the path, ignoring empty ranges (attribute not written).
func (s Sources) Set(r hcl.Range, parts ...string) { s.put(Key(parts...), r) }

// put records r under key unless r is empty.
func (s Sources) put(key string, r hcl.Range) {
	if r.Filename != "" {
		s[key] = SpanOf(r)
	}
}

// attrRange is one attribute's name and where it is written (an empty
// range when it is not).
type attrRange struct {
	name string
	r    hcl.Range
}

// setAttrs records each written attribute of attrs under the path
// prefix (a Key): prefix/name.
func (s Sources) setAttrs(prefix string, attrs []attrRange) {
	for _, a := range attrs {
		s.put(prefix+"/"+a.name, a.r)
	}
}

// At returns the range recorded for the path, or for its nearest recorded
// ancestor (switch/a/port/b/mtu falls back to switch/a/port/b, then to
// switch/a). It returns nil when nothing on the path was recorded.
func (s Sources) At(parts ...string) *hcl.Range {
	for n := len(parts); n > 0; n-- {
		if sp, ok := s[Key(parts[:n]...)]; ok {
			r := sp.Range()
			return &r
		}
	}
	return nil
}
