package dsl

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/fabricc/fabricc/internal/cores"
)

// Evaluation limits. The language has functions (range, setproduct,
// join, format, ...), for expressions, templates, locals and dynamic
// blocks, and each of them can multiply what a short file asks for. The
// work of one Load is counted in values (list, set, map and object
// elements) and in string bytes; past either limit evaluation stops with
// an error at the expression that crossed it.
const (
	// MaxValues bounds the elements all expressions of a fabric produce
	// together: every function result, every for expression element and
	// every attribute value, each time it is evaluated (again for every
	// dynamic block instance).
	MaxValues = 2_000_000
	// MaxStringBytes bounds the string bytes they produce together.
	MaxStringBytes = 32 << 20
	// MaxListLength bounds one list a function builds from numbers
	// (range, setproduct), before it is built.
	MaxListLength = 10_000
	// MaxLocals bounds the locals of a fabric, and MaxLocalsDepth how
	// long a chain of locals referring to each other may be.
	MaxLocals      = 4096
	MaxLocalsDepth = 256
)

// Limits are the limits of one Load that grow with the fabric: values
// and text its expressions produce, and ports it declares.
type Limits struct {
	Values, StringBytes int64
	Ports               int
	// FileBytes bounds one .hcl or var file.
	FileBytes int64
	// Large is true for LargeLimits; the errors of the default limits
	// point at them.
	Large bool
}

// DefaultLimits keep a fabric from someone else cheap to refuse: an
// expression built to exhaust them is stopped within seconds and a few
// hundred MB. A fabric of a few thousand devices fits: the 64-switch,
// 2,048-device benchmark fabric produces 384,000 values, and a
// rail-optimised fabric of 576 switches, 1,536 hosts and 24,576 links
// written with dynamic blocks passes (at 1,000,000 values, 384 switches
// of it did not). Refusing nested dynamic blocks built to exhaust the
// values takes longer than the values grow (6 s at 1,000,000, 16-25 s
// at 2,000,000 and 3,000,000 on a busy 2-core machine), so the limit
// stays where both fit.
var DefaultLimits = Limits{Values: MaxValues, StringBytes: MaxStringBytes, Ports: MaxPorts, FileBytes: MaxFileBytes}

// LargeLimits (`--large`) fit the largest fabric fabricc is built for
// with room to spare: the 4,096-switch, 126,848-host benchmark fabric
// (bench/fabric) produces 24.6 million values and 71 MB of text and
// declares 206,592 ports. An expression built to exhaust them is
// refused only after about a minute and 2.5 GB (a for expression nested
// three deep over range(1000)), so they are for fabrics one trusts. A
// file may hold 128 MiB: the same fabric written out as plain blocks by
// a script, one file, is about 75 MB.
var LargeLimits = Limits{Values: 40_000_000, StringBytes: 256 << 20, Ports: 1 << 20, FileBytes: 128 << 20, Large: true}

// limitsOf are the limits opts selects.
func limitsOf(opts Options) Limits {
	if opts.Large {
		return LargeLimits
	}
	return DefaultLimits
}

// hint is what an error past a default limit adds.
func (l Limits) hint() string {
	if l.Large {
		return ""
	}
	return " (a fabric of tens of thousands of devices needs --large)"
}

// overWhat is the advice of an evaluation limit's error: under the
// default limits a large fabric crosses them by its size alone (a
// generated fabric of 1,400 switches and hosts with 16,000 links did at
// 1,000,000 values), so --large comes first; past the raised limits only
// a mistake is left to look for.
func (l Limits) overWhat(mistake string) string {
	if l.Large {
		return "Check for " + mistake
	}
	return "If the fabric is this large on purpose, give --large (docs/language.md, Strings and limits); otherwise check for " + mistake
}

