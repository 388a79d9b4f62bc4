package dsl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestChargeCallSame evaluates expressions with their charges as
// chargeCall nodes and as the plain calls of the charge functions they
// replace, under a limit they stay within and one they cross, and
// requires the same value, diagnostics and count.
func TestChargeCallSame(t *testing.T) {
	cases := []string{
		`[for i in range(300) : format("n%d", i)]`,
		`{for i in range(300) : tostring(i) => [i, i + 1] if i % 7 != 0}`,
		`"${join(",", [for i in range(200) : "x${i}"])}!"`,
		`length(flatten([for a in range(100) : [for b in range(50) : b]]))`,
		`[for i in range(10) : nope.x]`,
		`null`,
	}
	for _, src := range cases {
		for _, limit := range []int64{1_000_000, 400} {
			t.Run(fmt.Sprintf("%s/%d", src, limit), func(t *testing.T) {
				nodes := evalCharged(t, src, limit, false)
				sameEvaluation(t, "function call", evalCharged(t, src, limit, true), "chargeCall", nodes)
				if limit == 400 && src == cases[0] && !strings.Contains(diagText(nodes.diags), "Evaluation too large") {
					t.Errorf("the small limit was not crossed: %s", diagText(nodes.diags))
				}
			})
		}
	}
}

// evalCharged evaluates src as an attribute with its charges, as
// chargeCall nodes or (asCalls) as the function calls they stand for.
func evalCharged(t *testing.T, src string, values int64, asCalls bool) evaluation {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	work := newBudget(Limits{Values: values, StringBytes: 1 << 20, Ports: MaxPorts})
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{"x": {Name: "x", Expr: expr}}}
	chargeBodies([]hcl.Body{body}, work)
	if asCalls {
		body.Attributes["x"].Expr = plainCalls(body.Attributes["x"].Expr)
	}
	ctx := &hcl.EvalContext{Functions: boundedFunctions(Functions(), work)}
	v, d := body.Attributes["x"].Expr.Value(ctx)
	renameBudgetErrors(d)
	return evaluation{v, d, [2]int64{work.values.Load(), work.bytes.Load()}}
}

// plainCalls replaces every chargeCall inside e with the function call
// it embeds.
func plainCalls(e hclsyntax.Expression) hclsyntax.Expression {
	if c, ok := e.(*chargeCall); ok {
		c.Args[0] = plainCalls(c.Args[0])
		return c.FunctionCallExpr
	}
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		switch x := n.(type) {
		case *hclsyntax.ForExpr:
			x.CollExpr, x.ValExpr = plainCalls(x.CollExpr), plainCalls(x.ValExpr)
			if x.KeyExpr != nil {
				x.KeyExpr = plainCalls(x.KeyExpr)
			}
		case *hclsyntax.TemplateExpr:
			for i := range x.Parts {
				x.Parts[i] = plainCalls(x.Parts[i])
			}
		case *hclsyntax.FunctionCallExpr:
			for i := range x.Args {
				x.Args[i] = plainCalls(x.Args[i])
			}
		}
		return nil
	})
	return e
}

