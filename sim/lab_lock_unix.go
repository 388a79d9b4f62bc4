//go:build unix

package sim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lockLab takes the lock of the lab folder dir, the file .lab.lock in
// it, with flock(2), and returns its release, which removes the file.
// A second lab on the same folder would overwrite the first's inventory
// and passwords while its simulators still serve: it is refused, naming
// the process that holds the lock. The kernel releases the lock of a
// killed lab; the file it leaves is taken by the next. A file system
// without flock runs the lab without the lock.
func lockLab(dir string) (func(), error) {
	p := filepath.Join(dir, labLockName)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the lab's lock %s: %w", p, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file, where a lab keeps its lock; remove it", p)
	}
	switch err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); {
	case errors.Is(err, unix.EWOULDBLOCK):
		who := "another fabricc lab"
		buf := make([]byte, 16)
		n, _ := f.ReadAt(buf, 0)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n]))); err == nil && pid > 0 {
			who += fmt.Sprintf(" (process %d)", pid)
		}
		f.Close()
		return nil, fmt.Errorf("%s serves from %s: its inventory and passwords are in use; stop it (Ctrl-C) or give another folder", who, dir)
	case err != nil:
		return func() { f.Close() }, nil
	}
	id := []byte(strconv.Itoa(os.Getpid()) + "\n")
	_, _ = f.WriteAt(id, 0)
	_ = f.Truncate(int64(len(id)))
	return func() {
		os.Remove(p)
		f.Close()
	}, nil
}
