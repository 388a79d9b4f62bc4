package artifacts

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fabricc/fabricc/internal/newfile"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/all"
	"github.com/fabricc/fabricc/targets/docs"
)

// Result says what a build wrote.
type Result struct {
	// Devices and Files count what the folder holds; Written files were
	// written, Linked ones kept from the previous build (same bytes).
	Devices, Files, Written, Linked int
	// Kept counts the devices whose files were kept from the previous
	// build without rendering them: rendered from the same view by the
	// same renderers (fingerprints.go).
	Kept int
	// Compared counts the previous build's files read back to confirm
	// their bytes before they were kept: those the folder's seal could
	// not vouch for (seal_linux.go).
	Compared int
	// Previous reports whether the build started from the build before
	// the one it replaced, kept beside the folder (previous.go), instead
	// of an empty folder.
	Previous bool
	// Bytes is the size of every file of the folder together.
	Bytes int64
	// Render and Write are the time spent rendering and writing device
	// files, summed over the goroutines that did it; Model the time
	// model.json took; Manifest the time manifest.json took after the
	// last device (its devices' entries are written beside them);
	// Install the time the new folder took to replace the old one (swap,
	// removal, seal).
	Render, Write, Model, Manifest, Install time.Duration
	// ModelKept counts the devices whose bytes model.json took from the
	// model.json of the build before instead of encoding them.
	ModelKept int

	devices []manifestDevice
	top     []manifestFile
	// fingerprints are the devices' fingerprints in name order, nil
	// when some device has none; manifest is the hex SHA-256 of the
	// manifest.json written.
	fingerprints []fingerprint
	manifest     string
	// fragments are where each device's bytes are in model.json, in
	// name order; nil when not known.
	fragments []fragment
}

