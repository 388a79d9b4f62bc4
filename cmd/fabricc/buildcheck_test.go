package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestBuildCheck: build --check renders in memory, compares with DIR
// byte for byte, lists what differs and exits 0 same, 2 differs, 1 an
// error (a wrong command line included); --diff adds unified diffs. It
// writes nothing: not DIR, nor .DIR.prev, .DIR.fingerprints or .DIR.lock
// beside it.
func TestBuildCheck(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "golden"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	before := treeSnapshot(t, ".")
	code, stdout, stderr := fabricc(t, "build", "fab", "-o", "golden", "--check")
	if !endsWithLine(stderr, "golden is up to date: its 14 files are what fabricc build fab writes\n") || code != 0 || stdout != "" {
		t.Errorf("--check of a current folder: exit %d\n%s\n%s", code, stdout, stderr)
	}

	writeFabric(t, "fab", strings.Replace(string(src), "length = 3\n", "length = 30\n", 1))
	if err := os.WriteFile(filepath.Join("golden", "extra.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join("golden", "fabric.md")); err != nil {
		t.Fatal(err)
	}
	before = treeSnapshot(t, ".")
	code, stdout, stderr = fabricc(t, "build", "fab", "-o", "golden", "--check")
	want := "removed golden/extra.txt\n" +
		"new golden/fabric.md\n" +
		"changed golden/leaf1/leaf1.buffer.svg\n" +
		"changed golden/leaf1/leaf1.md\n" +
		"changed golden/leaf1/leaf1.nvue.sh\n" +
		"changed golden/leaf1/leaf1.nvue.yaml\n" +
		"changed golden/leaf1/leaf1.openconfig.md\n" +
		"changed golden/manifest.json\n" +
		"changed golden/model.json\n" +
		"changed golden/node2/node2.linux.sh\n" +
		"changed golden/node2/node2.md\n"
	summary := "golden differs from the build of fab: 9 changed, 1 new, 1 removed; run fabricc build fab -o golden to update it\n"
	if code != 2 || stdout != want || !endsWithLine(stderr, summary) {
		t.Errorf("--check of a stale folder: exit %d\n%s\nwant exit 2 and\n%s\n%s", code, stdout, want, stderr)
	}
	code, stdout, _ = fabricc(t, "build", "fab", "-o", "golden", "--check", "--diff")
	for _, hunk := range []string{
		"removed golden/extra.txt\n--- golden/extra.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
		"new golden/fabric.md\n--- /dev/null\n+++ golden/fabric.md (built)\n@@ -0,0 +1,90 @@\n+# Fabric tutorial\n",
		"changed golden/leaf1/leaf1.nvue.sh\n--- golden/leaf1/leaf1.nvue.sh\n+++ golden/leaf1/leaf1.nvue.sh (built)\n",
		"-nv set qos pfc pfc-sp3-100g-3m cable-length 3\n",
		"+nv set qos pfc pfc-sp3-100g-30m cable-length 30\n",
	} {
		if code != 2 || !strings.Contains(stdout, hunk) {
			t.Errorf("--check --diff: exit %d, stdout lacks\n%s\nin\n%s", code, hunk, stdout)
		}
	}
	code, stdout, _ = fabricc(t, "build", "fab", "-o", "golden", "--check", "--json")
	var env struct {
		OK     bool
		Result checkResult
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 2 || !env.OK || env.Result.Same || env.Result.Files != 14 ||
		strings.Join(env.Result.Removed, ",") != "extra.txt" || strings.Join(env.Result.New, ",") != "fabric.md" || len(env.Result.Changed) != 9 {
		t.Errorf("--check --json: exit %d, %v\n%s", code, err, stdout)
	}
	if after := treeSnapshot(t, "."); after != before {
		t.Errorf("--check wrote:\nbefore\n%s\nafter\n%s", before, after)
	}
	// A wrong command line with --check is 1 (2 is "differs"); without
	// it, as every build, 2.
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"build", "fab", "-o", "golden", "--check", "--nosuch"}, 1},
		{[]string{"build", "fab", "-o", "golden", "--diff"}, 2},
		{[]string{"build", "fab", "-o", "golden", "--nosuch"}, 2},
	} {
		if code, _, _ := fabricc(t, c.args...); code != c.code {
			t.Errorf("%q: exit %d, want %d", c.args, code, c.code)
		}
	}
}

// treeSnapshot lists every entry under root with its mode, modification
// time, size and a regular file's bytes: what a write would change.
func treeSnapshot(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprint(p, " ", fi.Mode(), " ", fi.ModTime(), " ", fi.Size()))
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			lines = append(lines, "  "+string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
