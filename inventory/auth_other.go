//go:build !unix && !windows

package inventory

import "os"

// checkSecretAccess refuses a file readable or writable by group or
// others, as on Unix.
func checkSecretAccess(path string, st os.FileInfo) error {
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return looseModeError(path, perm, "")
	}
	return nil
}