// Paths lists every file of the build folder, in path order.
func (r *Result) Paths() []string {
	out := []string{ManifestFile}
	for _, f := range r.top {
		out = append(out, f.Path)
	}
	for _, d := range r.devices {
		for _, f := range d.Files {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out
}

// Build renders f and writes it into dir with the same rules and
// guarantees as WriteContext, without holding the rendered files in
// memory: the devices are rendered on every core, each file is written
// as soon as it is rendered, and model.json and manifest.json are
// written as they are encoded. The bytes are those RenderWith and
// WriteContext write.
//
// When dir holds an earlier build, a file whose bytes are unchanged is
// not written again but linked (see stage.reuse), so it keeps its
// modification time and a rebuild after a small change writes little.
func Build(ctx context.Context, dir string, f *model.Fabric, opts Options) (*Result, error) {
	src, err := newFabricSource(f, opts)
	if err != nil {
		return nil, err
	}
	return writeSource(ctx, dir, src, opts.Progress, opts.waiters())
}

// source is what a build folder is written from: the fabric's name, the
// devices in name order (rendered on demand), model.json and the other
// files at the top.
type source interface {
	fabric() string
	fabricPath() string
	inputs() Inputs
	count() int
	name(i int) string
	// fingerprint is what device i is rendered from (view.go); false
	// when it cannot be told.
	fingerprint(i int) (fingerprint, bool, error)
	device(i int) (Device, error)
	// release is told that d, from device, is written and no longer
	// needed.
	release(d Device)
	// encodeModel writes model.json; kept, when not nil, waits for the
	// stage and says what of the build before may be copied (nil:
	// nothing).
	encodeModel(w io.Writer, kept func() *keptModel) error
	// modelDevices is where each device's bytes landed in model.json, in
	// name order, and how many were copied; nil when not known.
	modelDevices() ([]fragment, int)
	top() ([]targets.File, error)
}

// setSource is a Set already rendered in memory.
type setSource struct{ s *Set }

func (s setSource) fabric() string               { return s.s.Fabric }
func (s setSource) fabricPath() string           { return s.s.FabricPath }
func (s setSource) inputs() Inputs               { return s.s.Inputs }
func (s setSource) count() int                   { return len(s.s.Devices) }
func (s setSource) name(i int) string            { return s.s.Devices[i].Name }
func (s setSource) device(i int) (Device, error) { return s.s.Devices[i], nil }
func (s setSource) top() ([]targets.File, error) { return s.s.Top, nil }
func (s setSource) encodeModel(w io.Writer, _ func() *keptModel) error {
	_, err := w.Write(s.s.Model)
	return err
}
func (s setSource) modelDevices() ([]fragment, int) { return nil, 0 }

// release keeps d: a Set's files belong to its caller.
func (s setSource) release(Device) {}

// fingerprint is false: a Set's files are given, not rendered here, so
// nothing says what they were rendered from.
func (s setSource) fingerprint(int) (fingerprint, bool, error) { return fingerprint{}, false, nil }

// fabricSource renders the devices of a fabric as they are asked for.
type fabricSource struct {
	f     *model.Fabric
	opts  Options
	order []deviceRef
	// prints makes the devices' fingerprints; nil when the renderers
	// cannot be identified. Each is made once, by the first of the
	// devices' goroutines and model.json's to ask (fps, fpErr, fpOnce).
	prints *fingerprinter
	fpOnce []sync.Once
	fps    []fingerprint
	fpErr  []error
	// switchAt and hostAt are the name-order index of each switch and
	// host; frags where model.json put each device (name order), kept
	// how many it copied.
	switchAt, hostAt []int
	frags            []fragment
	kept             int
}

// deviceRef is one switch or host of the fabric, by index.
type deviceRef struct {
	name   string
	host   bool
	index  int
	fabric *model.Fabric
}

// newFabricSource orders f's devices by name and checks their names as
// RenderWith does.
func newFabricSource(f *model.Fabric, opts Options) (*fabricSource, error) {
	s := &fabricSource{f: f, opts: opts}
	var named []Device
	for i := range f.Switches {
		s.order = append(s.order, deviceRef{name: f.Switches[i].Name, index: i, fabric: f})
		named = append(named, Device{Name: f.Switches[i].Name, Kind: "switch"})
	}
	for i := range f.Hosts {
		s.order = append(s.order, deviceRef{name: f.Hosts[i].Name, host: true, index: i, fabric: f})
		named = append(named, Device{Name: f.Hosts[i].Name, Kind: "host"})
	}
	if err := checkDevices(named); err != nil {
		return nil, err
	}
	sort.SliceStable(s.order, func(i, j int) bool { return s.order[i].name < s.order[j].name })
	s.switchAt, s.hostAt = make([]int, len(f.Switches)), make([]int, len(f.Hosts))
	for i, r := range s.order {
		if r.host {
			s.hostAt[r.index] = i
		} else {
			s.switchAt[r.index] = i
		}
	}
	n := len(s.order)
	s.fpOnce, s.fps, s.fpErr, s.frags = make([]sync.Once, n), make([]fingerprint, n), make([]error, n), make([]fragment, n)
	var err error
	s.prints, err = newFingerprinter(f)
	return s, err
}

func (s *fabricSource) name(i int) string { return s.order[i].name }

// fingerprint is the fingerprint of device i's view.
func (s *fabricSource) fingerprint(i int) (fingerprint, bool, error) {
	if s.prints == nil {
		return fingerprint{}, false, nil
	}
	s.fpOnce[i].Do(func() {
		r := s.order[i]
		if r.host {
			s.fps[i], s.fpErr[i] = s.prints.of("host", &r.fabric.Hosts[r.index])
		} else {
			s.fps[i], s.fpErr[i] = s.prints.of("switch", &r.fabric.Switches[r.index])
		}
		if s.fpErr[i] != nil {
			s.fpErr[i] = fmt.Errorf("fingerprinting %s: %w", r.name, s.fpErr[i])
		}
	})
	return s.fps[i], s.fpErr[i] == nil, s.fpErr[i]
}

func (s *fabricSource) fabric() string     { return s.f.Name }
func (s *fabricSource) fabricPath() string { return s.opts.FabricPath }
func (s *fabricSource) inputs() Inputs     { return s.opts.Inputs }
func (s *fabricSource) count() int         { return len(s.order) }

// encodeModel writes model.json, copying from the build before the
// bytes of each device kept says are the same (modelcopy.go).
func (s *fabricSource) encodeModel(w io.Writer, kept func() *keptModel) error {
	return model.EncodeDevices(w, s.f, &modelCopier{s: s, kept: kept})
}

func (s *fabricSource) modelDevices() ([]fragment, int) { return s.frags, s.kept }

// top renders fabric.md.
func (s *fabricSource) top() ([]targets.File, error) {
	doc, err := docs.RenderFabric(s.f, s.opts.Warnings)
	if err != nil {
		return nil, fmt.Errorf("rendering %s: %w", docs.FabricFile, err)
	}
	return []targets.File{doc}, nil
}

// release hands the bytes of a device this source rendered, now on
// disk, to the next device's renderers (targets.Recycle).
func (s *fabricSource) release(d Device) { targets.Recycle(d.Files) }

// device renders device i with every renderer that applies to it.
func (s *fabricSource) device(i int) (Device, error) {
	r := s.order[i]
	var d Device
	var err error
	if r.host {
		h := &r.fabric.Hosts[r.index]
		d, err = renderHostWith(r.fabric, h, all.ForHost(h))
	} else {
		sw := &r.fabric.Switches[r.index]
		d, err = renderSwitchWith(r.fabric, sw, all.ForSwitch(sw))
	}
	if err != nil {
		return d, err
	}
	sort.SliceStable(d.Files, func(a, b int) bool { return d.Files[a].Name < d.Files[b].Name })
	return d, checkDevices([]Device{d})
}

// renderSwitchWith runs the renderers rs over sw's view of f (view.go).
func renderSwitchWith(f *model.Fabric, sw *model.Switch, rs []targets.SwitchRenderer) (Device, error) {
	d := Device{Name: sw.Name, Kind: "switch", Platform: sw.Platform}
	vf, vsw := switchView(f, sw)
	for _, r := range rs {
		files, err := r(vf, vsw)
		if err != nil {
			return d, fmt.Errorf("rendering switch %q: %w", sw.Name, err)
		}
		d.Files = append(d.Files, files...)
	}
	return d, nil
}

// renderHostWith runs the renderers rs over h's view of f (view.go).
func renderHostWith(f *model.Fabric, h *model.Host, rs []targets.HostRenderer) (Device, error) {
	d := Device{Name: h.Name, Kind: "host", OS: h.OS}
	vf, vh := hostView(f, h)
	for _, r := range rs {
		files, err := r(vf, vh)
		if err != nil {
			return d, fmt.Errorf("rendering host %q: %w", h.Name, err)
		}
		d.Files = append(d.Files, files...)
	}
	return d, nil
}

// writeSource writes src into dir: see WriteContext.
func writeSource(ctx context.Context, dir string, src source, progress *atomic.Int64, waiting lockWaiters) (*Result, error) {
	// The lock, the stage and the swap are beside dir, in its parent:
	// "out/.." has to be made absolute first, or they would land inside
	// it.
	given := dir
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := notTheWorkingFolder(given, dir); err != nil {
		return nil, err
	}
	unlock, err := lockOutput(ctx, dir, waiting)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// model.json waits for the stage only when the folder's record says
	// it may copy devices from the kept model.json (modelcopy.go).
	handover := newKeptModelOnce()
	var kept func() *keptModel
	if mayKeepModel(fingerprintsPath(filepath.Split(filepath.Clean(dir)))) {
		kept = handover.wait
	}
	model := startStream(dir, ModelFile, func(w io.Writer) error { return src.encodeModel(w, kept) }) // early.go
	st, err := newStage(dir)
	if err != nil {
		handover.give(nil)
		model.discard()
		return nil, err
	}
	km := st.keptModel()
	handover.give(km)
	st.progress = progress
	res, err := st.fill(ctx, src, model)
	km.close()
	if err == nil {
		err = ctx.Err()
		if err != nil {
			err = fmt.Errorf("interrupted before %s was replaced: %w", st.dir, err)
		}
	}
	if err != nil {
		os.RemoveAll(st.tmp)
		return nil, err
	}
	start := time.Now()
	err = st.install()
	if err == nil {
		st.recordFingerprints(res)
	}
	res.Install = time.Since(start)
	return res, err
}

// recordFingerprints keeps the fingerprints of the build just installed
// beside it, for the next rebuild, or removes those of the build before
// when res has none. A record that cannot be written only costs the
// next rebuild its rendering.
func (st *stage) recordFingerprints(res *Result) {
	if res.fingerprints == nil || writeFingerprints(st.fingerprints, res.manifest, res.fingerprints, res.fragments) != nil {
		dropFingerprints(st.fingerprints)
	}
}

// fill writes every file of src into the temporary folder: the devices
// on every core, fabric.md beside them, model.json from its early
// stream, and the manifest as the devices are done (manifeststream.go).
func (st *stage) fill(ctx context.Context, src source, model *earlyStream) (*Result, error) {
	res := &Result{Devices: src.count(), devices: make([]manifestDevice, src.count())}
	man := st.startManifest(src, res.devices)
	var modelErr, topErr error
	var modelFile manifestFile
	var top []targets.File
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		modelFile, modelErr = st.adopt(ModelFile, model)
		res.Model = model.took
		res.fragments, res.ModelKept = src.modelDevices()
	}()
	// fabric.md is rendered beside the devices: it adds nothing when
	// they keep both cores busy, and saves its time when most of them
	// are kept without rendering (a rebuild after a small change).
	go func() {
		defer wg.Done()
		top, topErr = src.top()
	}()
	devErr := st.devices(ctx, src, res, man.done)
	man.devicesDone()
	wg.Wait()
	if err := st.fillTop(res, devErr, modelErr, topErr, modelFile, top); err != nil {
		man.abort()
		return nil, err
	}
	start := time.Now()
	mf, err := man.finish(res.top)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", ManifestFile, err)
	}
	res.manifest = mf.SHA256
	res.Manifest = time.Since(start)
	if err := st.held.prune(st.tmp, res); err != nil {
		return nil, fmt.Errorf("removing what the previous build held and this one does not: %w", err)
	}
	res.Previous = st.held != nil
	res.Files = len(res.top) + 1
	for _, d := range res.devices {
		res.Files += len(d.Files)
	}
	res.Written, res.Linked, res.Compared, res.Bytes = len(st.fresh), int(st.linked.Load()), int(st.compared.Load()), st.bytes.Load()
	return res, nil
}

