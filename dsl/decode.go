package dsl

import (
	"math"
	"math/big"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/fabricc/fabricc/internal/cores"
)

// The fast decoder. gohcl.DecodeBody over dynblock.Expand is the
// reference: it handles every case and words every error. It also
// reflects over the target struct for each block, builds a schema per
// block and wraps every attribute of every dynamic block instance; on a
// fabric of 130,000 hosts that was most of the time `validate` took.
//
// decodeFast walks the parsed bodies itself with a plan per struct type
// made once, expands dynamic blocks as dynblock does (the same iteration
// variables, labels, definition and label ranges) and decodes the
// instances of a large dynamic block on every core. It handles only what
// decodes cleanly: at the first thing that would be a diagnostic (an
// unknown attribute or block, a missing required one, a value of another
// type, a failed expression, a limit crossed) it gives up, and Load runs
// the reference decoder from the start, so every error is reported
// exactly as before. A fabric that decodes gives the same Config either
// way (TestFastDecodeSame).

// plan is how one struct type decodes, from its hcl tags (the rules of
// gohcl).
type plan struct {
	labels      []int // fields of the labels, in order
	labelRanges []int // their label_range fields, -1 for none
	defRange    int   // the def_range field, -1 for none
	attrs       map[string]*attrPlan
	blocks      map[string]*blockPlan
	required    []string
}

// attrPlan is how one attribute decodes.
type attrPlan struct {
	field      int
	valueRange int // attr_value_range field, -1 for none
	kind       valueKind
}

// blockPlan is how blocks of one type decode into a field.
type blockPlan struct {
	field      int
	slice, ptr bool
	elem       reflect.Type
}

// valueKind selects a conversion without reflection for the common field
// types; kindOther converts as gohcl does.
type valueKind int

// Value kinds.
const (
	kindOther valueKind = iota
	kindString
	kindStringPtr
	kindInt
	kindIntPtr
	kindBoolPtr
	kindFloat
	kindInts
	kindStrings
)

var (
	plansMu sync.Mutex
	plans   = map[reflect.Type]*plan{}
)

// planFor returns the plan of struct type t.
func planFor(t reflect.Type) *plan {
	plansMu.Lock()
	defer plansMu.Unlock()
	if p, ok := plans[t]; ok {
		return p
	}
	p := &plan{defRange: -1, attrs: map[string]*attrPlan{}, blocks: map[string]*blockPlan{}}
	labelRange := map[string]int{}
	valueRange := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		tag, ok := t.Field(i).Tag.Lookup("hcl")
		if !ok {
			continue
		}
		name, kind, _ := strings.Cut(tag, ",")
		ft := t.Field(i).Type
		switch kind {
		case "label":
			p.labels = append(p.labels, i)
		case "label_range":
			labelRange[name] = i
		case "def_range":
			p.defRange = i
		case "attr_value_range":
			valueRange[name] = i
		case "block":
			bp := &blockPlan{field: i, elem: ft}
			if ft.Kind() == reflect.Slice {
				bp.slice, bp.elem = true, ft.Elem()
			}
			if bp.elem.Kind() == reflect.Pointer {
				bp.ptr, bp.elem = true, bp.elem.Elem()
			}
			p.blocks[name] = bp
		case "", "optional":
			p.attrs[name] = &attrPlan{field: i, valueRange: -1, kind: kindOf(ft)}
			if kind == "" {
				p.required = append(p.required, name)
			}
		}
	}
	for _, i := range p.labels {
		r, ok := labelRange[strings.Split(t.Field(i).Tag.Get("hcl"), ",")[0]]
		if !ok {
			r = -1
		}
		p.labelRanges = append(p.labelRanges, r)
	}
	for name, i := range valueRange {
		if a := p.attrs[name]; a != nil {
			a.valueRange = i
		}
	}
	plans[t] = p
	return p
}

// kindOf picks the conversion of a field type.
func kindOf(t reflect.Type) valueKind {
	switch {
	case t.Kind() == reflect.String:
		return kindString
	case t.Kind() == reflect.Int:
		return kindInt
	case t.Kind() == reflect.Float64:
		return kindFloat
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.String:
		return kindStringPtr
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Int:
		return kindIntPtr
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Bool:
		return kindBoolPtr
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Int:
		return kindInts
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return kindStrings
	}
	return kindOther
}

