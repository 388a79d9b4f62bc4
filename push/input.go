package push

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// Build is what push works from: the model and each switch's rendered
// configuration, by switch name; and, for verify, where each host's
// script comes from (HostTargets).
type Build struct {
	Fabric  *model.Fabric
	Configs map[string][]byte
	// dir is the --artifacts folder, and scripts the SHA-256 its
	// manifest.json gives each Linux and FreeBSD host script, by path
	// ("gpu01/gpu01.linux.sh"): verify reads a script only when it checks
	// its host. dir is empty for a Build of a fabric path, whose host
	// scripts are rendered when they are checked.
	dir     string
	scripts map[string]string
	// source is where the build's manifest says its fabric was and the
	// inputs it was evaluated with (Source).
	source artifacts.Manifest
	// hosts is Fabric's hosts by name, made on first use: a large
	// fabric has 130,000 of them.
	hosts map[string]*model.Host
}

// LoadArtifacts reads a `fabricc build` output folder through its
// manifest.json: every file it lists must be there, a regular file with
// the SHA-256 the manifest gives; no other file may be in the folder;
// and push reads only listed files (model.json and, for every switch,
// "<sw>/<sw>.eos.cfg", ".onyx.cli" or ".nvue.yaml"). A file changed or
// added after the build is refused, naming it: what push sends is what
// `fabricc build` wrote and the pull request reviewed.
//
// Every listed file is checked, on every core, but only the model and
// the switch configurations are kept: the other files of a 4,096-switch
// build are 3.6 GB of host scripts and documents, and holding them took
// verify 5.7 GB. Of the host scripts only their manifest SHA-256 is kept:
// verify reads and checks a host's script again when it checks the host
// (Build.HostTargets).
func LoadArtifacts(dir string) (*Build, error) {
	listed, source, err := checkListing(dir)
	if err != nil {
		return nil, err
	}
	if _, ok := listed[artifacts.ModelFile]; !ok {
		return nil, fmt.Errorf("%s: manifest.json does not list %s; rebuild with `fabricc build FABRIC -o %s`", dir, artifacts.ModelFile, dir)
	}
	f, kept, err := loadListed(dir, listed)
	if err != nil {
		return nil, err
	}
	b := &Build{Fabric: f, Configs: map[string][]byte{}, dir: dir, scripts: map[string]string{}, source: source}
	for i := range f.Switches {
		sw := &f.Switches[i]
		name := artifactName(sw)
		if data, ok := kept[path.Join(sw.Name, name)]; name != "" && ok {
			b.Configs[sw.Name] = data
		}
	}
	for i := range f.Hosts {
		rel := path.Join(f.Hosts[i].Name, targets.HostScriptName(&f.Hosts[i]))
		if sum, ok := listed[rel]; ok {
			b.scripts[rel] = sum
		}
	}
	if err := checkRendered(dir, b); err != nil {
		return nil, err
	}
	return b, nil
}

// checkRendered refuses a folder whose switch configurations are not
// what fabricc renders from its model.json. The manifest's SHA-256 finds
// a file changed by accident, but whoever can write the folder can
// rewrite the manifest too; a configuration is sent to the switch line
// by line, and one line such as "exit" would leave the configure session
// and run what follows as commands, even in a dry run. Rendered again,
// every line is one a renderer writes, with every string of the model
// through its context's checks and escaping.
//
// Each switch is rendered, compared and dropped on its own, on every
// core, so the check holds one switch's files per core, not the fabric's.
func checkRendered(dir string, b *Build) error {
	// The renders are garbage as soon as they are compared, while the
	// model stays: a tight GC target keeps the heap near the model's size
	// instead of letting it grow to twice that (verify --artifacts of the
	// 2,048-switch bench folder: 0.6 GB instead of 0.95 GB, in about the
	// same 7.5 s; 6.5 s and 0.53 GB without the check). GOGC in the
	// environment wins, as it does for the commands that compile.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(25))
	}
	f := b.Fabric
	errs := make([]error, len(f.Switches))
	cores.Range(len(f.Switches), 8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			errs[i] = checkSwitchRendered(dir, f, &f.Switches[i], b.Configs[f.Switches[i].Name])
		}
	})
	return firstError(errs)
}

// checkSwitchRendered compares the configuration the folder holds for sw
// (nil for none) with its render from the model.
func checkSwitchRendered(dir string, f *model.Fabric, sw *model.Switch, have []byte) error {
	if have == nil {
		return nil
	}
	d, err := artifacts.RenderSwitchConfig(f, sw)
	if err != nil {
		return fmt.Errorf("%s: rendering switch %s from its %s: %w", dir, sw.Name, artifacts.ModelFile, err)
	}
	name := artifactName(sw)
	for _, file := range d.Files {
		if file.Name == name && bytes.Equal(file.Data, have) {
			return nil
		}
	}
	return fmt.Errorf("%s: %s is not what fabricc renders from the folder's %s: the folder was changed after `fabricc build`, or built by another fabricc version; build it again with this one",
		dir, path.Join(sw.Name, name), artifacts.ModelFile)
}

