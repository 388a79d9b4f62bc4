package push

import (
	"fmt"
	"io/fs"
	"os"
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

// LoadArtifacts reads a `fabricc build` output folder: model.json and,
// for every switch, the file its platform pushes ("<sw>.eos.cfg",
// "<sw>.onyx.cli", "<sw>.nvue.yaml"), wherever it is in the folder.
func LoadArtifacts(dir string) (*Build, error) {
	data, err := os.ReadFile(filepath.Join(dir, artifacts.ModelFile))
	if err != nil {
		return nil, fmt.Errorf("%s: %w (run `fabricc build FABRIC -o %s` first)", dir, err, dir)
	}
	f, err := model.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, artifacts.ModelFile), err)
	}
	want := map[string]string{} // file name -> switch
	for i := range f.Switches {
		if name := artifactName(&f.Switches[i]); name != "" {
			want[name] = f.Switches[i].Name
		}
	}
	b := &Build{Fabric: f, Configs: map[string][]byte{}}
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || want[e.Name()] == "" {
			return err
		}
		data, err := os.ReadFile(p)
		b.Configs[want[e.Name()]] = data
		return err
	})
	return b, err
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
