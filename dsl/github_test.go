package dsl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestWriteGitHub(t *testing.T) {
	_, diags := diagFixture()
	var b bytes.Buffer
	if err := WriteGitHub(&b, diags, ""); err != nil {
		t.Fatal(err)
	}
	want := "::error title=Undeclared variable::-var sets \"x\".\n" +
		"::warning file=a.hcl,line=3,col=9,endLine=3,endColumn=14,title=MTU out of range::MTU out of range\n" +
		"::error file=b.hcl,line=1,col=1,endLine=1,endColumn=11,title=Duplicate switch::Switch \"s\" is declared twice.\n" +
		"::notice file=a.hcl,line=2,col=1,endLine=2,endColumn=11,title=note%3A Duplicate switch::first declared here\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("github (-want +got):\n%s", d)
	}
}

// TestWriteGitHubHostile: text from the fabric (a file name, a summary,
// a detail quoting a user string) stays inside its one command, and the
// runner reads back exactly what was written, as the Actions runner
// parses a command (actions/runner, ActionCommand.cs, TryParseV2: the
// command ends at the first "::" after its name, properties split at ','
// and '=', then unescaped).
func TestWriteGitHubHostile(t *testing.T) {
	file := "dir,x=1::y/%0A.hcl"
	summary := "Bad name: a,b"
	detail := "line one\n::set-env name=X::1\r\n50% done, 100%0A"
	r := hcl.Range{Filename: file, Start: hcl.Pos{Line: 2, Column: 3}, End: hcl.Pos{Line: 2, Column: 8}}
	var b bytes.Buffer
	if err := WriteGitHub(&b, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &r}}, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines, want 1:\n%s", len(lines), b.String())
	}
	name, props, msg := parseRunnerCommand(t, lines[0])
	want := map[string]string{"file": file, "line": "2", "col": "3", "endLine": "2", "endColumn": "8", "title": summary}
	if name != "error" || !cmp.Equal(props, want) || msg != detail {
		t.Errorf("read back %q %q %q\nwant error %q %q", name, props, msg, want, detail)
	}
}

// parseRunnerCommand reads "::name k=v,k=v::message" as the runner does.
func parseRunnerCommand(t *testing.T, line string) (string, map[string]string, string) {
	t.Helper()
	if !strings.HasPrefix(line, "::") {
		t.Fatalf("not a command: %q", line)
	}
	end := strings.Index(line[2:], "::")
	if end < 0 {
		t.Fatalf("no end of command: %q", line)
	}
	info, msg := line[2:2+end], line[2+end+2:]
	name, rest, _ := strings.Cut(info, " ")
	props := map[string]string{}
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			t.Fatalf("property without '=': %q in %q", kv, line)
		}
		props[k] = unescapeRunner(v, true)
	}
	return name, props, unescapeRunner(msg, false)
}

// unescapeRunner undoes the escaping (ActionCommand.cs, UnescapeProperty
// and UnescapeData; %25 last, so "%250A" stays "%0A").
func unescapeRunner(s string, property bool) string {
	pairs := []string{"%0D", "\r", "%0A", "\n"}
	if property {
		pairs = append(pairs, "%3A", ":", "%2C", ",")
	}
	for i := 0; i < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return strings.ReplaceAll(s, "%25", "%")
}

// TestGitHubPaths: an annotation's file= is relative to the repository's
// root (base), whatever the current folder and however the fabric path
// was given (GitHub shows it on the pull request's files only then),
// in forward slashes; a file outside the root, or no root, keeps its name.
func TestGitHubPaths(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "fabric")
	if err := os.MkdirAll(filepath.Join(sub, "pod1"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "x.hcl")
	for _, tc := range []struct {
		name, cwd, file, base, want string
	}{
		{"relative, from the root", repo, "fabric/switches.hcl", repo, "fabric/switches.hcl"},
		{"./, from the root", repo, "./fabric/switches.hcl", repo, "fabric/switches.hcl"},
		{"relative, from the fabric folder (working-directory)", sub, "switches.hcl", repo, "fabric/switches.hcl"},
		{"./, from the fabric folder", sub, "./switches.hcl", repo, "fabric/switches.hcl"},
		{"subfolder, from the fabric folder", sub, "pod1/leaves.hcl", repo, "fabric/pod1/leaves.hcl"},
		{"absolute", sub, filepath.Join(sub, "pod1", "leaves.hcl"), repo, "fabric/pod1/leaves.hcl"},
		{"parent folder, from a subfolder", filepath.Join(sub, "pod1"), "../switches.hcl", repo, "fabric/switches.hcl"},
		{"outside the root", sub, outside, repo, filepath.ToSlash(outside)},
		{"no root", sub, "./switches.hcl", "", "./switches.hcl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.cwd)
			r := hcl.Range{Filename: tc.file, Start: hcl.Pos{Line: 17, Column: 9}, End: hcl.Pos{Line: 17, Column: 13}}
			var b bytes.Buffer
			if err := WriteGitHub(&b, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported argument", Subject: &r}}, tc.base); err != nil {
				t.Fatal(err)
			}
			want := "::error file=" + tc.want + ",line=17,col=9,endLine=17,endColumn=13,title=Unsupported argument::Unsupported argument\n"
			if b.String() != want {
				t.Errorf("got  %q\nwant %q", b.String(), want)
			}
		})
	}
}
