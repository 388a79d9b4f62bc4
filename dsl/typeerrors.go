package dsl

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// nameTypeErrors rewrites gohcl's type errors, which name neither the
// attribute nor what was written ("Unsuitable value type: Unsuitable
// value: a number is required"), the way Terraform words them: the
// attribute and what it takes, and for a quoted word where a number or
// bool belongs, how to write it.
func nameTypeErrors(diags hcl.Diagnostics, files map[string]*hcl.File) {
	for _, d := range diags {
		if strings.HasPrefix(d.Summary, "Missing name for ") {
			nameLabel(d)
			continue
		}
		if d.Summary != "Unsuitable value type" || d.Context == nil {
			continue
		}
		f := files[d.Context.Filename]
		if f == nil {
			continue
		}
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		attr := attributeAt(body, *d.Context)
		if attr == nil {
			continue
		}
		reason := strings.TrimPrefix(d.Detail, "Unsuitable value: ")
		d.Summary = "Incorrect attribute value type"
		d.Detail = fmt.Sprintf("Inappropriate value for attribute %q: %s.", attr.Name, reason) +
			quotedHint(f.Bytes, *d.Context, reason) + bracketHint(attr.Name, reason, f.Bytes, *d.Context)
	}
}

// quotedHint is the advice for a quoted word written at r of src where
// a number or a bool belongs (mtu = "jumbo", pfc = "yes"), or "". The
// expression is parsed again from its source: the loader may have put
// a faster node of its own in the syntax tree's place.
func quotedHint(src []byte, r hcl.Range, reason string) string {
	if r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	e, diags := hclsyntax.ParseExpression(src[r.Start.Byte:r.End.Byte], r.Filename, r.Start)
	tmpl, ok := e.(*hclsyntax.TemplateExpr)
	if diags.HasErrors() || !ok || !tmpl.IsStringLiteral() {
		return ""
	}
	v, diags := tmpl.Value(nil)
	if diags.HasErrors() || v.Type() != cty.String {
		return ""
	}
	switch {
	case strings.HasPrefix(reason, "a number is required"):
		return fmt.Sprintf(" %q is a quoted string; write a number without quotes.", v.AsString())
	case strings.HasPrefix(reason, "a bool is required"):
		return fmt.Sprintf(" %q is a quoted string; write true or false without quotes.", v.AsString())
	}
	return ""
}

// attributeAt finds the attribute whose expression spans r, at any depth
// of body.
func attributeAt(body *hclsyntax.Body, r hcl.Range) *hclsyntax.Attribute {
	for _, a := range body.Attributes {
		if a.Expr.Range() == r {
			return a
		}
	}
	for _, b := range body.Blocks {
		if !contains(b.Range(), r) {
			continue
		}
		if a := attributeAt(b.Body, r); a != nil {
			return a
		}
	}
	return nil
}

// contains reports whether outer spans inner.
func contains(outer, inner hcl.Range) bool {
	return outer.Start.Byte <= inner.Start.Byte && inner.End.Byte <= outer.End.Byte
}

// oneForList matches cty's words for a single value converted to a list
// or set of values of its type (vlans = 100).
var oneForList = regexp.MustCompile(`^(?:list|set) of (\w+) required, but have (\w+)$`)

// bracketHint is the advice for a single value written at r of src where
// a list of such values belongs: the same value in brackets.
func bracketHint(name, reason string, src []byte, r hcl.Range) string {
	m := oneForList.FindStringSubmatch(reason)
	if m == nil || m[1] != m[2] || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	text := string(src[r.Start.Byte:r.End.Byte])
	if len(text) > 40 || !printable(text) {
		return " Write it in brackets, as a list of one."
	}
	return fmt.Sprintf(" Write it in brackets, as a list of one: %s = [%s].", name, text)
}

// printable reports whether s is printable ASCII on one line, safe to
// quote from the source into a diagnostic.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// missingLabel matches HCL's words for a block written without its label.
var missingLabel = regexp.MustCompile(`^All (\w+) blocks must have 1 labels \((\w+)\)\.$`)

// nameLabel rewrites HCL's "All nic blocks must have 1 labels (name)."
// as what to write.
func nameLabel(d *hcl.Diagnostic) {
	if m := missingLabel.FindStringSubmatch(d.Detail); m != nil {
		d.Detail = fmt.Sprintf("A %s block takes its %s as a label: %s \"<%s>\" { ... }.", m[1], m[2], m[1], m[2])
	}
}
