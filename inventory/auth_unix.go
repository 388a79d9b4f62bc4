//go:build unix

package inventory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// checkSecretAccess refuses a file readable or writable by group or
// others (ssh(1), FILES: a private key "must not be accessible by
// others").
func checkSecretAccess(path string, st os.FileInfo) error {
	perm := st.Mode().Perm()
	if perm&0o077 == 0 {
		return nil
	}
	return looseModeError(path, perm, chmodBlocked(path, st))
}

// chmodBlocked says why `chmod 600 path` would fail for this process:
// the file or its folder is on a read-only file system (EROFS, access(2))
// or the file belongs to another user (only the owner or root may
// chmod, chmod(2) EPERM); "" when chmod can work.
func chmodBlocked(path string, st os.FileInfo) string {
	if errors.Is(unix.Access(path, unix.W_OK), unix.EROFS) {
		return "it is on a read-only file system"
	}
	if errors.Is(unix.Access(filepath.Dir(path), unix.W_OK), unix.EROFS) {
		return "its folder is on a read-only file system"
	}
	euid := os.Geteuid()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && euid != 0 && int(sys.Uid) != euid {
		return fmt.Sprintf("it belongs to uid %d, and this process runs as uid %d", sys.Uid, euid)
	}
	return ""
}
