package artifacts

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/google/go-cmp/cmp"
)

// hostSet is a fabric of Linux hosts, each with the files given by name
// and content.
func hostSet(t *testing.T, name string, hosts map[string]map[string]string) *Set {
	t.Helper()
	f := &model.Fabric{Name: name}
	var devs []Device
	for _, h := range slices.Sorted(maps.Keys(hosts)) {
		f.Hosts = append(f.Hosts, model.Host{Name: h, OS: model.OSLinux})
		d := Device{Name: h, Kind: "host", OS: model.OSLinux}
		for _, file := range slices.Sorted(maps.Keys(hosts[h])) {
			d.Files = append(d.Files, targets.File{Name: file, Target: "linux", Mode: 0o755, Data: []byte(hosts[h][file])})
		}
		devs = append(devs, d)
	}
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// kept is what the build before (snapshot before) leaves beside the
// build now in place: every file, but not its copies of the files the
// build now in place changed; its manifest.json and model.json stay.
func kept(before, now map[string]string) map[string]string {
	out := map[string]string{}
	for p, b := range before {
		if n, ok := now[p]; !ok || n == b || p == ManifestFile || p == ModelFile {
			out[p] = b
		}
	}
	return out
}

// changeTime is the inode change time of p: link, unlink, write and
// chmod all set it.
func changeTime(t *testing.T, p string) time.Time {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
}

// TestRebuildFromPrevious writes four builds into one folder: a host's
// file changes, a host comes, one goes, then the first build again.
// After each, the folder holds exactly what a fresh write of the set
// holds, the build it replaced is kept beside it, and a file unchanged
// across three builds was not touched at all (same inode and change
// time): the rebuild started from the build before and changed only
// the names that differ.
func TestRebuildFromPrevious(t *testing.T) {
	a := hostSet(t, "f", map[string]map[string]string{
		"h1": {"h1.linux.sh": "one", "h1.extra.sh": "extra"},
		"h2": {"h2.linux.sh": "two"},
	})
	b := hostSet(t, "f", map[string]map[string]string{
		"h1": {"h1.linux.sh": "one", "h1.extra.sh": "extra"},
		"h2": {"h2.linux.sh": "two, changed"},
		"h3": {"h3.linux.sh": "three"},
	})
	c := hostSet(t, "f", map[string]map[string]string{
		"h1": {"h1.linux.sh": "one"},
		"h3": {"h3.linux.sh": "three, changed"},
	})
	parent := t.TempDir()
	dir, prev := filepath.Join(parent, "out"), filepath.Join(parent, ".out.prev")
	fresh := func(s *Set) map[string]string {
		p := filepath.Join(t.TempDir(), "fresh")
		if err := Write(p, s); err != nil {
			t.Fatal(err)
		}
		return snapshot(t, p)
	}
	steady := filepath.Join(dir, "h1", "h1.linux.sh")
	var steadyChange time.Time
	for i, step := range []struct {
		set, before *Set
		previous    bool
	}{{a, nil, false}, {b, a, false}, {c, b, true}, {a, c, true}} {
		if err := Write(dir, step.set); err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		if d := cmp.Diff(fresh(step.set), snapshot(t, dir)); d != "" {
			t.Errorf("build %d (-fresh +rebuilt):\n%s", i, d)
		}
		if step.before == nil {
			assertOnly(t, parent, "out")
			continue
		}
		assertOnly(t, parent, ".out.prev", "out")
		if d := cmp.Diff(kept(fresh(step.before), fresh(step.set)), snapshot(t, prev)); d != "" {
			t.Errorf("build %d: kept build (-want +got):\n%s", i, d)
		}
		if i == 2 {
			steadyChange = changeTime(t, steady)
		}
		if i == 3 && !changeTime(t, steady).Equal(steadyChange) {
			t.Errorf("build %d: %s is unchanged since the build before the last, but its name was made again", i, steady)
		}
	}
}

// TestRebuildCountsPrevious: a rebuild that starts from the kept build
// says so, and counts a file both builds share as kept, not written.
func TestRebuildCountsPrevious(t *testing.T) {
	a := hostSet(t, "f", map[string]map[string]string{"h1": {"h1.linux.sh": "one"}, "h2": {"h2.linux.sh": "two"}})
	b := hostSet(t, "f", map[string]map[string]string{"h1": {"h1.linux.sh": "one"}, "h2": {"h2.linux.sh": "changed"}})
	dir := filepath.Join(t.TempDir(), "out")
	var got []Result
	for _, s := range []*Set{a, b, a, a} {
		res, err := writeSource(t.Context(), dir, setSource{s}, nil, lockWaiters{})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, Result{Written: res.Written, Linked: res.Linked, Previous: res.Previous})
	}
	// Each build has 4 files: 2 host scripts, model.json, manifest.json.
	// model.json is the same in every build (the hosts do not change).
	want := []Result{
		{Written: 4},                            // a, fresh
		{Written: 2, Linked: 2},                 // b: h2's script and the manifest
		{Written: 2, Linked: 2, Previous: true}, // a over b, from a
		{Written: 0, Linked: 4, Previous: true}, // a over a, from b
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(Result{})); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
}

