package dsl

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Native evaluation of the commonest expressions. A generated fabric
// evaluates millions of small expressions: format("h%04d-%02d", i, h),
// h % 16 == 15, os == "linux" ? a : b, local.leaves[name].pod. HCL
// evaluates each through cty's generic machinery (argument conversion,
// type checks, mark walks, refinements, a heap copy of every traversal
// step), twice for a function of the fabric (the budget's wrapper, then
// the function), and that machinery costs more than the work. The nodes
// here embed the expression they replace and evaluate its operands
// exactly as HCL does, in the same order; when every operand is a known,
// unmarked value of the type the operation takes, they compute the
// result directly (format natively for the verbs %s and %d; other
// functions with the function itself). Anything else (an error, an
// unknown, a mark, a conversion, a null) goes through HCL's own code
// with the operands already evaluated, so values, diagnostics and budget
// counts are HCL's: TestNativeSame, TestNativeSameFabrics and
// FuzzNativeSame compare both ways of evaluating.

// evaluated is an operand that was already evaluated: it gives HCL the
// value and diagnostics its expression gave, without evaluating (and
// charging) it again. It embeds the expression, so ranges and variables
// are the operand's own.
type evaluated struct {
	hclsyntax.Expression
	val   cty.Value
	diags hcl.Diagnostics
}

// Value implements hcl.Expression.
func (e *evaluated) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) { return e.val, e.diags }

// evaluateInto evaluates exprs in order, as HCL does, into vals, and
// returns each one's diagnostics, or nil when none gave any.
func evaluateInto(ctx *hcl.EvalContext, exprs []hclsyntax.Expression, vals []cty.Value) []hcl.Diagnostics {
	var diags []hcl.Diagnostics
	for i, e := range exprs {
		v, d := valueOf(ctx, e)
		vals[i] = v
		if len(d) > 0 {
			if diags == nil {
				diags = make([]hcl.Diagnostics, len(exprs))
			}
			diags[i] = d
		}
	}
	return diags
}

// evalNative evaluates a native node: its operands exprs, in HCL's
// order, into vals; then direct's result when no operand gave a
// diagnostic and direct has one; else viaHCL's, which evaluates a copy
// of the node by HCL's own code with ops, the operands as evaluated.
func evalNative(ctx *hcl.EvalContext, exprs []hclsyntax.Expression, vals []cty.Value,
	direct func() (cty.Value, bool), viaHCL func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics)) (cty.Value, hcl.Diagnostics) {
	diags := evaluateInto(ctx, exprs, vals)
	if diags == nil {
		if v, ok := direct(); ok {
			return v, nil
		}
	}
	ops := make([]hclsyntax.Expression, len(exprs))
	for i, e := range exprs {
		m := &evaluated{Expression: e, val: vals[i]}
		if diags != nil {
			m.diags = diags[i]
		}
		ops[i] = m
	}
	return viaHCL(ops)
}

// restoreExpressions points diagnostics that HCL's code attached to the
// copy of a node, or to an evaluated operand, back at the node and the
// operand expression, as evaluating the node itself would have.
func restoreExpressions(diags hcl.Diagnostics, cp, node hcl.Expression) hcl.Diagnostics {
	for _, d := range diags {
		switch x := d.Expression.(type) {
		case *evaluated:
			d.Expression = x.Expression
		default:
			if d.Expression == cp {
				d.Expression = node
			}
		}
	}
	return diags
}

// plain reports whether v can take the direct path: known and unmarked
// at the top (what cty's call checks), and of a type (not the dynamic
// pseudo-type, which a call answers with an unknown).
func plain(v cty.Value) bool {
	return v.IsKnown() && !v.IsMarked() && v.Type() != cty.DynamicPseudoType
}

// nativeBinary is a binary operator on numbers, or == and != on two
// values of one primitive type.
type nativeBinary struct {
	*hclsyntax.BinaryOpExpr
	// divisor is the right operand of a % when it is a literal whole
	// number within an int32 other than 0 (`h % 16`), read once instead
	// of copied out of cty at every evaluation; 0 for any other.
	divisor int64
}

// newNativeBinary returns the native node of x.
func newNativeBinary(x *hclsyntax.BinaryOpExpr) *nativeBinary {
	e := &nativeBinary{BinaryOpExpr: x}
	if lit, ok := x.RHS.(*hclsyntax.LiteralValueExpr); ok && x.Op == hclsyntax.OpModulo {
		if n, ok := smallWhole(lit.Val); ok {
			e.divisor = n
		}
	}
	return e
}

