package artifacts

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/internal/cores"
)

// The previous build. Replacing a build folder atomically means writing
// the whole new build beside it and swapping the two. A rebuild after a
// small change links the unchanged files instead of writing them, but it
// still makes a link for every file and, after the swap, removes every
// name of the old folder: for a fabric of 130,000 devices, 300,000 links
// and as many unlinks, which take longer than rendering. So the
// swapped-out build is not removed but kept beside the folder as the
// hidden ".DIR.prev". It shares every file it has in common with DIR
// (the same inode), and its copies of the files that differ are removed
// (trimPrevious), except its model.json, which push and diff compare
// with the new build's for rollout hazards; so it costs its folders, its
// manifest and, when the model changed, one model.json. The
// next rebuild claims it as its temporary folder (one
// rename) and changes only the names whose files differ from the new
// build: a file unchanged since the build before needs nothing at all.
//
// Nothing in it is taken on its word. A name counts as done only when it
// is the very file (same inode) of DIR that the new build keeps, which
// reuse has checked like any other. No file of it is ever opened for
// writing, because it may be DIR's file too: a changed name is unlinked
// and written afresh. Anything fabricc does not write there (a symbolic
// link, a folder inside a device folder, a folder of another mode) is
// removed before the build starts. A claimed folder that a killed run
// left is removed like any temporary folder, and the next build starts
// from an empty one.

// previousPath is where the build swapped out of parent/base is kept.
func previousPath(parent, base string) string {
	return filepath.Join(parent, "."+base+".prev")
}

// PreviousOf is where the build that a rebuild of dir replaced is kept,
// ".DIR.prev" beside dir, when it is kept (IsPrevious).
func PreviousOf(dir string) string {
	dir = filepath.Clean(dir)
	return previousPath(filepath.Dir(dir), filepath.Base(dir))
}

// IsPrevious reports whether prev holds a build fabricc kept: a folder
// (not a link to one) with a manifest.json fabricc wrote.
func IsPrevious(prev string) bool { return isPrevious(prev) }

// manifestStart is how every manifest.json fabricc writes begins
// (writeManifest); a kept build is recognised by it.
const manifestStart = "{\n  \"generator\": \"fabricc\","

// isPrevious reports whether prev is a folder of ours (not a link to
// one, owner.go) whose manifest.json fabricc wrote. Another user's
// folder of that name is neither claimed nor removed.
func isPrevious(prev string) bool {
	fi, err := os.Lstat(prev)
	if err != nil || !fi.IsDir() || !ours(fi) {
		return false
	}
	p := filepath.Join(prev, ManifestFile)
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(manifestStart))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == manifestStart
}

// dropPrevious removes the build kept at prev, when it is one: a build
// into a folder that holds no build has nothing to share with it.
func dropPrevious(prev string) {
	if isPrevious(prev) {
		os.RemoveAll(prev)
	}
}

// keepPrevious keeps the swapped-out build old at prev, or removes it
// when prev is taken (another build kept its own meanwhile). It reports
// whether it kept it.
func keepPrevious(old, prev string) bool {
	if os.Rename(old, prev) != nil {
		os.RemoveAll(old)
		return false
	}
	return true
}

// trimPrevious removes from the kept build prev its copies of the files
// the build now in place wrote anew (slash paths). They are the only
// files it does not share with the build folder, and the next rebuild
// never uses them: a file it keeps is linked from the build folder, and
// one it changes is written afresh. So the kept build costs its folders
// and two files. Its manifest.json stays: it marks the folder as
// fabricc's. Its model.json stays too: push and diff of DIR compare it
// with DIR's for the rollout hazards of the change (fabricc plan's
// rollout), which need the model the switches run now.
func trimPrevious(prev string, written []string) {
	cores.Range(len(written), 64, func(lo, hi int) {
		for _, rel := range written[lo:hi] {
			if rel != ManifestFile && rel != ModelFile {
				os.Remove(filepath.Join(prev, filepath.FromSlash(rel)))
			}
		}
	})
}

// generation is what a claimed previous build holds: its regular files
// by slash path, with their inodes, and its device folders. A nil
// generation holds nothing.
type generation struct {
	files   map[string]uint64
	folders map[string]bool
}

// claimPrevious moves the build kept at prev to tmp, an empty folder of
// this process's, and reads what it holds. It returns nil when there is
// no usable kept build; tmp is then an empty folder again.
func claimPrevious(prev, tmp string) (*generation, error) {
	if !isPrevious(prev) {
		return nil, nil
	}
	// os.Rename does not replace a folder, even an empty one.
	if err := os.Remove(tmp); err != nil {
		return nil, err
	}
	if os.Rename(prev, tmp) != nil {
		return nil, os.Mkdir(tmp, 0o700)
	}
	unseal(tmp)
	g, err := readGeneration(tmp)
	if err == nil {
		return g, nil
	}
	// Unreadable: start from an empty folder, as without a kept build.
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	return nil, os.Mkdir(tmp, 0o700)
}

