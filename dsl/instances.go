package dsl

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// nameEvalInstances records, for each error HCL reported while
// evaluating inside a dynamic block (cidrhost out of range for one
// host's NIC), which instance it is about: the labels the instance's
// block gets, or its for_each key for a block without labels, each
// dynamic block around it adding its own ("gpu07:rail3"). Collapse then
// names the instances of one mistake, as it does for the compiler's
// errors. The iterators' values come from the evaluation context HCL
// kept with the diagnostic.
func nameEvalInstances(diags hcl.Diagnostics, files map[string]*hcl.File) {
	for _, d := range diags {
		if d.EvalContext == nil || d.Subject == nil || InstanceOf(d) != "" {
			continue
		}
		f := files[d.Subject.Filename]
		if f == nil {
			continue
		}
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		var parts []string
		for _, blk := range dynamicsAround(body, *d.Subject) {
			part, ok := instanceName(blk, d.EvalContext, f.Bytes)
			if !ok {
				parts = nil
				break
			}
			parts = append(parts, part)
		}
		if len(parts) > 0 {
			SetInstance(d, strings.Join(parts, ":"))
		}
	}
}

// dynamicsAround returns the dynamic blocks whose content holds r,
// outermost first.
func dynamicsAround(body *hclsyntax.Body, r hcl.Range) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for body != nil {
		var inner *hclsyntax.Body
		for _, b := range body.Blocks {
			if !contains(b.Range(), r) {
				continue
			}
			if b.Type == "dynamic" {
				for _, c := range b.Body.Blocks {
					if c.Type == "content" && contains(c.Range(), r) {
						out = append(out, b)
						inner = c.Body
					}
				}
			} else {
				inner = b.Body
			}
			break
		}
		body = inner
	}
	return out
}

// instanceName names the instance of the dynamic block blk that ctx
// evaluates: its labels, else its key; ok is false when ctx holds no
// value of blk's iterator.
func instanceName(blk *hclsyntax.Block, ctx *hcl.EvalContext, src []byte) (string, bool) {
	iterator := blk.Labels[0]
	if a := blk.Body.Attributes["iterator"]; a != nil {
		tr, diags := hcl.AbsTraversalForExpr(a.Expr)
		if diags.HasErrors() || len(tr) != 1 {
			return "", false
		}
		iterator = tr.RootName()
	}
	it, ok := lookupVariable(ctx, iterator)
	if !ok || !it.Type().IsObjectType() || !it.Type().HasAttribute("key") {
		return "", false
	}
	if a := blk.Body.Attributes["labels"]; a != nil {
		if labels, ok := evalLabels(a, ctx, src); ok {
			return labels, true
		}
	}
	return keyWord(it.GetAttr("key"))
}

// lookupVariable finds name in ctx or the contexts around it.
func lookupVariable(ctx *hcl.EvalContext, name string) (cty.Value, bool) {
	for c := ctx; c != nil; c = c.Parent() {
		if v, ok := c.Variables[name]; ok {
			return v, true
		}
	}
	return cty.NilVal, false
}

// evalLabels evaluates a dynamic block's labels again in ctx, from the
// source (the loader may have put nodes that charge the budget in the
// syntax tree), and joins them with spaces.
func evalLabels(a *hclsyntax.Attribute, ctx *hcl.EvalContext, src []byte) (string, bool) {
	r := a.Expr.Range()
	if r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return "", false
	}
	e, diags := hclsyntax.ParseExpression(src[r.Start.Byte:r.End.Byte], r.Filename, r.Start)
	if diags.HasErrors() {
		return "", false
	}
	v, diags := e.Value(ctx)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() || !v.CanIterateElements() || v.LengthInt() == 0 {
		return "", false
	}
	var words []string
	for it := v.ElementIterator(); it.Next(); {
		_, l := it.Element()
		w, ok := keyWord(l)
		if !ok {
			return "", false
		}
		words = append(words, w)
	}
	return strings.Join(words, " "), true
}

// keyWord writes a key or label for a list of instances: as it is when
// it is a short printable word, quoted and cut short otherwise (a
// fabric's strings are the user's, and may hold anything).
func keyWord(v cty.Value) (string, bool) {
	s, err := convert.Convert(v, cty.String)
	if err != nil || s.IsNull() || !s.IsKnown() {
		return "", false
	}
	text := s.AsString()
	if len(text) > 0 && len(text) <= 40 && printable(text) && !strings.ContainsAny(text, ` ,"`) {
		return text, true
	}
	return shown(text), true
}