// fastDecoder holds one decode's state; failed is set by the first
// instance that cannot be decoded cleanly, on any goroutine.
type fastDecoder struct {
	top    *hcl.EvalContext
	work   *budget
	failed atomic.Bool
	// hoistables caches hoistable per content attribute: a nested
	// dynamic block is expanded once per enclosing instance.
	hoistables sync.Map // *hclsyntax.Attribute -> hoisted
	// ranges holds one copy of each source range the decoded blocks
	// point at, by the syntax node it comes from (rangeOf): every
	// instance of a dynamic block shares those of its content.
	ranges sync.Map // *hclsyntax.Attribute or *hclsyntax.Block -> *hcl.Range
	// labels holds the label ranges of each block, the same way: a
	// static block's own, or those of a dynamic block's labels.
	labels sync.Map // *hclsyntax.Block -> []Range
}

// rangeOf returns the shared copy of r, the range of the syntax node
// key: an attribute's expression or a block's definition.
func (d *fastDecoder) rangeOf(key any, r hcl.Range) Range {
	if p, ok := d.ranges.Load(key); ok {
		return Range{p.(*hcl.Range)}
	}
	c := r // escapes only here, not on every call
	p, _ := d.ranges.LoadOrStore(key, &c)
	return Range{p.(*hcl.Range)}
}

// labelRanges returns the shared copies of the label ranges of blk,
// which ranges gives the first time.
func (d *fastDecoder) labelRanges(blk *hclsyntax.Block, ranges func() []hcl.Range) []Range {
	if rs, ok := d.labels.Load(blk); ok {
		return rs.([]Range)
	}
	rs := ranges()
	shared := make([]Range, len(rs))
	for i, r := range rs {
		shared[i] = RangeOf(r)
	}
	got, _ := d.labels.LoadOrStore(blk, shared)
	return got.([]Range)
}

// hoisted is what hoistable found for one attribute.
type hoisted struct {
	expr hclsyntax.Expression
	ok   bool
}

// iteration is the chain of dynamic block iterators in scope, as
// dynblock keeps it: each instance sees its own and every enclosing one.
type iteration struct {
	name  string
	obj   cty.Value // the iterator's value: {key, value}
	outer *iteration
	ctx   *hcl.EvalContext
}

// newIteration returns the iteration of one instance with its evaluation
// context: a child of the top context holding every iterator in scope.
func newIteration(top *hcl.EvalContext, outer *iteration, name string, key, value cty.Value) *iteration {
	it := &iteration{name: name, outer: outer, obj: iteratorValue(key, value)}
	it.ctx = top.NewChild()
	it.ctx.Variables = map[string]cty.Value{}
	for c := it; c != nil; c = c.outer { // inner iterators shadow outer ones
		if _, shadowed := it.ctx.Variables[c.name]; !shadowed {
			it.ctx.Variables[c.name] = c.obj
		}
	}
	return it
}

// advance returns the iteration of the next instance of a dynamic block
// after it (nil for the first): it keeps the context, whose other
// iterators (the outer blocks') are the same for every instance of the
// block, and replaces its own. A range of instances is decoded one after
// the other on one goroutine, and nothing keeps an instance's context
// once it is decoded, so one context and its map serve them all.
func (it *iteration) advance(top *hcl.EvalContext, outer *iteration, name string, key, value cty.Value) *iteration {
	if it == nil {
		return newIteration(top, outer, name, key, value)
	}
	it.obj = iteratorValue(key, value)
	it.ctx.Variables[it.name] = it.obj
	return it
}

// iteratorValue is what a dynamic block's iterator holds for one
// instance: {key, value}, as dynblock makes it.
func iteratorValue(key, value cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"key": key, "value": value})
}

// context is where the expressions of a body inside it are evaluated.
func (d *fastDecoder) context(it *iteration) *hcl.EvalContext {
	if it == nil {
		return d.top
	}
	return it.ctx
}

// decodeFast decodes the fabric blocks of each file body (variable and
// locals blocks skipped); ok is false when the reference decoder must
// run instead.
func decodeFast(bodies []hcl.Body, ctx *hcl.EvalContext, work *budget) ([]fileBody, bool) {
	d := &fastDecoder{top: ctx, work: work}
	out := make([]fileBody, len(bodies))
	for i, b := range bodies {
		sb, ok := b.(*hclsyntax.Body)
		if !ok {
			return nil, false
		}
		v := reflect.ValueOf(&out[i]).Elem()
		if !d.body(sb, nil, planFor(v.Type()), v, true, nil) || d.failed.Load() {
			return nil, false
		}
	}
	return out, true
}

