package dsl

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// templateInLabel is hclsyntax's detail for ${...} in a quoted string
// that takes no template: a block label.
const templateInLabel = "Template sequences are not allowed in this string."

// missingLabels is the dynamic block extension's detail for a dynamic
// block without its labels argument.
const missingLabels = `The argument "labels" is required, but no definition was found.`

// blockTypeBefore finds the block type word that a label at the end of
// a line prefix follows: `  port "swp1-${`, `dynamic "switch"`.
var blockTypeBefore = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_-]*)\s+"[^"\n]*$`)

// explainBlockLabels says how to compute block labels where HCL only
// says what is not allowed: a label cannot hold ${...} (a dynamic block's
// labels can), and a dynamic block of a labelled block type needs them.
// A label with two template sequences gets one error, not one each
// (one per line: a label cannot span lines).
func explainBlockLabels(diags hcl.Diagnostics, files map[string]*hcl.File) hcl.Diagnostics {
	out := diags[:0:0]
	type label struct {
		file string
		line int
	}
	seen := map[label]bool{}
	for _, d := range diags {
		switch {
		case d.Subject == nil:
		case strings.HasPrefix(d.Detail, templateInLabel):
			at := label{d.Subject.Filename, d.Subject.Start.Line}
			if seen[at] {
				continue
			}
			seen[at] = true
			d.Summary = "Computed block label"
			d.Detail = labelTemplateDetail(typeBefore(files, *d.Subject))
		case repeatArgument.MatchString(d.Detail):
			if hint := repeatHint(files, *d.Subject, repeatArgument.FindStringSubmatch(d.Detail)[1]); hint != "" {
				d.Detail += " " + hint
			}
		case strings.HasPrefix(d.Detail, "An argument named ") && innermostType(files, *d.Subject) == "dcqcn":
			d.Detail += " " + dcqcnNamesHint()
		case d.Detail == missingLabels:
			if t := dynamicTypeAt(files, *d.Subject); t != "" {
				d.Detail = dynamicLabelsDetail(t)
			}
		}
		out = append(out, d)
	}
	return out
}

// labelTemplateDetail explains a ${...} in a label of a block of type t.
func labelTemplateDetail(t string) string {
	if t == "" || t == "dynamic" {
		t = "BLOCK"
	}
	return fmt.Sprintf("A block label is a plain string and cannot hold ${...}. To make %s blocks whose labels are computed, write a dynamic block: "+
		"dynamic %q { for_each = ..., labels = [format(...)], content { ... } } (docs/language.md, \"Variables, locals, functions and dynamic blocks\"). A literal \"$\" is written \"$$\".", t, t)
}

// dynamicLabelsDetail explains the labels a dynamic block of type t
// needs.
func dynamicLabelsDetail(t string) string {
	if t == "" {
		t = "BLOCK"
	}
	return fmt.Sprintf("A dynamic %q block makes one %s block per for_each element, and each needs its label: add labels = [...] beside for_each, for example labels = [%s.key] or labels = [format(\"name%%d\", %s.value)] (the iterator is named after the block unless iterator = ... names it).", t, t, t, t)
}

// typeBefore is the block type word before the label that r starts in,
// read from the source line up to r's start, or "".
func typeBefore(files map[string]*hcl.File, r hcl.Range) string {
	f := files[r.Filename]
	if f == nil || r.Start.Byte > len(f.Bytes) {
		return ""
	}
	line := f.Bytes[:r.Start.Byte]
	if i := strings.LastIndexByte(string(line), '\n'); i >= 0 {
		line = line[i+1:]
	}
	m := blockTypeBefore.FindSubmatch(line)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// dynamicHeader matches a dynamic block's header and its quoted type.
var dynamicHeader = regexp.MustCompile(`\bdynamic\s+"([A-Za-z_][A-Za-z0-9_-]*)"`)

// dynamicTypeAt is the quoted type of the dynamic block whose header is
// on the line r starts on (`dynamic "switch" {` gives "switch"), or "".
func dynamicTypeAt(files map[string]*hcl.File, r hcl.Range) string {
	f := files[r.Filename]
	if f == nil || r.Start.Byte > len(f.Bytes) {
		return ""
	}
	src := string(f.Bytes)
	start := strings.LastIndexByte(src[:r.Start.Byte], '\n') + 1
	end := strings.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src) - start
	}
	m := dynamicHeader.FindStringSubmatch(src[start : start+end])
	if m == nil {
		return ""
	}
	return m[1]
}

// repeatArgument is HCL's detail for for_each or count written in a
// block, as a Terraform resource takes them.
var repeatArgument = regexp.MustCompile(`^An argument named "(for_each|count)" is not expected here\.`)

// repeatHint points a for_each or count written in a block at the
// dynamic block that repeats it, or "" when the block is not found.
func repeatHint(files map[string]*hcl.File, r hcl.Range, arg string) string {
	chain := blocksAround(files, r)
	if len(chain) == 0 {
		return ""
	}
	b := chain[len(chain)-1]
	if b.Type == "content" && len(chain) > 1 && chain[len(chain)-2].Type == "dynamic" {
		return fmt.Sprintf("In a dynamic block, %s goes beside content, not inside it; a dynamic block repeats with for_each only.", arg)
	}
	if b.Type == "dynamic" {
		if arg == "count" {
			return "A dynamic block repeats with for_each: for_each = range(N) makes N blocks."
		}
		return ""
	}
	t := b.Type
	if len(b.Labels) == 0 && t != "link" {
		return "" // a block there is one of (qos, pfc_watchdog, ...)
	}
	each, labels, many := "for_each = ...", "", "one per for_each element"
	if arg == "count" {
		each, many = "for_each = range(N)", "N of them"
	}
	if len(b.Labels) > 0 {
		labels = fmt.Sprintf(", labels = [%s.key]", t)
		if arg == "count" {
			labels = fmt.Sprintf(", labels = [format(\"name%%d\", %s.value)]", t)
		}
	}
	return fmt.Sprintf("A %s block makes one %s; to make %s, write a dynamic block: "+
		"dynamic %q { %s%s, content { ... } } (docs/language.md, \"Variables, locals, functions and dynamic blocks\").",
		t, t, many, t, each, labels)
}

// blocksAround is the chain of blocks, outermost first, whose bodies hold
// r, or none.
func blocksAround(files map[string]*hcl.File, r hcl.Range) []*hclsyntax.Block {
	f := files[r.Filename]
	if f == nil {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	var chain []*hclsyntax.Block
	for {
		var inner *hclsyntax.Block
		for _, b := range body.Blocks {
			if contains(b.Range(), r) {
				inner = b
				break
			}
		}
		if inner == nil {
			return chain
		}
		chain = append(chain, inner)
		body = inner.Body
	}
}

// innermostType is the type of the innermost block holding r, or "".
func innermostType(files map[string]*hcl.File, r hcl.Range) string {
	chain := blocksAround(files, r)
	if len(chain) == 0 {
		return ""
	}
	return chain[len(chain)-1].Type
}

// dcqcnNamesHint names the parameters a dcqcn block takes.
func dcqcnNamesHint() string {
	return "A dcqcn block takes " + strings.Join(DCQCNNames(), ", ") +
		` (MLNX_OFED's names; docs/language.md, "DCQCN parameters").`
}