// Value implements hcl.Expression.
func (e *nativeBinary) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var vals [2]cty.Value
	return evalNative(ctx, []hclsyntax.Expression{e.LHS, e.RHS}, vals[:],
		func() (cty.Value, bool) { return e.direct(vals[0], vals[1]) },
		func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
			cp := *e.BinaryOpExpr
			cp.LHS, cp.RHS = ops[0], ops[1]
			v, d := cp.Value(ctx)
			return v, restoreExpressions(d, &cp, e.BinaryOpExpr)
		})
}

// direct is binary of the operands a and b, with a literal divisor
// read once.
func (e *nativeBinary) direct(a, b cty.Value) (cty.Value, bool) {
	if e.divisor != 0 && plain(a) && !a.IsNull() && a.Type() == cty.Number {
		f := a.AsBigFloat()
		if x, ok := smallWholeFloat(f); ok {
			return moduloOf(f, x, e.divisor), true
		}
	}
	return binary(e.Op, a, b)
}

// binary computes an operation as its cty function's implementation
// does, when both operands are known, unmarked, non-null values of the
// type the operation takes; ok is false otherwise, and when cty would
// fail or panic (opposing infinities, zero divided by zero).
func binary(op *hclsyntax.Operation, a, b cty.Value) (v cty.Value, ok bool) {
	if !plain(a) || !plain(b) || a.IsNull() || b.IsNull() || !a.Type().Equals(b.Type()) {
		return cty.NilVal, false
	}
	defer func() {
		if recover() != nil {
			v, ok = cty.NilVal, false
		}
	}()
	if op == hclsyntax.OpEqual || op == hclsyntax.OpNotEqual {
		if !a.Type().IsPrimitiveType() {
			return cty.NilVal, false
		}
		if op == hclsyntax.OpEqual {
			return a.Equals(b), true
		}
		return a.Equals(b).Not(), true
	}
	if f, ok := numberOps[op]; ok && a.Type() == cty.Number {
		return f(a, b), true
	}
	return cty.NilVal, false
}

// numberOps are the operators on numbers with the cty method their
// function's implementation calls (cty/function/stdlib, number.go).
var numberOps = map[*hclsyntax.Operation]func(a, b cty.Value) cty.Value{
	hclsyntax.OpAdd:                cty.Value.Add,
	hclsyntax.OpSubtract:           cty.Value.Subtract,
	hclsyntax.OpMultiply:           cty.Value.Multiply,
	hclsyntax.OpDivide:             cty.Value.Divide,
	hclsyntax.OpModulo:             modulo,
	hclsyntax.OpGreaterThan:        cty.Value.GreaterThan,
	hclsyntax.OpGreaterThanOrEqual: cty.Value.GreaterThanOrEqualTo,
	hclsyntax.OpLessThan:           cty.Value.LessThan,
	hclsyntax.OpLessThanOrEqual:    cty.Value.LessThanOrEqualTo,
}

// modulo is cty's Modulo (the % of HCL's own operator): for whole
// numbers within an int32 it is Go's % on int64, whose result takes the
// dividend's sign as cty's does (a - b x trunc(a / b)), into a number of
// the dividend's precision, as cty's is. cty divides at that precision
// (512 bits for a literal) to get there, most of a generated fabric's
// `h % 16 == 15` cost. A zero divisor, larger or fractional numbers go
// to cty: there a rounded quotient can differ from the exact remainder.
//
// The dividend is copied out of cty once (AsBigFloat copies it) and the
// copy becomes the result.
func modulo(a, b cty.Value) cty.Value {
	if a.IsNull() || a.Type() != cty.Number {
		return a.Modulo(b)
	}
	f := a.AsBigFloat()
	x, xok := smallWholeFloat(f)
	y, yok := smallWhole(b)
	if !xok || !yok || y == 0 {
		return a.Modulo(b)
	}
	return moduloOf(f, x, y)
}

// moduloOf is modulo of the whole numbers x, whose value f is, and y,
// within an int32 and y not 0: x % y at f's precision, in f.
func moduloOf(f *big.Float, x, y int64) cty.Value {
	f.SetInt64(x % y)
	return cty.NumberVal(f)
}

// nativeConditional is a conditional whose branches are of one
// primitive type.
type nativeConditional struct {
	*hclsyntax.ConditionalExpr
}