// body decodes b into the struct v by p; top skips the variable and
// locals blocks of a file.
func (d *fastDecoder) body(b *hclsyntax.Body, it *iteration, p *plan, v reflect.Value, top bool, hoisted map[string]cty.Value) bool {
	ctx := d.context(it)
	for name, a := range b.Attributes {
		ap := p.attrs[name]
		if ap == nil {
			return false
		}
		val, ok := hoisted[name]
		if ok {
			ok = d.reuse(a, val)
		} else {
			val, ok = d.evaluate(a, ctx)
		}
		if !ok || !d.attribute(a, ap, val, v) {
			return false
		}
	}
	for _, name := range p.required {
		if b.Attributes[name] == nil {
			return false
		}
	}
	found := blocksFound{}
	for _, blk := range b.Blocks {
		if top && (blk.Type == "variable" || blk.Type == "locals") {
			continue
		}
		var ok bool
		if blk.Type == "dynamic" {
			ok = d.dynamic(blk, it, p, found)
		} else {
			ok = d.static(blk, it, p, found)
		}
		if !ok {
			return false
		}
	}
	for typ, bp := range p.blocks {
		if !assign(v.Field(bp.field), bp, found[typ]) {
			return false
		}
	}
	return true
}

// blocksFound are a body's decoded blocks by type, in source order.
type blocksFound map[string]*blocksOfType

// blocksOfType are the decoded blocks of one type.
type blocksOfType struct {
	vals []reflect.Value
	// whole is a slice whose elements are vals, when they all come from
	// one dynamic block: assign takes it as it is instead of copying.
	whole reflect.Value
}

// add appends decoded blocks of type typ; whole is the slice holding
// exactly them, or the zero Value.
func (f blocksFound) add(typ string, whole reflect.Value, vals ...reflect.Value) {
	b := f[typ]
	if b == nil {
		b = &blocksOfType{whole: whole}
		f[typ] = b
	} else {
		b.whole = reflect.Value{}
	}
	b.vals = append(b.vals, vals...)
}

// assign stores the decoded blocks of one type in field f, as gohcl does.
func assign(f reflect.Value, bp *blockPlan, found *blocksOfType) bool {
	var vals []reflect.Value
	if found != nil {
		vals = found.vals
	}
	switch {
	case bp.slice:
		if len(vals) == 0 {
			return true
		}
		if found.whole.IsValid() && !bp.ptr && found.whole.Type().AssignableTo(f.Type()) {
			f.Set(found.whole)
			return true
		}
		s := reflect.MakeSlice(f.Type(), len(vals), len(vals))
		for i, x := range vals {
			if bp.ptr {
				s.Index(i).Set(x.Addr())
			} else {
				s.Index(i).Set(x)
			}
		}
		f.Set(s)
	case len(vals) > 1:
		return false // "Duplicate block"
	case len(vals) == 0:
		return bp.ptr // a required block is missing
	case bp.ptr:
		f.Set(vals[0].Addr())
	default:
		f.Set(vals[0])
	}
	return true
}

// static decodes a block written out in the source.
func (d *fastDecoder) static(blk *hclsyntax.Block, it *iteration, p *plan, found blocksFound) bool {
	bp := p.blocks[blk.Type]
	if bp == nil {
		return false
	}
	ep := planFor(bp.elem)
	if len(blk.Labels) != len(ep.labels) {
		return false
	}
	v := reflect.New(bp.elem).Elem()
	if !d.body(blk.Body, it, ep, v, false, nil) {
		return false
	}
	setHeader(v, ep, blk.Labels, d.labelRanges(blk, func() []hcl.Range { return blk.LabelRanges }), d.rangeOf(blk, blk.DefRange()))
	found.add(blk.Type, reflect.Value{}, v)
	return true
}

// setHeader sets the labels, their ranges and the definition range.
func setHeader(v reflect.Value, p *plan, labels []string, ranges []Range, def Range) {
	for i, f := range p.labels {
		v.Field(f).SetString(labels[i])
		if r := p.labelRanges[i]; r >= 0 {
			setRange(v.Field(r), ranges[i])
		}
	}
	if p.defRange >= 0 {
		setRange(v.Field(p.defRange), def)
	}
}

