package artifacts

import (
	"bytes"
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
	"sync"
	"sync/atomic"

	"github.com/fabricc/fabricc/internal/cores"
)

// Generator is what manifest.json names as the writer of a build folder;
// Write replaces only folders that say so.
const Generator = "fabricc"

// maxManifestBytes bounds the manifest.json Write reads to decide whether
// a folder is a fabricc build folder (a 4,096-switch, 130,000-device
// build's is about 75 MB).
const maxManifestBytes = 512 << 20

// Write puts s into dir; see WriteContext.
func Write(dir string, s *Set) error { return WriteContext(context.Background(), dir, s) }

// WriteContext puts s into dir, replacing what dir held. dir is replaced
// only when it does not exist, is empty, or is a build folder fabricc
// wrote: its manifest.json names fabricc and lists every file in it.
// Anything else (a folder of other files, a file, a symbolic link) is
// refused, so a mistyped -o never deletes someone's work.
//
// Everything is first written into a hidden sibling folder named after
// the process (".DIR.tmp-PID-..."); only when that succeeded is it
// swapped with dir in one atomic rename (RENAME_EXCHANGE on Linux), so dir
// is never missing, even if the process is killed at any moment. The
// swapped-out old contents are then kept (see below). Temporary folders
// that a killed earlier run left are removed first. On an error, or when ctx is
// cancelled (SIGINT, SIGTERM) before the swap, the temporary folder is
// removed and dir is left exactly as it was, or not created at all.
//
// A file whose bytes equal those of the same file in the build dir held
// is not written again: the temporary folder gets a hard link to it (see
// stage.reuse), so it keeps its modification time.
//
// The swapped-out build is kept beside dir as the hidden folder
// ".DIR.prev" (see previous.go): the next rebuild starts from it and
// touches only the names whose files changed, instead of linking every
// file again and removing the old folder. It shares every unchanged file
// with dir and drops its copies of the changed ones, so it costs only
// its folders and its manifest; it may be removed at any time.
//
// Two builds into one dir run one after the other: each holds the lock
// file ".DIR.lock" beside dir from start to end (lockOutput), and the
// second waits for the first.
func WriteContext(ctx context.Context, dir string, s *Set) error {
	_, err := writeSource(ctx, dir, setSource{s}, nil, lockWaiters{})
	return err
}

// stage is a build being written: the output folder, the temporary
// folder beside it, and the files the build dir held (path -> SHA-256,
// from its manifest).
type stage struct {
	dir, tmp string
	exists   bool
	prev     map[string]string
	// previous is where the swapped-out build is kept (previous.go);
	// held is what the temporary folder started with when it is that
	// build, claimed (nil when it started empty).
	previous string
	held     *generation
	// unchanged reports whether a file of the previous build is as that
	// build wrote it (seal_linux.go); nil compares every file.
	unchanged func(fs.FileInfo) bool
	// fingerprints is where the fingerprints of the build in dir are
	// kept, and kept what they say each of its devices was rendered
	// from (fingerprints.go); nil when none can be kept.
	fingerprints string
	kept         map[string]renderedFrom

	linked, compared, bytes atomic.Int64
	// progress counts the devices done, for Options.Progress (nil: none).
	progress *atomic.Int64
	// fresh lists the files written rather than kept (slash paths);
	// its length is the count of files written.
	freshMu sync.Mutex
	fresh   []string
}

// wrote counts the file rel as written anew.
func (st *stage) wrote(rel string) {
	st.freshMu.Lock()
	st.fresh = append(st.fresh, rel)
	st.freshMu.Unlock()
}