// budget counts the work of one Load. Once a limit is crossed, the one
// expression that crossed it reports the error and every later charge
// yields an unknown value instead: evaluation then ends quickly (a for
// expression over an unknown collection does not iterate), and the
// follow-on "value is not yet known" errors are dropped like any others.
// The counters are atomic: the fast decoder evaluates the instances of a
// large dynamic block on several goroutines.
type budget struct {
	limits        Limits
	values, bytes atomic.Int64
	over          atomic.Bool
	// parallel is held while expressions are evaluated on several
	// goroutines (a split for expression, the instances of a dynamic
	// block): only its holder may save and reset the counters, and
	// evaluations inside it stay on their own goroutine.
	parallel atomic.Bool
}

// newBudget returns an empty budget under limits.
func newBudget(limits Limits) *budget { return &budget{limits: limits} }

// exceeded returns the error past a limit, or nil.
func (b *budget) exceeded() error {
	if b.values.Load() > b.limits.Values {
		return fmt.Errorf("the fabric's expressions together produce more than %d values, and this expression is where the count crossed the limit; it need not be wrong itself. %s", b.limits.Values, b.limits.overWhat("a range, for expression or dynamic block that multiplies more than meant"))
	}
	if b.bytes.Load() > b.limits.StringBytes {
		return fmt.Errorf("the fabric's expressions together produce more than %d bytes of text, and this expression is where the count crossed the limit; it need not be wrong itself. %s", b.limits.StringBytes, b.limits.overWhat("a template, join, format or replace that repeats more than meant"))
	}
	return nil
}

// charge adds the size of v to the budget and reports crossing a limit.
func (b *budget) charge(v cty.Value) error {
	c, ok := b.walkWide(v)
	if !ok {
		c.add(v)
	}
	b.values.Add(c.values)
	b.bytes.Add(c.bytes)
	err := b.exceeded()
	if err != nil {
		b.over.Store(true)
	}
	return err
}

// reset sets the counters back to a snapshot taken with save.
func (b *budget) reset(s tally) {
	b.values.Store(s.values)
	b.bytes.Store(s.bytes)
	b.over.Store(false)
}

// save returns the counters.
func (b *budget) save() tally {
	return tally{values: b.values.Load(), bytes: b.bytes.Load()}
}

// tally is a count of values and string bytes.
type tally struct {
	values, bytes int64
}

// add walks v, counting elements and string bytes. It walks all of v,
// which already exists in memory (its parts were charged as they were
// made), so the totals do not depend on the order of the walk: objects
// are walked in map order, because cty's element iterator sorts an
// object's attribute names on every call.
func (t *tally) add(v cty.Value) {
	if !v.IsKnown() || v.IsNull() {
		return
	}
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case ty == cty.String:
		t.bytes += int64(len(v.AsString()))
	case ty.IsObjectType():
		for name, at := range ty.AttributeTypes() {
			t.values++
			if adds(at) {
				t.add(v.GetAttr(name))
			}
		}
	case (ty.IsListType() || ty.IsMapType()) && !adds(ty.ElementType()):
		t.values += int64(v.LengthInt())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType():
		for it := v.ElementIterator(); it.Next(); {
			t.values++
			_, e := it.Element()
			t.add(e)
		}
	}
}

// wideMin is how many elements a value needs before charge walks them
// on every core. A large fabric's for_each is one value of hundreds of
// thousands of elements (190,000 host cables in the 4,096-switch
// benchmark fabric), and its walk took most of a second on one core.
const wideMin = 4096

// walkWide walks v on every core when v is wide and no split for
// expression or dynamic block holds the cores already.
func (b *budget) walkWide(v cty.Value) (tally, bool) {
	v, _ = v.Unmark()
	if !isWide(v) || !b.parallel.CompareAndSwap(false, true) {
		return tally{}, false
	}
	defer b.parallel.Store(false)
	elems := addingElements(v)
	var values, bytes atomic.Int64
	cores.Range(len(elems), 1024, func(lo, hi int) {
		var t tally
		for _, e := range elems[lo:hi] {
			t.add(e)
		}
		values.Add(t.values)
		bytes.Add(t.bytes)
	})
	// As add: one value per element, then what the elements add.
	return tally{values: int64(v.LengthInt()) + values.Load(), bytes: bytes.Load()}, true
}

