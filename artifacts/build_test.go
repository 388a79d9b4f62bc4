package artifacts

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// compileChanged compiles an example fabric; change, when given, edits
// the decoded fabric first.
func compileChanged(t *testing.T, name string, change func(*dsl.Config)) (*model.Fabric, Options) {
	t.Helper()
	path := filepath.Join("..", "examples", name)
	cfg, _, diags := dsl.Load(path, dsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if change != nil {
		change(cfg)
	}
	f, cdiags := compiler.Compile(cfg)
	if cdiags.HasErrors() {
		t.Fatal(cdiags)
	}
	return f, Options{Warnings: Warnings(append(diags, cdiags...), path)}
}

// compileRecabled compiles multivendor-clos with gpu01 recabled to its
// leaf with a 7 m cable.
func compileRecabled(t *testing.T) (*model.Fabric, Options) {
	t.Helper()
	return compileChanged(t, "multivendor-clos", func(cfg *dsl.Config) {
		for i := range cfg.Links {
			if cfg.Links[i].B == "gpu01:roce0" {
				cfg.Links[i].Length = 7
				return
			}
		}
		t.Fatal("no link to gpu01:roce0")
	})
}

// fileState is a file's bytes, mode, inode and modification time.
type fileState struct {
	data  string
	mode  fs.FileMode
	inode uint64
	mtime time.Time
}

// readTree reads every file below dir by its path.
func readTree(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fileState{string(data), fi.Mode(), fi.Sys().(*syscall.Stat_t).Ino, fi.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameContent fails unless two trees hold the same paths with the same
// bytes and modes.
func sameContent(t *testing.T, got, want map[string]fileState) {
	t.Helper()
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s missing", p)
		case g.data != w.data:
			t.Errorf("%s: bytes differ", p)
		case g.mode != w.mode:
			t.Errorf("%s: mode %v, want %v", p, g.mode, w.mode)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s should not be there", p)
		}
	}
}

// TestBuildSameAsWrite: Build, rendering and writing device by device,
// writes the folder RenderWith and WriteContext write, byte for byte.
func TestBuildSameAsWrite(t *testing.T) {
	for _, name := range []string{"demartek-lab", "homelab-40g", "multivendor-clos"} {
		t.Run(name, func(t *testing.T) {
			f, opts := compileChanged(t, name, nil)
			s, err := RenderWith(f, opts)
			if err != nil {
				t.Fatal(err)
			}
			parent := t.TempDir()
			a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
			if err := Write(a, s); err != nil {
				t.Fatal(err)
			}
			res, err := Build(context.Background(), b, f, opts)
			if err != nil {
				t.Fatal(err)
			}
			sameContent(t, readTree(t, b), readTree(t, a))
			if got := res.Paths(); len(got) != len(s.Files()) || res.Files != len(got) || res.Devices != len(s.Devices) {
				t.Errorf("result lists %d paths (%d files, %d devices), want %d files, %d devices", len(got), res.Files, res.Devices, len(s.Files()), len(s.Devices))
			}
		})
	}
}

// TestBuildIncremental rebuilds multivendor-clos into the same folder
// after recabling one host with a longer cable: only the files whose
// bytes change are written (the leaf's configs, documents and chart,
// model.json and the manifest); every other file keeps its inode, bytes
// and modification time. A file someone edited in the build folder is
// written again, not kept. A rebuild of the same fabric writes nothing.
func TestBuildIncremental(t *testing.T) {
	f1, opts1 := compileChanged(t, "multivendor-clos", nil)
	f2, opts2 := compileRecabled(t)
	parent := t.TempDir()
	dir, fresh := filepath.Join(parent, "out"), filepath.Join(parent, "fresh")
	if _, err := Build(context.Background(), dir, f1, opts1); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, dir)
	time.Sleep(20 * time.Millisecond) // a rewritten file gets a later mtime
	res, err := Build(context.Background(), dir, f2, opts2)
	if err != nil {
		t.Fatal(err)
	}
	after := readTree(t, dir)
	if _, err := Build(context.Background(), fresh, f2, opts2); err != nil {
		t.Fatal(err)
	}
	sameContent(t, after, readTree(t, fresh))
	var changed []string
	for p, a := range after {
		b := before[p]
		if a.data != b.data {
			changed = append(changed, p)
			if a.inode == b.inode {
				t.Errorf("%s changed but kept its inode", p)
			}
			continue
		}
		if a.inode != b.inode || !a.mtime.Equal(b.mtime) {
			t.Errorf("%s is unchanged but was written again", p)
		}
	}
	if res.Written != len(changed) || res.Linked != res.Files-len(changed) {
		t.Errorf("result: %d written, %d linked of %d; want %d written (%v)", res.Written, res.Linked, res.Files, len(changed), changed)
	}
	for _, want := range []string{"model.json", "manifest.json", "leaf1/leaf1.nvue.yaml", "leaf1/leaf1.md"} {
		if !strings.Contains(strings.Join(changed, " "), want) {
			t.Errorf("%s should have changed; changed: %v", want, changed)
		}
	}
	if len(changed) > 12 {
		t.Errorf("%d files changed for one cable: %v", len(changed), changed)
	}
	// The cable's two ends, leaf1 and gpu01, see it (Peer.CableMeters);
	// every other device's view is unchanged and is not rendered again.
	if res.Kept != res.Devices-2 {
		t.Errorf("result: %d of %d devices kept without rendering, want all but leaf1 and gpu01", res.Kept, res.Devices)
	}

	// An edited file is put back, even with its old modification time
	// restored; a rebuild of the same fabric writes only that file.
	edited := filepath.Join(dir, "gpu02", "gpu02.linux.sh")
	data, _ := os.ReadFile(edited)
	data[len(data)-2] ^= 1
	if err := os.WriteFile(edited, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(edited, after["gpu02/gpu02.linux.sh"].mtime, after["gpu02/gpu02.linux.sh"].mtime); err != nil {
		t.Fatal(err)
	}
	res, err = Build(context.Background(), dir, f2, opts2)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kept != res.Devices-1 {
		t.Errorf("after one edited file: %d of %d devices kept without rendering, want all but gpu02", res.Kept, res.Devices)
	}
	if res.Written != 1 {
		var rewritten []string
		for p, a := range readTree(t, dir) {
			if a.inode != after[p].inode {
				rewritten = append(rewritten, p)
			}
		}
		t.Errorf("after one edited file: %d written, want 1: %v", res.Written, rewritten)
	}
	sameContent(t, readTree(t, dir), readTree(t, fresh))
	assertOnly(t, parent, ".fresh.fingerprints", ".out.fingerprints", ".out.prev", "fresh", "out")
}

// mixedSet is bigSet("old") with every tenth device's files as in
// bigSet("new"): an incremental rebuild of an "old" folder links nine
// devices in ten and writes the rest.
func mixedSet(t testing.TB) *Set {
	old, fresh := bigSet(t, "old"), bigSet(t, "new")
	f := &model.Fabric{Name: "big-mixed"}
	var devs []Device
	for i, d := range old.Devices {
		if i%10 == 0 {
			d = fresh.Devices[i]
		}
		f.Hosts = append(f.Hosts, model.Host{Name: d.Name, OS: model.OSLinux})
		devs = append(devs, Device{Name: d.Name, Kind: d.Kind, OS: d.OS, Files: append([]targets.File(nil), d.Files...)})
	}
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIncrementalHelperProcess is the child of TestIncrementalKilled.
func TestIncrementalHelperProcess(t *testing.T) {
	dir := os.Getenv("FABRICC_INCREMENTAL_DIR")
	if dir == "" {
		t.Skip("run by TestIncrementalKilled")
	}
	if err := Write(dir, mixedSet(t)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestIncrementalKilled kills processes rebuilding an "old" build folder
// incrementally at moments spread over the rebuild. Each trial starts
// from the build kept beside the folder (.out.prev, which the trial's
// setup leaves): the child claims it, keeps most names and writes some.
// The folder always holds one complete build, old or the new one, and
// the next write removes what a killed one left.
func TestIncrementalKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per trial")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	old := bigSet(t, "old")
	if err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	span := timeChild(t, "TestIncrementalHelperProcess", "FABRICC_INCREMENTAL_DIR", dir)
	if got := buildState(dir); got != "mixed" {
		t.Fatalf("after a whole incremental run the folder is %s", got)
	}
	const trials = 10
	outcome := map[string]int{}
	for trial := 0; trial < trials; trial++ {
		if err := Write(dir, old); err != nil {
			t.Fatal(err)
		}
		assertOnly(t, parent, ".out.prev", "out")
		cmd := child("TestIncrementalHelperProcess", "FABRICC_INCREMENTAL_DIR", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * span * time.Duration(trial) / trials)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		state := buildState(dir)
		if state != "old" && state != "mixed" {
			t.Fatalf("trial %d: the output folder is %s", trial, state)
		}
		outcome[state]++
	}
	if err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, parent, ".out.prev", "out")
	t.Logf("outcomes: %v", outcome)
}

// TestSameBytes compares files with data across the read buffer's size:
// equal, one byte shorter or longer, one byte changed, empty.
func TestSameBytes(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 10000) // 160,000 bytes: three reads
	changed := append([]byte(nil), big...)
	changed[100000] = 'x'
	cases := []struct {
		name       string
		file, data []byte
		want       bool
	}{
		{"equal", big, big, true},
		{"file shorter", big[:len(big)-1], big, false},
		{"file longer", big, big[:len(big)-1], false},
		{"one byte changed", changed, big, false},
		{"both empty", nil, nil, true},
		{"empty file", nil, []byte("a"), false},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(p, c.file, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := sameBytes(f, c.data); got != c.want {
			t.Errorf("%s: sameBytes = %v, want %v", c.name, got, c.want)
		}
		f.Close()
	}
}

// TestBuildCountsProgress: Options.Progress ends at the number of
// devices, for a build that renders every device and for a rebuild that
// keeps all but the two at the ends of a changed cable.
func TestBuildCountsProgress(t *testing.T) {
	f1, opts1 := compileChanged(t, "multivendor-clos", nil)
	f2, opts2 := compileRecabled(t)
	dir := filepath.Join(t.TempDir(), "out")
	for i, step := range []struct {
		f    *model.Fabric
		opts Options
	}{{f1, opts1}, {f2, opts2}} {
		var done atomic.Int64
		step.opts.Progress = &done
		res, err := Build(context.Background(), dir, step.f, step.opts)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(step.f.Switches) + len(step.f.Hosts); res.Devices != want || done.Load() != int64(want) {
			t.Errorf("build %d: progress %d, %d devices in the result; want %d", i+1, done.Load(), res.Devices, want)
		}
		if i == 1 && res.Kept != res.Devices-2 {
			t.Errorf("rebuild kept %d of %d devices; want all but the 2 at the ends of the cable", res.Kept, res.Devices)
		}
	}
}
