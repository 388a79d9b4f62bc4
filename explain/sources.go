package explain

import (
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/hashicorp/hcl/v2"
)

// source returns the range recorded for parts, or for its nearest
// recorded ancestor (then Written is false: the value is not written
// there and its default or inherited value applies); as a last resort the
// fabric block. nil when not even that is recorded.
func (b *Build) source(what string, parts ...string) *Source {
	if r, ok := b.Sources.Get(compiler.Key(parts...)); ok {
		return &Source{What: what, Range: jsonRange(r.Range()), Written: true}
	}
	if r := b.Sources.At(parts...); r != nil {
		return &Source{What: what, Range: jsonRange(*r)}
	}
	if r, ok := b.Sources.Get("fabric"); ok {
		return &Source{What: what, Range: jsonRange(r.Range())}
	}
	return nil
}

// exact returns the range recorded for exactly parts, or nil.
func (b *Build) exact(what string, parts ...string) *Source {
	if r, ok := b.Sources.Get(compiler.Key(parts...)); ok {
		return &Source{What: what, Range: jsonRange(r.Range()), Written: true}
	}
	return nil
}

// add appends source(what, parts) to el's sources.
func (b *Build) add(el *Element, what string, parts ...string) {
	appendSource(el, b.source(what, parts...))
}

// addExact appends the range written exactly at parts, if any, and says
// whether there was one.
func (b *Build) addExact(el *Element, what string, parts ...string) bool {
	s := b.exact(what, parts...)
	appendSource(el, s)
	return s != nil
}

// addAttr appends the range of attribute attr of the block at parts, or
// of the block itself when attr is not written there.
func (b *Build) addAttr(el *Element, attr string, parts ...string) {
	b.add(el, attr, append(append([]string(nil), parts...), attr)...)
}

// appendSource adds s unless it is nil or its range is already listed
// (ports declared by one range share their block).
func appendSource(el *Element, s *Source) {
	if s == nil {
		return
	}
	for i, have := range el.Sources {
		if have.Range == s.Range {
			if s.Written && !have.Written {
				el.Sources[i] = *s
			}
			return
		}
	}
	el.Sources = append(el.Sources, *s)
}

// jsonRange is r in the JSON form diagnostics use (docs/json.md).
func jsonRange(r hcl.Range) dsl.JSONRange {
	return dsl.JSONRange{
		Filename: r.Filename,
		Start:    dsl.JSONPos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:      dsl.JSONPos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}
