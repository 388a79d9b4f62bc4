//go:build windows

package artifacts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/windows"
)

// lockRange is where the lock lies in the lock file: one byte far past
// its end. Windows byte-range locks are mandatory (LockFileEx, Win32
// API reference: other processes cannot read a locked range), so the
// holder's process id at offset 0 stays readable for the waiter.
const lockRange = 0x7fffffff

// lockOutput takes the lock of the output folder dir and returns its
// release, as on Unix (lock_unix.go), with LockFileEx in place of
// flock(2): ".DIR.lock" beside the folder, locked exclusively from before
// the build looks at the folder until its fingerprints are recorded;
// a second build waits for it, calling waiting once with the holder's
// process id (0 if unknown). Windows releases the lock of a process that
// ends, and does not remove a file another process holds open, so the
// holder removes the file when done and a waiter's open copy keeps it.
func lockOutput(ctx context.Context, dir string, waiting func(pid int)) (func(), error) {
	dir = filepath.Clean(dir)
	p := lockPath(filepath.Dir(dir), filepath.Base(dir))
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a lock file fabricc made (a regular file), where fabricc keeps the lock of %s; remove it", p, dir)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		// Nothing can be written beside dir: the build stops at its
		// first write, with the error that says why (newStage).
		return func() {}, nil
	}
	tell := holderTeller(waiting)
	held, err := waitFileLock(ctx, f, func() { tell(f) })
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("interrupted while waiting for another build of %s: %w", dir, err)
	}
	if !held {
		// The file system has no byte-range locks (some network
		// shares): build without the lock, as on Unix without flock.
		f.Close()
		return func() {}, nil
	}
	id := []byte(strconv.Itoa(os.Getpid()) + "\r\n")
	f.WriteAt(id, 0)
	f.Truncate(int64(len(id)))
	return func() {
		ol := windows.Overlapped{OffsetHigh: lockRange}
		_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
		f.Close()
		os.Remove(p) // fails, harmlessly, while a waiter has it open
	}, nil
}

// waitFileLock takes the exclusive lock of f (LockFileEx with
// LOCKFILE_FAIL_IMMEDIATELY, polled so that ctx ends the wait), calling
// busy each time another holds it. held is false when locking fails
// otherwise.
func waitFileLock(ctx context.Context, f *os.File, busy func()) (held bool, err error) {
	for {
		ol := windows.Overlapped{OffsetHigh: lockRange}
		err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
		switch {
		case err == nil:
			return true, nil
		case !errors.Is(err, windows.ERROR_LOCK_VIOLATION) && !errors.Is(err, windows.ERROR_IO_PENDING):
			return false, nil
		}
		busy()
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}