// setRange sets an addressable Range field in place.
func setRange(f reflect.Value, r Range) {
	*f.Addr().Interface().(*Range) = r
}

// dynamicSpec is a dynamic block's header, read once.
type dynamicSpec struct {
	bp       *blockPlan
	ep       *plan
	iterator string
	labels   []hcl.Expression
	content  *hclsyntax.Body
	defRange Range
	// labelRanges are the ranges of the labels' expressions.
	labelRanges []Range
	// hoisted are the content's attribute values that do not depend on
	// this block's iterator, evaluated once for all its instances.
	hoisted map[string]cty.Value
}

// dynamic expands a dynamic block as dynblock does and decodes every
// instance, on every core when there are many.
func (d *fastDecoder) dynamic(blk *hclsyntax.Block, it *iteration, p *plan, found blocksFound) bool {
	spec, each, ok := d.readDynamic(blk, it, p)
	if !ok {
		return false
	}
	if spec.hoisted, ok = d.hoist(spec, it); !ok {
		return false
	}
	type pair struct{ key, value cty.Value }
	items := make([]pair, 0, each.LengthInt())
	for iter := each.ElementIterator(); iter.Next(); {
		k, v := iter.Element()
		items = append(items, pair{k, v})
	}
	vals := make([]reflect.Value, len(items))
	// Blocks held by value are decoded in place, in one slice.
	var whole reflect.Value
	if !spec.bp.ptr {
		whole = reflect.MakeSlice(reflect.SliceOf(spec.bp.elem), len(items), len(items))
	}
	decode := func(lo, hi int) {
		var next *iteration
		for i := lo; i < hi && !d.failed.Load(); i++ {
			v := reflect.Value{}
			if whole.IsValid() {
				v = whole.Index(i)
			} else {
				v = reflect.New(spec.bp.elem).Elem()
			}
			key, value := items[i].key, items[i].value
			if !whollyKnown(key) || !whollyKnown(value) {
				d.failed.Store(true)
				return
			}
			next = next.advance(d.top, it, spec.iterator, key, value)
			if !d.instance(spec, next, v) {
				d.failed.Store(true)
				return
			}
			vals[i] = v
		}
	}
	d.parallel(len(items), it == nil, decode)
	if d.failed.Load() {
		return false
	}
	found.add(blk.Labels[0], whole, vals...)
	return true
}

// parallel runs decode over [0, n) in chunks on every core when
// wide is set and n is large, else in one call.
func (d *fastDecoder) parallel(n int, wide bool, decode func(lo, hi int)) {
	const chunk = 256
	if !wide || runtime.GOMAXPROCS(0) < 2 || n < 2*chunk || !d.work.parallel.CompareAndSwap(false, true) {
		decode(0, n)
		return
	}
	defer d.work.parallel.Store(false)
	cores.Range(n, chunk, decode)
}

// readDynamic reads a dynamic block's iterator, for_each, labels and
// content, refusing anything dynblock would report.
func (d *fastDecoder) readDynamic(blk *hclsyntax.Block, it *iteration, p *plan) (*dynamicSpec, cty.Value, bool) {
	if len(blk.Labels) != 1 {
		return nil, cty.NilVal, false
	}
	bp := p.blocks[blk.Labels[0]]
	if bp == nil {
		return nil, cty.NilVal, false
	}
	spec := &dynamicSpec{bp: bp, ep: planFor(bp.elem), iterator: blk.Labels[0], defRange: d.rangeOf(blk, blk.DefRange())}
	body := blk.Body
	for name := range body.Attributes {
		if name != "for_each" && name != "iterator" && name != "labels" {
			return nil, cty.NilVal, false
		}
	}
	if len(body.Blocks) != 1 || body.Blocks[0].Type != "content" || len(body.Blocks[0].Labels) != 0 {
		return nil, cty.NilVal, false
	}
	spec.content = body.Blocks[0].Body
	if a := body.Attributes["iterator"]; a != nil {
		tr, diags := hcl.AbsTraversalForExpr(a.Expr)
		if diags.HasErrors() || len(tr) != 1 {
			return nil, cty.NilVal, false
		}
		spec.iterator = tr.RootName()
	}
	if a := body.Attributes["labels"]; a != nil {
		exprs, diags := hcl.ExprList(a.Expr)
		if diags.HasErrors() {
			return nil, cty.NilVal, false
		}
		spec.labels = exprs
		spec.labelRanges = d.labelRanges(blk, func() []hcl.Range {
			ranges := make([]hcl.Range, len(exprs))
			for i, e := range exprs {
				ranges[i] = e.Range()
			}
			return ranges
		})
	}
	if len(spec.labels) != len(spec.ep.labels) {
		return nil, cty.NilVal, false
	}
	a := body.Attributes["for_each"]
	if a == nil {
		return nil, cty.NilVal, false
	}
	each, diags := a.Expr.Value(d.context(it))
	// Whether every element is known is asked per instance, on the core
	// that decodes it (dynamic): for the whole of a large for_each at
	// once that was half a second on one core.
	if len(diags) > 0 || !each.IsKnown() || each.IsNull() || each.IsMarked() || !each.CanIterateElements() {
		return nil, cty.NilVal, false
	}
	return spec, each, true
}

