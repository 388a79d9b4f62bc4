package artifacts

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Compare is the test oracle of Check: it reads the whole folder dir
// into memory and compares it, byte for byte, with the files of the set
// s (Set.Files: what fabricc build would write there), writing nothing:
// the differences in path order. A missing dir holds nothing, so every
// file of s is Added. Anything in dir that is not a regular file or a
// folder (a symbolic link, a FIFO) is Removed: a build writes none.
func Compare(dir string, s *Set) ([]Difference, error) {
	have, err := folderContents(dir)
	if err != nil {
		return nil, err
	}
	var out []Difference
	for _, f := range s.Files() {
		old, ok := have[f.Path]
		delete(have, f.Path)
		switch {
		case !ok:
			out = append(out, Difference{Path: f.Path, Kind: Added, New: f.Data})
		case old == nil || !bytes.Equal(old, f.Data):
			out = append(out, Difference{Path: f.Path, Kind: Changed, Old: old, New: f.Data})
		}
	}
	for p, old := range have {
		out = append(out, Difference{Path: p, Kind: Removed, Old: old})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// folderContents is every file under dir by slash path: a regular
// file's bytes, nil for anything else that is not a folder.
func folderContents(dir string) (map[string][]byte, error) {
	have := map[string][]byte{}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return have, nil
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !e.Type().IsRegular() {
			have[rel] = nil
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		have[rel] = data
		return nil
	})
	return have, err
}