// newStage checks that dir may be replaced, removes what killed earlier
// runs left and creates the temporary folder.
func newStage(dir string) (*stage, error) {
	dir = filepath.Clean(dir)
	exists, m, err := replaceable(dir)
	if err == nil {
		err = checkParent(dir)
	}
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, tempPrefix(base, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("cannot create a temporary folder next to %s: %w", dir, err)
	}
	st := &stage{dir: dir, tmp: tmp, exists: exists, prev: map[string]string{}, previous: previousPath(parent, base),
		fingerprints: fingerprintsPath(parent, base)}
	if m != nil {
		if st.held, err = claimPrevious(st.previous, tmp); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("cannot start from the previous build kept in %s: %w; remove that folder", st.previous, err)
		}
	} else {
		dropPrevious(st.previous)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("setting the mode of %s: %w", tmp, err)
	}
	if m != nil {
		st.unchanged = sealedFiles(dir)
		st.kept = keptDevices(st.fingerprints, m, st.unchanged)
		st.prev[ManifestFile] = m.digest
		for _, f := range m.Files {
			st.prev[f.Path] = f.SHA256
		}
		for _, d := range m.Devices {
			for _, f := range d.Files {
				st.prev[f.Path] = f.SHA256
			}
		}
	}
	return st, nil
}

// install swaps the temporary folder in as dir and keeps the old
// contents beside it for the next rebuild.
func (st *stage) install() error {
	if !st.exists {
		if err := os.Rename(st.tmp, st.dir); err != nil {
			os.RemoveAll(st.tmp)
			return fmt.Errorf("installing %s: %w", st.dir, err)
		}
		seal(st.dir)
		return nil
	}
	if err := exchange(st.tmp, st.dir); err != nil {
		os.RemoveAll(st.tmp)
		return fmt.Errorf("installing %s: %w", st.dir, err)
	}
	// tmp now holds the old contents: the next rebuild starts from them.
	if keepPrevious(st.tmp, st.previous) {
		trimPrevious(st.previous, st.fresh)
	}
	seal(st.dir)
	return nil
}

// reuse gives the temporary folder the previous build's copy of rel, a
// hard link to it, when that copy is a regular file of ours (owner.go) of
// the given mode and size whose bytes same confirms. The manifest's digest alone is trusted
// only for a file unchanged since its build was sealed (seal_linux.go):
// someone may have edited it. It reports whether it did.
//
// Why a link keeps every guarantee of a full write: the previous build's
// folder is only read, never changed (no file of it is opened for
// writing, renamed or given another mode), so until the swap dir is
// exactly the previous build, whatever happens to this process; a killed
// build leaves its temporary folder, links and all, for the next run to
// remove (removing a link leaves the file it shares). After the swap the
// old folder's names are removed and the linked files live on in the new
// build with their bytes and modification time. Both folders are in the
// same parent, so on one file system; where links are not supported the
// file is written instead.
//
// When the temporary folder started as the build before (previous.go)
// and its name rel already is the same file (held is its inode), nothing
// needs doing.
func (st *stage) reuse(rel string, mode uint32, size int64, held uint64, same func(*os.File) bool) bool {
	old := filepath.Join(st.dir, filepath.FromSlash(rel))
	fi, err := os.Lstat(old)
	if err != nil || !fi.Mode().IsRegular() || uint32(fi.Mode().Perm()) != mode || fi.Size() != size || !ours(fi) {
		return false
	}
	if st.unchanged == nil || !st.unchanged(fi) {
		st.compared.Add(1)
		f, err := os.Open(old)
		if err != nil {
			return false
		}
		ok := same(f)
		f.Close()
		if !ok {
			return false
		}
	}
	ok, _ := st.linkOld(rel, fi, held)
	return ok
}

// linkOld makes the temporary folder's rel the previous build's file
// there, which fi describes: nothing to do when the claimed build holds
// that very file at rel (held is its inode), a hard link otherwise. It
// reports whether rel now is that file, and whether it made a link.
func (st *stage) linkOld(rel string, fi fs.FileInfo, held uint64) (ok, linked bool) {
	if held != 0 && held == inode(fi) {
		st.linked.Add(1)
		return true, false
	}
	src := filepath.Join(st.dir, filepath.FromSlash(rel))
	dst := filepath.Join(st.tmp, filepath.FromSlash(rel))
	// Link first: in a new temporary folder dst never exists, and asking
	// first cost a failed lstat per kept file (291,416 in the first
	// rebuild of the 4,096-switch benchmark fabric).
	err := os.Link(src, dst)
	if errors.Is(err, fs.ErrExist) {
		if err := os.Remove(dst); err != nil {
			return false, false
		}
		err = os.Link(src, dst)
	}
	if err != nil {
		return false, false
	}
	st.linked.Add(1)
	return true, true
}