// instance decodes one instance of a dynamic block into v.
func (d *fastDecoder) instance(spec *dynamicSpec, it *iteration, v reflect.Value) bool {
	labels := make([]string, len(spec.labels))
	for i, e := range spec.labels {
		label, diags := e.Value(it.ctx)
		if len(diags) > 0 {
			return false
		}
		label, err := convert.Convert(label, cty.String)
		if err != nil || label.IsNull() || !label.IsKnown() || label.IsMarked() {
			return false
		}
		labels[i] = label.AsString()
	}
	if !d.body(spec.content, it, spec.ep, v, false, spec.hoisted) {
		return false
	}
	setHeader(v, spec.ep, labels, spec.labelRanges, spec.defRange)
	return true
}

// evaluate evaluates one attribute; ok is false for a value the
// reference decoder must report on.
func (d *fastDecoder) evaluate(a *hclsyntax.Attribute, ctx *hcl.EvalContext) (cty.Value, bool) {
	val, diags := a.Expr.Value(ctx)
	return val, decodable(val, diags)
}

// whollyKnown is cty's IsWhollyKnown, with an object's attributes
// walked in map order: cty's element iterator sorts an object's
// attribute names on every call, and every element of a large for_each
// is asked (TestWhollyKnownSame).
func whollyKnown(v cty.Value) bool {
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return false
	case v.IsNull() || !v.CanIterateElements():
		return true
	case v.Type().IsObjectType():
		for name := range v.Type().AttributeTypes() {
			if !whollyKnown(v.GetAttr(name)) {
				return false
			}
		}
		return true
	}
	for it := v.ElementIterator(); it.Next(); {
		if _, e := it.Element(); !whollyKnown(e) {
			return false
		}
	}
	return true
}

// decodable reports whether an evaluation gave a value the fast decoder
// takes: no diagnostic, nothing unknown or marked in it.
func decodable(val cty.Value, diags hcl.Diagnostics) bool {
	return len(diags) == 0 && whollyKnown(val) && !val.IsMarked()
}

// attribute stores one attribute's value in its field.
func (d *fastDecoder) attribute(a *hclsyntax.Attribute, ap *attrPlan, val cty.Value, v reflect.Value) bool {
	if ap.valueRange >= 0 {
		setRange(v.Field(ap.valueRange), d.rangeOf(a, a.Expr.Range()))
	}
	f := v.Field(ap.field)
	if set(f, ap.kind, val) {
		return true
	}
	ty, err := gocty.ImpliedType(f.Addr().Interface())
	if err != nil {
		return false
	}
	conv, err := convert.Convert(val, ty)
	if err != nil {
		return false
	}
	return gocty.FromCtyValue(conv, f.Addr().Interface()) == nil
}

// set converts the common cases without reflection: a value that already
// has the field's type and converts without loss. It reports false for
// anything else (null, other types, empty lists), which then converts as
// gohcl converts.
func set(f reflect.Value, kind valueKind, val cty.Value) bool {
	if val.IsNull() {
		return false
	}
	switch kind {
	case kindString:
		if val.Type() == cty.String {
			f.SetString(val.AsString())
			return true
		}
	case kindStringPtr:
		if val.Type() == cty.String {
			s := val.AsString()
			f.Set(reflect.ValueOf(&s))
			return true
		}
	case kindInt:
		if n, ok := whole(val); ok {
			f.SetInt(int64(n))
			return true
		}
	case kindIntPtr:
		if n, ok := whole(val); ok {
			f.Set(reflect.ValueOf(&n))
			return true
		}
	case kindBoolPtr:
		if val.Type() == cty.Bool {
			b := val.True()
			f.Set(reflect.ValueOf(&b))
			return true
		}
	case kindFloat:
		if val.Type() == cty.Number {
			x, _ := val.AsBigFloat().Float64()
			if !math.IsInf(x, 0) {
				f.SetFloat(x)
				return true
			}
		}
	case kindInts:
		return setInts(f, val)
	case kindStrings:
		return setStrings(f, val)
	}
	return false
}

