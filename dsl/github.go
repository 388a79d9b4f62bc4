package dsl

import (
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// WriteGitHub writes diags as GitHub Actions workflow commands, one line
// each ("Workflow commands for GitHub Actions": error, warning, notice),
// which a workflow run shows as annotations on the lines of the pull
// request: "::error file=F,line=L,col=C,endLine=L,endColumn=C,title=
// SUMMARY::DETAIL". Each related place is a notice on its own line.
//
// The runner reads a command from the start of a line, so every value is
// escaped as GitHub's own toolkit escapes it (actions/toolkit,
// packages/core/src/command.ts, escapeData and escapeProperty): a line
// break in a message stays inside its command and cannot start another.
//
// GitHub places an annotation on a pull request's "Files changed" only
// when file= is relative to the repository's root ($GITHUB_WORKSPACE):
// a file name relative to a step's working-directory, or absolute, is
// shown in the run's summary alone. So each file is written relative to
// base, the repository's root, with forward slashes; a file outside
// base, or any file when base is "", is written as the diagnostic names
// it (forward slashes too).
func WriteGitHub(w io.Writer, diags hcl.Diagnostics, base string) error {
	var b strings.Builder
	for _, d := range SortDiagnostics(diags) {
		props := place(d.Subject, base)
		props = append(props, "title="+githubProperty(d.Summary))
		msg := d.Detail
		if msg == "" {
			msg = d.Summary
		}
		writeCommand(&b, githubLevel(d.Severity), props, msg)
		for _, rel := range RelatedOf(d) {
			writeCommand(&b, "notice", append(place(&rel.Range, base), "title="+githubProperty("note: "+d.Summary)), rel.Label)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCommand appends "::level props::message" and a line break.
func writeCommand(b *strings.Builder, level string, props []string, message string) {
	b.WriteString("::" + level)
	if len(props) > 0 {
		b.WriteString(" " + strings.Join(props, ","))
	}
	b.WriteString("::" + githubData(message) + "\n")
}

// place is the file and range properties of r, its file relative to
// base (GitHubPath); none without a range.
func place(r *hcl.Range, base string) []string {
	if r == nil || r.Filename == "" {
		return nil
	}
	return []string{
		"file=" + githubProperty(GitHubPath(r.Filename, base)),
		"line=" + strconv.Itoa(r.Start.Line),
		"col=" + strconv.Itoa(r.Start.Column),
		"endLine=" + strconv.Itoa(r.End.Line),
		"endColumn=" + strconv.Itoa(r.End.Column),
	}
}

// GitHubPath is file as a GitHub annotation names it: relative to base
// (the repository's root) when file is inside it, in forward slashes.
// The current folder makes a relative file absolute; symbolic links on
// the way (a runner's workspace reached through a link) are followed
// when the plain paths do not nest.
func GitHubPath(file, base string) string {
	if base != "" {
		if rel, ok := under(file, base); ok {
			return filepath.ToSlash(rel)
		}
		rf, err1 := filepath.EvalSymlinks(file)
		rb, err2 := filepath.EvalSymlinks(base)
		if err1 == nil && err2 == nil {
			if rel, ok := under(rf, rb); ok {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(file)
}

// under is file relative to base when it is inside base.
func under(file, base string) (string, bool) {
	af, err1 := filepath.Abs(file)
	ab, err2 := filepath.Abs(base)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(ab, af)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// githubLevel is the workflow command of a severity.
func githubLevel(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

// githubData escapes a command's message (escapeData).
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// githubProperty escapes a property value (escapeProperty): also the
// ':' and ',' that end a property.
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