// Value implements hcl.Expression. HCL evaluates both branches (their
// types make the result's type) before the condition, and keeps only
// the chosen branch's diagnostics.
func (e *nativeConditional) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var vals [3]cty.Value
	return evalNative(ctx, []hclsyntax.Expression{e.TrueResult, e.FalseResult, e.Condition}, vals[:],
		func() (cty.Value, bool) { return choose(vals[0], vals[1], vals[2]) },
		func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
			cp := *e.ConditionalExpr
			cp.TrueResult, cp.FalseResult, cp.Condition = ops[0], ops[1], ops[2]
			v, d := cp.Value(ctx)
			return v, restoreExpressions(d, &cp, e.ConditionalExpr)
		})
}

// choose returns the branch a plain boolean condition selects when both
// branches are unmarked values of one primitive type (HCL then converts
// neither).
func choose(t, f, cond cty.Value) (cty.Value, bool) {
	if t.IsMarked() || f.IsMarked() || !plain(cond) || cond.Type() != cty.Bool || cond.IsNull() ||
		!t.Type().IsPrimitiveType() || !t.Type().Equals(f.Type()) {
		return cty.NilVal, false
	}
	if cond.True() {
		return t, true
	}
	return f, true
}

// nativeCall is a call of one of the fabric's functions (Functions).
type nativeCall struct {
	*hclsyntax.FunctionCallExpr
	// bounded is the function the evaluation context must give for the
	// name (the budget's wrapper); fn is the function it wraps, with its
	// parameters (cty copies them on every Params call).
	bounded, fn function.Function
	params      []function.Parameter
	varParam    *function.Parameter
	work        *budget
	// native computes the function here (natives), or is nil.
	native func(args []cty.Value) (cty.Value, bool)
}

// Value implements hcl.Expression. HCL checks the argument count before
// it evaluates any argument; a call it would refuse goes to it at once.
func (c *nativeCall) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	switch {
	case !c.resolves(ctx):
		return c.FunctionCallExpr.Value(ctx)
	case c.ExpandFinal:
		return c.expanded(ctx)
	case !c.arity(len(c.Args)):
		return c.FunctionCallExpr.Value(ctx)
	}
	vals := make([]cty.Value, len(c.Args))
	return evalNative(ctx, c.Args, vals, func() (cty.Value, bool) { return c.direct(vals) }, c.viaHCL(ctx))
}

// expanded evaluates a call whose last argument is expanded
// (merge([...]...)). HCL evaluates that argument first, and stops there
// when it fails or is not a known list, tuple or set. So this evaluates
// it first too, and hands the call to HCL with the value when it gave
// any diagnostic or is not a plain list, tuple or set. Else the other
// arguments follow in order, and the expansion's elements take the last
// one's place.
func (c *nativeCall) expanded(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	last := len(c.Args) - 1
	list, diags := valueOf(ctx, c.Args[last])
	spread := &evaluated{Expression: c.Args[last], val: list, diags: diags}
	viaHCL := func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
		return c.viaHCL(ctx)(append(ops, spread))
	}
	ty := list.Type()
	if len(diags) > 0 || !plain(list) || list.IsNull() || !(ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		return viaHCL(c.Args[:last:last])
	}
	vals := make([]cty.Value, last, last+list.LengthInt())
	return evalNative(ctx, c.Args[:last], vals, func() (cty.Value, bool) {
		args := vals
		for it := list.ElementIterator(); it.Next(); {
			_, e := it.Element()
			args = append(args, e)
		}
		if !c.arity(len(args)) {
			return cty.NilVal, false // HCL reports the count
		}
		return c.direct(args)
	}, viaHCL)
}

// viaHCL evaluates a copy of the call by HCL's own code with ops, the
// arguments as evaluated.
func (c *nativeCall) viaHCL(ctx *hcl.EvalContext) func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	return func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
		cp := *c.FunctionCallExpr
		cp.Args = ops
		v, d := cp.Value(ctx)
		return v, restoreExpressions(d, &cp, c.FunctionCallExpr)
	}
}

// arity reports whether the function takes that many arguments.
func (c *nativeCall) arity(args int) bool {
	n := len(c.params)
	return args == n || (args > n && c.varParam != nil)
}

// resolves reports whether ctx gives the name the function the call was
// made for, looking it up as HCL does.
func (c *nativeCall) resolves(ctx *hcl.EvalContext) bool {
	for ; ctx != nil; ctx = ctx.Parent() {
		if f, ok := ctx.Functions[c.Name]; ok {
			return f == c.bounded
		}
	}
	return false
}

