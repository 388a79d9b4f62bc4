//go:build unix

package artifacts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBuildWaitsForReader: a build into a folder that a push, diff or
// verify reads (ReadLock) waits until the reader lets go, says so once
// through WaitingForReader with the reader's process id, changes nothing
// while it waits, and builds once the reader is done; the last reader
// leaves no lock file.
func TestBuildWaitsForReader(t *testing.T) {
	f1, opts := compileChanged(t, "multivendor-clos", nil)
	f2, _ := compileRecabled(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if _, err := Build(context.Background(), dir, f1, opts); err != nil {
		t.Fatal(err)
	}
	release, err := ReadLock(context.Background(), dir, func(pid int) { t.Errorf("a reader waited for process %d, though no build runs", pid) })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, lockPath(parent, "out")), fmt.Sprintf("%d read\n", os.Getpid()); got != want {
		t.Errorf("the reader wrote %q into the lock file, want %q", got, want)
	}
	manifest := readFile(t, filepath.Join(dir, ManifestFile))
	waited := make(chan int, 2)
	asBuild := make(chan int, 2)
	opts.Waiting = func(pid int) { asBuild <- pid }
	opts.WaitingForReader = func(pid int) { waited <- pid }
	done := make(chan error, 1)
	go func() {
		_, err := Build(context.Background(), dir, f2, opts)
		done <- err
	}()
	select {
	case pid := <-waited:
		if pid != os.Getpid() {
			t.Errorf("WaitingForReader was told process %d; want %d, which reads the folder", pid, os.Getpid())
		}
	case pid := <-asBuild:
		release()
		t.Fatalf("the build said a build (process %d) holds the folder; a reader does", pid)
	case err := <-done:
		t.Fatalf("the build ran (error %v) while a reader held the folder", err)
	}
	if got := readFile(t, filepath.Join(dir, ManifestFile)); got != manifest {
		t.Error("a build waiting for a reader changed the folder")
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(waited)+len(asBuild) != 0 {
		t.Errorf("the build was told of a holder %d times more; want once", len(waited)+len(asBuild))
	}
	if got := readFile(t, filepath.Join(dir, ManifestFile)); got == manifest {
		t.Error("the build that waited did not replace the folder")
	}
	if got, want := entryNames(t, parent), []string{".out.fingerprints", ".out.prev", "out"}; !slices.Equal(got, want) {
		t.Errorf("after the reader and the build the parent holds %v, want %v", got, want)
	}
}

// TestReadersDoNotWaitForEachOther: a second reader takes the lock while
// the first holds it, without waiting; only the last one out removes
// the lock file.
func TestReadersDoNotWaitForEachOther(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	p := lockPath(parent, "out")
	never := func(pid int) { t.Errorf("a reader waited for process %d, though only readers hold the folder", pid) }
	first, err := ReadLock(context.Background(), dir, never)
	if err != nil {
		t.Fatal(err)
	}
	// A reader that waited would poll until ctx ends: a deadline far
	// past any wait for a lock no one else holds.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	second, err := ReadLock(ctx, dir, never)
	if err != nil {
		t.Fatalf("the second reader: %v", err)
	}
	first()
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the first reader out removed the lock file the second still holds: %v", err)
	}
	second()
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the last reader out left the lock file (%v)", err)
	}
}

// TestReaderWaitsForBuild: a reader of a folder that a build writes
// waits for it, says so once with its process id, and reads once the
// build is done.
func TestReaderWaitsForBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	unlock, err := lockOutput(context.Background(), dir, lockWaiters{})
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan int, 2)
	done := make(chan func(), 1)
	go func() {
		release, err := ReadLock(context.Background(), dir, func(pid int) { waited <- pid })
		if err != nil {
			t.Error(err)
		}
		done <- release
	}()
	select {
	case pid := <-waited:
		if pid != os.Getpid() {
			t.Errorf("the reader was told process %d builds; want %d", pid, os.Getpid())
		}
	case <-done:
		t.Fatal("the reader took the lock while a build held it")
	}
	unlock()
	release := <-done
	if release == nil {
		t.Fatal("no release")
	}
	if len(waited) != 0 {
		t.Errorf("waiting was called %d times more; want once", len(waited))
	}
	release()
}

// TestReadLockWithoutLockFile: when no lock file can be made beside the
// folder (a read-only parent, a read-only file system) or the file
// system has no flock, ReadLock gives a *NoLockError saying why, with a
// release that does nothing, and leaves nothing behind: the folder is
// read without the lock.
func TestReadLockWithoutLockFile(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, want string) {
		t.Helper()
		release, err := ReadLock(context.Background(), dir, func(int) { t.Error("waited") })
		var nolock *NoLockError
		if !errors.As(err, &nolock) || err.Error() != want {
			t.Fatalf("ReadLock: %v, want the *NoLockError %q", err, want)
		}
		release()
		assertOnly(t, parent, "out")
	}
	t.Run("read-only file system", func(t *testing.T) {
		defer func(f func(string, int, os.FileMode) (*os.File, error)) { openLockFile = f }(openLockFile)
		openLockFile = func(name string, _ int, _ os.FileMode) (*os.File, error) {
			return nil, &os.PathError{Op: "open", Path: name, Err: syscall.EROFS}
		}
		check(t, fmt.Sprintf("cannot take the lock of %s (open %s: read-only file system)", dir, lockPath(parent, "out")))
	})
	t.Run("read-only parent", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root writes into a read-only folder")
		}
		if err := os.Chmod(parent, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(parent, 0o755)
		check(t, fmt.Sprintf("cannot take the lock of %s (open %s: permission denied)", dir, lockPath(parent, "out")))
	})
	t.Run("no flock", func(t *testing.T) {
		defer func(f func(int, int) error) { flock = f }(flock)
		flock = func(int, int) error { return syscall.EOPNOTSUPP }
		release, err := ReadLock(context.Background(), dir, nil)
		var nolock *NoLockError
		if !errors.As(err, &nolock) || !strings.HasSuffix(err.Error(), "(its file system does not lock files (flock))") {
			t.Fatalf("ReadLock: %v, want the *NoLockError of a file system without flock", err)
		}
		release()
		assertOnly(t, parent, "out")
	})
}
