package dsl

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// maxListed bounds how many instances or places a collapsed diagnostic
// names.
const maxListed = 5

// bareReference matches an expression that is only a variable or local
// reference, such as var.mtu or local.uplink_speed.
var bareReference = regexp.MustCompile(`^(var|local)\.[A-Za-z_][A-Za-z0-9_-]*$`)

// Collapse merges diagnostics that report one mistake several times:
//
//   - the same error at the same place, which happens when the place is
//     inside a dynamic block, a for_each or a port range and so stands
//     for many instances (30 NICs of one dynamic host block with the same
//     wrong MTU are one mistake, written once);
//   - the same error at places whose value is the same variable or local
//     (mtu = var.mtu in five port blocks, with a bad -var mtu).
//
// The first diagnostic of each group stays, in its place, and says how
// many instances share it and which (by InstanceOf, else by count); when
// the members' details differ (two instances with different bad
// values), it says the words are the first one's. For a variable, the
// other places become related places. A diagnostic that stands alone
// inside a dynamic block or a port range names its instance (one of
// thousands of cables written by one dynamic block is otherwise not to
// be found); other lone diagnostics are returned unchanged. files
// supplies the source text to recognise variable references and the
// syntax to find repeated blocks; without it only the first rule
// applies.
func Collapse(diags hcl.Diagnostics, files map[string]*hcl.File) hcl.Diagnostics {
	groups := map[string][]*hcl.Diagnostic{}
	var order []string
	for _, d := range diags {
		k := collapseKey(d, files)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], d)
	}
	out := make(hcl.Diagnostics, 0, len(order))
	var repeated repeatedBlocks
	for _, k := range order {
		g := groups[k]
		if len(g) == 1 && InstanceOf(g[0]) != "" && k != "" {
			if repeated == nil {
				repeated = findRepeatedBlocks(files)
			}
			out = append(out, nameInstance(g[0], repeated))
			continue
		}
		if len(g) == 1 || k == "" {
			out = append(out, g...)
			continue
		}
		ref := ""
		if strings.HasPrefix(k, "ref|") {
			ref = k[strings.LastIndex(k, "|")+1:]
		}
		what := "places that use " + ref
		if ref == "" {
			if repeated == nil {
				repeated = findRepeatedBlocks(files)
			}
			what = repeatedWhat(*g[0].Subject, repeated, files)
		}
		out = append(out, merge(g, ref, what))
	}
	return out
}

// collapseKey groups diagnostics that are one mistake; "" for one that
// cannot be grouped (no place).
func collapseKey(d *hcl.Diagnostic, files map[string]*hcl.File) string {
	if d.Subject == nil {
		return ""
	}
	head := fmt.Sprintf("%d|%s|", d.Severity, d.Summary)
	if ref := referenceAt(*d.Subject, files); ref != "" {
		return "ref|" + head + ref
	}
	r := d.Subject
	return fmt.Sprintf("at|%s%s:%d", head, r.Filename, r.Start.Byte)
}

// referenceAt returns the source text at r when it is a bare variable or
// local reference, else "".
func referenceAt(r hcl.Range, files map[string]*hcl.File) string {
	f := files[r.Filename]
	if f == nil || r.Start.Byte < 0 || r.End.Byte > len(f.Bytes) || r.Start.Byte >= r.End.Byte {
		return ""
	}
	text := strings.TrimSpace(string(f.Bytes[r.Start.Byte:r.End.Byte]))
	if bareReference.MatchString(text) {
		return text
	}
	return ""
}

// blockInstances is what a group at one place stands for when the place
// is inside a dynamic block or a port range, or when that is not known.
const blockInstances = "instances of this block (a dynamic block, for_each or port range)"

// repeatedWhat says what the members of a group at r are: instances of
// the block r is in, or, for a place outside such a block but inside a
// for expression (in locals, say), iterations of that expression.
func repeatedWhat(r hcl.Range, repeated repeatedBlocks, files map[string]*hcl.File) string {
	if !repeated.contain(r) && inForExpr(files[r.Filename], r) {
		return "iterations of a for expression"
	}
	return blockInstances
}

// inForExpr reports whether r lies inside a for expression of f.
func inForExpr(f *hcl.File, r hcl.Range) bool {
	if f == nil {
		return false
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return false
	}
	return bodyHasForAt(body, r)
}

// bodyHasForAt reports whether an attribute of body, at any depth, has
// a for expression spanning r.
func bodyHasForAt(body *hclsyntax.Body, r hcl.Range) bool {
	for _, a := range body.Attributes {
		if !contains(a.Expr.Range(), r) {
			continue
		}
		found := false
		hclsyntax.VisitAll(a.Expr, func(n hclsyntax.Node) hcl.Diagnostics {
			switch n.(type) {
			case *hclsyntax.ForExpr, *parallelFor:
				if contains(n.Range(), r) {
					found = true
				}
			}
			return nil
		})
		return found
	}
	for _, b := range body.Blocks {
		if contains(b.Range(), r) {
			return bodyHasForAt(b.Body, r)
		}
	}
	return false
}

