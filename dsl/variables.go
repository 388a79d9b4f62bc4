package dsl

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/fabricc/fabricc/internal/quote"
)

// variableSchema is the body of a `variable "name" {}` block.
var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "default"},
		{Name: "type"},
		{Name: "description"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

// validationSchema is the body of a variable's `validation {}` block, as
// in Terraform ("Custom Validation Rules", Terraform language docs,
// Input Variables).
var validationSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// variable is one declared input variable.
type variable struct {
	name     string
	typ      cty.Type
	defaults *typeexpr.Defaults // optional(type, default) attributes
	block    *hcl.Block
	value    cty.Value // cty.NilVal until a default or a setting gives one
	set      bool
	from     setBy // where value came from, for a failed validation
	rules    []rule
}

// setBy is where a variable's value was set: a range in a file (the
// default or a var file's line), or a -var setting.
type setBy struct {
	subject *hcl.Range
	flag    string // "-var NAME=VALUE", printable
}

// rule is one validation block of a variable.
type rule struct {
	condition, message hcl.Expression
	block              hcl.Range
}

// evalVariables declares the variables of blocks and gives each its value:
// the default, then var files in order, then -var settings.
func evalVariables(p *hclparse.Parser, blocks []*hcl.Block, opts Options, fns map[string]function.Function) (map[string]cty.Value, hcl.Diagnostics) {
	decl, diags := declareVariables(blocks)
	diags = append(diags, applyEnvVars(decl, opts.EnvVars, opts.EnvApplied)...)
	fileDiags, unread := applyVarFiles(p, decl, opts.VarFiles, limitsOf(opts))
	diags = append(diags, fileDiags...)
	diags = append(diags, applyVarFlags(decl, opts.Vars, opts.Undeclared)...)
	// A var file that could not be read whole may set what looks unset:
	// its own error is the one to fix, not one per variable it holds.
	vals := map[string]cty.Value{}
	for _, b := range blocks {
		v := decl[b.Labels[0]]
		if v.block != b {
			continue // duplicate, already reported
		}
		if !v.set && unread {
			v.value = cty.DynamicVal
		} else if !v.set {
			r := b.DefRange
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "No value for required variable",
				Detail: fmt.Sprintf("Variable %q has no default and was not set. Set it with -var %s=VALUE, "+
					"in a var file given with --var-file, or give it a default.", v.name, v.name),
				Subject: &r,
			})
			v.value = cty.DynamicVal
		}
		vals[v.name] = v.value
	}
	if !diags.HasErrors() {
		diags = append(diags, validateVariables(blocks, decl, vals, fns)...)
	}
	return vals, diags
}

// declareVariables reads the variable blocks and their defaults.
func declareVariables(blocks []*hcl.Block) (map[string]*variable, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	decl := map[string]*variable{}
	for _, b := range blocks {
		name := b.Labels[0]
		if prev, ok := decl[name]; ok {
			r := b.DefRange
			d := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate variable",
				Detail:   fmt.Sprintf("Variable %q is already declared at %s; remove or rename one.", name, prev.block.DefRange),
				Subject:  &r,
			}
			diags = append(diags, Also(d, fmt.Sprintf("variable %q first declared here", name), prev.block.DefRange))
			continue
		}
		if !hclsyntax.ValidIdentifier(name) {
			r := b.LabelRanges[0]
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid variable name",
				Detail:   "A variable name must start with a letter and hold only letters, digits, underscores and dashes.",
				Subject:  &r,
			})
			continue
		}
		v := &variable{name: name, typ: cty.DynamicPseudoType, block: b}
		decl[name] = v
		diags = append(diags, readVariable(v)...)
	}
	return decl, diags
}

// readVariable decodes type and default of v.
func readVariable(v *variable) hcl.Diagnostics {
	content, diags := v.block.Body.Content(variableSchema)
	diags = append(diags, readRules(v, content.Blocks)...)
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, d := typeexpr.TypeConstraintWithDefaults(attr.Expr)
		diags = append(diags, d...)
		if !d.HasErrors() {
			v.typ, v.defaults = ty, defaults
		}
	}
	if attr, ok := content.Attributes["default"]; ok {
		r := attr.Expr.Range()
		v.from = setBy{subject: &r}
		val, d := attr.Expr.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			v.fail()
			return diags
		}
		if err := v.assign(val); err != nil {
			text, r := valueError(attr, val, v.typ, err)
			return append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid default value for variable",
				Detail:   fmt.Sprintf("This default cannot be used for variable %q: %s.", v.name, text),
				Subject:  &r,
			})
		}
	}
	return diags
}

// assign converts val to the variable's type and sets the variable. When
// the value does not convert, the variable is set to an unknown value (see
// fail) and the conversion error is returned for the caller to report.
func (v *variable) assign(val cty.Value) error {
	// Terraform fills optional attributes' defaults before converting
	// ("Optional Object Type Attributes", Terraform language docs, Type
	// Constraints).
	if v.defaults != nil && !val.IsNull() {
		val = v.defaults.Apply(val)
	}
	conv, err := convert.Convert(val, v.typ)
	if err != nil {
		v.fail()
		return err
	}
	v.value, v.set = conv, true
	return nil
}

