//go:build unix

package artifacts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
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
	unlock, err := lockOutput(context.Background(), dir, lockWaiters{}) // the other build
	if err != nil {
		t.Fatal(err)
	}
	before := entryNames(t, parent)
	manifest := readFile(t, filepath.Join(dir, ManifestFile))
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
	if got := entryNames(t, parent); !slices.Equal(got, before) {
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
	// And removed: nothing is left beside the folder but its kept build.
	if got, want := entryNames(t, parent), []string{".out.fingerprints", ".out.prev", "out"}; !slices.Equal(got, want) {
		t.Errorf("after the builds the parent holds %v, want %v", got, want)
	}
}

// TestWaitingNamesALateHolder: a build that finds the lock held before
// its holder has written its process id waits for the id and names it,
// instead of saying that it waits for a build it cannot name.
func TestWaitingNamesALateHolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	p := lockPath(filepath.Dir(dir), "out")
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	waiting := make(chan int, 1)
	done := make(chan func(), 1)
	go func() {
		unlock, err := lockOutput(context.Background(), dir, lockWaiters{build: func(pid int) { waiting <- pid }})
		if err != nil {
			t.Error(err)
		}
		done <- unlock
	}()
	time.Sleep(2 * lockPoll) // the holder is slow to write its id
	if _, err := f.WriteAt([]byte("4242\n"), 0); err != nil {
		t.Fatal(err)
	}
	if pid := <-waiting; pid != 4242 {
		t.Errorf("Waiting was told process %d; want 4242, which the holder wrote", pid)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	(<-done)()
}

// TestLockTakenFromRemovedFile: a build that gets the lock of a file
// removed meanwhile, whose name now is another file that another build
// holds, waits for that one: two builds never hold the lock at once.
func TestLockTakenFromRemovedFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	p := lockPath(filepath.Dir(dir), "out")
	first, err := lockOutput(context.Background(), dir, lockWaiters{})
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan func(), 1)
	waiting := make(chan int, 2)
	go func() {
		unlock, err := lockOutput(context.Background(), dir, lockWaiters{build: func(pid int) { waiting <- pid }})
		if err != nil {
			t.Error(err)
		}
		second <- unlock
	}()
	<-waiting // the second waits on the first's file
	// A third build finds the name free (someone removed the file) and
	// holds a new file there.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	third, err := lockOutput(context.Background(), dir, lockWaiters{})
	if err != nil {
		t.Fatal(err)
	}
	first() // releases the removed file, and leaves the third's alone
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the first build's release removed the third's lock file: %v", err)
	}
	select {
	case <-second:
		t.Fatal("the second build holds the lock while the third does")
	case <-time.After(3 * lockPoll):
	}
	third()
	(<-second)()
	if len(waiting) != 0 {
		t.Error("the second build said twice that it waits")
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
	unlock, err := lockOutput(context.Background(), dir, lockWaiters{})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	before := entryNames(t, parent)
	manifest := readFile(t, filepath.Join(dir, ManifestFile))
	ctx, cancel := context.WithCancel(context.Background())
	opts.Waiting = func(int) { cancel() }
	_, err = Build(ctx, dir, f, opts)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted while waiting for another build of "+dir) {
		t.Errorf("got %v, want the interruption while waiting for another build of %s", err, dir)
	}
	if got := entryNames(t, parent); !slices.Equal(got, before) {
		t.Errorf("the parent holds %v, want %v", got, before)
	}
	if readFile(t, filepath.Join(dir, ManifestFile)) != manifest {
		t.Error("an interrupted build changed the folder")
	}
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

// TestLockFileHostile: a lock file name that is a symbolic link, a
// second name of another file or a FIFO is refused with an error that
// names it, and the file behind it keeps its bytes: the lock file takes
// the build's process id, and the parent may be shared (/tmp).
func TestLockFileHostile(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(victim, lock string) error
		want string
	}{
		{"symbolic link", os.Symlink, "is a symbolic link, where fabricc keeps the lock of"},
		{"hard link", os.Link, "is not a lock file fabricc made"},
		{"fifo", func(_, lock string) error { return syscall.Mkfifo(lock, 0o644) }, "is not a lock file fabricc made"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			victim := filepath.Join(parent, "victim")
			if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			lock := lockPath(parent, "out")
			if err := tt.make(victim, lock); err != nil {
				t.Fatal(err)
			}
			unlock, err := lockOutput(context.Background(), dir, lockWaiters{})
			if err == nil {
				unlock()
				t.Fatalf("lockOutput took %s", lock)
			}
			if !strings.Contains(err.Error(), lock+" "+tt.want) || !strings.HasSuffix(err.Error(), "; remove it") {
				t.Errorf("got %q, want it to say %s %s ...; remove it", err, lock, tt.want)
			}
			if got := readFile(t, victim); got != "keep me\n" {
				t.Errorf("the file behind the lock's name now holds %q", got)
			}
		})
	}
}

// TestLockWithoutFlock: on a file system without flock(2) a build runs
// without the lock, as before there was one, and leaves no lock file.
func TestLockWithoutFlock(t *testing.T) {
	defer func(f func(int, int) error) { flock = f }(flock)
	flock = func(int, int) error { return syscall.EOPNOTSUPP }
	f, opts := compileChanged(t, "multivendor-clos", nil)
	parent := t.TempDir()
	done := make(chan error, 1)
	go func() {
		_, err := Build(context.Background(), filepath.Join(parent, "out"), f, opts)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the build did not end within a minute: it keeps trying to lock")
	}
	assertOnly(t, parent, ".out.fingerprints", "out")
}
