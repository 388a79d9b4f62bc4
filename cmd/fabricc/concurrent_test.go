package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push"
)

// TestConcurrentBuildsOneFolder runs two fabricc processes building
// different fabrics into one folder at once, three times, from a folder
// with a kept build beside it (.out.prev). Both must succeed, one after
// the other: each round's builds start together and the larger takes
// half a second, so a build must say it waits. The folder must then hold
// exactly the files its manifest lists, with their bytes, as
// push.LoadArtifacts checks. Before the folder's lock, both claimed the
// kept build and one failed now and then with "mkdir ...: file exists".
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
		// push reads a build folder only when it holds exactly the files
		// its manifest lists, each with its SHA-256.
		if _, err := push.LoadArtifacts(out); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	if waited == 0 {
		t.Errorf("in %d rounds of two builds started together, no build waited for the other", rounds)
	}
}
