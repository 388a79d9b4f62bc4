//go:build unix

package artifacts

import (
	"io/fs"
	"os"
	"syscall"
)

// euid is this process's effective user, read once.
var euid = os.Geteuid()

// ours reports whether fi is owned by this process's user and writable by
// no one else. A rebuild links, keeps or trusts (seal, fingerprints, the
// kept build) only what is ours: a folder another user made, in a shared
// parent such as /tmp, could hold files of the right size and mode with
// other bytes and a forged seal, and a file that user owns could be
// rewritten after the build linked it ("Unverified Ownership", CWE-283).
// Everything else is written afresh.
func ours(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == euid && fi.Mode().Perm()&0o022 == 0
}
