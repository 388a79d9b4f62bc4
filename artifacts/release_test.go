package artifacts

import (
	"bytes"
	"testing"
)

// TestRenderersKeepNoData: a build hands each device's bytes back once
// they are written (fabricSource.release, targets.Recycle), so no
// renderer may return bytes it keeps or shares with another render (a
// cached chart, a package-level prelude). For every device of every
// example: render it twice and scribble over the first render's bytes:
// the second must still hold what it held. Then release the first
// render's bytes and render a third time (into the released memory):
// the second must still hold what it held, and the third the same.
func TestRenderersKeepNoData(t *testing.T) {
	for _, name := range []string{"demartek-lab", "homelab-40g", "multivendor-clos"} {
		src, err := newFabricSource(compileExample(t, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < src.count(); i++ {
			first, err1 := src.device(i)
			second, err2 := src.device(i)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s/%s: %v, %v", name, src.name(i), err1, err2)
			}
			var want [][]byte
			for _, f := range second.Files {
				want = append(want, bytes.Clone(f.Data))
			}
			for _, f := range first.Files {
				for j := range f.Data {
					f.Data[j] = '#'
				}
			}
			for j, f := range second.Files {
				if !bytes.Equal(f.Data, want[j]) {
					t.Errorf("%s: %s shares its bytes with the render before it", name, f.Name)
				}
			}
			src.release(first)
			third, err := src.device(i)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, src.name(i), err)
			}
			for j, f := range second.Files {
				if !bytes.Equal(f.Data, want[j]) {
					t.Errorf("%s: %s changed when another render's bytes were overwritten and released", name, f.Name)
				}
				if !bytes.Equal(third.Files[j].Data, want[j]) {
					t.Errorf("%s: %s rendered after another render's bytes were overwritten and released differs", name, f.Name)
				}
			}
		}
	}
}

// TestReleaseClearsFiles: after release, the device's files hold no
// bytes, so a use after release reads nothing instead of another
// device's text.
func TestReleaseClearsFiles(t *testing.T) {
	src, err := newFabricSource(compileExample(t, "homelab-40g"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.device(0)
	if err != nil {
		t.Fatal(err)
	}
	src.release(d)
	for _, f := range d.Files {
		if f.Data != nil {
			t.Errorf("%s still holds %d bytes after release", f.Name, len(f.Data))
		}
	}
}
