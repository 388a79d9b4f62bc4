package artifacts

import (
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

// holderTeller returns what a waiter calls at each poll of the lock file
// f: it tells waiting, once, whom it waits for. The holder writes its
// process id just after it takes the lock, so a waiter that comes in
// between waits a few polls for it before saying it waits without a
// name. waiting may be nil.
func holderTeller(waiting func(pid int)) func(f *os.File) {
	told, polls := false, 0
	return func(f *os.File) {
		polls++
		if pid := lockHolder(f); !told && waiting != nil && (pid > 0 || polls > holderPolls) {
			told = true
			waiting(pid)
		}
	}
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