// fillTop reports the first error of the devices, model.json and
// fabric.md, or writes fabric.md and lists the top-level files in
// res.top, in path order.
func (st *stage) fillTop(res *Result, devErr, modelErr, topErr error, modelFile manifestFile, top []targets.File) error {
	if devErr != nil {
		return devErr
	}
	if modelErr != nil {
		return fmt.Errorf("writing %s: %w", ModelFile, modelErr)
	}
	if topErr != nil {
		return topErr
	}
	res.top = append(res.top, modelFile)
	for _, f := range top {
		mf, err := st.put(f.Name, fileMode(f.Mode), f.Data)
		if err != nil {
			return err
		}
		mf.Target = f.Target
		res.top = append(res.top, mf)
	}
	sort.SliceStable(res.top, func(i, j int) bool { return res.top[i].Path < res.top[j].Path })
	return nil
}

// devices renders and writes every device on every core, or keeps a
// device's files from the previous build when its fingerprint says they
// would come out the same, and calls done with the index of each device
// whose manifest entry is complete. The error is that of the first
// device in name order that failed, so it does not depend on the
// scheduling.
func (st *stage) devices(ctx context.Context, src source, res *Result, done func(i int)) error {
	n := src.count()
	t := &deviceTally{fps: make([]fingerprint, n)}
	err := untilFailure(n, func(i int) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted while writing: %w", err)
		}
		var err error
		res.devices[i], err = st.device(src, i, t)
		if err != nil {
			return err
		}
		done(i)
		if st.progress != nil {
			st.progress.Add(1)
		}
		return nil
	})
	res.Render, res.Write, res.Kept = time.Duration(t.render.Load()), time.Duration(t.write.Load()), int(t.kept.Load())
	if !t.unprinted.Load() {
		res.fingerprints = t.fps
	}
	return err
}

