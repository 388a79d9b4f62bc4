package dsl

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestParallelForSame evaluates for expressions over large collections
// split across goroutines and in HCL's one pass, and requires the same
// value, the same diagnostics and the same budget count.
func TestParallelForSame(t *testing.T) {
	big := map[string]cty.Value{}
	var list []cty.Value
	for i := 0; i < 3000; i++ {
		big[fmt.Sprintf("h%05d", i)] = cty.ObjectVal(map[string]cty.Value{
			"n": cty.NumberIntVal(int64(i)), "name": cty.StringVal(fmt.Sprintf("host-%d", i%1500)),
		})
		list = append(list, cty.NumberIntVal(int64(i)))
	}
	vars := map[string]cty.Value{
		"hosts": cty.ObjectVal(big),
		"nums":  cty.ListVal(list),
		"tup":   cty.TupleVal(list),
		"names": cty.MapValEmpty(cty.String),
	}
	cases := []string{
		`[for k, h in hosts : format("%s=%d", k, h.n)]`,
		`{for k, h in hosts : k => h.n * 2 if h.n % 3 != 0}`,
		`merge([for k, h in hosts : { for n in range(2) : format("%s:%d", k, n) => h.name }]...)`,
		`[for n in nums : n + 1]`,
		`[for n in tup : n if n > 2990]`,
		`[for i, n in nums : i * n]`,                     // index named: one pass
		`{for k, h in hosts : h.name => k}`,              // duplicate keys across chunks
		`{for k, h in hosts : h.name => k...}`,           // grouping: one pass
		`[for k, h in hosts : h.n == 2500 ? h.nope : 1]`, // an error in one element
		`[for k, h in hosts : h.n if h.n == 7 ? null : true]`,
		`{for n in nums : n => n}`,
		`[for k, h in hosts : [for x in range(3) : x + h.n]]`,
		`length({for k, h in hosts : k => h if h.n < 10})`,
	}
	for _, src := range cases {
		t.Run(src, func(t *testing.T) {
			sameEvaluation(t, "one pass", evalFor(t, src, vars, false), "split", evalFor(t, src, vars, true))
		})
	}
}

// evaluation is what evaluating an expression gave: its value, its
// diagnostics and what the budget counted (values, bytes).
type evaluation struct {
	v     cty.Value
	diags hcl.Diagnostics
	count [2]int64
}

// sameEvaluation fails unless two ways of evaluating gave the same.
func sameEvaluation(t *testing.T, wantName string, want evaluation, gotName string, got evaluation) {
	t.Helper()
	if !want.v.RawEquals(got.v) {
		t.Errorf("value differs:\n%s: %#v\n%s: %#v", wantName, want.v, gotName, got.v)
	}
	if w, g := diagText(want.diags), diagText(got.diags); w != g {
		t.Errorf("diagnostics differ:\n%s: %s\n%s: %s", wantName, w, gotName, g)
	}
	if want.count != got.count {
		t.Errorf("budget: %s counted %v, %s %v", wantName, want.count, gotName, got.count)
	}
}

// evalFor evaluates src under a fresh budget, with for expressions split
// when parallel is set.
func evalFor(t *testing.T, src string, vars map[string]cty.Value, parallel bool) evaluation {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	work := newBudget(LargeLimits)
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{"x": {Name: "x", Expr: expr}}}
	chargeBodies([]hcl.Body{body}, work)
	if parallel {
		parallelFors([]hcl.Body{body}, work)
		if !hasParallelFor(body.Attributes["x"].Expr) {
			t.Fatalf("%s: no for expression was wrapped", src)
		}
	}
	ctx := &hcl.EvalContext{Variables: vars, Functions: boundedFunctions(Functions(), work)}
	v, d := body.Attributes["x"].Expr.Value(ctx)
	return evaluation{v, d, [2]int64{work.values.Load(), work.bytes.Load()}}
}

// hasParallelFor reports whether a parallelFor sits anywhere in e.
func hasParallelFor(e hclsyntax.Expression) bool {
	found := false
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*parallelFor); ok {
			found = true
		}
		return nil
	})
	return found
}

// diagText is diagnostics as comparable text: what a diagnostic writer
// prints (places, summary, detail, and the variables of the expression
// whose values it shows).
func diagText(diags hcl.Diagnostics) string {
	s := ""
	for _, d := range diags {
		s += fmt.Sprintf("%s (in %s): %s: %s", d.Subject, d.Context, d.Summary, d.Detail)
		if d.Expression != nil {
			s += fmt.Sprintf(" [expression %s", d.Expression.Range())
			for _, v := range d.Expression.Variables() {
				s += " " + v.RootName() + fmt.Sprint(v.SourceRange())
			}
			s += "]"
		}
		s += "; "
	}
	return s
}
