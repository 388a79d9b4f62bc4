//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/fabricc/fabricc/push"
)

// TestConcurrentBuildsOneFolder runs two fabricc processes building
// different fabrics into one folder at once, three times, from a folder
// with a kept build beside it (.out.prev). The test holds the folder's
// lock as another build would (its process id in .out.lock, flock) while
// it starts both, so that each must say it waits, naming the test's
// process, whatever the machine's speed; it then lets go, and both must
// succeed, one after the other. The folder must then hold exactly the
// files its manifest lists, with their bytes, as push.LoadArtifacts
// checks. Before the folder's lock, both claimed the kept build and one
// failed now and then with "mkdir ...: file exists".
func TestConcurrentBuildsOneFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts fabricc processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
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
	waitLine := fmt.Sprintf("another fabricc build (process %d) is writing %s; waiting for it to finish", os.Getpid(), out)
	for round := 0; round < 3; round++ {
		release := holdBuildLock(t, filepath.Join(dir, ".out.lock"))
		cmds := make([]*exec.Cmd, len(fabrics))
		logs := make([]string, len(fabrics))
		for i, f := range fabrics {
			logs[i] = filepath.Join(dir, fmt.Sprintf("build%d-%d.log", round, i))
			cmds[i] = startLogged(t, build(f), logs[i])
		}
		for i := range cmds {
			if !eventually(func() bool { return strings.Contains(readText(logs[i]), waitLine) }) {
				release()
				t.Fatalf("round %d: build %s does not say it waits for the lock's holder (%q):\n%s", round, fabrics[i], waitLine, readText(logs[i]))
			}
		}
		release()
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("round %d: build %s: %v\n%s", round, fabrics[i], err, readText(logs[i]))
			}
		}
		// push reads a build folder only when it holds exactly the files
		// its manifest lists, each with its SHA-256.
		if _, err := push.LoadArtifacts(out); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// holdBuildLock takes the lock file of a build folder as a build does
// (its process id, then flock) and returns what lets it go: the file
// removed, then closed, as the build that held it does.
func holdBuildLock(t *testing.T, path string) func() {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strconv.Itoa(os.Getpid()) + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Remove(path)
		f.Close()
	}
}

// startLogged starts cmd with its output in the file at path.
func startLogged(t *testing.T, cmd *exec.Cmd, path string) *exec.Cmd {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// readText is the file's text, "" when it cannot be read.
func readText(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// eventually polls ok for up to two minutes: a deadline for a process to
// get somewhere on a loaded machine, not a measure of its speed.
func eventually(ok func() bool) bool {
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}
