package artifacts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Generator is what manifest.json names as the writer of a build folder;
// Write replaces only folders that say so.
const Generator = "fabricc"

// maxManifestBytes bounds the manifest.json Write reads to decide whether
// a folder is a fabricc build folder.
const maxManifestBytes = 64 << 20

// Write puts s into dir; see WriteContext.
func Write(dir string, s *Set) error { return WriteContext(context.Background(), dir, s) }

// WriteContext puts s into dir, replacing what dir held. dir is replaced
// only when it does not exist, is empty, or is a build folder fabricc
// wrote: its manifest.json names fabricc and lists every file in it.
// Anything else (a folder of other files, a file, a symbolic link) is
// refused, so a mistyped -o never deletes someone's work.
//
// Everything is first written into a fresh hidden sibling folder named
// after the process (".DIR.tmp-PID-..."); only when that succeeded is it
// swapped with dir in one atomic rename (RENAME_EXCHANGE on Linux), so dir
// is never missing, even if the process is killed at any moment. The
// swapped-out old contents are then removed. Temporary folders that a
// killed earlier run left are removed first. On an error, or when ctx is
// cancelled (SIGINT, SIGTERM) before the swap, the temporary folder is
// removed and dir is left exactly as it was, or not created at all.
func WriteContext(ctx context.Context, dir string, s *Set) error {
	dir = filepath.Clean(dir)
	exists, err := replaceable(dir)
	if err != nil {
		return err
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return fmt.Errorf("the parent folder %s of %s does not exist; create it first", parent, dir)
	}
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, tempPrefix(base, os.Getpid()))
	if err != nil {
		return fmt.Errorf("cannot create a temporary folder next to %s: %w", dir, err)
	}
	if err := writeAll(ctx, tmp, s); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := ctx.Err(); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("interrupted before %s was replaced: %w", dir, err)
	}
	if !exists {
		if err := os.Rename(tmp, dir); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("installing %s: %w", dir, err)
		}
		return nil
	}
	if err := exchange(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("installing %s: %w", dir, err)
	}
	// tmp now holds the old contents.
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("the new %s is in place, but removing the old copy %s failed: %w", dir, tmp, err)
	}
	return nil
}

// tempPrefix is the name prefix of the temporary folders of process pid.
func tempPrefix(base string, pid int) string {
	return "." + base + ".tmp-" + strconv.Itoa(pid) + "-"
}

// removeStale removes the temporary folders of base that a process which
// no longer runs left behind (killed while writing or swapping).
func removeStale(parent, base string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(parent, e.Name()))
	}
}

// replaceable reports whether dir exists, and refuses a dir Write must
// not replace.
func replaceable(dir string) (bool, error) {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("reading %s: %w", dir, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return false, fmt.Errorf("%s is a symbolic link; give the folder itself as the output folder", dir)
	case !st.IsDir():
		return false, fmt.Errorf("%s exists and is not a folder; choose another output folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return true, nil
	}
	if err := ownBuild(dir); err != nil {
		return false, fmt.Errorf("%s is not empty and %v; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself", dir, err)
	}
	return true, nil
}

// ownBuild reports why dir is not a build folder fabricc wrote: its
// manifest.json must name fabricc as its generator (or, for folders
// written before the manifest named it, have the same layout) and list
// every file of the folder.
func ownBuild(dir string) error {
	data, err := readManifest(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("holds no %s", ManifestFile)
	}
	if err != nil {
		return fmt.Errorf("its %s cannot be read (%v)", ManifestFile, err)
	}
	var m manifestJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || len(m.Files) == 0 || (m.Generator != "" && m.Generator != Generator) {
		return fmt.Errorf("its %s was not written by fabricc", ManifestFile)
	}
	listed := map[string]bool{ManifestFile: true}
	folders := map[string]bool{}
	for _, f := range m.Files {
		listed[f.Path] = true
	}
	for _, d := range m.Devices {
		folders[d.Name] = true
		for _, f := range d.Files {
			listed[f.Path] = true
		}
	}
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case e.IsDir() && folders[rel]:
			return nil
		case e.Type().IsRegular() && listed[rel]:
			return nil
		}
		return fmt.Errorf("holds %s, which its %s does not list", path.Join(filepath.ToSlash(dir), rel), ManifestFile)
	})
}

// readManifest reads a manifest.json that is a regular file of at most
// maxManifestBytes.
func readManifest(p string) ([]byte, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxManifestBytes {
		return nil, fmt.Errorf("not a regular file of at most %d bytes", maxManifestBytes)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxManifestBytes))
}

// writeAll writes every file of s below root, stopping when ctx is done.
func writeAll(ctx context.Context, root string, s *Set) error {
	if err := os.Chmod(root, 0o755); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", root, err)
	}
	for _, f := range s.Files() {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted while writing: %w", err)
		}
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
