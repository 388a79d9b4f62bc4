package artifacts

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/targets/docs"
	"github.com/hashicorp/hcl/v2"
)

// Warnings converts the warnings among diags into the plain records
// fabric.md lists, in the order the diagnostics are printed. File names
// are made relative to the fabric at path (its folder, or the folder of
// a single file), so the document does not depend on where the build
// was started from.
func Warnings(diags hcl.Diagnostics, path string) []docs.Warning {
	root := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		root = filepath.Dir(path)
	}
	var out []docs.Warning
	for _, d := range WarningDiagnostics(diags) {
		w := docs.Warning{Summary: d.Summary, Detail: d.Detail}
		if d.Subject != nil {
			w.Place = place(root, "", *d.Subject)
		}
		for _, r := range dsl.RelatedOf(d) {
			w.Related = append(w.Related, place(root, r.Label, r.Range))
		}
		out = append(out, w)
	}
	return out
}

// WarningDiagnostics are the warnings of diags in the order fabric.md
// lists them (Warnings): its warning/<i> is the i-th.
func WarningDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range dsl.SortDiagnostics(diags) {
		if d.Severity == hcl.DiagWarning {
			out = append(out, d)
		}
	}
	return out
}

// place converts a source range to a docs.Place relative to root.
func place(root, label string, r hcl.Range) docs.Place {
	name := r.Filename
	if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	return docs.Place{Label: label, File: filepath.ToSlash(name), Line: r.Start.Line, Column: r.Start.Column}
}
