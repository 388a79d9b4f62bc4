package artifacts

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The seal lets a rebuild trust the previous build's digests without
// reading its files again, as git's index trusts a file whose status has
// not changed since it was recorded. Once a build folder is in place
// (and the old copy moved aside as .DIR.prev), the folder gets an
// extended attribute holding the kernel's change time of
// that moment, and fabricc waits until the kernel clock has moved past
// it. A file whose change time (ctime, which every write, chmod, rename
// or link of the file sets and no program can set back) is not after
// the seal holds the bytes the build wrote, so its manifest digest is
// its content; any later edit gets a later ctime. Anything else (no
// attribute, a file system without extended attributes, a copied
// folder, a manifest changed since) is compared byte for byte. A later
// rebuild that unlinks a name in .DIR.prev sharing a file with the
// folder changes that file's ctime too: it is only compared once more.

// sealAttr is the extended attribute on a build folder.
const sealAttr = "user.fabricc.sealed"

// seal records the moment dir was completed. Errors are ignored: an
// unsealed folder is only compared byte for byte next time.
func seal(dir string) {
	// Writing the attribute stamps the folder's ctime with the kernel
	// clock, after every change the build made. A write of the value it
	// already has may change nothing (ext4), so each one differs; values
	// below 1 are no seal.
	n := 0
	stamp := func() int64 {
		n--
		var st unix.Stat_t
		if unix.Setxattr(dir, sealAttr, []byte(strconv.Itoa(n)), 0) != nil || unix.Stat(dir, &st) != nil {
			return -1
		}
		return st.Ctim.Nano()
	}
	sealed := stamp()
	if sealed < 0 {
		return
	}
	// The clock's tick may be coarse (milliseconds): an edit right after
	// this build could get the same stamp. Return only once it moved on.
	for deadline := time.Now().Add(100 * time.Millisecond); ; time.Sleep(500 * time.Microsecond) {
		now := stamp()
		if now < 0 || time.Now().After(deadline) {
			return // a value below 1 stays: no seal
		}
		if now > sealed {
			break
		}
	}
	unix.Setxattr(dir, sealAttr, []byte(strconv.FormatInt(sealed, 10)), 0)
}

// sealedFiles returns whether a file of the build folder dir is ours and
// unchanged since dir was sealed, or nil when nothing can be trusted
// (no seal, a folder not ours, or a manifest changed since).
func sealedFiles(dir string) func(fs.FileInfo) bool {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || !ours(fi) {
		return nil // another user's folder: its seal is its word only
	}
	buf := make([]byte, 32)
	n, err := unix.Getxattr(dir, sealAttr, buf)
	if err != nil {
		return nil
	}
	sealed, err := strconv.ParseInt(string(buf[:n]), 10, 64)
	if err != nil || sealed <= 0 {
		return nil
	}
	unchanged := func(fi fs.FileInfo) bool {
		st, ok := fi.Sys().(*syscall.Stat_t)
		return ok && st.Ctim.Nano() <= sealed && ours(fi)
	}
	if fi, err := os.Lstat(filepath.Join(dir, ManifestFile)); err != nil || !unchanged(fi) {
		return nil
	}
	return unchanged
}

// umaskOnce reads the process's umask from /proc/self/status (Linux
// 4.7 and later); reading it with umask(2) would change it for a moment
// under the other goroutines' feet.
var umaskOnce = sync.OnceValue(func() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			if m, err := strconv.ParseInt(strings.TrimSpace(v), 8, 32); err == nil {
				return int(m)
			}
		}
	}
	return -1
})

// umaskKeeps reports whether a file created with mode gets exactly mode,
// so no chmod is needed after it.
func umaskKeeps(mode fs.FileMode) bool {
	m := umaskOnce()
	return m >= 0 && int(mode.Perm())&m == 0
}

// unseal removes the seal of a build folder claimed to be written anew.
func unseal(dir string) { unix.Removexattr(dir, sealAttr) }

// inode is the inode number of the file fi describes.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
