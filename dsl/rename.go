package dsl

import "github.com/hashicorp/hcl/v2"

// RenameFiles returns copies of diags and files with rename applied to
// every file name they hold: each diagnostic's subject, context and
// related places, and the keys of files (which snippets are read from);
// and to the text of summaries, details and related labels, which name
// files too ("the first is at FILE:LINE"). A caller that compiled files
// from a temporary folder shows them under the name the user knows.
// diags and files are not modified.
func RenameFiles(diags hcl.Diagnostics, files map[string]*hcl.File, rename func(string) string) (hcl.Diagnostics, map[string]*hcl.File) {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		c.Summary, c.Detail = rename(c.Summary), rename(c.Detail)
		c.Subject, c.Context = renameRange(c.Subject, rename), renameRange(c.Context, rename)
		if e, ok := d.Extra.(*extra); ok {
			ce := &extra{instance: e.instance}
			for _, r := range e.related {
				r.Label, r.Range.Filename = rename(r.Label), rename(r.Range.Filename)
				ce.related = append(ce.related, r)
			}
			c.Extra = ce
		}
		out[i] = &c
	}
	renamed := make(map[string]*hcl.File, len(files))
	for name, f := range files {
		renamed[rename(name)] = f
	}
	return out, renamed
}

// renameRange is a copy of r with its file renamed, or nil.
func renameRange(r *hcl.Range, rename func(string) string) *hcl.Range {
	if r == nil {
		return nil
	}
	c := *r
	c.Filename = rename(c.Filename)
	return &c
}