// TestTallyCounts pins what a value costs against the evaluation limits:
// one value per element or attribute at every depth (an unknown or null
// one too), and the bytes of every string.
func TestTallyCounts(t *testing.T) {
	str, num := cty.StringVal, cty.NumberIntVal
	for _, c := range []struct {
		name          string
		v             cty.Value
		values, bytes int64
	}{
		{"string", str("leaf"), 0, 4},
		{"number", num(7), 0, 0},
		{"list of numbers", cty.ListVal([]cty.Value{num(1), num(2), num(3)}), 3, 0},
		{"map of bools", cty.MapVal(map[string]cty.Value{"a": cty.True, "b": cty.False}), 2, 0},
		{"list of strings", cty.ListVal([]cty.Value{str("ab"), str("c")}), 2, 3},
		{"set of strings", cty.SetVal([]cty.Value{str("ab"), str("c")}), 2, 3},
		{"set of numbers", cty.SetVal([]cty.Value{num(1), num(2)}), 2, 0},
		{"tuple", cty.TupleVal([]cty.Value{num(1), str("xyz"), cty.ListVal([]cty.Value{num(1)})}), 4, 3},
		{"list with an unknown", cty.ListVal([]cty.Value{num(1), cty.UnknownVal(cty.Number)}), 2, 0},
		{"empty list", cty.ListValEmpty(cty.Number), 0, 0},
		{"object", cty.ObjectVal(map[string]cty.Value{
			"a": num(1), "b": str("xy"), "c": cty.ListVal([]cty.Value{num(1), num(2), num(3)}),
			"d": cty.ListVal([]cty.Value{str("a"), str("bc")}), "e": cty.ObjectVal(map[string]cty.Value{"f": cty.True}),
			"g": cty.NullVal(cty.String), "h": cty.UnknownVal(cty.String), "i": cty.NullVal(cty.List(cty.Number)),
		}), 8 + 3 + 2 + 1, 2 + 1 + 2},
		{"map of objects", cty.MapVal(map[string]cty.Value{
			"h1": cty.ObjectVal(map[string]cty.Value{"n": num(1), "os": str("linux")}),
			"h2": cty.ObjectVal(map[string]cty.Value{"n": num(2), "os": str("bsd")}),
		}), 2 + 4, 8},
		{"marked", cty.ListVal([]cty.Value{str("abc")}).Mark("x"), 1, 3},
		{"unknown", cty.UnknownVal(cty.List(cty.String)), 0, 0},
	} {
		var got tally
		got.add(c.v)
		if got.values != c.values || got.bytes != c.bytes {
			t.Errorf("%s: %d values, %d bytes; want %d, %d", c.name, got.values, got.bytes, c.values, c.bytes)
		}
	}
}

// TestWideChargeCounts charges values of wideMin and more elements,
// which charge walks on every core, and requires the counts of the walk
// on one goroutine: one value per element plus what each element adds.
func TestWideChargeCounts(t *testing.T) {
	n := wideMin + 3
	host := func(i int) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"os":    cty.StringVal("linux"),
			"nics":  cty.NumberIntVal(int64(i % 2)),
			"ports": cty.ListVal([]cty.Value{cty.StringVal("swp1"), cty.StringVal("swp33")}),
		})
	}
	// Each host adds 3 values (its attributes), 2 (its ports) and 5+4+5 bytes.
	const hostValues, hostBytes = 3 + 2, 5 + 4 + 5
	hosts := make([]cty.Value, n)
	byName := make(map[string]cty.Value, n)
	names := make([]cty.Value, n)
	for i := range hosts {
		hosts[i] = host(i)
		byName[fmt.Sprintf("h%05d", i)] = hosts[i]
		names[i] = cty.StringVal(fmt.Sprintf("h%05d", i))
	}
	for _, c := range []struct {
		name          string
		v             cty.Value
		values, bytes int64
	}{
		{"object of objects", cty.ObjectVal(byName), int64(n) * (1 + hostValues), int64(n) * hostBytes},
		{"map of objects", cty.MapVal(byName), int64(n) * (1 + hostValues), int64(n) * hostBytes},
		{"tuple of objects", cty.TupleVal(hosts), int64(n) * (1 + hostValues), int64(n) * hostBytes},
		{"list of objects", cty.ListVal(hosts), int64(n) * (1 + hostValues), int64(n) * hostBytes},
		{"set of strings", cty.SetVal(names), int64(n), int64(n) * 6},
		{"marked list", cty.ListVal(names).Mark("x"), int64(n), int64(n) * 6},
	} {
		if unmarked, _ := c.v.Unmark(); !isWide(unmarked) {
			t.Fatalf("%s: not walked on every core", c.name)
		}
		var one tally
		one.add(c.v)
		b := newBudget(LargeLimits)
		if err := b.charge(c.v); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := b.save(); got != one || got.values != c.values || got.bytes != c.bytes {
			t.Errorf("%s: charged %d values, %d bytes; one goroutine %d, %d; want %d, %d",
				c.name, got.values, got.bytes, one.values, one.bytes, c.values, c.bytes)
		}
		// Inside a split for expression the walk stays on its goroutine.
		held := newBudget(LargeLimits)
		held.parallel.Store(true)
		if err := held.charge(c.v); err != nil || held.save() != one {
			t.Errorf("%s, cores held: charged %+v (%v), want %+v", c.name, held.save(), err, one)
		}
	}
	numbers := make([]cty.Value, n)
	for i := range numbers {
		numbers[i] = cty.NumberIntVal(int64(i))
	}
	if isWide(cty.ListVal(numbers)) {
		t.Error("a list of numbers, counted by its length, is walked on every core")
	}
}
