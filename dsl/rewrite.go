package dsl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// rewriteBodies replaces every expression inside the bodies' attribute
// values, and in the blocks inside them, with what f returns for it.
func rewriteBodies(bodies []hcl.Body, f func(hclsyntax.Expression) hclsyntax.Expression) {
	for _, b := range bodies {
		if sb, ok := b.(*hclsyntax.Body); ok {
			rewriteBody(sb, f)
		}
	}
}

// rewriteBody rewrites one body and the blocks inside it.
func rewriteBody(body *hclsyntax.Body, f func(hclsyntax.Expression) hclsyntax.Expression) {
	for _, a := range body.Attributes {
		a.Expr = rewriteExpr(a.Expr, f)
	}
	for _, blk := range body.Blocks {
		rewriteBody(blk.Body, f)
	}
}

// rewriteExpr rewrites what is inside e, then gives e itself to f.
// Expression kinds not listed keep what is inside them as it is; every
// rewrite here is an optimisation, so that is always correct, only
// slower. The nodes of this package that embed an expression are
// descended into like the expression they embed.
func rewriteExpr(e hclsyntax.Expression, f func(hclsyntax.Expression) hclsyntax.Expression) hclsyntax.Expression {
	sub := func(x *hclsyntax.Expression) { *x = rewriteExpr(*x, f) }
	switch x := e.(type) {
	case *hclsyntax.ForExpr:
		forChildren(x, sub)
	case *parallelFor:
		forChildren(x.ForExpr, sub)
	case *chargeCall:
		sub(&x.Args[0])
	case *hclsyntax.FunctionCallExpr:
		for i := range x.Args {
			sub(&x.Args[i])
		}
	case *hclsyntax.ConditionalExpr:
		sub(&x.Condition)
		sub(&x.TrueResult)
		sub(&x.FalseResult)
	case *hclsyntax.BinaryOpExpr:
		sub(&x.LHS)
		sub(&x.RHS)
	case *hclsyntax.UnaryOpExpr:
		sub(&x.Val)
	case *hclsyntax.ParenthesesExpr:
		sub(&x.Expression)
	case *hclsyntax.TupleConsExpr:
		for i := range x.Exprs {
			sub(&x.Exprs[i])
		}
	case *hclsyntax.ObjectConsExpr:
		for i := range x.Items {
			sub(&x.Items[i].KeyExpr)
			sub(&x.Items[i].ValueExpr)
		}
	case *hclsyntax.TemplateExpr:
		for i := range x.Parts {
			sub(&x.Parts[i])
		}
	case *hclsyntax.ObjectConsKeyExpr:
		sub(&x.Wrapped)
	case *hclsyntax.TemplateWrapExpr:
		sub(&x.Wrapped)
	case *hclsyntax.IndexExpr:
		sub(&x.Collection)
		sub(&x.Key)
	case *hclsyntax.RelativeTraversalExpr:
		sub(&x.Source)
	}
	return f(e)
}

// forChildren rewrites the parts of a for expression.
func forChildren(x *hclsyntax.ForExpr, sub func(*hclsyntax.Expression)) {
	sub(&x.CollExpr)
	sub(&x.ValExpr)
	if x.KeyExpr != nil {
		sub(&x.KeyExpr)
	}
	if x.CondExpr != nil {
		sub(&x.CondExpr)
	}
}
