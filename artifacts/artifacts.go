// Package artifacts renders a compiled fabric into the files `fabricc
// build` writes: one folder per device with every target's output, the
// model as JSON and a manifest with a SHA-256 of every file. Writing is
// all or nothing: the output folder is replaced only after every file was
// written.
package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/all"
	"github.com/fabricc/fabricc/targets/docs"
)

// Names of the files at the top of an artifact folder.
const (
	ModelFile    = "model.json"
	ManifestFile = "manifest.json"
)

// Set is everything a build writes, in memory.
type Set struct {
	// Fabric is the fabric's name.
	Fabric string
	// Model is model.Marshal of the fabric.
	Model []byte
	// Manifest is the manifest.json content.
	Manifest []byte
	// FabricPath is the fabric the set was built from, relative to the
	// output folder (Options.FabricPath).
	FabricPath string
	// Inputs are the build's -var, --var-file and --large (Options.Inputs).
	Inputs Inputs
	// Top are the other files at the top of the folder (fabric.md), in
	// name order.
	Top []targets.File
	// Devices in name order, each with its files in name order.
	Devices []Device
}

// Options are the inputs of a build besides the model.
type Options struct {
	// Warnings of the build, listed with their source places in
	// fabric.md.
	Warnings []docs.Warning
	// FabricPath is the fabric's path (a .hcl file or a folder) relative
	// to the output folder, with slashes ("../fabric"); manifest.json
	// records it so that `fabricc explain` can build the fabric again
	// and check the folder against it. Empty: not recorded.
	FabricPath string
	// Inputs are recorded beside FabricPath, for the same reader.
	Inputs Inputs
	// SourceMaps asks every renderer for the source map of its files
	// (targets.File.Map), which `fabricc explain` reads; a build leaves
	// it off, so that rendering costs nothing for it.
	SourceMaps bool
	// Progress, when set, counts the devices done as the build goes:
	// Build adds one for each device written or kept, from every core, so
	// that a caller can show how far a large build is.
	Progress *atomic.Int64
	// Waiting, when set, is called once when another build holds the
	// output folder (its lock, see lockOutput), with that build's process
	// id (0 if unknown); Build then waits for it to finish.
	Waiting func(pid int)
	// WaitingForReader, when set, is called instead of Waiting when a
	// push, diff or verify reads the output folder (ReadLock), with its
	// process id (0 if unknown); Build waits for every reader to finish.
	// Unset, Waiting is called.
	WaitingForReader func(pid int)
}

// waiters are what a build waiting for its folder's lock tells.
func (o Options) waiters() lockWaiters {
	w := lockWaiters{build: o.Waiting, reader: o.WaitingForReader}
	if w.reader == nil {
		w.reader = o.Waiting
	}
	return w
}

// Device is one switch or host and the files rendered for it.
type Device struct {
	Name string
	// Kind is "switch" or "host".
	Kind string
	// Platform is the switch platform (switches only).
	Platform model.Platform
	// OS is the host operating system (hosts only).
	OS    model.OS
	Files []targets.File
}

// File is one file of a Set, with its path relative to the output folder.
type File struct {
	Path string
	Mode uint32
	Data []byte
}

// Render is RenderWith without warnings.
func Render(f *model.Fabric) (*Set, error) { return RenderWith(f, Options{}) }

// RenderWith runs every registered renderer over f's switches and hosts,
// writes fabric.md with opts' warnings and assembles the Set. Two files
// of the same name in one device folder, two devices of the same name,
// or a name that is not a plain file name are errors, as is any renderer
// error.
func RenderWith(f *model.Fabric, opts Options) (*Set, error) {
	devs, err := renderSwitches(f, opts.SourceMaps)
	if err != nil {
		return nil, err
	}
	for i := range f.Hosts {
		d, err := renderHostWith(f, &f.Hosts[i], hostRenderers(&f.Hosts[i], opts.SourceMaps))
		if err != nil {
			return nil, err
		}
		devs = append(devs, d)
	}
	fabricDoc, err := renderFabric(f, opts)
	if err != nil {
		return nil, err
	}
	return assembleFrom(f, opts.FabricPath, opts.Inputs, devs, fabricDoc)
}

// RenderSwitches renders f's switches alone, on every core: what push
// and lab need of a fabric path. A build's other files (the hosts',
// fabric.md, model.json and the manifest) are not made: at 4,096
// switches they are 4.7 GB, and holding them took push 12 GB. Each
// switch's files are those a build writes for it. The names are
// checked as RenderWith checks them; the error is that of the first
// switch in the fabric's order that fails.
func RenderSwitches(f *model.Fabric) ([]Device, error) {
	devs, err := renderSwitches(f, false)
	if err != nil {
		return nil, err
	}
	if err := checkDevices(devs); err != nil {
		return nil, err
	}
	return devs, nil
}