// firstError is the first non-nil error, in order, or nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// manifestEntry is what push reads of a manifest.json file entry.
type manifestEntry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// checkListing reads dir/manifest.json and returns the SHA-256 of every
// file it lists, by manifest path, after checking that the folder holds
// nothing else.
func checkListing(dir string) (map[string]string, artifacts.Manifest, error) {
	var source artifacts.Manifest
	raw, err := os.ReadFile(filepath.Join(dir, artifacts.ManifestFile))
	if err != nil {
		return nil, source, fmt.Errorf("%s: %w; --artifacts takes a folder written by `fabricc build FABRIC -o %s`", dir, err, dir)
	}
	var m struct {
		FabricPath string            `json:"fabric_path"`
		Inputs     *artifacts.Inputs `json:"inputs"`
		Devices    []struct {
			Files []manifestEntry `json:"files"`
		} `json:"devices"`
		Files []manifestEntry `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, source, fmt.Errorf("%s: %w", filepath.Join(dir, artifacts.ManifestFile), err)
	}
	source.FabricPath = m.FabricPath
	if m.Inputs != nil {
		source.Inputs = *m.Inputs
	}
	listed := map[string]string{}
	entries := m.Files
	for _, d := range m.Devices {
		entries = append(entries, d.Files...)
	}
	for _, e := range entries {
		if !filepath.IsLocal(filepath.FromSlash(e.Path)) || e.Path == artifacts.ManifestFile {
			return nil, source, fmt.Errorf("%s: manifest.json lists %q, which is not a file of the output folder", dir, e.Path)
		}
		listed[e.Path] = e.SHA256
	}
	if err := noStrays(dir, listed); err != nil {
		return nil, source, err
	}
	source.Files = listed
	return listed, source, nil
}

// Source is where the manifest of the --artifacts folder says the
// fabric was (FabricPath, relative to the folder), the inputs the build
// evaluated it with and the SHA-256 of every file it lists (Files, which
// LoadArtifacts checked against the files); empty for a Build of a
// fabric path.
func (b *Build) Source() artifacts.Manifest { return b.source }

// loadListed checks the SHA-256 of every listed file on every core and
// returns the fabric decoded from model.json and the bytes of the files
// push sends, by manifest path. The error is that of the first file in
// path order that fails, whatever the scheduling.
func loadListed(dir string, listed map[string]string) (*model.Fabric, map[string][]byte, error) {
	paths := sortedKeys(listed)
	data := make([][]byte, len(paths))
	errs := make([]error, len(paths))
	var f *model.Fabric
	cores.Range(len(paths), 64, func(lo, hi int) {
		buf := make([]byte, 64<<10)
		for i := lo; i < hi; i++ {
			p, want := paths[i], listed[paths[i]]
			switch {
			case p == artifacts.ModelFile:
				f, errs[i] = decodeListed(dir, p, want)
			case pushed(p):
				data[i], errs[i] = readListed(dir, p, want)
			default:
				errs[i] = hashListed(dir, p, want, buf)
			}
		}
	})
	kept := map[string][]byte{}
	for i, err := range errs {
		if err != nil {
			return nil, nil, err
		}
		if data[i] != nil {
			kept[paths[i]] = data[i]
		}
	}
	return f, kept, nil
}

// pushed reports whether rel is a file push may send to a switch,
// "<sw>/<sw>" and a platform's suffix (".eos.cfg").
func pushed(rel string) bool {
	folder, name, ok := strings.Cut(rel, "/")
	if !ok || strings.Contains(name, "/") {
		return false
	}
	for _, v := range Vendors {
		if name == folder+v.Artifact {
			return true
		}
	}
	return false
}

// noStrays refuses any file of dir that the manifest does not list, and
// anything that is not a regular file or a folder.
func noStrays(dir string, listed map[string]string) error {
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case e.IsDir() || rel == artifacts.ManifestFile:
			return nil
		case p == dir:
			return fmt.Errorf("%s is not a folder (%s); give the build folder itself", dir, e.Type())
		case !e.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file (%s); a `fabricc build` folder holds only the files its manifest.json lists", p, e.Type())
		case listed[rel] == "":
			return fmt.Errorf("%s: not listed in manifest.json; push --artifacts uses only what `fabricc build` wrote: remove the file, or rebuild into a new folder", p)
		}
		return nil
	})
}

// openListed opens one listed file, refusing a missing one and anything
// but a regular file.
func openListed(dir, rel string) (*os.File, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: listed in manifest.json but missing; rebuild with `fabricc build FABRIC -o %s`", p, dir)
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", p, st.Mode().Type())
	}
	if writableByOthers(st.Mode()) {
		return nil, fmt.Errorf("%s: writable by group or others (%s), so any of them could change what push sends to a switch or verify runs on a host; `fabricc build` writes 0644 and 0755 files: rebuild with `fabricc build FABRIC -o %s`, or chmod go-w it", p, st.Mode().Perm(), dir)
	}
	return os.Open(p)
}

// writableByOthers reports whether mode lets group or others write
// (Windows has no such bits: os.Stat makes them up from the read-only
// attribute).
func writableByOthers(mode fs.FileMode) bool {
	return runtime.GOOS != "windows" && mode.Perm()&0o022 != 0
}

// readListed reads one listed file and checks its SHA-256.
func readListed(dir, rel, want string) ([]byte, error) {
	file, err := openListed(dir, rel)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return data, sameSum(dir, rel, sum[:], want)
}

// hashListed checks the SHA-256 of one listed file without keeping its
// bytes, reading it through buf.
func hashListed(dir, rel, want string, buf []byte) error {
	file, err := openListed(dir, rel)
	if err != nil {
		return err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, file, buf); err != nil {
		return err
	}
	return sameSum(dir, rel, h.Sum(nil), want)
}

// decodeListed decodes the fabric from one listed file as it checks its
// SHA-256, in one reading: the fabric is the one the checked bytes hold.
// A file that does not hash as listed is reported as changed, whatever
// its text.
func decodeListed(dir, rel, want string) (*model.Fabric, error) {
	file, err := openListed(dir, rel)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	h := sha256.New()
	read := io.TeeReader(file, h)
	f, decodeErr := model.Decode(bufio.NewReaderSize(read, 1<<20))
	if _, err := io.Copy(io.Discard, read); err != nil {
		return nil, err
	}
	if err := sameSum(dir, rel, h.Sum(nil), want); err != nil {
		return nil, err
	}
	if decodeErr != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, filepath.FromSlash(rel)), decodeErr)
	}
	return f, nil
}

// sameSum refuses a listed file whose SHA-256 is not the manifest's.
func sameSum(dir, rel string, sum []byte, want string) error {
	if got := hex.EncodeToString(sum); got != want {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		return fmt.Errorf("%s: changed after `fabricc build`: its SHA-256 is %s, manifest.json says %s; rebuild with `fabricc build FABRIC -o %s` instead of editing the output", p, got, want, dir)
	}
	return nil
}

// FromSet is a Build from an in-memory artifact set.
func FromSet(f *model.Fabric, set *artifacts.Set) *Build { return FromDevices(f, set.Devices) }

// FromDevices is a Build from devices rendered in memory (push of a
// fabric path renders its switches first): each switch's configuration
// is the file of its platform's name.
func FromDevices(f *model.Fabric, devs []artifacts.Device) *Build {
	b := &Build{Fabric: f, Configs: map[string][]byte{}}
	switches := make(map[string]*model.Switch, len(f.Switches))
	for i := range f.Switches {
		switches[f.Switches[i].Name] = &f.Switches[i]
	}
	// A set's devices are the fabric's, hosts too (130,000 of them in a
	// large fabric): each is looked up by name, not searched for.
	for _, d := range devs {
		sw := switches[d.Name]
		if sw == nil {
			continue
		}
		name := artifactName(sw)
		for _, file := range d.Files {
			if name != "" && file.Name == name {
				b.Configs[sw.Name] = file.Data
			}
		}
	}
	return b
}

// checkRelease refuses a switch whose declared release predates a
// command push sends to its platform: the push would fail on the switch,
// after its lock was taken.
func checkRelease(sw *model.Switch) error {
	v := Vendors[sw.Platform]
	if v == nil || v.MinRelease == "" || sw.OSVersion == "" || model.CompareVersions(sw.OSVersion, v.MinRelease) >= 0 {
		return nil
	}
	return fmt.Errorf("switch %q declares os_version %s, and push needs %s or later: %s; upgrade the switch and its os_version, or apply the built configuration by hand",
		sw.Name, sw.OSVersion, v.MinRelease, v.Since)
}

// artifactName is the rendered file push sends to sw ("leaf1.eos.cfg"),
// or "" when push does not handle sw's platform.
func artifactName(sw *model.Switch) string {
	if v := Vendors[sw.Platform]; v != nil {
		return sw.Name + v.Artifact
	}
	return ""
}

// Targets pairs the selected inventory devices with their switches; the
// hosts among them are left to HostTargets. A device the fabric does not
// have, a switch without a rendered config, or a platform that disagrees
// with the inventory is an error naming it and where the inventory
// declares it.
func (b *Build) Targets(devs []*inventory.Device) ([]Target, error) {
	var out []Target
	for _, d := range devs {
		sw := b.Fabric.Switch(d.Name)
		if sw == nil && b.host(d.Name) != nil {
			continue
		}
		if sw == nil {
			return nil, fmt.Errorf("%s: inventory device %q is not a switch or host of fabric %q; fix the name or narrow --limit", dsl.Position(d.Range), d.Name, b.Fabric.Name)
		}
		if d.Platform != "" && d.Platform != sw.Platform {
			return nil, fmt.Errorf("%s: device %q: the inventory says platform %s, the fabric says %s; correct the inventory's platform, or remove it (the fabric's is used)", dsl.Position(d.Range), d.Name, d.Platform, sw.Platform)
		}
		if err := checkRelease(sw); err != nil {
			return nil, err
		}
		cfg, ok := b.Configs[sw.Name]
		if !ok {
			return nil, fmt.Errorf("switch %q: no rendered %s configuration in the build", sw.Name, sw.Platform)
		}
		out = append(out, Target{Switch: sw, Config: cfg, Device: d})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Switch.Name < out[j].Switch.Name })
	return out, nil
}

// Hosts returns the selected inventory devices that are hosts of the
// fabric, by name.
func (b *Build) Hosts(devs []*inventory.Device) []*inventory.Device {
	var out []*inventory.Device
	for _, d := range devs {
		if b.host(d.Name) != nil {
			out = append(out, d)
		}
	}
	return out
}

// HostTargets pairs the selected inventory devices that are hosts of the
// fabric with their hosts, for verify (the switches among them are
// Targets'). A platform other than the host's operating system, and a
// Windows host (its script is PowerShell, see
// inventory.WindowsRefusal), are errors naming the device and where the
// inventory declares it. Each target's Script renders the host's script
// or, from --artifacts, reads it, checks its manifest SHA-256 and that it
// is what fabricc renders from the folder's model.json: the script runs
// on the host, through sudo when asked, so a script changed in the folder
// (and its manifest with it) must not reach the host.
func (b *Build) HostTargets(devs []*inventory.Device) ([]HostTarget, error) {
	var out []HostTarget
	for _, d := range devs {
		h := b.host(d.Name)
		if h == nil {
			continue
		}
		at := dsl.Position(d.Range)
		switch {
		case h.OS == model.OSWindows:
			return nil, fmt.Errorf("%s: %s", at, inventory.WindowsRefusal(h.Name))
		case h.OS != model.OSLinux && h.OS != model.OSFreeBSD:
			return nil, fmt.Errorf("%s: host %q runs %s, which fabricc cannot check", at, h.Name, h.OS)
		case d.Platform != "" && string(d.Platform) != string(h.OS):
			return nil, fmt.Errorf("%s: device %q: the inventory says platform %s, the fabric's host runs %s; correct the inventory's platform, or remove it (the fabric's is used)", at, d.Name, d.Platform, h.OS)
		}
		out = append(out, HostTarget{Host: h, Device: d, Script: func() ([]byte, error) { return b.hostScript(h) }})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host.Name < out[j].Host.Name })
	return out, nil
}

// host is the fabric's host of that name, or nil.
func (b *Build) host(name string) *model.Host {
	if b.hosts == nil {
		b.hosts = make(map[string]*model.Host, len(b.Fabric.Hosts))
		for i := range b.Fabric.Hosts {
			b.hosts[b.Fabric.Hosts[i].Name] = &b.Fabric.Hosts[i]
		}
	}
	return b.hosts[name]
}

// hostScript is h's script, rendered from the model; from an --artifacts
// folder, the folder's file, which must have its manifest SHA-256 and be
// that render.
func (b *Build) hostScript(h *model.Host) ([]byte, error) {
	name := targets.HostScriptName(h)
	d, err := artifacts.RenderHostConfig(b.Fabric, h)
	if err != nil {
		return nil, err
	}
	var render []byte
	for _, f := range d.Files {
		if f.Name == name {
			render = f.Data
		}
	}
	if render == nil {
		return nil, fmt.Errorf("host %q: fabricc renders no %s", h.Name, name)
	}
	if b.dir == "" {
		return render, nil
	}
	rel := path.Join(h.Name, name)
	want, ok := b.scripts[rel]
	if !ok {
		return nil, fmt.Errorf("%s: manifest.json does not list %s; rebuild with `fabricc build FABRIC -o %s`", b.dir, rel, b.dir)
	}
	data, err := readListed(b.dir, rel, want)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(data, render) {
		return nil, fmt.Errorf("%s: %s is not what fabricc renders from the folder's %s: the folder was changed after `fabricc build`, or built by another fabricc version; build it again with this one",
			b.dir, rel, artifacts.ModelFile)
	}
	return data, nil
}
