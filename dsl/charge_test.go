package dsl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
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