// readGeneration lists the files and device folders of dir, removing
// whatever a build never writes there.
func readGeneration(dir string) (*generation, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	g := &generation{files: map[string]uint64{}, folders: map[string]bool{}}
	var folders []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			folders = append(folders, name)
			continue
		}
		ino, err := regularFile(dir, name, e)
		if err != nil {
			return nil, err
		}
		if ino != 0 {
			g.files[name] = ino
		}
	}
	type listing struct {
		names []string
		inos  []uint64
		keep  bool
		err   error
	}
	lists := make([]listing, len(folders))
	cores.Range(len(folders), 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			l := &lists[i]
			l.keep, l.err = deviceFolder(filepath.Join(dir, folders[i]))
			if l.keep && l.err == nil {
				l.names, l.inos, l.err = folderFiles(filepath.Join(dir, folders[i]))
			}
		}
	})
	for i, l := range lists {
		if l.err != nil {
			return nil, l.err
		}
		if !l.keep {
			continue
		}
		g.folders[folders[i]] = true
		for j, name := range l.names {
			g.files[path.Join(folders[i], name)] = l.inos[j]
		}
	}
	return g, nil
}

// deviceFolder reports whether the folder p is ours with the mode a
// build gives its device folders, removing it when it is not.
func deviceFolder(p string) (bool, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return false, err
	}
	if ours(fi) && fi.Mode().Perm() == 0o755 {
		return true, nil
	}
	return false, os.RemoveAll(p)
}

// folderFiles lists the regular files of the device folder p with their
// inodes, removing everything else in it.
func folderFiles(p string) ([]string, []uint64, error) {
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var inos []uint64
	for _, e := range entries {
		ino, err := regularFile(p, e.Name(), e)
		if err != nil {
			return nil, nil, err
		}
		if ino != 0 {
			names = append(names, e.Name())
			inos = append(inos, ino)
		}
	}
	return names, inos, nil
}

// regularFile returns the inode of the regular file dir/name, or removes
// the entry and returns 0 when it is anything else.
func regularFile(dir, name string, e fs.DirEntry) (uint64, error) {
	p := filepath.Join(dir, name)
	if e.Type().IsRegular() {
		fi, err := e.Info()
		if err == nil && fi.Mode().IsRegular() {
			if ino := inode(fi); ino != 0 {
				return ino, nil
			}
		}
	}
	return 0, os.RemoveAll(p)
}

// file returns the inode the claimed build holds at rel, or 0.
func (g *generation) file(rel string) uint64 {
	if g == nil {
		return 0
	}
	return g.files[rel]
}

// clear removes what the claimed build holds at rel (whose path is p),
// so that a new file or folder can be made there.
func (g *generation) clear(rel, p string) error {
	if g == nil {
		return nil
	}
	if g.folders[rel] {
		return os.RemoveAll(p)
	}
	if _, ok := g.files[rel]; ok {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// folder makes the device folder name in the temporary folder, or keeps
// the one the claimed build holds.
func (st *stage) folder(name string) error {
	p := filepath.Join(st.tmp, name)
	if st.held != nil && st.held.folders[name] {
		return nil
	}
	if err := st.held.clear(name, p); err != nil {
		return err
	}
	// 0755 whatever the umask, as the top folder (newStage): a build
	// folder reads the same for everyone on every machine.
	if err := os.Mkdir(p, 0o755); err != nil {
		return err
	}
	return os.Chmod(p, 0o755)
}

// prune removes from dir what the claimed build held and the new build
// res does not: files it no longer writes, folders of devices it no
// longer has. It goes in path order, so the error it returns (the first)
// does not depend on map order.
func (g *generation) prune(dir string, res *Result) error {
	if g == nil {
		return nil
	}
	files, folders := listedPaths(res.top, res.devices)
	// A name that changed kind (a file of the held build that is now a
	// device folder, or the other way round) was cleared and made anew;
	// a folder that goes takes its files with it.
	var gone []string
	for rel := range g.files {
		folder, _, inFolder := strings.Cut(rel, "/")
		if inFolder && folders[folder] && !files[rel] || !inFolder && !files[rel] && !folders[rel] {
			gone = append(gone, rel)
		}
	}
	for rel := range g.folders {
		if !files[rel] && !folders[rel] {
			gone = append(gone, rel)
		}
	}
	sort.Strings(gone)
	for _, rel := range gone {
		if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return err
		}
	}
	return nil
}
