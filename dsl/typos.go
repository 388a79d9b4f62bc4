package dsl

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
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

// unsupportedName matches HCL's detail for an argument a body does not
// take, with or without a suggestion.
var unsupportedName = regexp.MustCompile(`^An argument named "([^"]+)" is not expected here\.`)

// varFileInFolder rewrites the "Unsupported argument" errors of a fabric
// file whose top-level arguments are named after declared variables
// (pods = 2 in prod.hcl, in the fabric's folder): the file is a var
// file, read as fabric because every .hcl file of the folder is. The
// file gets one error, at its first such argument; the others are
// dropped.
func varFileInFolder(diags hcl.Diagnostics, files map[string]*hcl.File, declared map[string]cty.Value) hcl.Diagnostics {
	type setting struct {
		d     *hcl.Diagnostic
		at    int // d's index in out
		names []string
		bytes []int // where each name is set
	}
	byFile := map[string]*setting{}
	isSetting := func(d *hcl.Diagnostic) (string, bool) {
		if d.Summary != "Unsupported argument" || d.Subject == nil {
			return "", false
		}
		m := unsupportedName.FindStringSubmatch(d.Detail)
		if m == nil {
			return "", false
		}
		if _, ok := declared[m[1]]; !ok {
			return "", false
		}
		f := files[d.Subject.Filename]
		if f == nil {
			return "", false
		}
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			return "", false
		}
		a := body.Attributes[m[1]]
		return m[1], a != nil && a.NameRange.Start.Byte == d.Subject.Start.Byte
	}
	out := diags[:0:0]
	for _, d := range diags {
		name, ok := isSetting(d)
		if !ok {
			out = append(out, d)
			continue
		}
		s := byFile[d.Subject.Filename]
		if s == nil {
			s = &setting{d: d, at: len(out)}
			byFile[d.Subject.Filename] = s
			out = append(out, d)
		} else if d.Subject.Start.Byte < s.d.Subject.Start.Byte {
			// HCL reports a body's arguments in map order, not the file's.
			s.d, out[s.at] = d, d
		}
		s.names = append(s.names, name)
		s.bytes = append(s.bytes, d.Subject.Start.Byte)
	}
	for file, s := range byFile {
		sort.Sort(byPlace{s.names, s.bytes})
		base := filepath.Base(file)
		quoted := make([]string, len(s.names))
		for i, n := range s.names {
			quoted[i] = shown(n)
		}
		s.d.Summary = "Var file read as fabric"
		s.d.Detail = fmt.Sprintf("%s sets %s, which the fabric declares as variables: it looks like a var file. "+
			"Every .hcl file in the fabric's folder is read as part of the fabric; give the var file another "+
			"extension (%s; --var-file reads a file of any name) or move it out of the folder.",
			shown(base), shortList(quoted), shown(strings.TrimSuffix(base, filepath.Ext(base))+".tfvars"))
		if len(s.names) == 1 {
			s.d.Detail = strings.Replace(s.d.Detail, "as variables", "as a variable", 1)
		}
	}
	return out
}

// byPlace sorts names by where in the file each is set.
type byPlace struct {
	names []string
	bytes []int
}

func (p byPlace) Len() int           { return len(p.names) }
func (p byPlace) Less(i, j int) bool { return p.bytes[i] < p.bytes[j] }
func (p byPlace) Swap(i, j int) {
	p.names[i], p.names[j] = p.names[j], p.names[i]
	p.bytes[i], p.bytes[j] = p.bytes[j], p.bytes[i]
}