// RenderSwitchConfig renders the configuration files of one switch of f
// (its platform's, not the OpenConfig or documents every switch gets),
// as Render does: for a caller that checks switches one at a time and
// keeps none (push --artifacts comparing each configuration with its
// folder's).
func RenderSwitchConfig(f *model.Fabric, sw *model.Switch) (Device, error) {
	return renderSwitchWith(f, sw, all.ForSwitchPlatform(sw))
}

// RenderHostConfig renders the files of one host of f that its operating
// system's target writes (the script, and FreeBSD's rc.conf and
// loader.conf; not the document every host gets), as Render does: what
// verify runs on a host with --check, rendered for that host alone.
func RenderHostConfig(f *model.Fabric, h *model.Host) (Device, error) {
	return renderHostWith(f, h, all.ForHostOS(h))
}

// renderSwitches renders f's switches on every core, in the fabric's
// order, with mapped renderers when asked; the error is that of the
// first switch that fails.
func renderSwitches(f *model.Fabric, mapped bool) ([]Device, error) {
	devs := make([]Device, len(f.Switches))
	errs := make([]error, len(f.Switches))
	cores.Range(len(f.Switches), 8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sw := &f.Switches[i]
			devs[i], errs[i] = renderSwitchWith(f, sw, switchRenderers(sw, mapped))
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return devs, nil
}

// switchRenderers are sw's renderers, mapped ones when maps are asked for.
func switchRenderers(sw *model.Switch, mapped bool) []targets.SwitchRenderer {
	if mapped {
		return all.ForSwitchMapped(sw)
	}
	return all.ForSwitch(sw)
}

// hostRenderers are h's renderers, mapped ones when maps are asked for.
func hostRenderers(h *model.Host, mapped bool) []targets.HostRenderer {
	if mapped {
		return all.ForHostMapped(h)
	}
	return all.ForHost(h)
}

// renderFabric writes fabric.md, with its source map when asked for.
func renderFabric(f *model.Fabric, opts Options) (targets.File, error) {
	render := docs.RenderFabric
	if opts.SourceMaps {
		render = docs.RenderFabricMapped
	}
	doc, err := render(f, opts.Warnings)
	if err != nil {
		return doc, fmt.Errorf("rendering %s: %w", docs.FabricFile, err)
	}
	return doc, nil
}

// RenderFile renders only the file at path of f's build folder (slash
// path: "leaf1/leaf1.nvue.sh" or "fabric.md") with its source map, as
// RenderWith with SourceMaps would: what `fabricc explain` needs of a
// large fabric without rendering every device. model.json and
// manifest.json are not rendered by a target and are refused.
func RenderFile(f *model.Fabric, opts Options, path string) (targets.File, error) {
	opts.SourceMaps = true
	if path == docs.FabricFile {
		return renderFabric(f, opts)
	}
	device, name, ok := strings.Cut(path, "/")
	if !ok || strings.Contains(name, "/") {
		return targets.File{}, fmt.Errorf("%s is not a file fabricc renders (a device's file, or %s)", path, docs.FabricFile)
	}
	files, err := deviceFiles(f, device)
	if err != nil {
		return targets.File{}, err
	}
	for _, fl := range files {
		if fl.Name == name {
			return fl, nil
		}
	}
	return targets.File{}, fmt.Errorf("no target writes %s for %s", name, device)
}

// deviceFiles renders every mapped file of the switch or host named name.
func deviceFiles(f *model.Fabric, name string) ([]targets.File, error) {
	if sw := f.Switch(name); sw != nil {
		d, err := renderSwitchWith(f, sw, all.ForSwitchMapped(sw))
		return d.Files, err
	}
	if h := f.Host(name); h != nil {
		d, err := renderHostWith(f, h, all.ForHostMapped(h))
		return d.Files, err
	}
	return nil, fmt.Errorf("the fabric has no switch or host %q", name)
}

// assemble checks and orders the devices and builds model and manifest;
// top are the files at the top of the folder besides those two.
func assemble(f *model.Fabric, devs []Device, top ...targets.File) (*Set, error) {
	return assembleFrom(f, "", Inputs{}, devs, top...)
}

// assembleFrom is assemble recording the fabric's path and the build's
// inputs in the manifest.
func assembleFrom(f *model.Fabric, fabricPath string, inputs Inputs, devs []Device, top ...targets.File) (*Set, error) {
	if err := checkDevices(devs); err != nil {
		return nil, err
	}
	sort.SliceStable(devs, func(i, j int) bool { return devs[i].Name < devs[j].Name })
	for i := range devs {
		files := devs[i].Files
		sort.SliceStable(files, func(a, b int) bool { return files[a].Name < files[b].Name })
	}
	m, err := model.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("encoding the model: %w", err)
	}
	s := &Set{Fabric: f.Name, FabricPath: fabricPath, Inputs: inputs, Model: m, Top: top, Devices: devs}
	s.Manifest, err = manifest(s)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// checkDevices rejects unsafe or clashing device and file names.
func checkDevices(devs []Device) error {
	seen := map[string]string{}
	for _, d := range devs {
		if err := checkName(d.Name); err != nil {
			return fmt.Errorf("%s %q cannot be a folder name: %w", d.Kind, d.Name, err)
		}
		if prev, ok := seen[d.Name]; ok {
			return fmt.Errorf("a %s and a %s are both named %q; their artifact folders would clash, rename one", prev, d.Kind, d.Name)
		}
		seen[d.Name] = d.Kind
		if d.Name == ModelFile || d.Name == ManifestFile || d.Name == docs.FabricFile {
			return fmt.Errorf("%s %q clashes with the top-level %s file; rename it", d.Kind, d.Name, d.Name)
		}
		files := map[string]string{}
		for _, fl := range d.Files {
			if err := checkName(fl.Name); err != nil {
				return fmt.Errorf("target %q wrote a bad file name for %s %q: %w", fl.Target, d.Kind, d.Name, err)
			}
			if prev, ok := files[fl.Name]; ok {
				return fmt.Errorf("%s %q: targets %q and %q both write %q", d.Kind, d.Name, prev, fl.Target, fl.Name)
			}
			files[fl.Name] = fl.Target
		}
	}
	return nil
}

// checkName accepts a single, plain path element.
func checkName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("%q is not a file name", name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%q contains a path separator", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%q starts with a dot", name)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("%q contains a NUL byte", name)
	}
	return nil
}

