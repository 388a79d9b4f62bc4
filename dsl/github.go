package dsl

import (
	"io"
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
func WriteGitHub(w io.Writer, diags hcl.Diagnostics) error {
	var b strings.Builder
	for _, d := range SortDiagnostics(diags) {
		props := place(d.Subject)
		props = append(props, "title="+githubProperty(d.Summary))
		msg := d.Detail
		if msg == "" {
			msg = d.Summary
		}
		writeCommand(&b, githubLevel(d.Severity), props, msg)
		for _, rel := range RelatedOf(d) {
			writeCommand(&b, "notice", append(place(&rel.Range), "title="+githubProperty("note: "+d.Summary)), rel.Label)
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

// place is the file and range properties of r; none without a range.
func place(r *hcl.Range) []string {
	if r == nil || r.Filename == "" {
		return nil
	}
	return []string{
		"file=" + githubProperty(r.Filename),
		"line=" + strconv.Itoa(r.Start.Line),
		"col=" + strconv.Itoa(r.Start.Column),
		"endLine=" + strconv.Itoa(r.End.Line),
		"endColumn=" + strconv.Itoa(r.End.Column),
	}
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