// isWide reports whether walking the unmarked v on every core pays: it
// has wideMin or more elements, and they add more than their count
// (unlike a list of numbers).
func isWide(v cty.Value) bool {
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() || v.LengthInt() < wideMin {
		return false
	}
	ty := v.Type()
	return !(ty.IsListType() || ty.IsMapType()) || adds(ty.ElementType())
}

// addingElements lists the elements of the unmarked v that can add to a
// tally: an object's attributes in map order (cty's element iterator
// would sort their names), every element of a collection.
func addingElements(v cty.Value) []cty.Value {
	elems := make([]cty.Value, 0, v.LengthInt())
	if ty := v.Type(); ty.IsObjectType() {
		for name, at := range ty.AttributeTypes() {
			if adds(at) {
				elems = append(elems, v.GetAttr(name))
			}
		}
		return elems
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		elems = append(elems, e)
	}
	return elems
}

// adds reports whether a value of type ty can add to a tally beyond the
// one value its container counts for it: strings (their bytes) and
// collections and objects (their elements). A number or a bool adds
// nothing, so the walk need not fetch it.
func adds(ty cty.Type) bool {
	return ty == cty.String || !ty.IsPrimitiveType()
}

// chargeFuncName is the function the rewritten expressions call to
// count the values they produce; it returns its argument.
const chargeFuncName = "fabricc::charge"

// chargeFunc is the function behind chargeFuncName for b; weight > 1
// counts each element of a collection that many times more (see
// instancesFuncName).
func chargeFunc(b *budget, weight int) function.Function {
	return function.New(&function.Spec{
		Description: "Counts the size of a value against the fabric's evaluation limits and returns it.",
		Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true}},
		Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			spent, err := b.chargeWeighted(args[0], weight)
			switch {
			case spent:
				return cty.UnknownVal(args[0].Type()), nil
			case err != nil:
				return cty.DynamicVal, err
			}
			return args[0], nil
		},
	})
}

// chargeWeighted counts v as one charge of that weight does: each
// element of a collection weight times, and the error of a limit v
// crosses. Once the budget is spent it counts nothing and reports spent:
// the charge then yields an unknown value.
func (b *budget) chargeWeighted(v cty.Value, weight int) (spent bool, err error) {
	if b.over.Load() {
		return true, nil
	}
	if weight > 1 && v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
		b.values.Add(int64((weight - 1) * v.LengthInt()))
	}
	return false, b.charge(v)
}

// renameBudgetErrors gives the errors of the charge functions, which
// HCL reports as a failed call of a function the author never wrote, a
// summary of their own.
func renameBudgetErrors(diags hcl.Diagnostics) {
	quietPanics(diags)
	for _, d := range diags {
		for _, fn := range []string{chargeFuncName, instancesFuncName} {
			prefix := fmt.Sprintf("Call to function %q failed: ", fn)
			if strings.HasPrefix(d.Detail, prefix) {
				d.Summary = "Evaluation too large"
				d.Detail = strings.ToUpper(d.Detail[len(prefix):len(prefix)+1]) + d.Detail[len(prefix)+1:]
			}
		}
	}
}

// chargeCall is a call of the charge function (chargeFuncName or
// instancesFuncName) that counts its argument itself instead of going
// through cty's function call, which walks every argument to its last
// element for marks and checks types before and after: on a fabric of
// 130,000 devices that machinery cost more than the expressions it
// wrapped. It embeds the call, so it walks, ranges and reports its
// variables as the call does, and its values and diagnostics are the
// call's (renameBudgetErrors words them alike): TestChargeCallSame.
type chargeCall struct {
	*hclsyntax.FunctionCallExpr
	work   *budget
	weight int
	// native follows a scope traversal argument directly (valueOf);
	// nativeExprs sets it.
	native bool
}