// direct returns what the budget's wrapper returns for plain arguments
// of the parameters' own types (HCL converts nothing then): the
// function's result, counted. ok is false when the wrapper would give
// an unknown, a limit error or the function an error; the call then goes
// through HCL.
func (c *nativeCall) direct(vals []cty.Value) (cty.Value, bool) {
	for i, a := range vals {
		p := c.param(i)
		if !plain(a) || !(p.Type == cty.DynamicPseudoType || a.Type().Equals(p.Type)) ||
			(a.IsNull() && !p.AllowNull) {
			return cty.NilVal, false // the wrapper's call refuses a null the function does not take
		}
	}
	if c.work.over.Load() {
		return cty.NilVal, false
	}
	// The natives take no argument the precheck would refuse (format no
	// width of 100 or more, range no more than 1,024 numbers).
	v, ok := cty.NilVal, false
	if c.native != nil {
		v, ok = c.native(vals)
	}
	if !ok {
		if precheck(c.Name, vals, c.work.limits.StringBytes) != nil {
			return cty.NilVal, false
		}
		var err error
		if v, err = c.fn.Call(vals); err != nil {
			return cty.NilVal, false
		}
	}
	return v, c.work.chargeFits(v)
}

// param returns the parameter argument i is for.
func (c *nativeCall) param(i int) *function.Parameter {
	if i < len(c.params) {
		return &c.params[i]
	}
	return c.varParam
}

// chargeFits counts v unless that would cross a limit, and reports
// whether it did; a call that would cross one goes through HCL, which
// counts it and reports the error where it always did.
func (b *budget) chargeFits(v cty.Value) bool {
	var t tally
	t.add(v)
	values, bytes := b.values.Add(t.values), b.bytes.Add(t.bytes)
	if values > b.limits.Values || bytes > b.limits.StringBytes {
		b.values.Add(-t.values)
		b.bytes.Add(-t.bytes)
		return false
	}
	return true
}

// nativeExprs replaces the function calls, binary operators,
// conditionals, index expressions, traversals from a value and literal
// strings inside the bodies' attribute values with their native nodes.
// Scope traversals (host.value.os) stay as they are, because HCL finds
// an expression's variables by their node type; the native nodes and the
// budget's charges follow them directly instead (valueOf). fns is the
// evaluation context's function table (the budget's wrappers) and raw
// the functions they wrap.
func nativeExprs(bodies []hcl.Body, fns, raw map[string]function.Function, work *budget) {
	native := func(e hclsyntax.Expression) hclsyntax.Expression {
		switch x := e.(type) {
		case *hclsyntax.BinaryOpExpr:
			return newNativeBinary(x)
		case *hclsyntax.ConditionalExpr:
			return &nativeConditional{x}
		case *chargeCall:
			x.native = true
		case *hclsyntax.IndexExpr:
			return &nativeIndex{x}
		case *hclsyntax.RelativeTraversalExpr:
			return &nativeRelative{x}
		case *hclsyntax.TemplateExpr:
			if v, ok := literalTemplate(x); ok {
				return &nativeLiteral{TemplateExpr: x, val: v}
			}
		case *hclsyntax.FunctionCallExpr:
			if f, ok := raw[x.Name]; ok && !decodesExpressions(f) {
				return &nativeCall{FunctionCallExpr: x, bounded: fns[x.Name], fn: f,
					params: f.Params(), varParam: f.VarParam(), work: work, native: natives[x.Name]}
			}
		}
		return e
	}
	rewriteBodies(bodies, native)
}

// decodesExpressions reports whether a parameter of f takes an
// expression rather than its value (try and can): HCL hands such an
// argument over unevaluated, so its call must stay HCL's.
func decodesExpressions(f function.Function) bool {
	params := f.Params()
	if vp := f.VarParam(); vp != nil {
		params = append(params, *vp)
	}
	for _, p := range params {
		if customdecode.CustomExpressionDecoderForType(p.Type) != nil {
			return true
		}
	}
	return false
}

// Traversals and indexes. HCL follows each step of host.value.os through
// a copy of the step on the heap and a helper that handles nulls,
// unknowns, marks and conversions; for a known, unmarked object, list or
// map and a key of the collection's own key type, the step is the cty
// lookup itself.

// valueOf evaluates e as e.Value does, following a scope traversal
// directly when every step is plain (traverse).
func valueOf(ctx *hcl.EvalContext, e hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	if t, ok := e.(*hclsyntax.ScopeTraversalExpr); ok {
		if v, ok := traverse(ctx, t.Traversal); ok {
			return v, nil
		}
	}
	return e.Value(ctx)
}

// traverse follows an absolute traversal as hcl.Traversal.TraverseAbs
// does: the root from the innermost context that has it, then each step.
func traverse(ctx *hcl.EvalContext, t hcl.Traversal) (cty.Value, bool) {
	root, ok := t[0].(hcl.TraverseRoot)
	if !ok {
		return cty.NilVal, false
	}
	for c := ctx; c != nil; c = c.Parent() {
		if v, found := c.Variables[root.Name]; found {
			return steps(v, t[1:])
		}
	}
	return cty.NilVal, false
}

