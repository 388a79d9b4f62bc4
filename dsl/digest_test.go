package dsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceDigest: the digest changes with any byte of a fabric file or
// var file, and with a file added; it does not change when the folder
// moves.
func TestSourceDigest(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a/fabric.hcl", "fabric \"f\" {}\n")
	vars := write("v.tfvars", "x = 1\n")
	digest := func(dir string, varFiles ...string) string {
		d, err := SourceDigest(filepath.Join(root, dir), varFiles, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest("a", vars)
	write("b/fabric.hcl", "fabric \"f\" {}\n")
	if digest("b", vars) != base {
		t.Error("the same files in another folder give another digest")
	}
	write("b/fabric.hcl", "fabric \"g\" {}\n")
	if digest("b", vars) == base {
		t.Error("a changed fabric file keeps the digest")
	}
	if digest("a") == base {
		t.Error("leaving out the var file keeps the digest")
	}
	write("v.tfvars", "x = 2\n")
	if digest("a", vars) == base {
		t.Error("a changed var file keeps the digest")
	}
	write("v.tfvars", "x = 1\n")
	write("a/more.hcl", "vlan \"v\" {\n  id = 10\n}\n")
	if digest("a", vars) == base {
		t.Error("an added fabric file keeps the digest")
	}
	if _, err := SourceDigest(filepath.Join(root, "missing"), nil, nil); err == nil {
		t.Error("a missing fabric has a digest")
	}
}

// TestSourceDigestLineEnds: a fabric and var file checked out with CRLF
// line ends (git's core.autocrlf on Windows) or with a UTF-8 byte order
// mark are the text the parser reads, and give the digest of the LF
// copy; an edit of one character gives another.
func TestSourceDigestLineEnds(t *testing.T) {
	const fabric = "fabric \"f\" {\n  description = \"x\"\n}\n"
	const vars = "x = 1\ny = 2\n"
	digest := func(fabricText, varText string) string {
		dir := t.TempDir()
		fp, vp := filepath.Join(dir, "fabric.hcl"), filepath.Join(dir, "v.tfvars")
		for p, s := range map[string]string{fp: fabricText, vp: varText} {
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, err := SourceDigest(dir, []string{vp}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	const bom = "\ufeff"
	lf := digest(fabric, vars)
	for name, d := range map[string]string{
		"CRLF":       digest(crlf(fabric), crlf(vars)),
		"BOM":        digest(bom+fabric, bom+vars),
		"BOM + CRLF": digest(bom+crlf(fabric), vars),
	} {
		if d != lf {
			t.Errorf("the %s copy gives another digest than the LF one", name)
		}
	}
	if digest(crlf(strings.Replace(fabric, "\"x\"", "\"y\"", 1)), vars) == lf {
		t.Error("an edited CRLF copy keeps the digest")
	}
	if digest(fabric, "x = 1\ry = 2\n") == lf {
		t.Error("a lone CR, which is no newline, is taken for one")
	}
}