// deviceTally is what the devices of a build add up to: the time spent
// rendering and writing them, summed over the goroutines, how many were
// kept without rendering, and their fingerprints (unprinted when one
// has none).
type deviceTally struct {
	render, write, kept atomic.Int64
	unprinted           atomic.Bool
	fps                 []fingerprint
}

// device keeps or renders and writes device i of src, and returns its
// manifest entry.
func (st *stage) device(src source, i int, t *deviceTally) (manifestDevice, error) {
	start := time.Now()
	fp, ok, err := src.fingerprint(i)
	if err != nil {
		return manifestDevice{}, err
	}
	t.fps[i] = fp
	if !ok {
		t.unprinted.Store(true)
	} else if md, ok := st.keepDevice(src.name(i), fp); ok {
		t.kept.Add(1)
		t.write.Add(int64(time.Since(start)))
		return md, nil
	}
	d, err := src.device(i)
	rendered := time.Now()
	t.render.Add(int64(rendered.Sub(start)))
	if err != nil {
		return manifestDevice{}, err
	}
	md, err := st.putDevice(d)
	src.release(d)
	t.write.Add(int64(time.Since(rendered)))
	return md, err
}

// putDevice writes one device's folder and returns its manifest entry.
func (st *stage) putDevice(d Device) (manifestDevice, error) {
	md := newManifestDevice(d)
	if err := st.folder(d.Name); err != nil {
		return md, fmt.Errorf("creating the folder for %s: %w", d.Name, err)
	}
	for _, f := range d.Files {
		mf, err := st.put(path.Join(d.Name, f.Name), fileMode(f.Mode), f.Data)
		if err != nil {
			return md, err
		}
		mf.Target = f.Target
		md.Files = append(md.Files, mf)
	}
	return md, nil
}