// whole returns a number that is a whole int.
func whole(val cty.Value) (int, bool) {
	if val.Type() != cty.Number {
		return 0, false
	}
	n, acc := val.AsBigFloat().Int64()
	if acc != big.Exact || n < math.MinInt || n > math.MaxInt {
		return 0, false
	}
	return int(n), true
}

// ordered reports whether val is a non-empty list or tuple, whose
// elements convert in order.
func ordered(val cty.Value) bool {
	ty := val.Type()
	return (ty.IsListType() || ty.IsTupleType()) && val.LengthInt() > 0
}

// setInts sets a []int from a list or tuple of whole numbers.
func setInts(f reflect.Value, val cty.Value) bool {
	if !ordered(val) {
		return false
	}
	out := make([]int, 0, val.LengthInt())
	for it := val.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			return false
		}
		n, ok := whole(e)
		if !ok {
			return false
		}
		out = append(out, n)
	}
	f.Set(reflect.ValueOf(out))
	return true
}

// setStrings sets a []string from a list or tuple of strings.
func setStrings(f reflect.Value, val cty.Value) bool {
	if !ordered(val) {
		return false
	}
	out := make([]string, 0, val.LengthInt())
	for it := val.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || e.Type() != cty.String {
			return false
		}
		out = append(out, e.AsString())
	}
	f.Set(reflect.ValueOf(out))
	return true
}

// Hoisting. In a dynamic block, an attribute whose value does not depend
// on the block's own iterator has the same value in every instance:
// `speed = "25G"` or `mtu = leaf.value.mtu` in the 48 ports of a leaf.
// It is evaluated once per expansion of the block and each instance
// reuses the value. The budget still counts it once per instance, as if
// evaluated there: only expressions whose single charge is the one
// around the whole attribute are hoisted (no function call, template
// part or for expression inside, each of which charges on its own), so
// charging the value again per instance is exactly what evaluating it
// there would have charged.

// hoist evaluates the hoistable attributes of spec's content in the
// context around the block; ok is false when one of them fails, which
// every instance would report.
func (d *fastDecoder) hoist(spec *dynamicSpec, it *iteration) (map[string]cty.Value, bool) {
	var out map[string]cty.Value
	for name, a := range spec.content.Attributes {
		h, found := d.hoistables.Load(a)
		if !found {
			inner, ok := hoistable(a.Expr, spec.iterator)
			h, _ = d.hoistables.LoadOrStore(a, hoisted{inner, ok})
		}
		if !h.(hoisted).ok {
			continue
		}
		val, diags := h.(hoisted).expr.Value(d.context(it))
		if !decodable(val, diags) {
			return nil, false
		}
		if out == nil {
			out = map[string]cty.Value{}
		}
		out[name] = val
	}
	return out, true
}

// hoistable returns the expression of an attribute without its charge
// when the value cannot depend on iterator and nothing inside it charges.
func hoistable(e hclsyntax.Expression, iterator string) (hclsyntax.Expression, bool) {
	if c, ok := e.(*chargeCall); ok && c.weight == 1 {
		e = c.Args[0]
	}
	for _, tr := range e.Variables() {
		if tr.RootName() == iterator {
			return nil, false
		}
	}
	ok := true
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n.(type) {
		case *hclsyntax.FunctionCallExpr, *chargeCall, *nativeCall, *hclsyntax.ForExpr, *parallelFor, *hclsyntax.SplatExpr:
			ok = false
		}
		return nil
	})
	return e, ok
}

// reuse charges a hoisted value as the attribute's own evaluation would
// have: through its charge, unless it is a constant, which is not
// charged.
func (d *fastDecoder) reuse(a *hclsyntax.Attribute, val cty.Value) bool {
	c, ok := a.Expr.(*chargeCall)
	if !ok {
		return true
	}
	spent, err := d.work.chargeWeighted(val, c.weight)
	return !spent && err == nil
}
