package explain

import (
	"os"
	"strings"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// source returns the range recorded for parts, or for its nearest
// recorded ancestor (then Written is false: the value is not written
// there and its default or inherited value applies); as a last resort the
// fabric block. nil when not even that is recorded.
func (b *Build) source(what string, parts ...string) *Source {
	if r, ok := b.Sources.Get(compiler.Key(parts...)); ok {
		return &Source{What: what, Range: jsonRange(r.Range()), Written: true, Computed: computed(r.Range())}
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
		return &Source{What: what, Range: jsonRange(r.Range()), Written: true, Computed: computed(r.Range())}
	}
	return nil
}

// computed reports whether the HCL at r is an expression that computes
// its value (a variable, a function call, an operator) rather than a
// literal: a number, a string without interpolation, true or false, or a
// list or object of those. A range that cannot be read or parsed is
// taken as written there.
func computed(r hcl.Range) bool {
	if r.Filename == "" || r.End.Byte <= r.Start.Byte {
		return false
	}
	data, err := os.ReadFile(r.Filename)
	if err != nil || r.End.Byte > len(data) {
		return false
	}
	expr, diags := hclsyntax.ParseExpression(data[r.Start.Byte:r.End.Byte], r.Filename, r.Start)
	if diags.HasErrors() || expr.Range().End.Byte != r.End.Byte {
		// Not one expression: a block's range.
		return false
	}
	if rest := strings.TrimLeft(string(data[r.End.Byte:]), " \t"); strings.HasPrefix(rest, "{") {
		// A block's type: qos {.
		return false
	}
	return !literal(expr)
}

// literal reports whether e is a literal value (see computed).
func literal(e hclsyntax.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		return e.IsStringLiteral()
	case *hclsyntax.TemplateWrapExpr:
		return literal(e.Wrapped)
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			if !literal(x) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsExpr:
		for _, it := range e.Items {
			if !literal(it.ValueExpr) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsKeyExpr:
		return true
	case *hclsyntax.ParenthesesExpr:
		return literal(e.Expression)
	case *hclsyntax.UnaryOpExpr:
		// -3
		_, ok := e.Val.(*hclsyntax.LiteralValueExpr)
		return ok
	}
	return false
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

// blockWrites reports whether the block whose header is at r writes
// attribute attr in its body (the text from the header to the brace
// that closes it). A block that cannot be read is taken as writing it.
func blockWrites(r dsl.JSONRange, attr string) bool {
	data, err := os.ReadFile(r.Filename)
	if err != nil || r.Start.Byte >= len(data) {
		return true
	}
	rest := data[r.Start.Byte:]
	open := strings.IndexByte(string(rest), '{')
	if open < 0 {
		return true
	}
	depth, end := 0, len(rest)
	for i := open; i < len(rest); i++ {
		switch rest[i] {
		case '{':
			depth++
		case '}':
			depth--
		}
		if depth == 0 {
			end = i
			break
		}
	}
	file, diags := hclsyntax.ParseConfig(rest[open+1:end], r.Filename, hcl.InitialPos)
	if diags.HasErrors() {
		return strings.Contains(string(rest[open:end]), attr)
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return true
	}
	_, ok = body.Attributes[attr]
	return ok
}