// Value implements hcl.Expression as chargeFunc's call would.
func (c *chargeCall) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var v cty.Value
	var diags hcl.Diagnostics
	if c.native {
		v, diags = valueOf(ctx, c.Args[0])
	} else {
		v, diags = c.Args[0].Value(ctx)
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	spent, err := c.work.chargeWeighted(v, c.weight)
	if spent {
		return cty.UnknownVal(v.Type()), diags
	}
	if err != nil {
		detail := err.Error()
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Evaluation too large",
			Detail:      strings.ToUpper(detail[:1]) + detail[1:] + ".",
			Subject:     c.StartRange().Ptr(),
			Context:     c.Range().Ptr(),
			Expression:  c,
			EvalContext: ctx,
		})
	}
	return v, diags
}

// charged wraps e in a charge at e's place. A constant (literals only) is
// left as it is: its size is bounded by the file's, and its diagnostics
// keep pointing where they did.
func charged(e hclsyntax.Expression, work *budget) hclsyntax.Expression {
	return chargedAs(e, chargeFuncName, 1, work)
}

// chargedAs wraps e in a call of the charge function fn of that weight.
func chargedAs(e hclsyntax.Expression, fn string, weight int, work *budget) hclsyntax.Expression {
	if _, ok := e.(*chargeCall); ok || constant(e) {
		return e
	}
	r := e.Range()
	call := &hclsyntax.FunctionCallExpr{Name: fn, Args: []hclsyntax.Expression{e},
		NameRange: r, OpenParenRange: r, CloseParenRange: r}
	return &chargeCall{FunctionCallExpr: call, work: work, weight: weight}
}

// constant reports whether e holds no function call, reference, for
// expression or splat: its value is spelled out in the source.
func constant(e hclsyntax.Expression) bool {
	c := true
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n.(type) {
		case *hclsyntax.FunctionCallExpr, *hclsyntax.ForExpr, *hclsyntax.ScopeTraversalExpr,
			*hclsyntax.RelativeTraversalExpr, *hclsyntax.SplatExpr, *hclsyntax.IndexExpr:
			c = false
		}
		return nil
	})
	return c
}

// chargeBodies rewrites the bodies so that evaluating them counts against
// the budget: every attribute value, every for expression's collection
// and element, and every template part. A dynamic block's attributes are
// evaluated again for each instance, a nested for expression's inner
// collection once per outer element, so the count follows the real work.
// Variable blocks are left alone: their defaults are constants, evaluated
// without functions.
func chargeBodies(bodies []hcl.Body, work *budget) {
	for _, b := range bodies {
		sb, ok := b.(*hclsyntax.Body)
		if !ok {
			continue
		}
		chargeAttrs(sb, false, work)
		for _, blk := range sb.Blocks {
			if blk.Type != "variable" {
				chargeBody(blk, work)
			}
		}
	}
}

// chargeBody rewrites one block and the blocks inside it.
func chargeBody(blk *hclsyntax.Block, work *budget) {
	chargeAttrs(blk.Body, blk.Type == "dynamic", work)
	for _, inner := range blk.Body.Blocks {
		chargeBody(inner, work)
	}
}

// chargeAttrs rewrites the attributes of one body. In a dynamic block,
// iterator names a variable and labels must stay a literal list (the
// dynblock extension reads both statically), so only what is inside them
// is rewritten.
func chargeAttrs(body *hclsyntax.Body, dynamic bool, work *budget) {
	for name, a := range body.Attributes {
		switch {
		case dynamic && name == "for_each":
			a.Expr = chargedAs(a.Expr, instancesFuncName, blockWeight, work)
		case !(dynamic && (name == "iterator" || name == "labels")):
			a.Expr = charged(a.Expr, work)
		}
		chargeExpr(a.Expr, work)
	}
}

