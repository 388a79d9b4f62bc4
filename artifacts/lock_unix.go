//go:build unix

package artifacts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// flock is flock(2); tests replace it to play a file system without it.
var flock = unix.Flock

// lockOutput takes the lock of the output folder dir and returns its
// release. Two builds into one folder would each start from the build
// kept beside it (previous.go) and take it from the other half-read; so
// a build holds ".DIR.lock", a file beside the folder, with flock(2)
// from before it looks at the folder until its fingerprints are
// recorded, and a second build waits for it. The holder writes its
// process id into the file for the waiter's message and removes the
// file when it is done, still holding it: a waiter that then gets the
// lock of a removed file opens the name again. The kernel releases the
// lock of a killed process; the file it leaves is taken by the next
// build. When the lock is taken, waiting is called once, with the
// holder's id (0 if unknown), or the id of a push, diff or verify that
// reads the folder (ReadLock); the wait ends with ctx.
func lockOutput(ctx context.Context, dir string, waiting lockWaiters) (func(), error) {
	dir = filepath.Clean(dir)
	p := lockPath(filepath.Dir(dir), filepath.Base(dir))
	tell := holderTeller(waiting)
	for {
		// Not through a symbolic link, and never into a file that is
		// not fabricc's: the lock file takes this process's id, and the
		// parent may be shared (/tmp).
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o644)
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link, where fabricc keeps the lock of %s; remove it", p, dir)
		}
		if err != nil {
			// Nothing can be written beside dir (a missing or read-only
			// parent): the build stops at its first write, with the
			// error that says why (newStage).
			return func() {}, nil
		}
		if !ownLockFile(f) {
			f.Close()
			return nil, fmt.Errorf("%s is not a lock file fabricc made (a regular file of this user, with one name), where fabricc keeps the lock of %s; remove it", p, dir)
		}
		held, err := waitLock(ctx, f, unix.LOCK_EX, func() { tell(f) })
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("interrupted while waiting for another build of %s: %w", dir, err)
		}
		if !held {
			// The file system has no flock (some network and FUSE
			// file systems): build without the lock, as fabricc did
			// before it had one.
			if samePath(f, p) {
				os.Remove(p)
			}
			f.Close()
			return func() {}, nil
		}
		if samePath(f, p) {
			writeHolder(f, false, "\n")
			return func() {
				if samePath(f, p) {
					os.Remove(p)
				}
				f.Close()
			}, nil
		}
		// The holder removed the file the lock was taken on: take the
		// name's new file.
		f.Close()
	}
}

// waitLock takes the flock of f, exclusive or shared (how: LOCK_EX or
// LOCK_SH), calling busy each time it is held by another, until ctx
// ends. held is false when flock fails otherwise.
func waitLock(ctx context.Context, f *os.File, how int, busy func()) (held bool, err error) {
	for {
		err := flock(int(f.Fd()), how|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case err != unix.EWOULDBLOCK && err != unix.EINTR:
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

// samePath reports whether p still names the file f is.
func samePath(f *os.File, p string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Stat(p)
	return err == nil && os.SameFile(fi, pi)
}

// ownLockFile reports whether f is a regular file of this process's
// user with no other name (a hard link would let the process id
// overwrite another file).
func ownLockFile(f *os.File) bool {
	st, ok := lockFileStat(f)
	return ok && int(st.Uid) == os.Geteuid()
}

// lockFileStat is f's status when f is a regular file with no other
// name.
func lockFileStat(f *os.File) (*syscall.Stat_t, bool) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return st, ok && st.Nlink == 1
}

// openLockFile is os.OpenFile; tests replace it to play a folder whose
// parent cannot be written.
var openLockFile = os.OpenFile

// ReadLock takes the lock of the build folder dir shared, as push, diff
// and verify --artifacts read it, and returns its release. It is the
// lock a build holds exclusively (lockOutput), flock(2) LOCK_SH on the
// same ".DIR.lock": readers do not wait for each other, a build waits
// for every reader to be done, and a reader waits for a running build,
// calling waiting once with its process id (0 if unknown). A reader
// writes its id marked " read" into the file, for a waiting build's
// message; the last reader out removes the file as a build does (it can
// take the lock exclusively only when no one else holds it). When the
// lock cannot be taken (no file can be made beside dir, a file system
// without flock), the release does nothing and the error is a
// *NoLockError: the folder can still be read, checked against its
// manifest only.
func ReadLock(ctx context.Context, dir string, waiting func(pid int)) (func(), error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return func() {}, &NoLockError{Dir: dir, Err: err}
	}
	p := lockPath(filepath.Dir(abs), filepath.Base(abs))
	tell := holderTeller(lockWaiters{build: waiting})
	for {
		f, writable, err := openReadLock(p)
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link, where fabricc keeps the lock of %s; remove it", p, dir)
		}
		if err != nil {
			return func() {}, &NoLockError{Dir: dir, Err: err}
		}
		st, ok := lockFileStat(f)
		if !ok {
			f.Close()
			return nil, fmt.Errorf("%s is not a lock file fabricc made (a regular file with one name), where fabricc keeps the lock of %s; remove it", p, dir)
		}
		// Another user's file is locked, not written.
		writable = writable && int(st.Uid) == os.Geteuid()
		held, err := waitLock(ctx, f, unix.LOCK_SH, func() { tell(f) })
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("interrupted while waiting for a build of %s: %w", dir, err)
		}
		if !held {
			if writable && samePath(f, p) {
				os.Remove(p) // no one can hold it: leave nothing behind
			}
			f.Close()
			return func() {}, &NoLockError{Dir: dir, Err: errors.New("its file system does not lock files (flock)")}
		}
		if samePath(f, p) {
			if writable {
				writeHolder(f, true, "\n")
			}
			return func() { releaseRead(f, p) }, nil
		}
		// A build removed the file it held: take the name's new file.
		f.Close()
	}
}

// openReadLock opens the lock file p, made when missing, not through a
// symbolic link; read-only when it is there but another user's.
func openReadLock(p string) (f *os.File, writable bool, err error) {
	f, err = openLockFile(p, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o644)
	if err == nil || errors.Is(err, unix.ELOOP) {
		return f, err == nil, err
	}
	if ro, rerr := openLockFile(p, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0); rerr == nil {
		return ro, false, nil
	}
	return nil, false, err
}

// releaseRead lets go of a reader's lock f on p. The last holder
// removes the file, as a build does: flock(2) gives this reader the
// lock exclusively only when no other reader holds it, and a build
// that waits takes the file's new copy when it finds this one removed.
func releaseRead(f *os.File, p string) {
	if flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil && samePath(f, p) {
		os.Remove(p)
	}
	f.Close()
}
