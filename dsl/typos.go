package dsl

import (
	"fmt"
	"regexp"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// missingArgument matches HCL's detail for a required argument that is
// not written.
var missingArgument = regexp.MustCompile(`^The argument "([^"]+)" is required, but no definition was found\.$`)

// unsupportedSuggestion matches HCL's detail for an argument the block
// does not take, with its suggestion.
var unsupportedSuggestion = regexp.MustCompile(`^An argument named "[^"]+" is not expected here\. Did you mean "([^"]+)"\?$`)

// absorbMissing drops "Missing required argument X" when the same block
// has an unsupported argument whose suggestion is X (lenght = 3 in a
// link): one mistake, reported once, at the misspelt name, which says
// that X is missing because of it. HCL reports the missing argument at
// the block's opening brace, the start of its body.
func absorbMissing(diags hcl.Diagnostics, files map[string]*hcl.File) hcl.Diagnostics {
	type place struct {
		file string
		at   int
	}
	// The bodies' opening braces with the suggestions of the misspelt
	// arguments in them.
	misspelt := map[place]map[string][]*hcl.Diagnostic{}
	for _, d := range diags {
		if d.Summary != "Unsupported argument" || d.Subject == nil {
			continue
		}
		m := unsupportedSuggestion.FindStringSubmatch(d.Detail)
		if m == nil {
			continue
		}
		body := bodyOfAttribute(files[d.Subject.Filename], *d.Subject)
		if body == nil {
			continue
		}
		p := place{d.Subject.Filename, body.SrcRange.Start.Byte}
		if misspelt[p] == nil {
			misspelt[p] = map[string][]*hcl.Diagnostic{}
		}
		misspelt[p][m[1]] = append(misspelt[p][m[1]], d)
	}
	if len(misspelt) == 0 {
		return diags
	}
	out := diags[:0:0]
	explained := map[*hcl.Diagnostic]bool{}
	for _, d := range diags {
		if d.Summary == "Missing required argument" && d.Subject != nil {
			if m := missingArgument.FindStringSubmatch(d.Detail); m != nil {
				if us := misspelt[place{d.Subject.Filename, d.Subject.Start.Byte}][m[1]]; us != nil {
					// Every instance of a dynamic block has both; each
					// misspelt one says it, so that they collapse as one.
					for _, u := range us {
						if !explained[u] {
							explained[u] = true
							u.Detail += fmt.Sprintf(" The block requires %q, which is missing because of this.", m[1])
						}
					}
					continue
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// bodyOfAttribute returns the body of f whose attribute's name is at r.
func bodyOfAttribute(f *hcl.File, r hcl.Range) *hclsyntax.Body {
	if f == nil {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	for body != nil {
		for _, a := range body.Attributes {
			if a.NameRange.Start.Byte == r.Start.Byte {
				return body
			}
		}
		var inner *hclsyntax.Body
		for _, b := range body.Blocks {
			if contains(b.Body.SrcRange, r) {
				inner = b.Body
				break
			}
		}
		body = inner
	}
	return nil
}
