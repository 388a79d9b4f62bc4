package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write puts s into dir, replacing what dir held. Everything is first
// written into a fresh hidden sibling folder; only when that succeeded is
// dir swapped for it (the old dir is renamed aside, the new folder renamed
// into place, the old one removed). On any error the temporary folder is
// removed and dir is left exactly as it was, or not created at all.
func Write(dir string, s *Set) error {
	dir = filepath.Clean(dir)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s exists and is not a folder; choose another output folder", dir)
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return fmt.Errorf("the parent folder %s of %s does not exist; create it first", parent, dir)
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return fmt.Errorf("cannot create a temporary folder next to %s: %w", dir, err)
	}
	if err := writeAll(tmp, s); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := swap(dir, tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// writeAll writes every file of s below root.
func writeAll(root string, s *Set) error {
	if err := os.Chmod(root, 0o755); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", root, err)
	}
	for _, f := range s.Files() {
		if !filepath.IsLocal(filepath.FromSlash(f.Path)) {
			return fmt.Errorf("refusing to write %q outside the output folder", f.Path)
		}
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("creating the folder for %s: %w", f.Path, err)
		}
		if err := os.WriteFile(p, f.Data, fs.FileMode(f.Mode)); err != nil {
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
		// WriteFile's mode is filtered by the umask; set it exactly.
		if err := os.Chmod(p, fs.FileMode(f.Mode)); err != nil {
			return fmt.Errorf("setting the mode of %s: %w", f.Path, err)
		}
	}
	return nil
}

// swap replaces dir by tmp.
func swap(dir, tmp string) error {
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("moving the old %s aside: %w", dir, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			if rerr := os.Rename(old, dir); rerr != nil {
				return fmt.Errorf("installing %s failed (%v) and restoring the old folder from %s failed too: %w", dir, err, old, rerr)
			}
		}
		return fmt.Errorf("installing %s: %w", dir, err)
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("the new %s is in place, but removing the old copy %s failed: %w", dir, old, err)
		}
	}
	return nil
}
