package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
)

// TestConcurrentBuildsOneFolder runs two fabricc processes building
// different fabrics into one folder at once, three times, from a folder
// with a kept build beside it (.out.prev). Both must succeed, one after
// the other: each round's builds start together and the larger takes
// half a second, so a build must say it waits. The folder must then hold
// exactly the files its manifest lists, with their bytes. Before the
// folder's lock, both claimed the kept build and one failed now and then
// with "mkdir ...: file exists".
func TestConcurrentBuildsOneFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts fabricc processes")
	}
	bin := buildBinary(t)
	out := filepath.Join(t.TempDir(), "out")
	fabrics := [][]string{
		{filepath.Join("..", "..", "bench", "fabric"), "--large", "-var", "switches=64"},
		{filepath.Join("..", "..", "examples", "multivendor-clos")},
	}
	build := func(f []string) *exec.Cmd { return exec.Command(bin, append([]string{"build", "-o", out}, f...)...) }
	for _, f := range fabrics {
		if b, err := build(f).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", f, err, b)
		}
	}
	const rounds = 3
	waited := 0
	for round := 0; round < rounds; round++ {
		cmds := make([]*exec.Cmd, len(fabrics))
		outputs := make([]*strings.Builder, len(fabrics))
		for i, f := range fabrics {
			outputs[i] = &strings.Builder{}
			cmds[i] = build(f)
			cmds[i].Stdout, cmds[i].Stderr = outputs[i], outputs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("round %d: build %s: %v\n%s", round, fabrics[i], err, outputs[i])
			}
			if strings.Contains(outputs[i].String(), "is writing "+out+"; waiting for it to finish") {
				waited++
			}
		}
		checkFolderIsManifest(t, out)
	}
	if waited == 0 {
		t.Errorf("in %d rounds of two builds started together, no build waited for the other", rounds)
	}
}

// checkFolderIsManifest fails t unless dir holds exactly the files its
// manifest.json lists (and manifest.json), each with the listed SHA-256.
func checkFolderIsManifest(t *testing.T, dir string) {
	t.Helper()
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == artifacts.ManifestFile {
			return nil
		}
		want, ok := m.Files[rel]
		if !ok {
			t.Errorf("%s holds %s, which its manifest does not list", dir, rel)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if got := artifacts.Digest(data); got != want {
			t.Errorf("%s: SHA-256 %s, the manifest says %s", rel, got, want)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(m.Files) {
		t.Errorf("%s holds %d of the %d files its manifest lists", dir, seen, len(m.Files))
	}
}
