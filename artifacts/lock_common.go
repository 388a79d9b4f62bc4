package artifacts

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// lockPoll is how often a build waiting for the lock of its output folder
// tries again; polling lets SIGINT end the wait.
const lockPoll = 100 * time.Millisecond

// holderPolls is how many polls a waiter waits for the holder's process
// id before it says that it waits without naming one.
const holderPolls = 5

// lockWaiters are what a waiter for the lock of a build folder is told,
// once, about the holder: build, that a build writes the folder (with
// its process id, 0 if unknown); reader, that a push, diff or verify
// reads it (ReadLock). Either may be nil: nothing is said then.
type lockWaiters struct {
	build, reader func(pid int)
}

// readMark follows a reader's process id in the lock file ("4242
// read"): a build writes its id alone.
const readMark = " read"

// holderTeller returns what a waiter calls at each poll of the lock file
// f: it tells w, once, whom it waits for. The holder writes its process
// id just after it takes the lock, so a waiter that comes in between
// waits a few polls for it before saying it waits for a build without a
// name.
func holderTeller(w lockWaiters) func(f *os.File) {
	told, polls := false, 0
	return func(f *os.File) {
		polls++
		if told {
			return
		}
		switch pid, reading := lockHolder(f); {
		case reading && w.reader != nil:
			told = true
			w.reader(pid)
		case !reading && w.build != nil && (pid > 0 || polls > holderPolls):
			told = true
			w.build(pid)
		}
	}
}

// lockHolder reads the process id the lock's holder wrote on the lock
// file's first line, or 0, and whether it wrote it as a reader.
func lockHolder(f *os.File) (pid int, reading bool) {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	line = strings.TrimSpace(line)
	line, reading = strings.CutSuffix(line, readMark)
	pid, err := strconv.Atoi(line)
	if err != nil || pid <= 0 {
		return 0, reading
	}
	return pid, reading
}

// holderLine is what a holder of the lock writes into its file: its
// process id, marked when it only reads the folder.
func holderLine(reading bool) string {
	if reading {
		return strconv.Itoa(os.Getpid()) + readMark
	}
	return strconv.Itoa(os.Getpid())
}

// writeHolder writes holderLine and eol into f, the lock file this
// process holds: written before the rest is cut off, so that a waiter
// never reads an empty file while the lock is held.
func writeHolder(f *os.File, reading bool, eol string) {
	id := []byte(holderLine(reading) + eol)
	f.WriteAt(id, 0)
	f.Truncate(int64(len(id)))
}

// lockPath is the lock file of the output folder parent/base.
func lockPath(parent, base string) string {
	return filepath.Join(parent, "."+base+".lock")
}

// NoLockError is ReadLock's answer when the lock of a build folder
// cannot be taken: no lock file can be made beside the folder (a
// read-only parent), or its file system does not lock files.
type NoLockError struct {
	Dir string
	Err error
}

// Error says that the folder is read without its lock, and why.
func (e *NoLockError) Error() string {
	return fmt.Sprintf("cannot take the lock of %s (%v)", e.Dir, e.Err)
}

// Unwrap is the reason.
func (e *NoLockError) Unwrap() error { return e.Err }
