//go:build unix

package artifacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// lockPoll is how often a build waiting for the lock of its output folder
// tries again; polling lets SIGINT end the wait.
const lockPoll = 100 * time.Millisecond

// lockOutput takes the lock of the output folder dir and returns its
// release. Two builds into one folder would each start from the build
// kept beside it (previous.go) and take it from the other half-read; so
// a build holds ".DIR.lock", a file beside the folder, with flock(2)
// from before it looks at the folder until its fingerprints are
// recorded, and a second build waits for it. The kernel releases the
// lock of a killed process, so no lock outlives its build. The holder
// writes its process id into the file for the waiter's message. When the
// lock is taken, waiting is called once, with that id (0 if unknown);
// the wait ends with ctx.
func lockOutput(ctx context.Context, dir string, waiting func(pid int)) (func(), error) {
	dir = filepath.Clean(dir)
	p := lockPath(filepath.Dir(dir), filepath.Base(dir))
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		// Nothing can be written beside dir (a missing or read-only
		// parent): the build stops at its first write, with the error
		// that says why (newStage).
		return func() {}, nil
	}
	told := false
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if err != unix.EWOULDBLOCK && err != unix.EINTR {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", p, err)
		}
		if !told && waiting != nil {
			waiting(lockHolder(f))
			told = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("interrupted while waiting for another build of %s: %w", dir, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
	// The id is only for a waiter's message: failing to write it
	// changes nothing else.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		// Emptied first, so that the next waiter does not read this
		// process's id as its holder's.
		f.Truncate(0)
		f.Close()
	}, nil
}

// lockHolder reads the process id the lock's holder wrote, or 0.
func lockHolder(f *os.File) int {
	buf := make([]byte, 16)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// lockPath is the lock file of the output folder parent/base.
func lockPath(parent, base string) string {
	return filepath.Join(parent, "."+base+".lock")
}