// fail sets v to an unknown value after an error about its value was
// reported, so it is not reported again as missing.
func (v *variable) fail() { v.value, v.set = cty.DynamicVal, true }

// applyVarFiles sets variables from the var files in order; unread is
// true when a file could not be read or parsed whole.
func applyVarFiles(p *hclparse.Parser, decl map[string]*variable, files []string, limits Limits) (diags hcl.Diagnostics, unread bool) {
	for _, name := range files {
		src, d := readSource(name, "", limits)
		diags = append(diags, d...)
		if d.HasErrors() {
			unread = true
			continue
		}
		f, d := p.ParseHCL(src, name)
		diags = append(diags, d...)
		if d.HasErrors() {
			unread = true
			continue
		}
		attrs, d := f.Body.JustAttributes()
		diags = append(diags, d...)
		unread = unread || d.HasErrors()
		for _, attr := range sortedAttrs(attrs) {
			diags = append(diags, setFromExpr(decl, attr)...)
		}
	}
	return diags, unread
}

// setFromExpr sets one variable from a var file line.
func setFromExpr(decl map[string]*variable, attr *hcl.Attribute) hcl.Diagnostics {
	nameRange := attr.NameRange
	v, ok := decl[attr.Name]
	if !ok {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Undeclared variable",
			Detail:   fmt.Sprintf("This var file sets %q, which the fabric does not declare.%s", attr.Name, suggest(attr.Name, decl)),
			Subject:  &nameRange,
		}}
	}
	val, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		v.fail()
		return diags
	}
	r := attr.Expr.Range()
	v.from = setBy{subject: &r}
	if err := v.assign(val); err != nil {
		text, r := valueError(attr, val, v.typ, err)
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail:   fmt.Sprintf("Variable %q: %s.", v.name, text),
			Subject:  &r,
		})
	}
	return diags
}

// applyVarFlags sets variables from -var name=value settings, in name
// order; a setting for an undeclared variable is an error, or, with
// undeclared set, told to it.
func applyVarFlags(decl map[string]*variable, flags map[string]string, undeclared func(string)) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v, ok := decl[n]
		if !ok && undeclared != nil {
			undeclared(n)
			continue
		}
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Undeclared variable",
				Detail:   fmt.Sprintf("-var sets %q, which the fabric does not declare.%s", n, suggest(n, decl)),
			})
			continue
		}
		diags = append(diags, v.setFromText(flags[n], "-var ")...)
	}
	return diags
}

// setFromText sets v from a setting's text (a -var or FABRICC_VAR_
// value), the setting written as prefix+name=text in any error.
func (v *variable) setFromText(text, prefix string) hcl.Diagnostics {
	val := flagValue(v.name, text)
	v.from = setBy{flag: prefix + quote.Visible(v.name+"="+text)}
	if err := v.assign(val); err != nil {
		problem, _ := valueProblem(val, v.typ, err)
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail:   fmt.Sprintf("%s: %s.", v.from.flag, problem),
		}}
	}
	return nil
}

// EnvPrefix starts an environment variable that sets a fabric variable:
// FABRICC_VAR_leaves=8 sets var.leaves, as TF_VAR_leaves does in
// Terraform.
const EnvPrefix = "FABRICC_VAR_"

// applyEnvVars sets declared variables from FABRICC_VAR_ settings, in
// name order, telling applied of each; others are ignored.
func applyEnvVars(decl map[string]*variable, env, applied map[string]string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, n := range sortedKeys(env) {
		v, ok := decl[n]
		if !ok {
			continue
		}
		diags = append(diags, v.setFromText(env[n], EnvPrefix)...)
		if applied != nil {
			applied[n] = env[n]
		}
	}
	return diags
}

// flagValue parses a -var value as an HCL expression without variables
// or functions, falling back to the text as a string.
func flagValue(name, text string) cty.Value {
	expr, diags := hclsyntax.ParseExpression([]byte(text), "<value for var."+name+">", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.StringVal(text)
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() || !val.IsWhollyKnown() {
		return cty.StringVal(text)
	}
	return val
}

// suggest returns ` Did you mean "x"?` for the declared name closest to
// name, or "" when none is close.
func suggest(name string, decl map[string]*variable) string {
	return DidYouMean(name, sortedKeys(decl))
}

// sortedAttrs returns attrs in source order.
func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Range.Start.Byte < out[j].Range.Start.Byte
	})
	return out
}

// valueError words why the value val of attr does not convert to ty
// (err), and returns the place to show: the failing element's entry
// when attr writes it out, else the attribute's name, so that a map of
// thousands of lines is not printed whole for one bad element.
func valueError(attr *hcl.Attribute, val cty.Value, ty cty.Type, err error) (string, hcl.Range) {
	text, path := valueProblem(val, ty, err)
	if r, ok := rangeAtPath(attr.Expr, path); ok {
		return text, r
	}
	if r := attr.Expr.Range(); r.Start.Line == r.End.Line {
		return text, r
	}
	return text, attr.NameRange
}