// put writes one file of the build below the temporary folder, or links
// the previous build's copy when it holds the same bytes.
func (st *stage) put(rel string, mode uint32, data []byte) (manifestFile, error) {
	sum := sha256.Sum256(data)
	mf := manifestFile{Path: rel, SHA256: hex.EncodeToString(sum[:])}
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return mf, fmt.Errorf("refusing to write %q outside the output folder", rel)
	}
	dst := filepath.Join(st.tmp, filepath.FromSlash(rel))
	st.bytes.Add(int64(len(data)))
	held := st.held.file(rel)
	if st.prev[rel] == mf.SHA256 && st.reuse(rel, mode, int64(len(data)), held, func(old *os.File) bool { return sameBytes(old, data) }) {
		return mf, nil
	}
	st.wrote(rel)
	if err := st.held.clear(rel, dst); err != nil {
		return mf, fmt.Errorf("writing %s: %w", rel, err)
	}
	// The umask may narrow the mode open gives; it is then set exactly.
	if err := newfile.Write(dst, fs.FileMode(mode), data, !umaskKeeps(fs.FileMode(mode))); err != nil {
		return mf, fmt.Errorf("writing %s: %w", rel, err)
	}
	return mf, nil
}

// putStream writes a top-level file (mode 0644) from encode, hashing it
// as it goes; when the previous build's copy holds the same bytes, the
// new one is replaced by a link to it.
func (st *stage) putStream(rel string, encode func(io.Writer) error) (manifestFile, error) {
	dst := filepath.Join(st.tmp, rel)
	if err := st.held.clear(rel, dst); err != nil {
		return manifestFile{}, err
	}
	sum, size, err := streamFile(dst, encode)
	if err != nil {
		return manifestFile{}, err
	}
	return st.settle(rel, dst, sum, size), nil
}

// settle counts the top-level file rel, written at dst with the hex
// SHA-256 sum, and replaces it by a link to the previous build's copy
// when that holds the same bytes.
func (st *stage) settle(rel, dst, sum string, size int64) manifestFile {
	mf := manifestFile{Path: rel, SHA256: sum}
	st.bytes.Add(size)
	if st.prev[rel] == sum && st.reuse(rel, 0o644, size, 0, func(old *os.File) bool { return sameFile(old, dst) }) {
		return mf
	}
	st.wrote(rel)
	return mf
}

// countingWriter counts the bytes written through it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// writeManifest writes manifest.json as manifest() lays it out
// (json.MarshalIndent with two spaces), one device at a time.
func writeManifest(w io.Writer, fabric, fabricPath string, inputs Inputs, top []manifestFile, devices []manifestDevice) error {
	m, err := newManifestWriter(w, fabric, fabricPath, inputs)
	if err != nil {
		return err
	}
	for i := range devices {
		if err := m.device(&devices[i]); err != nil {
			return err
		}
	}
	return m.end(top)
}

