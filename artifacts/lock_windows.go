//go:build windows

package artifacts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
func lockOutput(ctx context.Context, dir string, waiting lockWaiters) (func(), error) {
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
	held, err := waitFileLock(ctx, f, windows.LOCKFILE_EXCLUSIVE_LOCK, func() { tell(f) })
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
	writeHolder(f, false, "\r\n")
	return func() { unlockAndRemove(f, p) }, nil
}

// waitFileLock takes the lock of f (LockFileEx with
// LOCKFILE_FAIL_IMMEDIATELY, polled so that ctx ends the wait):
// exclusive with how LOCKFILE_EXCLUSIVE_LOCK, shared with how 0
// (Microsoft Learn, "LockFileEx function (fileapi.h)": without
// LOCKFILE_EXCLUSIVE_LOCK "it requests a shared lock"), calling busy
// each time another holds it. held is false when locking fails
// otherwise.
func waitFileLock(ctx context.Context, f *os.File, how uint32, busy func()) (held bool, err error) {
	for {
		ol := windows.Overlapped{OffsetHigh: lockRange}
		err := windows.LockFileEx(windows.Handle(f.Fd()), how|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
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

// ReadLock takes the lock of the build folder dir shared, as on Unix
// (lock_unix.go): LockFileEx without LOCKFILE_EXCLUSIVE_LOCK on the
// range a build locks exclusively, so readers share it and a build
// waits for them; a reader waits for a running build, calling waiting
// once with its process id (0 if unknown). The reader's id, marked
// " read", is written at offset 0, outside the locked range. Windows
// does not remove a file another process holds open, so a reader's
// release removes the file only when it was the last to have it open.
// When the lock cannot be taken the release does nothing and the error
// is a *NoLockError.
func ReadLock(ctx context.Context, dir string, waiting func(pid int)) (func(), error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return func() {}, &NoLockError{Dir: dir, Err: err}
	}
	p := lockPath(filepath.Dir(abs), filepath.Base(abs))
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a lock file fabricc made (a regular file), where fabricc keeps the lock of %s; remove it", p, dir)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	writable := err == nil
	if err != nil {
		if f, err = os.OpenFile(p, os.O_RDONLY, 0); err != nil {
			return func() {}, &NoLockError{Dir: dir, Err: err}
		}
	}
	tell := holderTeller(lockWaiters{build: waiting})
	held, err := waitFileLock(ctx, f, 0, func() { tell(f) })
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("interrupted while waiting for a build of %s: %w", dir, err)
	}
	if !held {
		f.Close()
		return func() {}, &NoLockError{Dir: dir, Err: errors.New("its file system does not lock byte ranges (LockFileEx)")}
	}
	if writable {
		writeHolder(f, true, "\r\n")
	}
	return func() { unlockAndRemove(f, p) }, nil
}

// unlockAndRemove releases the lock f holds on the lock file p, closes
// it and removes p, which fails, harmlessly, while another reader, a
// build or a waiter has it open (Windows removes no open file).
func unlockAndRemove(f *os.File, p string) {
	ol := windows.Overlapped{OffsetHigh: lockRange}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
	f.Close()
	os.Remove(p)
}
