package dsl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/fabricc/fabricc/internal/quote"
)

// readRules reads a variable's validation blocks.
func readRules(v *variable, blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range blocks {
		content, d := b.Body.Content(validationSchema)
		diags = append(diags, d...)
		cond, okCond := content.Attributes["condition"]
		msg, okMsg := content.Attributes["error_message"]
		if okCond && okMsg {
			v.rules = append(v.rules, rule{condition: cond.Expr, message: msg.Expr, block: b.DefRange})
		}
	}
	return diags
}

// validateVariables checks every variable's value against its validation
// rules, in declaration order, as Terraform does once a value is set. A
// condition may use any variable and the fabric's functions; locals are
// not known yet.
func validateVariables(blocks []*hcl.Block, decl map[string]*variable, vals map[string]cty.Value, fns map[string]function.Function) hcl.Diagnostics {
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vals)},
		Functions: fns,
	}
	var diags hcl.Diagnostics
	for _, b := range blocks {
		v := decl[b.Labels[0]]
		if v == nil || v.block != b || !v.value.IsWhollyKnown() {
			continue
		}
		for _, r := range v.rules {
			diags = append(diags, v.check(r, ctx)...)
		}
	}
	return diags
}

// check evaluates one rule; a false condition is an error worded with the
// rule's error_message, pointing at where the value was set.
func (v *variable) check(r rule, ctx *hcl.EvalContext) hcl.Diagnostics {
	ok, diags := conditionHolds(r, ctx)
	if diags.HasErrors() || ok {
		return diags
	}
	msg, diags := ruleMessage(r, ctx)
	if diags.HasErrors() {
		return diags
	}
	msg = quote.Visible(msg)
	cr := r.condition.Range()
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid value for variable",
		Detail:   fmt.Sprintf("Variable %q: %s", v.name, msg),
		Subject:  v.from.subject,
	}
	if v.from.subject == nil {
		d.Detail = fmt.Sprintf("%s: %s", v.from.flag, msg)
	}
	return hcl.Diagnostics{Also(d, "the validation rule", cr)}
}

// conditionHolds evaluates a rule's condition: true, false, or an error
// when it is not a boolean. An unknown condition holds (a value not yet
// known, after an error already reported).
func conditionHolds(r rule, ctx *hcl.EvalContext) (bool, hcl.Diagnostics) {
	val, diags := r.condition.Value(ctx)
	if diags.HasErrors() {
		return true, diags
	}
	if !val.IsKnown() {
		return true, nil
	}
	cr := r.condition.Range()
	if val.IsNull() {
		return true, invalidRule(cr, "Invalid validation result", "The condition is null; it must be true or false.")
	}
	b, err := convert.Convert(val, cty.Bool)
	if err != nil {
		return true, invalidRule(cr, "Invalid validation result",
			fmt.Sprintf("The condition must be true or false, not a %s.", val.Type().FriendlyName()))
	}
	return b.True(), nil
}

// ruleMessage evaluates a rule's error_message, which must be a string.
func ruleMessage(r rule, ctx *hcl.EvalContext) (string, hcl.Diagnostics) {
	val, diags := r.message.Value(ctx)
	if diags.HasErrors() {
		return "", diags
	}
	s, err := convert.Convert(val, cty.String)
	if err != nil || s.IsNull() || !s.IsKnown() {
		return "", invalidRule(r.message.Range(), "Invalid validation error message",
			"The error_message must be a string.")
	}
	return s.AsString(), nil
}

// invalidRule is an error about a validation block itself.
func invalidRule(r hcl.Range, summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &r}}
}
