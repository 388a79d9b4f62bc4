package artifacts

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one atomic step: macOS's
// renamex_np(2) with RENAME_SWAP (rename(2) macOS man page: "the source
// and target are atomically swapped"), on APFS and HFS+; a file system
// without it (ENOTSUP) gets two renames.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSYS) {
		return exchangeByRenames(a, b)
	}
	return err
}

// processAlive reports whether process pid still runs (kill(2) with
// signal 0).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
