package dsl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// valueProblem words why val does not convert to ty (err, from
// convert.Convert) as Terraform does, naming the element it is about
// (element "gpu01": a number is required) and, for a map, list or set
// whose elements are all of one type, how many other elements fail
// too, naming the first few. path is where the first failing element
// is, for pointing at it.
func valueProblem(val cty.Value, ty cty.Type, err error) (string, cty.Path) {
	var pe cty.PathError
	if !errors.As(err, &pe) || len(pe.Path) == 0 {
		return err.Error(), nil
	}
	text := pathText(pe.Path) + ": " + pe.Error()
	if others := failingElements(val, ty); len(others) > 1 {
		text += fmt.Sprintf(" (%d elements fail: %s)", len(others), shortList(others))
	}
	return text, pe.Path
}

// pathText is a path as Terraform words it: element "key", element 3,
// attribute "name", joined by ", ". User keys are quoted and cut short.
func pathText(path cty.Path) string {
	var parts []string
	for _, step := range path {
		switch s := step.(type) {
		case cty.IndexStep:
			switch {
			case s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull():
				parts = append(parts, "element "+shown(s.Key.AsString()))
			case s.Key.Type() == cty.Number && s.Key.IsKnown() && !s.Key.IsNull():
				parts = append(parts, "element "+s.Key.AsBigFloat().Text('f', -1))
			default:
				parts = append(parts, "element")
			}
		case cty.GetAttrStep:
			parts = append(parts, "attribute "+shown(s.Name))
		}
	}
	return strings.Join(parts, ", ")
}

// failingElements names the elements of val that do not convert to the
// element type of ty, a map, list or set type; nil for other types.
func failingElements(val cty.Value, ty cty.Type) []string {
	if !ty.IsMapType() && !ty.IsListType() && !ty.IsSetType() {
		return nil
	}
	if !val.IsKnown() || val.IsNull() || !val.CanIterateElements() {
		return nil
	}
	var out []string
	for it := val.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if _, err := convert.Convert(e, ty.ElementType()); err == nil {
			continue
		}
		if k.Type() == cty.String {
			out = append(out, shown(k.AsString()))
		} else {
			out = append(out, pathText(cty.Path{cty.IndexStep{Key: k}})[len("element "):])
		}
	}
	return out
}

// rangeAtPath returns the range of the expression inside e that writes
// the element at path, as far as e writes it out in object and tuple
// constructors: the entry "gpu01" = "3m" of a var file's map. ok is false
// when e does not write even the first step out.
func rangeAtPath(e hcl.Expression, path cty.Path) (hcl.Range, bool) {
	found := false
	for _, step := range path {
		next := elementExpr(e, step)
		if next == nil {
			break
		}
		e, found = next, true
	}
	return e.Range(), found
}

// elementExpr returns the expression of e's element at step, or nil.
func elementExpr(e hcl.Expression, step cty.PathStep) hcl.Expression {
	switch c := e.(type) {
	case *hclsyntax.ObjectConsExpr:
		var name string
		switch s := step.(type) {
		case cty.IndexStep:
			if s.Key.Type() != cty.String || !s.Key.IsKnown() || s.Key.IsNull() {
				return nil
			}
			name = s.Key.AsString()
		case cty.GetAttrStep:
			name = s.Name
		default:
			return nil
		}
		for _, item := range c.Items {
			k, diags := item.KeyExpr.Value(nil)
			if diags.HasErrors() || k.Type() != cty.String || !k.IsKnown() || k.IsNull() {
				continue
			}
			if k.AsString() == name {
				return item.ValueExpr
			}
		}
	case *hclsyntax.TupleConsExpr:
		s, ok := step.(cty.IndexStep)
		if !ok || s.Key.Type() != cty.Number || !s.Key.IsKnown() || s.Key.IsNull() {
			return nil
		}
		i, acc := s.Key.AsBigFloat().Int64()
		if acc != 0 || i < 0 || i >= int64(len(c.Exprs)) {
			return nil
		}
		return c.Exprs[i]
	}
	return nil
}