// instancesFuncName is the function a dynamic block's for_each is wrapped
// in: each element becomes a block, which weighs blockWeight values.
const instancesFuncName = "fabricc::instances"

// blockWeight is what one dynamic block instance counts for: decoding a
// block costs about as much as twenty values.
const blockWeight = 20

// chargeExpr rewrites the for expressions and templates inside e.
func chargeExpr(e hclsyntax.Expression, work *budget) {
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		switch x := n.(type) {
		case *hclsyntax.ForExpr:
			x.CollExpr = charged(x.CollExpr, work)
			x.ValExpr = charged(x.ValExpr, work)
			if x.KeyExpr != nil {
				x.KeyExpr = charged(x.KeyExpr, work)
			}
		case *hclsyntax.TemplateExpr:
			for i, p := range x.Parts {
				x.Parts[i] = charged(p, work)
			}
		}
		return nil
	})
}

// boundedFunctions wraps every function of fns (but try and can, which
// take expressions) so that a call first checks the arguments that would
// make a huge result (a range of a billion numbers, a join with a
// megabyte separator, a format width of a million) and then counts its
// result against b.
func boundedFunctions(fns map[string]function.Function, b *budget) map[string]function.Function {
	out := make(map[string]function.Function, len(fns)+1)
	for name, f := range fns {
		if name == "try" || name == "can" {
			out[name] = f
			continue
		}
		out[name] = bounded(name, f, b)
	}
	out[chargeFuncName] = chargeFunc(b, 1)
	out[instancesFuncName] = chargeFunc(b, blockWeight)
	return out
}

// bounded wraps one function.
//
// The wrapper's parameters accept marked values: cty checks every
// argument for marks, walking it to the last element, once per call of
// each function it goes through, and the wrapped function (which does
// check) already walks twice. A fabric has no marked values, so the third
// walk was pure cost (a tenth of loading a 130,000-device fabric).
func bounded(name string, f function.Function, b *budget) function.Function {
	params := f.Params()
	for i := range params {
		params[i].AllowMarked = true
	}
	varParam := f.VarParam()
	if varParam != nil {
		vp := *varParam
		vp.AllowMarked = true
		varParam = &vp
	}
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      params,
		VarParam:    varParam,
		// The wrapped function's Call checks the arguments and works out
		// the type again; doing it here too cost a twentieth of loading a
		// large fabric. Its errors (argument index included) reach HCL
		// unchanged through Impl.
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if b.over.Load() {
				return cty.UnknownVal(retType), nil
			}
			top := make([]cty.Value, len(args))
			for i, a := range args {
				top[i], _ = a.Unmark() // precheck reads top-level values only
			}
			if err := precheck(name, top, b.limits.StringBytes); err != nil {
				return cty.DynamicVal, err
			}
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			if err := b.charge(v); err != nil {
				return cty.DynamicVal, err
			}
			return v, nil
		},
	})
}

// formatWidth finds a width or precision of five digits or more in a
// format verb ("%100000d").
var formatWidth = regexp.MustCompile(`%[^A-Za-z%]*[0-9]{5}`)

