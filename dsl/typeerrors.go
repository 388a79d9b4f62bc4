package dsl

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
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
		reason := readableBounds(strings.TrimPrefix(d.Detail, "Unsuitable value: "))
		d.Summary = "Incorrect attribute value type"
		d.Detail = fmt.Sprintf("Inappropriate value for attribute %q: %s.", attr.Name, reason) +
			quotedHint(attr.Name, f.Bytes, *d.Context, reason) + bracketHint(attr.Name, reason, f.Bytes, *d.Context) +
			boundsHint(attr.Name, reason)
	}
}

// numberUnit is the unit of a number attribute: its name in words, the
// spellings a quoted value may carry after the number ("2m", "9000 B"),
// and an example value, if one fits every place the attribute is in.
type numberUnit struct {
	unit      string
	spellings []string
	example   string
	// metric tells that the unit is the metre, so a length in feet
	// ("6ft") is converted in the advice.
	metric bool
}

// numberUnits are the units of the language's number attributes that
// have one (docs/language.md, "Units"), by attribute name: a link's
// length in metres, MTUs in bytes, shares and probabilities in percent,
// the PFC watchdog's times in milliseconds.
var numberUnits = map[string]numberUnit{
	"length":               {"metres", []string{"m", "meter", "meters", "metre", "metres"}, "3", true},
	"mtu":                  {"bytes", []string{"b", "byte", "bytes"}, "", false},
	"lossless_mtu":         {"bytes", []string{"b", "byte", "bytes"}, "", false},
	"bandwidth":            {"percent", []string{"%", "percent"}, "", false},
	"probability":          {"percent", []string{"%", "percent"}, "", false},
	"small_packet_percent": {"percent", []string{"%", "percent"}, "", false},
	"planning_length":      {"metres", []string{"m", "meter", "meters", "metre", "metres"}, "300", true},
	"timeout_ms":           {"milliseconds", []string{"ms"}, "", false},
	"polling_ms":           {"milliseconds", []string{"ms"}, "", false},
	"restore_ms":           {"milliseconds", []string{"ms"}, "", false},
}

// leadingNumber matches a quoted value that is a number and what follows
// it ("2m", "9000 B", "1.5").
var leadingNumber = regexp.MustCompile(`^\s*([0-9]+(?:\.[0-9]+)?)\s*(.*?)\s*$`)

// feetSpellings are how a length in feet is written after its number
// ("6ft", "6 feet", "6'"), as US cable part numbers give lengths.
var feetSpellings = []string{"ft", "ft.", "foot", "feet", "'"}

// unitHint is the advice for the quoted value v where attribute name's
// number belongs: for an attribute with a unit, that unit and, when v is
// a number in that unit, the line to write ("length = 2" for "2m").
func unitHint(name, v string) string {
	u, ok := numberUnits[name]
	if !ok {
		return " write a number without quotes."
	}
	m := leadingNumber.FindStringSubmatch(v)
	if m != nil && (m[2] == "" || slices.Contains(u.spellings, strings.ToLower(m[2]))) {
		return fmt.Sprintf(" %s is a number of %s, written without quotes: %s = %s.", name, u.unit, name, m[1])
	}
	if m != nil && u.metric && slices.Contains(feetSpellings, strings.ToLower(m[2])) {
		if ft, err := strconv.ParseFloat(m[1], 64); err == nil {
			return fmt.Sprintf(" %s is a number of %s, never feet (1 ft = 0.3048 m), written without quotes: %s = %s (%s ft).",
				name, u.unit, name, strconv.FormatFloat(math.Round(ft*0.3048*100)/100, 'f', -1, 64), m[1])
		}
	}
	if u.example != "" {
		return fmt.Sprintf(" %s is a number of %s, written without quotes (e.g. %s = %s).", name, u.unit, name, u.example)
	}
	return fmt.Sprintf(" %s is a number of %s, written without quotes.", name, u.unit)
}

// bounds matches cty's words for a number outside what the Go field
// holds ("value must be between -1.797...e+308 and ... inclusive",
// "value must be a whole number, between -9223372036854775808 and
// 9223372036854775807"), whose bounds run to 300 digits for a float.
var bounds = regexp.MustCompile(`between (-?[0-9]+(?:\.[0-9]+)?) and (-?[0-9]+(?:\.[0-9]+)?)( inclusive)?$`)

// readableBounds writes the bounds of cty's out-of-range words in
// scientific notation when they are longer than a few digits, and drops
// the "inclusive" of a bound no one writes ("between -1.8e+308 and
// 1.8e+308").
func readableBounds(reason string) string {
	m := bounds.FindStringSubmatchIndex(reason)
	if m == nil {
		return reason
	}
	short := func(n string) string {
		if len(strings.TrimPrefix(n, "-")) <= 12 {
			return n
		}
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return n
		}
		return strconv.FormatFloat(f, 'g', 2, 64)
	}
	return reason[:m[0]] + "between " + short(reason[m[2]:m[3]]) + " and " + short(reason[m[4]:m[5]])
}

// boundsHint says the unit of a number attribute whose value is not one
// the decoder holds (length = 1e400, mtu = 9000.5): the range the
// compiler then checks is the attribute's own, in that unit.
func boundsHint(name, reason string) string {
	u, ok := numberUnits[name]
	if !ok || !strings.HasPrefix(reason, "value must be ") {
		return ""
	}
	if u.example != "" {
		return fmt.Sprintf(" %s is a number of %s (e.g. %s = %s).", name, u.unit, name, u.example)
	}
	return fmt.Sprintf(" %s is a number of %s.", name, u.unit)
}

// quotedHint is the advice for a quoted word written at r of src where
// attribute name's number or bool belongs (mtu = "jumbo", pfc = "yes",
// length = "2m"), or "". The expression is parsed again from its source:
// the loader may have put a faster node of its own in the syntax tree's
// place.
func quotedHint(name string, src []byte, r hcl.Range, reason string) string {
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
		return fmt.Sprintf(" %q is a quoted string;", v.AsString()) + unitHint(name, v.AsString())
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
