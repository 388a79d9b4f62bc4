package newfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Replace writes data to dst with exactly the permission bits perm,
// whether or not dst exists: it writes a new file of a random name
// beside dst (os.CreateTemp: O_EXCL, so never through a link someone
// planted under a name known in advance, as in a shared folder such as
// /tmp) and renames it over dst. A reader sees the old file or the new
// one, never a part; an existing dst's mode and owner are not kept, and
// a link at dst is replaced, not followed. prefix starts the temporary
// name, after a dot, so that a killed process's leftovers can be found.
func Replace(dst, prefix string, perm fs.FileMode, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(dst), "."+prefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
