package artifacts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/model"
)

// Check compares the folder dir, byte for byte, with the files of
// RenderWith(f, opts) (what fabricc build would write there), writing
// nothing and without holding either side: the devices are rendered on
// every core as a build renders them, each file compared with the
// folder's copy as it is made and its buffers handed to the next
// device; model.json and manifest.json are compared as they are
// encoded. Reading the whole folder into memory beside the whole
// rendered set would take twice a build's size (9.6 GB at 4,096
// switches). The differences are in path order: a missing dir holds
// nothing, so every file is Added, and anything in dir that is not a
// regular file or a folder (a symbolic link, a FIFO) never matches, as
// a build writes none. With keep false they carry no bytes (Old and New
// nil), which is all a report of paths needs. files is how many files
// the build writes. A failure to read the folder is a *FolderError; any
// other error is the rendering's.
func Check(dir string, f *model.Fabric, opts Options, keep bool) (diffs []Difference, files int, err error) {
	have, err := folderEntries(dir)
	if err != nil {
		return nil, 0, &FolderError{err}
	}
	src, err := newFabricSource(f, opts)
	if err != nil {
		return nil, 0, err
	}
	c := &checker{dir: dir, have: have, keep: keep}
	n := src.count()
	devices := make([]manifestDevice, n)
	var encoded checkedStream
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		encoded = c.stream(ModelFile, func(w io.Writer) error { return src.encodeModel(w, nil) })
	}()
	err = untilFailure(n, func(i int) (err error) {
		devices[i], err = c.device(src, i)
		return err
	})
	wg.Wait()
	if err != nil {
		return nil, 0, err
	}
	if encoded.err != nil {
		return nil, 0, encoded.err
	}
	top, err := c.top(src)
	if err != nil {
		return nil, 0, err
	}
	top = append(top, manifestFile{Path: ModelFile, SHA256: encoded.sum})
	sort.SliceStable(top, func(i, j int) bool { return top[i].Path < top[j].Path })
	man := c.stream(ManifestFile, func(w io.Writer) error {
		return writeManifest(w, src.fabric(), src.fabricPath(), src.inputs(), top, devices)
	})
	if man.err != nil {
		return nil, 0, man.err
	}
	files = len(top) + 1
	for i := range devices {
		files += len(devices[i].Files)
	}
	out, err := c.differences(devices, top)
	return out, files, err
}

// FolderError is a failure to read the folder Check compares.
type FolderError struct{ Err error }

func (e *FolderError) Error() string { return e.Err.Error() }
func (e *FolderError) Unwrap() error { return e.Err }

// untilFailure runs do for each of n devices on every core, starting no
// device once one has failed, and returns the first error in device
// order (firstError).
func untilFailure(n int, do func(i int) error) error {
	errs := make([]error, n)
	var failed atomic.Bool
	cores.Range(n, 1, func(i, _ int) {
		if failed.Load() {
			return
		}
		if errs[i] = do(i); errs[i] != nil {
			failed.Store(true)
		}
	})
	return firstError(errs)
}

// firstError is the first error of errs, in device order, so that the
// error does not depend on the scheduling.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// folderEntries lists every file under dir by slash path, without
// reading any: true for a regular file, false for anything else that is
// not a folder.
func folderEntries(dir string) (map[string]bool, error) {
	have := map[string]bool{}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return have, nil
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		have[filepath.ToSlash(rel)] = e.Type().IsRegular()
		return nil
	})
	return have, err
}

// checker compares the files of one build with the folder dir, whose
// files have lists (read only while the devices are compared).
type checker struct {
	dir  string
	have map[string]bool
	keep bool
	mu   sync.Mutex
	// found are the differences of the files the build writes.
	found []Difference
}

// device renders device i of src, compares its files and returns its
// manifest entry, as putDevice makes it.
func (c *checker) device(src *fabricSource, i int) (manifestDevice, error) {
	d, err := src.device(i)
	if err != nil {
		return manifestDevice{}, err
	}
	defer src.release(d)
	md := newManifestDevice(d)
	for _, f := range d.Files {
		rel := path.Join(d.Name, f.Name)
		if err := c.file(rel, f.Data, fileMode(f.Mode)); err != nil {
			return md, err
		}
		md.Files = append(md.Files, manifestFile{Path: rel, Target: f.Target, SHA256: digest(f.Data)})
	}
	return md, nil
}

// top renders fabric.md, compares it and returns its manifest entry.
func (c *checker) top(src *fabricSource) ([]manifestFile, error) {
	files, err := src.top()
	if err != nil {
		return nil, err
	}
	var out []manifestFile
	for _, f := range files {
		if err := c.file(f.Name, f.Data, fileMode(f.Mode)); err != nil {
			return nil, err
		}
		out = append(out, manifestFile{Path: f.Name, Target: f.Target, SHA256: digest(f.Data)})
	}
	return out, nil
}