// Files returns every file of the set with its path, in path order:
// the device files, fabric.md, manifest.json and model.json.
func (s *Set) Files() []File {
	out := []File{
		{Path: ManifestFile, Mode: 0o644, Data: s.Manifest},
		{Path: ModelFile, Mode: 0o644, Data: s.Model},
	}
	for _, f := range s.Top {
		out = append(out, File{Path: f.Name, Mode: fileMode(f.Mode), Data: f.Data})
	}
	for _, d := range s.Devices {
		for _, f := range d.Files {
			out = append(out, File{Path: path.Join(d.Name, f.Name), Mode: fileMode(f.Mode), Data: f.Data})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// fileMode is m, or 0644 when the target left it zero.
func fileMode(m uint32) uint32 {
	if m == 0 {
		return 0o644
	}
	return m & 0o777
}

// manifestJSON is the manifest.json layout.
type manifestJSON struct {
	// Generator is always Generator ("fabricc"): Write replaces only a
	// folder whose manifest says so.
	Generator string `json:"generator"`
	Fabric    string `json:"fabric"`
	// FabricPath is where the fabric was, relative to the folder
	// (Options.FabricPath); absent when not recorded.
	FabricPath string           `json:"fabric_path,omitempty"`
	Inputs     *Inputs          `json:"inputs,omitempty"`
	Devices    []manifestDevice `json:"devices"`
	Files      []manifestFile   `json:"files"`
}

// manifestDevice is one device's entry in manifest.json.
type manifestDevice struct {
	Name     string         `json:"name"`
	Kind     string         `json:"kind"`
	Platform string         `json:"platform,omitempty"`
	OS       string         `json:"os,omitempty"`
	Targets  []string       `json:"targets"`
	Files    []manifestFile `json:"files"`
}

// manifestFile is one written file: its path below the output folder,
// the target that rendered it and the SHA-256 of its bytes.
type manifestFile struct {
	Path   string `json:"path"`
	Target string `json:"target,omitempty"`
	SHA256 string `json:"sha256"`
}

// manifest renders manifest.json for s: no timestamps and no version, so
// the same model always gives the same bytes.
func manifest(s *Set) ([]byte, error) {
	m := manifestJSON{
		Generator:  Generator,
		Fabric:     s.Fabric,
		FabricPath: s.FabricPath,
		Inputs:     s.Inputs.recorded(),
		Devices:    []manifestDevice{},
		Files:      []manifestFile{{Path: ModelFile, SHA256: digest(s.Model)}},
	}
	for _, f := range s.Top {
		m.Files = append(m.Files, manifestFile{Path: f.Name, Target: f.Target, SHA256: digest(f.Data)})
	}
	sort.SliceStable(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	for _, d := range s.Devices {
		md := newManifestDevice(d)
		for _, f := range d.Files {
			md.Files = append(md.Files, manifestFile{Path: path.Join(d.Name, f.Name), Target: f.Target, SHA256: digest(f.Data)})
		}
		m.Devices = append(m.Devices, md)
	}
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the manifest: %w", err)
	}
	return append(out, '\n'), nil
}

// newManifestDevice is the manifest entry of d without its files: its
// header fields and its targets, de-duplicated and sorted. Build, Check
// and Set's manifest all start from it, so their manifests cannot drift
// apart; each appends the files itself.
func newManifestDevice(d Device) manifestDevice {
	md := manifestDevice{Name: d.Name, Kind: d.Kind, Platform: string(d.Platform), OS: string(d.OS),
		Targets: []string{}, Files: make([]manifestFile, 0, len(d.Files))}
	seen := map[string]bool{}
	for _, f := range d.Files {
		if !seen[f.Target] {
			seen[f.Target] = true
			md.Targets = append(md.Targets, f.Target)
		}
	}
	sort.Strings(md.Targets)
	return md
}

// digest is the hex SHA-256 of data.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
