//go:build !unix

package artifacts

import (
	"io/fs"
	"os"
)

// writeNew creates the file dst, which must not exist, with exactly
// mode and data.
func writeNew(dst string, mode fs.FileMode, data []byte) error {
	file, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = file.Write(data)
	if err == nil && !umaskKeeps(mode) {
		// The mode OpenFile gives is filtered by the umask; set it exactly.
		err = file.Chmod(mode)
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return err
}