// file compares the build's bytes of rel, and the mode it writes them
// with, with the folder's: a host script made group-writable, or no
// longer executable, is not what the build wrote.
func (c *checker) file(rel string, data []byte, mode uint32) error {
	regular, ok := c.have[rel]
	if ok && regular {
		same, err := c.sameAs(rel, data, mode)
		if err != nil || same {
			return err
		}
	}
	return c.differs(rel, ok, func() ([]byte, error) { return bytes.Clone(data), nil })
}

// sameAs reports whether the folder's rel holds data with the
// permissions mode; an error when it cannot be opened, as the test
// oracle Compare's read fails.
func (c *checker) sameAs(rel string, data []byte, mode uint32) (bool, error) {
	f, err := os.Open(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		return false, &FolderError{err}
	}
	defer f.Close()
	if !samePerm(f, mode) {
		return false, nil
	}
	return sameBytes(f, data), nil
}

// samePerm reports whether the open file f has the permissions mode.
// Windows has no such bits (os.Chmod sets only read-only there), so
// there only the bytes are compared.
func samePerm(f *os.File, mode uint32) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	fi, err := f.Stat()
	return err == nil && uint32(fi.Mode().Perm()) == mode
}

// differs records that the build's rel is not the folder's: Added when
// the folder lacks it, else Changed; with the bytes when c keeps them.
func (c *checker) differs(rel string, inFolder bool, built func() ([]byte, error)) error {
	d := Difference{Path: rel, Kind: Added}
	if inFolder {
		d.Kind = Changed
	}
	if c.keep {
		var err error
		if d.New, err = built(); err != nil {
			return err
		}
		if inFolder {
			if d.Old, err = c.old(rel); err != nil {
				return err
			}
		}
	}
	c.mu.Lock()
	c.found = append(c.found, d)
	c.mu.Unlock()
	return nil
}

// old is the folder's bytes of rel: nil when it is not a regular file.
func (c *checker) old(rel string) ([]byte, error) {
	if !c.have[rel] {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, &FolderError{err}
	}
	return data, nil
}

// checkedStream is a streamed file's SHA-256 and the error that ended
// its comparison.
type checkedStream struct {
	sum string
	err error
}

// stream compares what encode writes with the folder's rel as it is
// written, holding neither. A file that differs is encoded again in
// whole, only when c keeps bytes.
func (c *checker) stream(rel string, encode func(io.Writer) error) checkedStream {
	h := sha256.New()
	cw := &compareWriter{}
	regular, ok := c.have[rel]
	if ok && regular {
		f, err := os.Open(filepath.Join(c.dir, rel))
		if err != nil {
			return checkedStream{err: &FolderError{err}}
		}
		defer f.Close()
		if samePerm(f, 0o644) {
			cw.r = f
		}
	}
	if err := encode(io.MultiWriter(h, cw)); err != nil {
		return checkedStream{err: err}
	}
	if cw.r != nil && cw.same() {
		return checkedStream{sum: hex.EncodeToString(h.Sum(nil))}
	}
	built := func() ([]byte, error) {
		var b bytes.Buffer
		err := encode(&b)
		return b.Bytes(), err
	}
	return checkedStream{sum: hex.EncodeToString(h.Sum(nil)), err: c.differs(rel, ok, built)}
}

// compareWriter compares the bytes written to it with those read from
// r, until the first difference.
type compareWriter struct {
	r       io.Reader
	buf     []byte
	differs bool
}

// Write compares p with the next len(p) bytes of r; it never fails, so
// that the encoder runs to its end and the hash is whole.
func (w *compareWriter) Write(p []byte) (int, error) {
	if w.r == nil || w.differs {
		return len(p), nil
	}
	if cap(w.buf) < len(p) {
		w.buf = make([]byte, len(p))
	}
	b := w.buf[:len(p)]
	if _, err := io.ReadFull(w.r, b); err != nil || !bytes.Equal(b, p) {
		w.differs = true
	}
	return len(p), nil
}

// same reports whether every byte written matched r and r has no more.
func (w *compareWriter) same() bool {
	if w.differs {
		return false
	}
	var one [1]byte
	n, err := w.r.Read(one[:])
	return n == 0 && err == io.EOF
}

// differences are the differences found and the folder's files the
// build does not write (Removed), in path order.
func (c *checker) differences(devices []manifestDevice, top []manifestFile) ([]Difference, error) {
	written := make(map[string]bool, len(c.have))
	written[ManifestFile] = true
	for _, f := range top {
		written[f.Path] = true
	}
	for i := range devices {
		for _, f := range devices[i].Files {
			written[f.Path] = true
		}
	}
	out := c.found
	for p := range c.have {
		if written[p] {
			continue
		}
		d := Difference{Path: p, Kind: Removed}
		if c.keep {
			var err error
			if d.Old, err = c.old(p); err != nil {
				return nil, err
			}
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
