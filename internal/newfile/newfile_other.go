//go:build !unix

package newfile

import (
	"io/fs"
	"os"
)

// Write creates the file dst, which must not exist, with data and the
// permission bits perm, which the umask narrows unless exact is true.
func Write(dst string, perm fs.FileMode, data []byte, exact bool) error {
	file, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = file.Write(data)
	if err == nil && exact {
		err = file.Chmod(perm)
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return err
}
