package dsl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// dynamicDuplicates reports a switch or host name that a dynamic
// block's labels give twice, naming the for_each keys that give it
// ("leaf-p00-r0" and "leaf-p00-r1" both give "leaf-p00"), before the
// compiler would report the duplicate after the unknown devices it
// leaves. A duplicate between plain blocks is the compiler's to report.
// ctx is the top-level evaluation context the blocks were expanded in.
func dynamicDuplicates(cfg *Config, files map[string]*hcl.File, ctx *hcl.EvalContext) hcl.Diagnostics {
	keys := &labelKeys{files: files, ctx: ctx, byBlock: map[*hclsyntax.Block]map[string][]cty.Value{}}
	var diags hcl.Diagnostics
	names := make([]string, len(cfg.Switches))
	places := make([]Range, len(cfg.Switches))
	for i := range cfg.Switches {
		names[i], places[i] = cfg.Switches[i].Name, cfg.Switches[i].LabelRange.Or(cfg.Switches[i].DefRange)
	}
	diags = append(diags, keys.duplicates("switch", names, places)...)
	names = make([]string, len(cfg.Hosts))
	places = make([]Range, len(cfg.Hosts))
	for i := range cfg.Hosts {
		names[i], places[i] = cfg.Hosts[i].Name, cfg.Hosts[i].LabelRange.Or(cfg.Hosts[i].DefRange)
	}
	return append(diags, keys.duplicates("host", names, places)...)
}

// labelKeys finds, and keeps, the labels each dynamic block's instances
// give.
type labelKeys struct {
	files   map[string]*hcl.File
	ctx     *hcl.EvalContext
	byBlock map[*hclsyntax.Block]map[string][]cty.Value
}

// duplicates reports each name after its first that one of places
// inside a dynamic block's labels gives.
func (lk *labelKeys) duplicates(kind string, names []string, places []Range) hcl.Diagnostics {
	first := make(map[string]int, len(names))
	type placed struct {
		name string
		at   hcl.Range
	}
	inBlock := map[placed]int{}
	var diags hcl.Diagnostics
	for i, n := range names {
		j, dup := first[n]
		if !dup {
			first[n] = i
			continue
		}
		at := places[i].HCL()
		blk := lk.dynamicAt(at)
		if blk == nil {
			continue // plain blocks: the compiler reports it
		}
		// This is the block's k-th instance to give n (0 for its first).
		k := inBlock[placed{n, at}]
		inBlock[placed{n, at}]++
		if places[j].HCL() == at && k == 0 {
			inBlock[placed{n, at}]++ // the first of all is this block's too
			k = 1
		}
		given := lk.keysOf(blk)[n]
		if k >= len(given) {
			continue
		}
		mine := given[k]
		sameBlock := places[j].HCL() == at
		var theirs cty.Value
		if sameBlock {
			theirs = given[0]
		}
		var d *hcl.Diagnostic
		if sameBlock {
			d = &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate " + kind,
				Detail: fmt.Sprintf("%s %s is declared twice: the for_each keys %s and %s of this dynamic block both give the label %s. "+
					"A label names the %s, so each key needs its own: build the label from what differs between the keys (the key itself, or more of the value).",
					kind, shown(n), shown(keyText(theirs)), shown(keyText(mine)), shown(n), kind),
				Subject: at.Ptr(),
			}
		} else {
			d = &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate " + kind,
				Detail: fmt.Sprintf("%s %s is declared twice: the for_each key %s of this dynamic block gives the label %s, which an earlier %s block has; rename one or merge the blocks.",
					kind, shown(n), shown(keyText(mine)), shown(n), kind),
				Subject: at.Ptr(),
			}
			Also(d, fmt.Sprintf("%s %s is first declared here", kind, shown(n)), places[j].HCL())
		}
		if w, ok := keyWord(mine); ok {
			SetInstance(d, w)
		}
		diags = append(diags, d)
	}
	return diags
}

// keyText is a for_each key as text.
func keyText(k cty.Value) string {
	if s, err := convert.Convert(k, cty.String); err == nil && s.IsKnown() && !s.IsNull() {
		return s.AsString()
	}
	return "?"
}

// dynamicAt is the top-level dynamic block whose labels argument holds
// r, or nil.
func (lk *labelKeys) dynamicAt(r hcl.Range) *hclsyntax.Block {
	f := lk.files[r.Filename]
	if f == nil {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	for _, b := range body.Blocks {
		if b.Type != "dynamic" || !contains(b.Range(), r) {
			continue
		}
		if a := b.Body.Attributes["labels"]; a != nil && contains(a.Expr.Range(), r) && len(b.Labels) == 1 {
			return b
		}
		return nil
	}
	return nil
}

// keysOf evaluates blk's for_each and, for each element, its first
// label, again (only for a fabric with a duplicate name), and returns
// the keys that give each label, in for_each order; a value it cannot
// work out leaves the lists short, and the error unnamed.
func (lk *labelKeys) keysOf(blk *hclsyntax.Block) map[string][]cty.Value {
	if kl, ok := lk.byBlock[blk]; ok {
		return kl
	}
	out := map[string][]cty.Value{}
	defer func() { lk.byBlock[blk] = out }()
	f := lk.files[blk.Range().Filename]
	iterator := blk.Labels[0]
	if a := blk.Body.Attributes["iterator"]; a != nil {
		tr, diags := hcl.AbsTraversalForExpr(a.Expr)
		if diags.HasErrors() || len(tr) != 1 {
			return out
		}
		iterator = tr.RootName()
	}
	each, diags := blk.Body.Attributes["for_each"].Expr.Value(lk.ctx)
	if diags.HasErrors() || !each.IsWhollyKnown() || each.IsNull() || !each.CanIterateElements() {
		return out
	}
	a := blk.Body.Attributes["labels"]
	r := a.Expr.Range()
	if f == nil || r.Start.Byte < 0 || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return out
	}
	labels, diags := hclsyntax.ParseExpression(f.Bytes[r.Start.Byte:r.End.Byte], r.Filename, r.Start)
	if diags.HasErrors() {
		return out
	}
	for it := each.ElementIterator(); it.Next(); {
		k, v := it.Element()
		child := lk.ctx.NewChild()
		child.Variables = map[string]cty.Value{iterator: cty.ObjectVal(map[string]cty.Value{"key": k, "value": v})}
		l, diags := labels.Value(child)
		if diags.HasErrors() || !l.IsWhollyKnown() || l.IsNull() || !l.CanIterateElements() || l.LengthInt() == 0 {
			return out
		}
		first, err := convert.Convert(l.Index(cty.NumberIntVal(0)), cty.String)
		if err != nil || first.IsNull() {
			return out
		}
		out[first.AsString()] = append(out[first.AsString()], k)
	}
	return out
}