// merge folds a group into its first diagnostic; ref is the variable or
// local the group's places share, "" for a group at one place; what
// names the group's members.
func merge(g []*hcl.Diagnostic, ref, what string) *hcl.Diagnostic {
	byReference := ref != ""
	first := *g[0]
	first.Extra = nil
	for _, rel := range RelatedOf(g[0]) {
		Also(&first, rel.Label, rel.Range)
	}
	var names []string
	named := 0
	for _, d := range g {
		if n := InstanceOf(d); n != "" {
			names = append(names, n)
			named++
		}
	}
	names = uniqueNames(names)
	count := len(g)
	if named == len(g) {
		// One instance may report twice (a switch-to-switch cable is too
		// long for the buffer at each end): count instances, not reports.
		count = len(names)
	}
	note := fmt.Sprintf(" One mistake, reported once for %d %s", count, what)
	if named == len(g) {
		note += ": " + shortList(names)
		extraOf(&first).instances = names
	}
	if !sameDetails(g) {
		// Two cables of one dynamic block with different bad lengths:
		// one line to fix, but the words are only the first's.
		note = fmt.Sprintf(" Reported once for %d %s, the text above for the first", count, what)
		if named == len(g) {
			note += ": " + shortList(names)
		}
	}
	first.Detail = strings.TrimSpace(sentence(first.Detail) + note + ".")
	if byReference {
		addPlaces(&first, g)
	}
	return &first
}

// addPlaces relates the places of the other members of a group.
func addPlaces(d *hcl.Diagnostic, g []*hcl.Diagnostic) {
	seen := map[hcl.Pos]bool{d.Subject.Start: true}
	shown := 0
	for _, o := range g[1:] {
		if seen[o.Subject.Start] || shown == maxListed {
			continue
		}
		seen[o.Subject.Start] = true
		shown++
		Also(d, "the same value is used here", *o.Subject)
	}
}

// uniqueNames drops repeated names, keeping the first of each.
func uniqueNames(names []string) []string {
	seen := map[string]bool{}
	out := names[:0:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// shortList is "a, b, c" or "a, b, c, d, e and 7 more".
func shortList(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxListed], ", "), len(names)-maxListed)
}

// sameDetails reports whether every member of g says the same, apart
// from its own instance's name: thirty NICs with the same wrong MTU
// ("gpu07:nic1 has MTU 9500"), not two cables with different bad
// lengths.
func sameDetails(g []*hcl.Diagnostic) bool {
	want := ownNameless(g[0])
	for _, d := range g[1:] {
		if ownNameless(d) != want {
			return false
		}
	}
	return true
}

// ownNameless is d's detail with its instance's name taken out: the
// name itself ("gpu07:nic1") and each of its parts where the detail
// quotes them (nic "nic1" of host "gpu07").
func ownNameless(d *hcl.Diagnostic) string {
	n := InstanceOf(d)
	if n == "" {
		return d.Detail
	}
	out := strings.ReplaceAll(d.Detail, n, "\x00")
	for _, part := range strings.Split(n, ":") {
		out = strings.ReplaceAll(out, strconv.Quote(part), "\x00")
	}
	return out
}

// nameInstance returns d, with its instance named when its place stands
// for many (inside a dynamic block or a port range) and its detail does
// not name it already.
func nameInstance(d *hcl.Diagnostic, repeated repeatedBlocks) *hcl.Diagnostic {
	n := InstanceOf(d)
	if !repeated.contain(*d.Subject) || strings.Contains(d.Detail, n) {
		return d
	}
	named := *d
	named.Detail = strings.TrimSpace(d.Detail + " Reported for " + n +
		", one instance of this block (a dynamic block, for_each or port range).")
	return &named
}

// repeatedBlocks holds, by file name, the ranges of the outermost blocks
// whose body stands for many instances: dynamic blocks and port blocks
// whose label is a range or a list of ports. Each file's ranges are in
// source order and do not overlap.
type repeatedBlocks map[string][]hcl.Range

// findRepeatedBlocks walks the native syntax of files (a file in another
// syntax, or without one, has none).
func findRepeatedBlocks(files map[string]*hcl.File) repeatedBlocks {
	out := repeatedBlocks{}
	for name, f := range files {
		if f == nil {
			continue
		}
		if body, ok := f.Body.(*hclsyntax.Body); ok {
			out[name] = appendRepeated(nil, body)
		}
	}
	return out
}

// appendRepeated appends the outermost repeated blocks below body, in
// source order (a body's blocks are in source order).
func appendRepeated(out []hcl.Range, body *hclsyntax.Body) []hcl.Range {
	for _, b := range body.Blocks {
		if isRepeated(b) {
			out = append(out, b.Range())
			continue
		}
		out = appendRepeated(out, b.Body)
	}
	return out
}

// isRepeated reports whether b stands for many instances.
func isRepeated(b *hclsyntax.Block) bool {
	if b.Type == "dynamic" {
		return true
	}
	if b.Type != "port" || len(b.Labels) == 0 {
		return false
	}
	names, err := ExpandPorts(b.Labels[0])
	return err == nil && len(names) > 1
}

// contain reports whether r lies inside one of the repeated blocks.
func (rb repeatedBlocks) contain(r hcl.Range) bool {
	blocks := rb[r.Filename]
	i := sort.Search(len(blocks), func(i int) bool { return blocks[i].End.Byte > r.Start.Byte })
	return i < len(blocks) && blocks[i].Start.Byte <= r.Start.Byte
}

// sentence ends s with a full stop unless it ends a sentence already, so
// that a note appended to it starts a sentence of its own.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?:") {
		return s
	}
	return s + "."
}
