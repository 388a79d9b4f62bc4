package dsl

import (
	"os"
	"path/filepath"
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
