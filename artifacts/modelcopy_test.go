package artifacts

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestModelCopyIsEncode rebuilds multivendor-clos, with hostile
// descriptions, after recabling one host: model.json copies every
// device but the cable's two ends from the model.json of the build
// before, and its bytes are model.Marshal's of the new fabric, HTML
// characters, quotes and U+2028 included. A rebuild with nothing
// changed copies every device; one whose kept model.json was edited, or
// whose record of fingerprints is gone, copies none, and its bytes are
// still Marshal's.
func TestModelCopyIsEncode(t *testing.T) {
	f1, opts1 := compileChanged(t, "multivendor-clos", nil)
	f2, opts2 := compileRecabled(t)
	hostileDescriptions(f1)
	hostileDescriptions(f2)
	devices := len(f2.Switches) + len(f2.Hosts)
	edit := func(t *testing.T, dir string) {
		p := filepath.Join(dir, ModelFile)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// The same bytes written again: only the seal can tell.
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unrecorded := func(t *testing.T, dir string) {
		if err := os.Remove(fingerprintsPath(filepath.Dir(dir), filepath.Base(dir))); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name   string
		first  *model.Fabric
		opts   Options
		change func(t *testing.T, dir string)
		want   int
	}{
		{"one cable", f1, opts1, nil, devices - 2},
		{"nothing changed", f2, opts2, nil, devices},
		{"model.json rewritten", f1, opts1, edit, 0},
		{"no record", f1, opts1, unrecorded, 0},
	}
	want, err := model.Marshal(f2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			first, err := Build(context.Background(), dir, c.first, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if first.ModelKept != 0 {
				t.Errorf("a build into a new folder copied %d devices", first.ModelKept)
			}
			if c.change != nil {
				c.change(t, dir)
			}
			res, err := Build(context.Background(), dir, f2, opts2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, ModelFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("model.json differs from model.Marshal (%d bytes, want %d)", len(got), len(want))
			}
			if res.ModelKept != c.want {
				t.Errorf("%d of %d devices copied from the kept model.json, want %d", res.ModelKept, devices, c.want)
			}
			// The record now says where this build's devices are: a
			// rebuild of the same fabric copies them all.
			again, err := Build(context.Background(), dir, f2, opts2)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, ModelFile)); !bytes.Equal(got, want) || again.ModelKept != devices {
				t.Errorf("the rebuild after: %d of %d devices copied, bytes same %v", again.ModelKept, devices, bytes.Equal(got, want))
			}
		})
	}
}
