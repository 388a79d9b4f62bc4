package compiler

import (
	"maps"
	"strings"

	"github.com/fabricc/fabricc/dsl"
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
//
// A block (a switch port, host, NIC or link) keeps its own range and
// its attributes' ranges (a NIC's model, speed, mtu, ...) together in one
// entry under its key, rather than as keys of their own: a 4,096-switch
// fabric records 3.8 million ranges, and one map entry per range made
// compiling it spend a third of its time inserting keys. A key is
// recorded one way only: on its own (Set), as a block (setBlock) or as
// an attribute of its block: TestSourcesDisjoint.
type Sources struct {
	spans  map[string]Span
	blocks map[string]block
}

// block is what one block records: where it is written, when own is
// set, and where its attributes are.
type block struct {
	self  Span
	own   bool
	attrs []attrSpan
}

// attrSpan is where one attribute of a block is written.
type attrSpan struct {
	name string
	span Span
}

// NewSources returns empty Sources with room for about n blocks (and as
// many keys on their own: a port's link and its length, a NIC's link).
func NewSources(n int) Sources {
	return Sources{spans: make(map[string]Span, n), blocks: make(map[string]block, n)}
}

// merge adds every range o records to s; no key of o is one of s's.
func (s Sources) merge(o Sources) {
	maps.Copy(s.spans, o.spans)
	maps.Copy(s.blocks, o.blocks)
}

// Span is where a value is written: the dsl.Range of the block or
// attribute that set it, which shares one copy of each place among the
// instances of a dynamic block. A 4,096-switch fabric records about 30
// places per device, 3.8 million in all.
type Span struct{ r dsl.Range }

// SpanOf returns r as a Span.
func SpanOf(r hcl.Range) Span { return Span{dsl.RangeOf(r)} }

// Range returns the span as an hcl.Range.
func (s Span) Range() hcl.Range { return s.r.HCL() }

// Key joins path elements into a Sources key.
func Key(parts ...string) string { return strings.Join(parts, "/") }

// Set records r for the path, ignoring empty ranges (attribute not written).
func (s Sources) Set(r dsl.Range, parts ...string) { s.put(Key(parts...), r) }

// put records r under key unless r is empty.
func (s Sources) put(key string, r dsl.Range) {
	if !r.Empty() {
		s.spans[key] = Span{r}
	}
}

// attrRange is one attribute's name and where it is written (an empty
// range when it is not).
type attrRange struct {
	name string
	r    dsl.Range
}

// setBlock records the block at key: def, where the block is written,
// unless it is empty or the block is recorded already (a port declared
// again by an override keeps its first range), and each written
// attribute of attrs as key/name. An attribute recorded again (an
// override block) takes the new range.
func (s Sources) setBlock(key string, def dsl.Range, attrs []attrRange) {
	b := s.blocks[key]
	if !def.Empty() && !b.own {
		b.self, b.own = Span{def}, true
	}
	for _, a := range attrs {
		if !a.r.Empty() {
			b.attrs = setAttr(b.attrs, a.name, Span{a.r})
		}
	}
	if b.own || len(b.attrs) > 0 {
		s.blocks[key] = b
	}
}

// setAttr sets name's span in block.
func setAttr(block []attrSpan, name string, sp Span) []attrSpan {
	for i := range block {
		if block[i].name == name {
			block[i].span = sp
			return block
		}
	}
	return append(block, attrSpan{name, sp})
}

// Get returns the span recorded for key.
func (s Sources) Get(key string) (Span, bool) {
	if sp, ok := s.spans[key]; ok {
		return sp, true
	}
	if b, ok := s.blocks[key]; ok && b.own {
		return b.self, true
	}
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		for _, a := range s.blocks[key[:i]].attrs {
			if a.name == key[i+1:] {
				return a.span, true
			}
		}
	}
	return Span{}, false
}

// Has reports whether a range is recorded for the path: whether what it
// names is written in the fabric.
func (s Sources) Has(parts ...string) bool {
	_, ok := s.Get(Key(parts...))
	return ok
}

// At returns the range recorded for the path, or for its nearest recorded
// ancestor (switch/a/port/b/mtu falls back to switch/a/port/b, then to
// switch/a). It returns nil when nothing on the path was recorded.
func (s Sources) At(parts ...string) *hcl.Range {
	if r := s.Place(parts...); !r.Empty() {
		return r.Ptr()
	}
	return nil
}

// Place is At as a dsl.Range: the zero Range when nothing on the path
// was recorded.
func (s Sources) Place(parts ...string) dsl.Range {
	for n := len(parts); n > 0; n-- {
		if sp, ok := s.Get(Key(parts[:n]...)); ok {
			return sp.r
		}
	}
	return dsl.Range{}
}

// all yields every recorded key and its span, in no particular order.
func (s Sources) all(yield func(key string, sp Span) bool) {
	for k, sp := range s.spans {
		if !yield(k, sp) {
			return
		}
	}
	for key, b := range s.blocks {
		if b.own && !yield(key, b.self) {
			return
		}
		for _, a := range b.attrs {
			if !yield(key+"/"+a.name, a.span) {
				return
			}
		}
	}
}