// TestPreviousHostile: a kept build that someone changed is never
// trusted. Links in it are not followed (a file outside stays as it
// was), folders and files fabricc never writes are removed, a device
// folder of another mode is made again, and the rebuilt folder holds
// exactly the new build. A ".out.prev" that is a link, or a folder
// fabricc did not write, is left alone and not used.
func TestPreviousHostile(t *testing.T) {
	// h1.same.sh is the same file in all three builds, so the kept
	// build and the build folder share it.
	a := hostSet(t, "f", map[string]map[string]string{"h1": {"h1.linux.sh": "one", "h1.same.sh": "same"}, "h2": {"h2.linux.sh": "two"}})
	b := hostSet(t, "f", map[string]map[string]string{"h1": {"h1.linux.sh": "one, b", "h1.same.sh": "same"}, "h2": {"h2.linux.sh": "two, b"}})
	c := hostSet(t, "f", map[string]map[string]string{"h1": {"h1.linux.sh": "one, c", "h1.same.sh": "same"}, "h2": {"h2.linux.sh": "two, c"}, "h3": {"h3.linux.sh": "three"}})
	want := func(s *Set) map[string]string {
		p := filepath.Join(t.TempDir(), "fresh")
		if err := Write(p, s); err != nil {
			t.Fatal(err)
		}
		return snapshot(t, p)
	}
	tampers := []struct {
		name   string
		tamper func(t *testing.T, prev, outside string)
	}{
		{"file is a link to a file outside", func(t *testing.T, prev, outside string) {
			p := filepath.Join(prev, "h1", "h1.linux.sh")
			os.Remove(p)
			must(t, os.Symlink(filepath.Join(outside, "target"), p))
		}},
		{"device folder is a link to a folder outside", func(t *testing.T, prev, outside string) {
			p := filepath.Join(prev, "h2")
			must(t, os.RemoveAll(p))
			must(t, os.Symlink(outside, p))
		}},
		{"new device's folder is a link outside", func(t *testing.T, prev, outside string) {
			must(t, os.Symlink(outside, filepath.Join(prev, "h3")))
		}},
		{"folder inside a device folder", func(t *testing.T, prev, outside string) {
			must(t, os.MkdirAll(filepath.Join(prev, "h1", "sub", "deeper"), 0o755))
		}},
		{"extra file", func(t *testing.T, prev, outside string) {
			must(t, os.WriteFile(filepath.Join(prev, "h1", "extra.sh"), []byte("x"), 0o755))
		}},
		{"device folder of another mode", func(t *testing.T, prev, outside string) {
			must(t, os.Chmod(filepath.Join(prev, "h1"), 0o777))
		}},
		{"named pipe", func(t *testing.T, prev, outside string) {
			must(t, syscall.Mkfifo(filepath.Join(prev, "h1", "h1.linux.sh.fifo"), 0o644))
		}},
		{"file changed", func(t *testing.T, prev, outside string) {
			must(t, os.WriteFile(filepath.Join(prev, "h2", "h2.linux.sh"), []byte("two, c"), 0o755))
		}},
		{"folder where a file goes", func(t *testing.T, prev, outside string) {
			p := filepath.Join(prev, "model.json")
			must(t, os.Remove(p))
			must(t, os.Mkdir(p, 0o755))
			must(t, os.WriteFile(filepath.Join(p, "x"), []byte("x"), 0o644))
		}},
		{"file where a device folder goes", func(t *testing.T, prev, outside string) {
			must(t, os.WriteFile(filepath.Join(prev, "h3"), []byte("x"), 0o644))
		}},
		{"shared file changed in place", func(t *testing.T, prev, outside string) {
			// The build folder's file is the same file: it changes too.
			must(t, os.WriteFile(filepath.Join(prev, "h1", "h1.same.sh"), []byte("tampered"), 0o755))
		}},
	}
	for _, tc := range tampers {
		t.Run(tc.name, func(t *testing.T) {
			parent, outside := t.TempDir(), t.TempDir()
			must(t, os.WriteFile(filepath.Join(outside, "target"), []byte("outside"), 0o644))
			dir, prev := filepath.Join(parent, "out"), filepath.Join(parent, ".out.prev")
			must(t, Write(dir, a))
			must(t, Write(dir, b))
			tc.tamper(t, prev, outside)
			before := snapshot(t, outside)
			must(t, Write(dir, c))
			if d := cmp.Diff(want(c), snapshot(t, dir)); d != "" {
				t.Errorf("rebuilt folder (-want +got):\n%s", d)
			}
			if d := cmp.Diff(folderModes(t, filepath.Join(t.TempDir(), "fresh"), c), folderModes(t, dir, nil)); d != "" {
				t.Errorf("folder modes (-fresh +rebuilt):\n%s", d)
			}
			if d := cmp.Diff(before, snapshot(t, outside)); d != "" {
				t.Errorf("the folder outside changed (-before +after):\n%s", d)
			}
			if tc.name == "shared file changed in place" {
				return // b's copy of it is the tampered file
			}
			if d := cmp.Diff(kept(want(b), want(c)), snapshot(t, prev)); d != "" {
				t.Errorf("kept build (-want +got):\n%s", d)
			}
		})
	}

	t.Run("kept build is a link", func(t *testing.T) {
		parent, outside := t.TempDir(), t.TempDir()
		dir, prev := filepath.Join(parent, "out"), filepath.Join(parent, ".out.prev")
		must(t, Write(outside+"/b", b))
		must(t, Write(dir, a))
		must(t, os.Symlink(filepath.Join(outside, "b"), prev))
		before := snapshot(t, outside)
		res, err := writeSource(t.Context(), dir, setSource{c}, nil, lockWaiters{})
		must(t, err)
		if res.Previous {
			t.Error("the build started from a link")
		}
		if d := cmp.Diff(before, snapshot(t, outside)); d != "" {
			t.Errorf("the folder the link points to changed (-before +after):\n%s", d)
		}
		if fi, err := os.Lstat(prev); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v %v", fi, err)
		}
		if d := cmp.Diff(want(c), snapshot(t, dir)); d != "" {
			t.Errorf("rebuilt folder (-want +got):\n%s", d)
		}
	})

	t.Run("kept build is someone's folder", func(t *testing.T) {
		parent := t.TempDir()
		dir, prev := filepath.Join(parent, "out"), filepath.Join(parent, ".out.prev")
		must(t, Write(dir, a))
		must(t, os.Mkdir(prev, 0o755))
		mine := filepath.Join(prev, "notes.txt")
		must(t, os.WriteFile(mine, []byte("mine"), 0o644))
		res, err := writeSource(t.Context(), dir, setSource{c}, nil, lockWaiters{})
		must(t, err)
		if res.Previous {
			t.Error("the build started from a folder fabricc did not write")
		}
		if data, err := os.ReadFile(mine); err != nil || string(data) != "mine" {
			t.Errorf("%s: %q %v", mine, data, err)
		}
		assertOnly(t, parent, ".out.prev", "out")
		if d := cmp.Diff(want(c), snapshot(t, dir)); d != "" {
			t.Errorf("rebuilt folder (-want +got):\n%s", d)
		}
	})

	t.Run("output folder removed", func(t *testing.T) {
		parent := t.TempDir()
		dir := filepath.Join(parent, "out")
		must(t, Write(dir, a))
		must(t, Write(dir, b))
		must(t, os.RemoveAll(dir))
		must(t, Write(dir, c))
		assertOnly(t, parent, "out") // the orphaned kept build went with it
	})
}

// folderModes writes s into dir first, unless s is nil, and returns
// the mode of every folder below dir.
func folderModes(t *testing.T, dir string, s *Set) map[string]os.FileMode {
	t.Helper()
	if s != nil {
		must(t, Write(dir, s))
	}
	out := map[string]os.FileMode{}
	must(t, filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			return err
		}
		fi, err := e.Info()
		rel, _ := filepath.Rel(dir, p)
		if err == nil {
			out[rel] = fi.Mode()
		}
		return err
	}))
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