// precheck refuses the arguments that would build a huge value before
// the function builds it. Arguments are known (the wrapper runs only then).
func precheck(name string, args []cty.Value, maxBytes int64) error {
	switch name {
	case "range":
		return checkRange(args)
	case "setproduct":
		n := 1
		for _, a := range args {
			if !a.IsKnown() || a.IsNull() {
				return nil
			}
			if n *= a.LengthInt(); n > MaxListLength {
				return fmt.Errorf("setproduct would make more than %d combinations; fabricc stops there", MaxListLength)
			}
		}
	case "format", "formatlist":
		if len(args) > 0 && args[0].Type() == cty.String && args[0].IsKnown() && formatWidth.MatchString(args[0].AsString()) {
			return fmt.Errorf("a format width or precision of 10000 or more is not supported; fabricc stops there")
		}
	case "join":
		if len(args) > 1 && args[0].IsKnown() && !args[0].IsNull() {
			n := 0
			for _, l := range args[1:] {
				if l.IsKnown() && !l.IsNull() {
					n += l.LengthInt()
				}
			}
			if int64(n)*int64(len(args[0].AsString())) > maxBytes {
				return fmt.Errorf("join would write more than %d bytes of separators; fabricc stops there", maxBytes)
			}
		}
	case "replace":
		if len(args) == 3 && args[0].IsKnown() && args[2].IsKnown() && !args[0].IsNull() && !args[2].IsNull() {
			n := int64(len(args[0].AsString())+1) * int64(len(args[2].AsString())+1)
			if args[1].IsKnown() && !args[1].IsNull() {
				if _, re := slashed(args[1].AsString()); re {
					n *= 2 // each $1 of the replacement repeats a match
				}
			}
			if n > maxBytes {
				return fmt.Errorf("replace could write more than %d bytes; fabricc stops there", maxBytes)
			}
		}
	case "indent":
		if len(args) > 0 && args[0].IsKnown() && !args[0].IsNull() {
			if n, _ := args[0].AsBigFloat().Int64(); n > 1000 {
				return fmt.Errorf("indent by %d spaces is not supported; fabricc stops at 1000", n)
			}
		}
	}
	return nil
}

// checkRange refuses a range() of more than maxRangeValues numbers
// before anything is built, with what to do instead: HCL's range (cty's,
// as Terraform's) makes at most 1024.
func checkRange(args []cty.Value) error {
	nums := make([]*big.Float, len(args))
	for i, a := range args {
		if !a.IsKnown() || a.IsNull() || a.Type() != cty.Number {
			return nil
		}
		nums[i] = a.AsBigFloat()
	}
	start, step := big.NewFloat(0), big.NewFloat(1)
	var end *big.Float
	switch len(nums) {
	case 1:
		end = nums[0]
	case 2:
		start, end = nums[0], nums[1]
	case 3:
		start, end, step = nums[0], nums[1], nums[2]
	default:
		return nil
	}
	if step.Sign() == 0 {
		return nil // the function itself refuses a zero step
	}
	span := new(big.Float).Sub(end, start)
	count := new(big.Float).Quo(span, step)
	if limit := big.NewFloat(maxRangeValues); count.Cmp(limit) > 0 {
		return fmt.Errorf("range makes at most %d numbers (HCL's limit, as in Terraform); for more, combine two: flatten([for a in range(N) : [for b in range(%d) : a * %d + b]])",
			maxRangeValues, maxRangeValues, maxRangeValues)
	}
	return nil
}

// panicText is how cty words a panic it caught in a function, before the
// panic's message and a Go stack trace.
const panicText = "panic in function implementation: "

// quietPanics takes the Go stack trace out of an error whose function
// panicked inside cty (cty.Value.Modulo on an infinite number: 1/0 % 1),
// which otherwise printed machine paths and goroutine dumps to the user,
// and says what the operation is known to fail on. Called with the
// budget's renaming, on every evaluation's diagnostics.
func quietPanics(diags hcl.Diagnostics) {
	for _, d := range diags {
		i := strings.Index(d.Detail, panicText)
		if i < 0 {
			continue
		}
		msg, _, _ := strings.Cut(d.Detail[i+len(panicText):], "\n")
		why := "it fails this way on an infinite or not-a-number value, which a division by zero gives"
		if b, ok := d.Expression.(*hclsyntax.BinaryOpExpr); ok && b.Op == hclsyntax.OpModulo {
			why = "its % fails this way on an infinite number, which a division by zero gives"
		}
		d.Detail = d.Detail[:i] + "the expression library failed on it (" + strings.TrimSpace(msg) + "); " + why + "."
	}
}
