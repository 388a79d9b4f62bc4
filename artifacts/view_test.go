package artifacts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/all"
)

// TestViewRendersAsFabric: every renderer, plain and mapped, writes the
// same files for every device of every example from the device's view
// (view.go) as from the whole fabric. A renderer that reads another
// device or a link of the fabric fails it.
func TestViewRendersAsFabric(t *testing.T) {
	for _, name := range []string{"demartek-lab", "homelab-40g", "multivendor-clos"} {
		f := compileExample(t, name)
		for i := range f.Switches {
			sw := &f.Switches[i]
			vf, vsw := switchView(f, sw)
			rendersAsFabric(t, name+"/"+sw.Name, f, vf, sw, vsw, all.ForSwitch(sw), all.ForSwitchMapped(sw))
		}
		for i := range f.Hosts {
			h := &f.Hosts[i]
			vf, vh := hostView(f, h)
			rendersAsFabric(t, name+"/"+h.Name, f, vf, h, vh, all.ForHost(h), all.ForHostMapped(h))
		}
	}
}

// rendersAsFabric runs every renderer of the sets over the device d of
// f and over vd of its view vf, and fails unless each gives the same
// files and error both ways.
func rendersAsFabric[D any, R ~func(*model.Fabric, *D) ([]targets.File, error)](t *testing.T, device string, f, vf *model.Fabric, d, vd *D, sets ...[]R) {
	t.Helper()
	for _, rs := range sets {
		for _, r := range rs {
			whole, err1 := r(f, d)
			view, err2 := r(vf, vd)
			sameFiles(t, device, whole, view, err1, err2)
		}
	}
}

// sameFiles fails unless a renderer gave the same files and error from
// the whole fabric as from the device's view.
func sameFiles(t *testing.T, device string, whole, view []targets.File, err1, err2 error) {
	t.Helper()
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		t.Errorf("%s: error %v from the fabric, %v from the view", device, err1, err2)
	}
	if len(whole) != len(view) {
		t.Fatalf("%s: %d files from the fabric, %d from the view", device, len(whole), len(view))
	}
	for i := range whole {
		if whole[i].Name != view[i].Name || string(whole[i].Data) != string(view[i].Data) || whole[i].Mode != view[i].Mode {
			t.Errorf("%s: %s differs between the fabric and the view", device, whole[i].Name)
		}
	}
}

// TestFingerprintCoversModel: a fingerprint is the JSON of a device's
// view, so every field of the model a renderer can read must be in that
// JSON: exported, and not left out with `json:"-"`. A field added
// otherwise would let a rebuild keep files rendered before it changed.
func TestFingerprintCoversModel(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(typ.Elem())
			return
		case reflect.Struct:
		default:
			return
		}
		if seen[typ] {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			fld := typ.Field(i)
			if !fld.IsExported() || fld.Tag.Get("json") == "-" {
				t.Errorf("%s.%s is not in the model's JSON, so no fingerprint sees it", typ.Name(), fld.Name)
			}
			walk(fld.Type)
		}
	}
	walk(reflect.TypeOf(model.Fabric{}))
	if len(seen) < 10 {
		t.Fatalf("walked only %d struct types of the model", len(seen))
	}
}

// TestRebuildKeepsOnlyWhatIsVouchedFor: a rebuild of the same fabric
// keeps every device without rendering it, but renders every device
// again when the renderers changed, when the fingerprints beside the
// folder belong to another build or are damaged or gone, and when the
// folder's seal is gone. Each time the folder ends up as a fresh build
// of the fabric.
func TestRebuildKeepsOnlyWhatIsVouchedFor(t *testing.T) {
	f, opts := compileChanged(t, "multivendor-clos", nil)
	recabled, _ := compileRecabled(t)
	cases := []struct {
		name   string
		before func(t *testing.T, dir, prints string)
		kept   bool
	}{
		{"same fabric", func(*testing.T, string, string) {}, true},
		{"other renderers", func(t *testing.T, _, _ string) {
			id, _ := rendererID()
			orig := rendererID
			t.Cleanup(func() { rendererID = orig })
			id[0] ^= 1
			rendererID = func() (fingerprint, bool) { return id, true }
		}, false},
		{"fingerprints of another build", func(t *testing.T, dir, prints string) {
			kept, err := os.ReadFile(prints)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Build(context.Background(), dir, recabled, opts); err != nil {
				t.Fatal(err)
			}
			// As if killed between the swap and the record: the record
			// of the build before stays, and its fingerprints of leaf1
			// and gpu01 are those of the fabric built next.
			if err := os.WriteFile(prints, kept, 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"damaged fingerprints", func(t *testing.T, _, prints string) {
			data, err := os.ReadFile(prints)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(prints, data[:len(data)-1], 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"no fingerprints", func(t *testing.T, _, prints string) {
			if err := os.Remove(prints); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"no seal", func(t *testing.T, dir, _ string) { unseal(dir) }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			dir, fresh := filepath.Join(parent, "out"), filepath.Join(parent, "fresh")
			prints := fingerprintsPath(parent, "out")
			if _, err := Build(context.Background(), dir, f, opts); err != nil {
				t.Fatal(err)
			}
			c.before(t, dir, prints)
			res, err := Build(context.Background(), dir, f, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			if c.kept {
				want = res.Devices
			}
			if res.Kept != want {
				t.Errorf("%d of %d devices kept without rendering, want %d", res.Kept, res.Devices, want)
			}
			if _, err := Build(context.Background(), fresh, f, opts); err != nil {
				t.Fatal(err)
			}
			sameContent(t, readTree(t, dir), readTree(t, fresh))
			got, frags := readFingerprints(prints, res.manifest, res.Devices)
			if want := res.fingerprints; !reflect.DeepEqual(got, want) || got == nil {
				t.Errorf("the fingerprints beside the folder are not the rebuild's")
			}
			if !reflect.DeepEqual(frags, res.fragments) || frags == nil {
				t.Errorf("the model.json fragments beside the folder are not the rebuild's")
			}
		})
	}
}

// TestRemoveStaleFingerprints: a build removes the temporary folders
// and fingerprint files that a process no longer running left beside
// its folder, and nothing of a running one's or of another folder's.
func TestRemoveStaleFingerprints(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	gone, alive := strconv.Itoa(dead.Process.Pid), strconv.Itoa(os.Getpid())
	parent := t.TempDir()
	for _, name := range []string{".out.tmp-" + gone + "-1", ".out.tmp-" + alive + "-1"} {
		if err := os.Mkdir(filepath.Join(parent, name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".out.fingerprints.tmp-" + gone, ".out.fingerprints.tmp-" + alive, ".other.fingerprints.tmp-" + gone} {
		if err := os.WriteFile(filepath.Join(parent, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeStale(parent, "out")
	assertOnly(t, parent, ".other.fingerprints.tmp-"+gone, ".out.fingerprints.tmp-"+alive, ".out.tmp-"+alive+"-1")
}
