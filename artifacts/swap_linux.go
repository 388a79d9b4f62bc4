package artifacts

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one atomic step
// (renameat2(2) RENAME_EXCHANGE): at every moment both names exist.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EINVAL) {
		return exchangeByRenames(a, b) // a kernel or file system without it
	}
	return err
}

// processAlive reports whether process pid still runs.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
