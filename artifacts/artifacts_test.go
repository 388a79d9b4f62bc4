package artifacts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// fixture is a small fabric and hand-rendered device files.
func fixture() (*model.Fabric, []Device) {
	f := &model.Fabric{
		Name:     "lab",
		Switches: []model.Switch{{Name: "leaf1", Platform: model.PlatformEOS}},
		Hosts:    []model.Host{{Name: "gpu1", OS: model.OSLinux}},
	}
	devs := []Device{
		{Name: "leaf1", Kind: "switch", Platform: model.PlatformEOS, Files: []targets.File{
			{Name: "leaf1.openconfig.json", Target: "openconfig", Data: []byte("{}\n")},
			{Name: "leaf1.eos.cfg", Target: "eos", Data: []byte("interface Ethernet1\n   mtu 9214\n")},
		}},
		{Name: "gpu1", Kind: "host", OS: model.OSLinux, Files: []targets.File{
			{Name: "gpu1.linux.sh", Target: "linux", Mode: 0o755, Data: []byte("#!/bin/sh\nmlnx_qos -i ens1f0 --trust dscp\n")},
		}},
	}
	return f, devs
}

func TestAssembleManifest(t *testing.T) {
	f, devs := fixture()
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	var m manifestJSON
	if err := json.Unmarshal(s.Manifest, &m); err != nil {
		t.Fatal(err)
	}
	want := manifestJSON{
		Generator: "fabricc",
		Fabric:    "lab",
		Devices: []manifestDevice{
			{Name: "gpu1", Kind: "host", OS: "linux", Targets: []string{"linux"}, Files: []manifestFile{
				{Path: "gpu1/gpu1.linux.sh", Target: "linux", SHA256: digest(devs[0].Files[0].Data)}}},
			{Name: "leaf1", Kind: "switch", Platform: "eos", Targets: []string{"eos", "openconfig"}, Files: []manifestFile{
				{Path: "leaf1/leaf1.eos.cfg", Target: "eos", SHA256: digest([]byte("interface Ethernet1\n   mtu 9214\n"))},
				{Path: "leaf1/leaf1.openconfig.json", Target: "openconfig", SHA256: digest([]byte("{}\n"))}}},
		},
		Files: []manifestFile{{Path: "model.json", SHA256: digest(s.Model)}},
	}
	if d := cmp.Diff(want, m); d != "" {
		t.Errorf("manifest (-want +got):\n%s", d)
	}
	var paths []string
	for _, fl := range s.Files() {
		paths = append(paths, fl.Path)
	}
	wantPaths := []string{"gpu1/gpu1.linux.sh", "leaf1/leaf1.eos.cfg", "leaf1/leaf1.openconfig.json", "manifest.json", "model.json"}
	if d := cmp.Diff(wantPaths, paths); d != "" {
		t.Errorf("paths (-want +got):\n%s", d)
	}
	for _, bad := range []string{"generated_at", "version"} {
		if bytes.Contains(s.Manifest, []byte(bad)) {
			t.Errorf("manifest holds %q; it must not churn between builds", bad)
		}
	}
}

func TestAssembleRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(d []Device) []Device
		want   string
	}{
		{"same file twice", func(d []Device) []Device {
			d[0].Files = append(d[0].Files, targets.File{Name: "leaf1.eos.cfg", Target: "openconfig"})
			return d
		}, `switch "leaf1": targets "eos" and "openconfig" both write "leaf1.eos.cfg"`},
		{"path in file name", func(d []Device) []Device {
			d[0].Files[0].Name = "../x"
			return d
		}, `contains a path separator`},
		{"switch and host of one name", func(d []Device) []Device {
			d[1].Name = "leaf1"
			return d
		}, `a switch and a host are both named "leaf1"`},
		{"device named like a top-level file", func(d []Device) []Device {
			d[1].Name = "model.json"
			return d
		}, `clashes with the top-level model.json file`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, devs := fixture()
			_, err := assemble(f, tc.mutate(devs))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// compileExample loads and compiles one of the examples.
func compileExample(t *testing.T, name string) *model.Fabric {
	t.Helper()
	cfg, _, diags := dsl.Load(filepath.Join("..", "examples", name), dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("loading %s: %v", name, diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("compiling %s: %v", name, diags)
	}
	return f
}

func TestRenderDeterministic(t *testing.T) {
	f := compileExample(t, "multivendor-clos")
	a, err := Render(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Devices) == 0 {
		t.Fatal("the example rendered no devices")
	}
	if d := cmp.Diff(a.Files(), b.Files()); d != "" {
		t.Errorf("two renders differ:\n%s", d)
	}
}

// TestRenderSwitchesIsRender checks that RenderSwitches gives every
// switch of every example the files RenderWith gives it, byte for byte,
// and nothing for the hosts.
func TestRenderSwitchesIsRender(t *testing.T) {
	for _, name := range []string{"multivendor-clos", "demartek-lab"} { // homelab-40g has no switch
		t.Run(name, func(t *testing.T) {
			f := compileExample(t, name)
			set, err := Render(f)
			if err != nil {
				t.Fatal(err)
			}
			devs, err := RenderSwitches(f)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]byte{}
			for _, d := range set.Devices {
				if d.Kind == "switch" {
					for _, file := range d.Files {
						want[d.Name+"/"+file.Name] = file.Data
					}
				}
			}
			got := map[string][]byte{}
			for _, d := range devs {
				for _, file := range d.Files {
					got[d.Name+"/"+file.Name] = file.Data
				}
			}
			if len(want) == 0 {
				t.Fatal("the example rendered no switch files")
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("RenderSwitches differs from Render (-Render +RenderSwitches):\n%s", d)
			}
		})
	}
}

// TestRenderSwitchesRefusesNames checks that RenderSwitches refuses a
// switch name a build would refuse, as RenderWith does.
func TestRenderSwitchesRefusesNames(t *testing.T) {
	f := compileExample(t, "multivendor-clos")
	f.Switches[1].Name = f.Switches[0].Name
	_, err := RenderSwitches(f)
	if err == nil || !strings.Contains(err.Error(), "are both named") {
		t.Fatalf("got %v, want the clash of two switch names", err)
	}
}

// snapshot reads every file below dir into path -> content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = info.Mode().Perm().String() + " " + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWrite(t *testing.T) {
	f, devs := fixture()
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	// A build folder of another fabric, which Write replaces whole.
	older, err := assemble(&model.Fabric{Name: "old", Hosts: []model.Host{{Name: "stale", OS: model.OSLinux}}},
		[]Device{{Name: "stale", Kind: "host", OS: model.OSLinux, Files: []targets.File{{Name: "stale.linux.sh", Target: "linux", Data: []byte("old")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, older); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, s); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, dir)
	want := map[string]string{
		"gpu1/gpu1.linux.sh":          "-rwxr-xr-x #!/bin/sh\nmlnx_qos -i ens1f0 --trust dscp\n",
		"leaf1/leaf1.eos.cfg":         "-rw-r--r-- interface Ethernet1\n   mtu 9214\n",
		"leaf1/leaf1.openconfig.json": "-rw-r--r-- {}\n",
		"manifest.json":               "-rw-r--r-- " + string(s.Manifest),
		"model.json":                  "-rw-r--r-- " + string(s.Model),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("written tree (-want +got):\n%s", d)
	}
	// The replaced build is kept beside it for the next rebuild, without
	// its copies of the files this build wrote anew, but its model.json
	// (push's and diff's rollout check) and manifest.json.
	kept := map[string]string{
		"stale/stale.linux.sh": "-rw-r--r-- old",
		"manifest.json":        "-rw-r--r-- " + string(older.Manifest),
		"model.json":           "-rw-r--r-- " + string(older.Model),
	}
	if d := cmp.Diff(kept, snapshot(t, filepath.Join(parent, ".out.prev"))); d != "" {
		t.Errorf("kept build (-want +got):\n%s", d)
	}
	assertOnly(t, parent, ".out.prev", "out")
}

// assertSettled fails unless parent holds the build folder out and at
// most the build kept beside it: no temporary folder.
func assertSettled(t *testing.T, parent string) {
	t.Helper()
	got := entryNames(t, parent)
	if !slices.Equal(got, []string{"out"}) && !slices.Equal(got, []string{".out.prev", "out"}) {
		t.Errorf("entries of %s: %q, want out and at most .out.prev", parent, got)
	}
}

// assertOnly fails unless parent holds exactly the named entries (no
// temporary folders left behind).
func assertOnly(t *testing.T, parent string, names ...string) {
	t.Helper()
	if d := cmp.Diff(names, entryNames(t, parent)); d != "" {
		t.Errorf("entries of %s (-want +got):\n%s", parent, d)
	}
}

// entryNames lists the names in the folder parent, sorted.
func entryNames(t *testing.T, parent string) []string {
	t.Helper()
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	return got
}

func TestWriteFailureLeavesDirAlone(t *testing.T) {
	f, devs := fixture()
	good, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	// A NUL byte in a file name makes the operating system refuse the
	// write half way through (after other files were written).
	bad := *good
	bad.Devices = append([]Device(nil), good.Devices...)
	bad.Devices[1].Files = []targets.File{{Name: "z\x00.cfg", Target: "eos", Data: []byte("x")}}

	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if err := Write(dir, good); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	if err := Write(dir, &bad); err == nil {
		t.Fatal("Write succeeded with an unwritable file name")
	}
	if d := cmp.Diff(before, snapshot(t, dir)); d != "" {
		t.Errorf("a failed Write changed %s (-before +after):\n%s", dir, d)
	}
	assertOnly(t, parent, "out")

	fresh := filepath.Join(parent, "fresh")
	if err := Write(fresh, &bad); err == nil {
		t.Fatal("Write succeeded with an unwritable file name")
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a failed Write created %s", fresh)
	}
	assertOnly(t, parent, "out")
}

func TestWriteRefuses(t *testing.T) {
	parent := t.TempDir()
	file := filepath.Join(parent, "file")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Set{Model: []byte("{}\n"), Manifest: []byte("{}\n")}
	tests := []struct{ dir, want string }{
		{file, "exists and is not a folder"},
		{filepath.Join(parent, "missing", "out"), "does not exist; create it first"},
	}
	for _, tc := range tests {
		err := Write(tc.dir, s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%s) = %v, want an error containing %q", tc.dir, err, tc.want)
		}
		if early := CheckOutput(tc.dir); early == nil || err == nil || early.Error() != err.Error() {
			t.Errorf("CheckOutput(%s) = %v, want Write's error %v", tc.dir, early, err)
		}
	}
	if data, _ := os.ReadFile(file); string(data) != "keep" {
		t.Errorf("the file was changed to %q", data)
	}
}
