package dsl

import (
	"runtime"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricc/fabricc/internal/cores"
)

// Large for expressions on every core. A generated fabric builds its
// hosts, ports and cables in locals and for_each arguments such as
// merge([for name, h in local.hosts : { ... }]...): one for expression
// over 130,000 elements, which HCL evaluates on one goroutine. A for
// expression over a large collection is split into contiguous chunks of
// that collection, each chunk evaluated by HCL's own ForExpr on its own
// goroutine, and the chunk results joined in order. Anything the join
// could get wrong (an error, an unknown or marked result, a key two
// chunks produce, grouping) is evaluated again by HCL in one pass from
// the same budget, so values and diagnostics are HCL's own
// (TestParallelForSame).

// parallelMin is the smallest collection split across goroutines.
const parallelMin = 1024

// parallelFor evaluates a for expression as HCL does, splitting a large
// collection across goroutines. It embeds the ForExpr, so it walks,
// ranges and reports its variables as the ForExpr does.
type parallelFor struct {
	*hclsyntax.ForExpr
	work *budget
}

// Value implements hcl.Expression.
func (p *parallelFor) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	coll, diags := p.CollExpr.Value(ctx)
	if !diags.HasErrors() && p.splittable(coll) && p.work.parallel.CompareAndSwap(false, true) {
		v, ok := p.split(ctx, coll)
		p.work.parallel.Store(false)
		if ok {
			return v, diags
		}
	}
	e := p.withCollection(coll)
	v, d := e.Value(ctx)
	return v, append(diags, restoreExpressions(d, e, p.ForExpr)...)
}

// withCollection returns a copy of the for expression that iterates over
// coll, already evaluated, instead of evaluating its collection again.
func (p *parallelFor) withCollection(coll cty.Value) *hclsyntax.ForExpr {
	e := *p.ForExpr
	e.CollExpr = &evaluated{Expression: p.CollExpr, val: coll}
	return &e
}

// splittable reports whether coll can be split into chunks whose joined
// results equal one pass: a large, known, unmarked map or object (each
// chunk keeps its keys), or a list or tuple whose index the expression
// does not name (a chunk would number from 0).
func (p *parallelFor) splittable(coll cty.Value) bool {
	if p.Group || coll.IsNull() || !coll.IsKnown() || coll.IsMarked() {
		return false
	}
	ty := coll.Type()
	ordered := ty.IsListType() || ty.IsTupleType()
	if !(ty.IsMapType() || ty.IsObjectType() || (ordered && p.KeyVar == "")) {
		return false
	}
	return coll.LengthInt() >= parallelMin && runtime.GOMAXPROCS(0) > 1
}

// split evaluates the chunks on every core and joins them; ok is false
// when the result must come from one pass instead (the budget is then
// as it was).
func (p *parallelFor) split(ctx *hcl.EvalContext, coll cty.Value) (cty.Value, bool) {
	saved := p.work.save()
	chunks := chunksOf(coll, 4*runtime.GOMAXPROCS(0))
	results := make([]cty.Value, len(chunks))
	failed := make([]bool, len(chunks))
	cores.Range(len(chunks), 1, func(i, _ int) {
		v, d := p.withCollection(chunks[i]).Value(ctx)
		results[i], failed[i] = v, len(d) > 0 || !whollyKnown(v) || v.IsMarked()
	})
	for _, f := range failed {
		if f {
			p.work.reset(saved)
			return cty.NilVal, false
		}
	}
	v, ok := join(results, p.KeyExpr != nil)
	if !ok {
		p.work.reset(saved)
	}
	return v, ok
}

// chunksOf splits coll into at most n contiguous runs of its elements,
// in its iteration order, each of coll's own kind.
func chunksOf(coll cty.Value, n int) []cty.Value {
	size := (coll.LengthInt() + n - 1) / n
	ty := coll.Type()
	var chunks []cty.Value
	var keys []string
	var elems []cty.Value
	flush := func() {
		if len(elems) == 0 {
			return
		}
		switch {
		case ty.IsObjectType() || ty.IsMapType():
			m := make(map[string]cty.Value, len(elems))
			for i, k := range keys {
				m[k] = elems[i]
			}
			if ty.IsObjectType() {
				chunks = append(chunks, cty.ObjectVal(m))
			} else {
				chunks = append(chunks, cty.MapVal(m))
			}
		case ty.IsListType():
			chunks = append(chunks, cty.ListVal(elems))
		default:
			chunks = append(chunks, cty.TupleVal(elems))
		}
		keys, elems = nil, nil
	}
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if ty.IsObjectType() || ty.IsMapType() {
			keys = append(keys, k.AsString())
		}
		elems = append(elems, v)
		if len(elems) == size {
			flush()
		}
	}
	flush()
	return chunks
}

// join puts the chunk results together: the tuples one after another,
// or the objects' attributes in one object. A key two chunks produce is
// not joined (one pass reports it as a duplicate).
func join(results []cty.Value, object bool) (cty.Value, bool) {
	if !object {
		var all []cty.Value
		for _, r := range results {
			all = append(all, r.AsValueSlice()...)
		}
		return cty.TupleVal(all), true
	}
	n := 0
	for _, r := range results {
		n += r.LengthInt()
	}
	all := make(map[string]cty.Value, n)
	for _, r := range results {
		for k, v := range r.AsValueMap() {
			if _, dup := all[k]; dup {
				return cty.NilVal, false
			}
			all[k] = v
		}
	}
	return cty.ObjectVal(all), true
}

// parallelFors replaces every for expression inside the bodies' attribute
// values with a parallelFor evaluated under work.
func parallelFors(bodies []hcl.Body, work *budget) {
	rewriteBodies(bodies, func(e hclsyntax.Expression) hclsyntax.Expression {
		if x, ok := e.(*hclsyntax.ForExpr); ok {
			return &parallelFor{ForExpr: x, work: work}
		}
		return e
	})
}
