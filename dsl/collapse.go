package dsl

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
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
// many instances share it and which (by InstanceOf, else by count); for
// a variable, the other places become related places. Diagnostics that
// stand alone are returned unchanged. files supplies the source text to
// recognise variable references; without it only the first rule
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
	for _, k := range order {
		g := groups[k]
		if len(g) == 1 || k == "" {
			out = append(out, g...)
			continue
		}
		ref := ""
		if strings.HasPrefix(k, "ref|") {
			ref = k[strings.LastIndex(k, "|")+1:]
		}
		out = append(out, merge(g, ref))
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

// merge folds a group into its first diagnostic; ref is the variable or
// local the group's places share, "" for a group at one place.
func merge(g []*hcl.Diagnostic, ref string) *hcl.Diagnostic {
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
	what := "instances of this block (a dynamic block, for_each or port range)"
	if byReference {
		what = "places that use " + ref
	}
	note := fmt.Sprintf(" One mistake, reported once for %d %s", len(g), what)
	if named == len(g) {
		note += ": " + shortList(names)
	}
	first.Detail = strings.TrimSpace(first.Detail + note + ".")
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
