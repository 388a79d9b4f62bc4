package artifacts

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// hostileDescriptions gives the fabric a description with what JSON
// and Markdown escape (HTML characters, which model.json keeps as they
// are, quotes, a backslash and U+2028), and every switch's first port
// one with the HTML characters a switch CLI lets through.
func hostileDescriptions(f *model.Fabric) {
	f.Description = "<b>&amp;\"quoted\" 'x' \u2028 \\ end"
	for i := range f.Switches {
		if len(f.Switches[i].Ports) > 0 {
			f.Switches[i].Ports[0].Description = "<b>&amp; x"
		}
	}
}

// TestCheckIsCompare: Check, which renders and compares file by file,
// finds what Compare of the whole rendered set finds, bytes included,
// for a missing folder, the build itself, and a build changed in every
// way Compare tells apart (bytes, a file taken away, one added, a
// symbolic link and a folder where files were, model.json and
// manifest.json edited); without keep, the same paths and kinds with no
// bytes.
func TestCheckIsCompare(t *testing.T) {
	f, opts := compileChanged(t, "multivendor-clos", nil)
	hostileDescriptions(f)
	set, err := RenderWith(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(set.Model, []byte(`<b>&amp;\"quoted\" 'x' \u2028 \\ end`)) {
		t.Fatal("the hostile description is not in model.json as the test expects")
	}
	built := filepath.Join(t.TempDir(), "out")
	if err := Write(built, set); err != nil {
		t.Fatal(err)
	}
	dev := set.Devices[0].Name + "/" + set.Devices[0].Files[0].Name
	gone := set.Devices[1].Name + "/" + set.Devices[1].Files[0].Name
	linked := set.Devices[2].Name + "/" + set.Devices[2].Files[0].Name
	folder := set.Devices[3].Name + "/" + set.Devices[3].Files[0].Name
	edit := func(t *testing.T, dir string) {
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
		must(os.WriteFile(p(dev), []byte("edited\n"), 0o644))
		must(os.Remove(p(gone)))
		must(os.WriteFile(p("extra.txt"), []byte("not built\n"), 0o644))
		must(os.Remove(p(linked)))
		must(os.Symlink("/etc/passwd", p(linked)))
		must(os.Remove(p(folder)))
		must(os.MkdirAll(filepath.Join(p(folder), "inner"), 0o755))
		must(os.WriteFile(filepath.Join(p(folder), "inner", "x"), []byte("x"), 0o644))
		model := set.Model[:len(set.Model)-10]
		must(os.WriteFile(p(ModelFile), model, 0o644))
		must(os.WriteFile(p(ManifestFile), append(bytes.Clone(set.Manifest), ' '), 0o644))
	}
	cases := []struct {
		name  string
		setup func(t *testing.T) string
		want  map[string]string // path: kind
	}{
		{"missing", func(t *testing.T) string { return filepath.Join(t.TempDir(), "none") }, nil},
		{"built", func(t *testing.T) string { return built }, map[string]string{}},
		{"edited", func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "out")
			if err := Write(dir, set); err != nil {
				t.Fatal(err)
			}
			edit(t, dir)
			return dir
		}, map[string]string{
			dev: Changed, gone: Added, "extra.txt": Removed, linked: Changed,
			folder: Added, folder + "/inner/x": Removed, ModelFile: Changed, ManifestFile: Changed,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.setup(t)
			want, err := Compare(dir, set)
			if err != nil {
				t.Fatal(err)
			}
			got, files, err := Check(dir, f, opts, true)
			if err != nil {
				t.Fatal(err)
			}
			if files != len(set.Files()) {
				t.Errorf("Check counts %d files, the set has %d", files, len(set.Files()))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Check found\n%v\nCompare\n%v", summary(got), summary(want))
			}
			for i := range got {
				if i < len(want) && (!bytes.Equal(got[i].Old, want[i].Old) || !bytes.Equal(got[i].New, want[i].New)) {
					t.Errorf("%s: bytes differ from Compare's", got[i].Path)
				}
			}
			if c.want != nil {
				kinds := map[string]string{}
				for _, d := range got {
					kinds[d.Path] = d.Kind
				}
				if !reflect.DeepEqual(kinds, c.want) {
					t.Errorf("differences %v, want %v", kinds, c.want)
				}
			} else if len(got) != len(set.Files()) {
				t.Errorf("%d differences in a missing folder, want every file (%d) new", len(got), len(set.Files()))
			}
			bare, _, err := Check(dir, f, opts, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(bare) != len(want) {
				t.Fatalf("without bytes: %d differences, want %d", len(bare), len(want))
			}
			for i := range bare {
				if bare[i].Path != want[i].Path || bare[i].Kind != want[i].Kind || bare[i].Old != nil || bare[i].New != nil {
					t.Errorf("without bytes: %s %s (bytes %v %v), want %s %s and none", bare[i].Kind, bare[i].Path,
						bare[i].Old != nil, bare[i].New != nil, want[i].Kind, want[i].Path)
				}
			}
		})
	}
}

// summary is the kinds and paths of ds.
func summary(ds []Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind+" "+d.Path)
	}
	return out
}
