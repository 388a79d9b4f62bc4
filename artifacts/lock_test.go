//go:build unix

package artifacts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBuildWaitsForLock: a build into a folder that another build holds
// waits, says so once with the holder's process id, creates nothing
// while it waits, and builds as usual once the holder is done.
func TestBuildWaitsForLock(t *testing.T) {
	f1, opts := compileChanged(t, "multivendor-clos", nil)
	f2, _ := compileRecabled(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if _, err := Build(context.Background(), dir, f1, opts); err != nil {
		t.Fatal(err)
	}
	before := names(t, parent)
	manifest := readFile(t, filepath.Join(dir, ManifestFile))

	unlock, err := lockOutput(context.Background(), dir, nil) // the other build
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan int, 2)
	opts.Waiting = func(pid int) { waited <- pid }
	done := make(chan error, 1)
	go func() {
		_, err := Build(context.Background(), dir, f2, opts)
		done <- err
	}()
	select {
	case pid := <-waited:
		if pid != os.Getpid() {
			t.Errorf("Waiting was told process %d holds the folder; want %d, which took the lock", pid, os.Getpid())
		}
	case err := <-done:
		t.Fatalf("the build ran (error %v) while another build held the folder", err)
	}
	if got := names(t, parent); !slices.Equal(got, before) {
		t.Errorf("a waiting build changed the folder's parent: %v, want %v", got, before)
	}
	if got := readFile(t, filepath.Join(dir, ManifestFile)); got != manifest {
		t.Error("a waiting build changed the folder")
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(waited) != 0 {
		t.Errorf("Waiting was called %d times more; want once", len(waited))
	}
	if got := readFile(t, filepath.Join(dir, ManifestFile)); got == manifest {
		t.Error("the build that waited did not replace the folder")
	}
	// Released at the end of a build: the next one does not wait.
	opts.Waiting = func(pid int) { t.Errorf("a build waited for process %d, though no build runs", pid) }
	if _, err := Build(context.Background(), dir, f1, opts); err != nil {
		t.Fatal(err)
	}
}

// TestBuildInterruptedWhileWaiting: a build stopped (SIGINT) while it
// waits for the folder's lock returns an error saying so and leaves the
// folder and its parent as they were.
func TestBuildInterruptedWhileWaiting(t *testing.T) {
	f, opts := compileChanged(t, "multivendor-clos", nil)
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if _, err := Build(context.Background(), dir, f, opts); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockOutput(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	before := names(t, parent)
	manifest := readFile(t, filepath.Join(dir, ManifestFile))
	ctx, cancel := context.WithCancel(context.Background())
	opts.Waiting = func(int) { cancel() }
	_, err = Build(ctx, dir, f, opts)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted while waiting for another build of "+dir) {
		t.Errorf("got %v, want the interruption while waiting for another build of %s", err, dir)
	}
	if got := names(t, parent); !slices.Equal(got, before) {
		t.Errorf("the parent holds %v, want %v", got, before)
	}
	if readFile(t, filepath.Join(dir, ManifestFile)) != manifest {
		t.Error("an interrupted build changed the folder")
	}
}

// names lists the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// readFile is the text of p.
func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
