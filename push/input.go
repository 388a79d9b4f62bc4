package push

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
)

// Build is what push works from: the model and each switch's rendered
// configuration, by switch name.
type Build struct {
	Fabric  *model.Fabric
	Configs map[string][]byte
}

// LoadArtifacts reads a `fabricc build` output folder through its
// manifest.json: every file it lists must be there, a regular file with
// the SHA-256 the manifest gives; no other file may be in the folder;
// and push reads only listed files (model.json and, for every switch,
// "<sw>/<sw>.eos.cfg", ".onyx.cli" or ".nvue.yaml"). A file changed or
// added after the build is refused, naming it: what push sends is what
// `fabricc build` wrote and the pull request reviewed.
func LoadArtifacts(dir string) (*Build, error) {
	files, err := checkManifest(dir)
	if err != nil {
		return nil, err
	}
	data, ok := files[artifacts.ModelFile]
	if !ok {
		return nil, fmt.Errorf("%s: manifest.json does not list %s; rebuild with `fabricc build FABRIC -o %s`", dir, artifacts.ModelFile, dir)
	}
	f, err := model.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, artifacts.ModelFile), err)
	}
	b := &Build{Fabric: f, Configs: map[string][]byte{}}
	for i := range f.Switches {
		sw := &f.Switches[i]
		name := artifactName(sw)
		if data, ok := files[path.Join(sw.Name, name)]; name != "" && ok {
			b.Configs[sw.Name] = data
		}
	}
	return b, nil
}

// manifestEntry is what push reads of a manifest.json file entry.
type manifestEntry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// checkManifest reads dir/manifest.json and returns the content of every
// file it lists, by manifest path, after checking each file's SHA-256
// and that the folder holds nothing else.
func checkManifest(dir string) (map[string][]byte, error) {
	raw, err := os.ReadFile(filepath.Join(dir, artifacts.ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("%s: %w; --artifacts takes a folder written by `fabricc build FABRIC -o %s`", dir, err, dir)
	}
	var m struct {
		Devices []struct {
			Files []manifestEntry `json:"files"`
		} `json:"devices"`
		Files []manifestEntry `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, artifacts.ManifestFile), err)
	}
	listed := map[string]string{}
	entries := m.Files
	for _, d := range m.Devices {
		entries = append(entries, d.Files...)
	}
	for _, e := range entries {
		if !filepath.IsLocal(filepath.FromSlash(e.Path)) || e.Path == artifacts.ManifestFile {
			return nil, fmt.Errorf("%s: manifest.json lists %q, which is not a file of the output folder", dir, e.Path)
		}
		listed[e.Path] = e.SHA256
	}
	if err := noStrays(dir, listed); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, p := range sortedKeys(listed) {
		data, err := readListed(dir, p, listed[p])
		if err != nil {
			return nil, err
		}
		files[p] = data
	}
	return files, nil
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
		case !e.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file (%s); a `fabricc build` folder holds only the files its manifest.json lists", p, e.Type())
		case listed[rel] == "":
			return fmt.Errorf("%s: not listed in manifest.json; push --artifacts uses only what `fabricc build` wrote: remove the file, or rebuild into a new folder", p)
		}
		return nil
	})
}

// readListed reads one listed file and checks its SHA-256.
func readListed(dir, rel, want string) ([]byte, error) {
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
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, fmt.Errorf("%s: changed after `fabricc build`: its SHA-256 is %s, manifest.json says %s; rebuild with `fabricc build FABRIC -o %s` instead of editing the output", p, got, want, dir)
	}
	return data, nil
}

// FromSet is a Build from an in-memory artifact set (push of a fabric
// path builds first).
func FromSet(f *model.Fabric, set *artifacts.Set) *Build {
	b := &Build{Fabric: f, Configs: map[string][]byte{}}
	for _, d := range set.Devices {
		sw := f.Switch(d.Name)
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

// artifactName is the rendered file push sends to sw ("leaf1.eos.cfg"),
// or "" when push does not handle sw's platform.
func artifactName(sw *model.Switch) string {
	if v := Vendors[sw.Platform]; v != nil {
		return sw.Name + v.Artifact
	}
	return ""
}

// Targets pairs the selected inventory devices with their switches. A
// device the fabric does not have, a switch without a rendered config, or
// a platform that disagrees with the inventory is an error naming it.
func (b *Build) Targets(devs []*inventory.Device) ([]Target, error) {
	var out []Target
	for _, d := range devs {
		sw := b.Fabric.Switch(d.Name)
		if sw == nil {
			return nil, fmt.Errorf("inventory device %q is not a switch of fabric %q; fix the name or narrow --limit", d.Name, b.Fabric.Name)
		}
		if d.Platform != "" && d.Platform != sw.Platform {
			return nil, fmt.Errorf("device %q: inventory says platform %s, the fabric says %s", d.Name, d.Platform, sw.Platform)
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
