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

// TestBuildWaitsForReaders: a fabricc build into a folder that push,
// diff or verify --artifacts reads waits for it and says so, naming the
// reader's process; diff --artifacts of a folder a build writes waits
// for the build and says so; two readers do not wait for each other.
// The test holds the folder's lock as the other process would (its
// process id, then flock shared or exclusive), so every wait is certain
// whatever the machine's speed.
func TestBuildWaitsForReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("starts fabricc processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	fabric := filepath.Join("..", "..", "examples", "tutorial")
	if b, err := exec.Command(bin, "build", fabric, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	inv := filepath.Join(dir, "inv.hcl")
	if err := os.WriteFile(inv, []byte("defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(dir, ".out.lock")
	diff := func() *exec.Cmd {
		return exec.Command(bin, "diff", "--artifacts", out, "-i", inv, "--insecure-ignore-host-key")
	}

	// A reader holds the folder: the build waits for it.
	release := holdLock(t, lock, fmt.Sprintf("%d read\n", os.Getpid()), unix.LOCK_SH)
	log := filepath.Join(dir, "build.log")
	build := startLogged(t, exec.Command(bin, "build", fabric, "-o", out), log)
	waitLine := fmt.Sprintf("build: a fabricc push, diff or verify (process %d) is reading %s; waiting for it to finish", os.Getpid(), out)
	if !eventually(func() bool { return strings.Contains(readText(log), waitLine) }) {
		release()
		t.Fatalf("the build does not say it waits for the reader (%q):\n%s", waitLine, readText(log))
	}
	// Another reader does not wait for this one: diff runs to its end
	// (it cannot reach the switch) while the test still reads.
	b, _ := diff().CombinedOutput()
	if strings.Contains(string(b), "waiting") || !strings.Contains(string(b), "leaf1") {
		t.Errorf("diff while another reader holds the folder waited or did not run:\n%s", b)
	}
	release()
	if err := build.Wait(); err != nil {
		t.Fatalf("build: %v\n%s", err, readText(log))
	}

	// A build holds the folder: diff waits for it.
	release = holdLock(t, lock, fmt.Sprintf("%d\n", os.Getpid()), unix.LOCK_EX)
	log = filepath.Join(dir, "diff.log")
	reader := startLogged(t, diff(), log)
	waitLine = fmt.Sprintf("diff: a fabricc build (process %d) is writing %s; waiting for it to finish", os.Getpid(), out)
	if !eventually(func() bool { return strings.Contains(readText(log), waitLine) }) {
		release()
		t.Fatalf("diff does not say it waits for the build (%q):\n%s", waitLine, readText(log))
	}
	release()
	reader.Wait()
	if !strings.Contains(readText(log), "leaf1") {
		t.Errorf("diff did not go on after the build:\n%s", readText(log))
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("the last reader left the lock file (%v)", err)
	}
}

// holdLock takes the lock file at path as another fabricc process does
// (its line, then flock how) and returns what lets it go: the file
// removed, then closed.
func holdLock(t *testing.T, path, line string, how int) func() {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), how); err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Remove(path)
		f.Close()
	}
}