// manifestWriter writes manifest.json in three steps: the head when it
// is made, then each device's entry in order, then the top-level files
// and the end.
type manifestWriter struct {
	bw      *bufio.Writer
	devices int // entries written so far
}

// newManifestWriter writes the head of a manifest to w: the generator,
// the fabric, its path and the build's inputs.
func newManifestWriter(w io.Writer, fabric, fabricPath string, inputs Inputs) (*manifestWriter, error) {
	head, err := json.MarshalIndent(struct {
		Generator  string  `json:"generator"`
		Fabric     string  `json:"fabric"`
		FabricPath string  `json:"fabric_path,omitempty"`
		Inputs     *Inputs `json:"inputs,omitempty"`
	}{Generator, fabric, fabricPath, inputs.recorded()}, "", "  ")
	if err != nil {
		return nil, err
	}
	m := &manifestWriter{bw: bufio.NewWriter(w)}
	m.bw.Write(head[:len(head)-2]) // without "\n}"
	m.bw.WriteString(",\n  \"devices\": [")
	return m, nil
}

// device writes the entry of the next device.
func (m *manifestWriter) device(d *manifestDevice) error {
	if m.devices > 0 {
		m.bw.WriteString(",")
	}
	m.devices++
	data, err := json.MarshalIndent(d, "    ", "  ")
	if err != nil {
		return err
	}
	m.bw.WriteString("\n    ")
	_, err = m.bw.Write(data)
	return err
}

// end writes the top-level files and ends the manifest.
func (m *manifestWriter) end(top []manifestFile) error {
	if m.devices > 0 {
		m.bw.WriteString("\n  ")
	}
	m.bw.WriteString("],\n  \"files\": ")
	files, err := json.MarshalIndent(top, "  ", "  ")
	if err != nil {
		return err
	}
	m.bw.Write(files)
	m.bw.WriteString("\n}\n")
	return m.bw.Flush()
}

// compareBuffers are the read buffers of sameBytes, reused: an
// incremental rebuild of a large fabric compares gigabytes.
var compareBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// sameBytes reports whether the open file holds exactly data.
func sameBytes(f *os.File, data []byte) bool {
	bp := compareBuffers.Get().(*[]byte)
	defer compareBuffers.Put(bp)
	buf := *bp
	for {
		n, err := f.Read(buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
		if err == io.EOF {
			return len(data) == 0
		}
		if err != nil {
			return false
		}
	}
}

// sameFile reports whether the open file holds the bytes of the file at p.
func sameFile(f *os.File, p string) bool {
	g, err := os.Open(p)
	if err != nil {
		return false
	}
	defer g.Close()
	a, b := bufio.NewReaderSize(f, 1<<16), bufio.NewReaderSize(g, 1<<16)
	x, y := make([]byte, 1<<16), make([]byte, 1<<16)
	for {
		n, errA := io.ReadFull(a, x)
		m, errB := io.ReadFull(b, y)
		if n != m || !bytes.Equal(x[:n], y[:m]) {
			return false
		}
		if errA != nil || errB != nil {
			return errA == errB || (errA == io.ErrUnexpectedEOF && errB == io.ErrUnexpectedEOF) ||
				(errA == io.EOF && errB == io.EOF)
		}
	}
}

// notTheWorkingFolder refuses an output folder that is the working
// folder or holds it ("-o ."): the build renames a new folder into its
// place, which would leave the shell that ran it in the old one, now
// .DIR.prev, where the next look at the files finds the old build.
func notTheWorkingFolder(given, dir string) error {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	if !inFolder(wd, dir) && !inFolder(resolved(wd), resolved(dir)) {
		return nil
	}
	return fmt.Errorf("%s is the current folder or holds it: a build puts a new folder in the place of its output folder, "+
		"which would leave this shell in the old one; run it from the folder above (cd %s, then -o %s)",
		given, filepath.Dir(dir), filepath.Base(dir))
}

// inFolder reports whether path is dir or inside it.
func inFolder(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// resolved is path with its symbolic links followed (os.Getwd gives the
// shell's $PWD, which may name the folder through a link, while -o may
// name it by its real path), or path itself when it does not exist yet.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
