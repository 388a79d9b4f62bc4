package dsl

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/fabricc/fabricc/internal/natural"
	"github.com/hashicorp/hcl/v2"
)

// unsupportedAttr matches HCL's detail for a missing object attribute.
var unsupportedAttr = regexp.MustCompile(`^This object does not have an attribute named "([^"]+)"\.$`)

// unknownFunction matches HCL's detail for a call to an unknown function
// outside a namespace (fabricc defines none), with or without HCL's
// own suggestion.
var unknownFunction = regexp.MustCompile(`^There is no function named ("[^"]+")\.( Did you mean "[^"]+"\?)?$`)

// suggestNames rewrites "Unsupported attribute" errors on var.NAME and
// local.NAME references as references to an undeclared variable or
// local, with ` Did you mean "x"?` when a declared name is close (HCL
// suggests names for arguments and blocks, not for object attributes).
func suggestNames(diags hcl.Diagnostics, files map[string]*hcl.File, ctx *hcl.EvalContext) {
	for _, d := range diags {
		if d.Summary == "Call to unknown function" {
			suggestFunction(d, ctx)
			continue
		}
		if d.Summary != "Unsupported attribute" || d.Subject == nil {
			continue
		}
		m := unsupportedAttr.FindStringSubmatch(d.Detail)
		f := files[d.Subject.Filename]
		if m == nil || f == nil {
			continue
		}
		root := rootBefore(f.Bytes, d.Subject.Start.Byte)
		val, ok := ctx.Variables[root]
		if !ok || !val.Type().IsObjectType() {
			continue
		}
		var names []string
		for n := range val.Type().AttributeTypes() {
			names = append(names, n)
		}
		undeclared(d, root, m[1], DidYouMean(m[1], names))
	}
}

// undeclared words an "Unsupported attribute" error on var.NAME or
// local.NAME as Terraform does: a reference to something not declared.
func undeclared(d *hcl.Diagnostic, root, name, suggestion string) {
	if root == "var" {
		d.Summary = "Reference to undeclared input variable"
		d.Detail = fmt.Sprintf("An input variable with the name %q has not been declared.", name)
		if suggestion == "" {
			suggestion = fmt.Sprintf(" Declare it with a variable %q {} block.", name)
		}
	} else {
		d.Summary = "Reference to undeclared local value"
		d.Detail = fmt.Sprintf("A local value with the name %q has not been declared.", name)
		if suggestion == "" {
			suggestion = fmt.Sprintf(" Define it in a locals {} block: %s = ...", name)
		}
	}
	d.Detail += suggestion
}

// rootBefore returns "var" or "local" when src holds that name right
// before the byte offset at (where a ".name" traversal starts), else "".
func rootBefore(src []byte, at int) string {
	for _, root := range []string{"var", "local"} {
		start := at - len(root)
		if start < 0 || at > len(src) || string(src[start:at]) != root {
			continue
		}
		if start > 0 && isIdentByte(src[start-1]) {
			continue
		}
		return root
	}
	return ""
}

// isIdentByte reports whether c can be part of an HCL identifier.
func isIdentByte(c byte) bool {
	return c == '_' || c == '-' || natural.IsDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// suggestFunction replaces HCL's "did you mean" for an unknown function,
// which picks among equally close names in map order (so the same
// fabric got "abs" on one run and "range" on the next), with Suggest's.
func suggestFunction(d *hcl.Diagnostic, ctx *hcl.EvalContext) {
	m := unknownFunction.FindStringSubmatch(d.Detail)
	if m == nil {
		return
	}
	name, err := strconv.Unquote(m[1])
	if err != nil {
		return
	}
	d.Detail = fmt.Sprintf("There is no function named %s.%s", m[1], DidYouMean(name, sortedKeys(ctx.Functions)))
}