// steps follows relative steps (.name and [key] with a literal key) as
// hcl.Traversal.TraverseRel does; ok is false at the first step that is
// not plain.
func steps(v cty.Value, t hcl.Traversal) (cty.Value, bool) {
	for _, step := range t {
		var ok bool
		switch s := step.(type) {
		case hcl.TraverseAttr:
			v, ok = getAttr(v, s.Name)
		case hcl.TraverseIndex:
			v, ok = index(v, s.Key)
		}
		if !ok {
			return cty.NilVal, false
		}
	}
	return v, true
}

// getAttr looks name up in obj as hcl.GetAttr does, when obj is a known,
// unmarked, non-null object that has it or map that holds it; ok is
// false for anything else.
func getAttr(obj cty.Value, name string) (cty.Value, bool) {
	if !plain(obj) || obj.IsNull() {
		return cty.NilVal, false
	}
	switch ty := obj.Type(); {
	case ty.IsObjectType() && ty.HasAttribute(name):
		return obj.GetAttr(name), true
	case ty.IsMapType():
		return index(obj, cty.StringVal(name))
	}
	return cty.NilVal, false
}

// index looks key up in coll as hcl.Index does, when both are known,
// unmarked and not null, key is of the collection's key type without
// conversion, and the element exists; ok is false for anything else.
func index(coll, key cty.Value) (cty.Value, bool) {
	if !plain(coll) || !plain(key) || coll.IsNull() || key.IsNull() {
		return cty.NilVal, false
	}
	ty := coll.Type()
	switch {
	case ty.IsObjectType() && key.Type() == cty.String:
		return getAttr(coll, key.AsString())
	case (ty.IsMapType() && key.Type() == cty.String) ||
		((ty.IsListType() || ty.IsTupleType()) && key.Type() == cty.Number):
		if has := coll.HasIndex(key); has.IsKnown() && !has.IsMarked() && has.True() {
			return coll.Index(key), true
		}
	}
	return cty.NilVal, false
}

// nativeLiteral is a quoted string without interpolations ("%s:roce%d",
// "25G"): its value, computed once by HCL's own code, is returned for
// every evaluation. HCL would build it again each time through a buffer,
// a Unicode normalisation and a refinement: the format strings inside a
// for expression over 130,000 hosts were a tenth of what loading a
// large fabric allocated.
type nativeLiteral struct {
	*hclsyntax.TemplateExpr
	val cty.Value
}

// Value implements hcl.Expression.
func (e *nativeLiteral) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) { return e.val, nil }

// literalTemplate returns the value of a template made of literal parts
// only, when HCL gives it without a diagnostic (it always does: a literal
// part is a known string).
func literalTemplate(t *hclsyntax.TemplateExpr) (cty.Value, bool) {
	for _, p := range t.Parts {
		if _, ok := p.(*hclsyntax.LiteralValueExpr); !ok {
			return cty.NilVal, false
		}
	}
	v, diags := t.Value(nil)
	return v, len(diags) == 0 && v.IsKnown() && !v.IsMarked()
}

// nativeIndex is an index expression: coll[key].
type nativeIndex struct {
	*hclsyntax.IndexExpr
}

// Value implements hcl.Expression.
func (e *nativeIndex) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var vals [2]cty.Value
	return evalNative(ctx, []hclsyntax.Expression{e.Collection, e.Key}, vals[:],
		func() (cty.Value, bool) { return index(vals[0], vals[1]) },
		func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
			cp := *e.IndexExpr
			cp.Collection, cp.Key = ops[0], ops[1]
			v, d := cp.Value(ctx)
			return v, restoreExpressions(d, &cp, e.IndexExpr)
		})
}

// nativeRelative is a traversal from a value: local.leaves[name].pod.
type nativeRelative struct {
	*hclsyntax.RelativeTraversalExpr
}

// Value implements hcl.Expression.
func (e *nativeRelative) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var vals [1]cty.Value
	return evalNative(ctx, []hclsyntax.Expression{e.Source}, vals[:],
		func() (cty.Value, bool) { return steps(vals[0], e.Traversal) },
		func(ops []hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
			cp := *e.RelativeTraversalExpr
			cp.Source = ops[0]
			v, d := cp.Value(ctx)
			return v, restoreExpressions(d, &cp, e.RelativeTraversalExpr)
		})
}