// tempPrefix is the name prefix of the temporary folders of process pid.
func tempPrefix(base string, pid int) string {
	return "." + base + ".tmp-" + strconv.Itoa(pid) + "-"
}

// removeStale removes the temporary folders of base, and the temporary
// files of its fingerprints, that a process which no longer runs left
// behind (killed while writing or swapping).
func removeStale(parent, base string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		var rest string
		ok := false
		switch {
		case e.IsDir():
			rest, ok = strings.CutPrefix(e.Name(), "."+base+".tmp-")
		case e.Type().IsRegular():
			rest, ok = strings.CutPrefix(e.Name(), "."+base+".fingerprints.tmp-")
		}
		if !ok {
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

// previousBuild is the manifest of the build a folder holds, and its
// digest.
type previousBuild struct {
	manifestJSON
	digest string
}

// CheckOutput reports, before a fabric is compiled, what Write would
// refuse about dir that is cheap to tell: a symbolic link, a file, a
// missing parent folder, a folder that is not empty and whose
// manifest.json fabricc did not write. Write checks dir again, and
// whole (every file its manifest lists), when it starts; a large
// fabric takes seconds to compile, and a mistyped output folder should
// not cost them.
func CheckOutput(dir string) error {
	dir = filepath.Clean(dir)
	exists, empty, err := folderState(dir)
	if err == nil && exists && !empty {
		err = claimedByFabricc(dir)
	}
	if err != nil {
		return err
	}
	return checkParent(dir)
}

// claimedByFabricc refuses dir as Write would when its manifest.json is
// missing, unreadable or names another generator. A manifest that names
// fabricc in its first key is taken at its word: the manifest of a
// 4,096-switch build is 72 MB and takes most of a second to decode, and
// Write decodes it anyway. Any other start (another tool's file, a
// manifest written before fabricc named itself) is read whole.
func claimedByFabricc(dir string) error {
	gen, named := manifestGenerator(filepath.Join(dir, ManifestFile))
	switch {
	case named && gen == Generator:
		return nil
	case named:
		return refusal(dir, fmt.Errorf("its %s was not written by fabricc", ManifestFile))
	}
	if _, err := ownManifest(dir); err != nil {
		return refusal(dir, err)
	}
	return nil
}

// manifestGenerator reads the start of the manifest at p: the generator
// it names when its first key is "generator", as fabricc writes it.
func manifestGenerator(p string) (gen string, named bool) {
	f, err := openManifest(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	if t, err := dec.Token(); err != nil || t != "generator" {
		return "", false
	}
	t, err := dec.Token()
	gen, named = t.(string)
	return gen, named && err == nil
}

// checkParent requires the folder dir is to be created in.
func checkParent(dir string) error {
	parent := filepath.Dir(dir)
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return fmt.Errorf("the parent folder %s of %s does not exist; create it first", parent, dir)
	}
	return nil
}

// replaceable reports whether dir exists, and refuses a dir Write must
// not replace. A build folder's manifest comes back with it.
func replaceable(dir string) (bool, *previousBuild, error) {
	exists, empty, err := folderState(dir)
	if err != nil || !exists || empty {
		return exists, nil, err
	}
	m, err := ownBuild(dir)
	if err != nil {
		return false, nil, refusal(dir, err)
	}
	return true, m, nil
}

// folderState reports whether dir exists and is empty, and refuses a
// dir that is a symbolic link or not a folder.
func folderState(dir string) (exists, empty bool, err error) {
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, false, nil
	case err != nil:
		return false, false, fmt.Errorf("reading %s: %w", dir, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return false, false, fmt.Errorf("%s is a symbolic link; give the folder itself as the output folder", dir)
	case !st.IsDir():
		return false, false, fmt.Errorf("%s exists and is not a folder; choose another output folder", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return false, false, fmt.Errorf("reading %s: %w", dir, err)
	}
	names, err := f.Readdirnames(1)
	f.Close()
	return true, len(names) == 0 && (err == nil || errors.Is(err, io.EOF)), nil
}

// refusal is the error for dir, a folder that is not empty, where why
// says why it is not a build folder fabricc wrote.
func refusal(dir string, why error) error {
	return fmt.Errorf("%s is not empty and %v; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself", dir, why)
}

// ownBuild reports why dir is not a build folder fabricc wrote: its
// manifest.json must name fabricc as its generator (or, for folders
// written before the manifest named it, have the same layout) and list
// every file of the folder.
func ownBuild(dir string) (*previousBuild, error) {
	m, err := ownManifest(dir)
	if err != nil {
		return nil, err
	}
	listed, folders := listedPaths(m.Files, m.Devices)
	if err := unlisted(dir, listed, folders); err != nil {
		return nil, err
	}
	return m, nil
}

// ownManifest reads dir's manifest.json and reports why fabricc did not
// write it: missing, unreadable, or not fabricc's.
func ownManifest(dir string) (*previousBuild, error) {
	data, err := readManifest(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("holds no %s", ManifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("its %s cannot be read (%v)", ManifestFile, err)
	}
	m := previousBuild{digest: digest(data)}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m.manifestJSON); err != nil || len(m.Files) == 0 || (m.Generator != "" && m.Generator != Generator) {
		return nil, fmt.Errorf("its %s was not written by fabricc", ManifestFile)
	}
	return &m, nil
}

// listedPaths are the files (manifest.json, the top files and every
// device's) and the device folders of a build folder with the given
// top files and devices.
func listedPaths(top []manifestFile, devices []manifestDevice) (files, folders map[string]bool) {
	files = map[string]bool{ManifestFile: true}
	folders = make(map[string]bool, len(devices))
	for _, f := range top {
		files[f.Path] = true
	}
	for _, d := range devices {
		folders[d.Name] = true
		for _, f := range d.Files {
			files[f.Path] = true
		}
	}
	return files, folders
}

// unlisted names the first entry of the build folder dir, in path
// order, that its manifest does not list: every entry must be a regular
// file it lists, or the folder of a device it lists holding only such
// files. The device folders (a 4,096-switch build has 130,000) are read
// on every core.
func unlisted(dir string, listed, folders map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	errs := make([]error, len(entries))
	var devices []int
	for i, e := range entries {
		switch name := e.Name(); {
		case e.IsDir() && folders[name]:
			devices = append(devices, i)
		case !e.Type().IsRegular() || !listed[name]:
			errs[i] = notListed(dir, name)
		}
	}
	cores.Range(len(devices), 64, func(lo, hi int) {
		for _, i := range devices[lo:hi] {
			errs[i] = unlistedIn(dir, entries[i].Name(), listed)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// unlistedIn is unlisted for the device folder dir/name.
func unlistedIn(dir, name string, listed map[string]bool) error {
	entries, err := os.ReadDir(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if rel := name + "/" + e.Name(); !e.Type().IsRegular() || !listed[rel] {
			return notListed(dir, rel)
		}
	}
	return nil
}

// notListed is the error for the entry rel (a slash path) of the build
// folder dir that its manifest does not list.
func notListed(dir, rel string) error {
	return fmt.Errorf("holds %s, which its %s does not list", path.Join(filepath.ToSlash(dir), rel), ManifestFile)
}

// readManifest reads a manifest.json that is a regular file of at most
// maxManifestBytes.
func readManifest(p string) ([]byte, error) {
	f, err := openManifest(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxManifestBytes))
}

// openManifest opens the manifest at p when it is a regular file of at
// most maxManifestBytes.
func openManifest(p string) (*os.File, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxManifestBytes {
		return nil, fmt.Errorf("not a regular file of at most %d bytes", maxManifestBytes)
	}
	return os.Open(p)
}
