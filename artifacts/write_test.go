package artifacts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// bigSet is a set of many files, so that writing it takes long enough to
// be interrupted; tag makes the content of two sets differ.
func bigSet(t testing.TB, tag string) *Set {
	f := &model.Fabric{Name: "big-" + tag}
	var devs []Device
	for i := 0; i < 100; i++ {
		name := fmt.Sprintf("h%03d", i)
		f.Hosts = append(f.Hosts, model.Host{Name: name, OS: model.OSLinux})
		d := Device{Name: name, Kind: "host", OS: model.OSLinux}
		for j := 0; j < 10; j++ {
			data := []byte(strings.Repeat(tag+" "+name+"\n", 200))
			d.Files = append(d.Files, targets.File{Name: fmt.Sprintf("%s.%d.sh", name, j), Target: "linux", Mode: 0o755, Data: data})
		}
		devs = append(devs, d)
	}
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWriteHelperProcess is the child of TestWriteKilled: it writes a big
// set into the folder named by FABRICC_WRITE_DIR, cancelling on SIGTERM
// as fabricc build does.
func TestWriteHelperProcess(t *testing.T) {
	dir := os.Getenv("FABRICC_WRITE_DIR")
	if dir == "" {
		t.Skip("run by TestWriteKilled")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := WriteContext(ctx, dir, bigSet(t, "new")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// buildState reads which complete set dir holds: "old" or "new" after
// checking every file against the manifest, or a description of what is
// wrong.
func buildState(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return "no manifest: " + err.Error()
	}
	var m manifestJSON
	if err := json.Unmarshal(data, &m); err != nil {
		return "bad manifest"
	}
	if _, err := ownBuild(dir); err != nil {
		return err.Error()
	}
	for _, d := range m.Devices {
		for _, f := range d.Files {
			b, err := os.ReadFile(filepath.Join(dir, f.Path))
			sum := sha256.Sum256(b)
			if err != nil || hex.EncodeToString(sum[:]) != f.SHA256 {
				return "file " + f.Path + " does not match the manifest"
			}
		}
	}
	return strings.TrimPrefix(m.Fabric, "big-")
}

// TestWriteKilled kills a process writing a build folder over an older
// build at moments spread over the write (SIGKILL, and SIGTERM, which
// fabricc build turns into a cancel): the folder always holds one
// complete build, old or new, and never goes missing. A SIGTERM leaves no
// temporary folder; after a SIGKILL the next Write removes what the
// killed process left.
func TestWriteKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per trial")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	old := bigSet(t, "old")
	// How long a whole run of the child takes, to spread the signals
	// over twice that (a child under load runs slower).
	if err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	span := timeChild(t, "TestWriteHelperProcess", "FABRICC_WRITE_DIR", dir)
	const trials = 12
	outcome := map[string]int{}
	for trial := 0; trial < trials; trial++ {
		if err := Write(dir, old); err != nil {
			t.Fatal(err)
		}
		assertOnly(t, parent, ".out.prev", "out")
		sig := syscall.SIGKILL
		if trial%2 == 1 {
			sig = syscall.SIGTERM
		}
		cmd := child("TestWriteHelperProcess", "FABRICC_WRITE_DIR", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * span * time.Duration(trial/2) / (trials/2 - 1))
		_ = cmd.Process.Signal(sig)
		err := cmd.Wait()
		state := buildState(dir)
		if state != "old" && state != "new" {
			t.Fatalf("trial %d (%v): the output folder is %s", trial, sig, state)
		}
		outcome[fmt.Sprintf("%v -> %s", sig, state)]++
		if sig == syscall.SIGTERM {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != 1 && state == "old" && ee.ExitCode() != -1 {
				t.Errorf("trial %d: SIGTERM exit status %d, want 1", trial, ee.ExitCode())
			}
			if state == "old" || err == nil {
				assertSettled(t, parent)
			}
		}
	}
	if err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, parent, ".out.prev", "out")
	t.Logf("outcomes: %v", outcome)
}

// TestWriteRefusesForeignFolders: only an empty folder or a build folder
// fabricc wrote is replaced; everything else stays as it was.
func TestWriteRefusesForeignFolders(t *testing.T) {
	f, devs := fixture()
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	write := func(dir, name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(dir string)
		want  string // "" when Write must replace it
	}{
		{"empty folder", func(dir string) { os.Mkdir(dir, 0o755) }, ""},
		{"someone's project", func(dir string) { write(dir, "src/main.go", "package main") },
			"OUT is not empty and holds no manifest.json; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself"},
		{"another tool's manifest", func(dir string) { write(dir, "manifest.json", `{"name": "app", "version": "1"}`) },
			"OUT is not empty and its manifest.json was not written by fabricc; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself"},
		{"another generator's manifest", func(dir string) {
			write(dir, "model.json", "{}")
			write(dir, "manifest.json", `{"generator": "othertool", "fabric": "x", "devices": [], "files": [{"path": "model.json", "sha256": "x"}]}`)
		}, "OUT is not empty and its manifest.json was not written by fabricc; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself"},
		{"fabricc build with a file added", func(dir string) {
			if err := Write(dir, s); err != nil {
				t.Fatal(err)
			}
			write(dir, "leaf1/notes.txt", "keep me")
		}, "OUT is not empty and holds OUT/leaf1/notes.txt, which its manifest.json does not list; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself"},
		{"fabricc build", func(dir string) {
			if err := Write(dir, s); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"build of an older fabricc without a generator", func(dir string) {
			write(dir, "model.json", "{}")
			write(dir, "manifest.json", `{"fabric": "x", "devices": [], "files": [{"path": "model.json", "sha256": "x"}]}`)
		}, ""},
		{"symbolic link", func(dir string) {
			target := filepath.Join(filepath.Dir(dir), "elsewhere")
			os.Mkdir(target, 0o755)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "OUT is a symbolic link; give the folder itself as the output folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			tc.setup(dir)
			before := treeState(t, parent)
			early, wantEarly := "", tc.want
			if err := CheckOutput(dir); err != nil {
				early = strings.ReplaceAll(err.Error(), dir, "OUT")
			}
			// Only Write reads the whole folder and finds a file its
			// manifest does not list; CheckOutput refuses every other
			// folder as Write does.
			if tc.name == "fabricc build with a file added" {
				wantEarly = ""
			}
			if early != wantEarly {
				t.Errorf("CheckOutput = %q, want %q", early, wantEarly)
			}
			if after := treeState(t, parent); after != before {
				t.Errorf("CheckOutput changed the folder")
			}
			err := Write(dir, s)
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), dir, "OUT")
			}
			if got != tc.want {
				t.Errorf("Write = %q, want %q", got, tc.want)
			}
			if tc.want != "" {
				if after := treeState(t, parent); after != before {
					t.Errorf("a refused Write changed the folder")
				}
			} else if state := snapshot(t, dir); state["model.json"] != "-rw-r--r-- "+string(s.Model) {
				t.Errorf("the build was not written: %v", state)
			}
		})
	}
}

// treeState describes every entry below dir, links by their target, for
// comparing before and after.
func treeState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v", p, info.Mode())
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			b.WriteString(" -> " + target)
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWriteNeverMissing replaces a build folder again and again while
// another goroutine looks at it as fast as it can: the folder is there
// every time it looks (the swap is one atomic rename; with two renames
// there is a moment without it).
func TestWriteNeverMissing(t *testing.T) {
	f, devs := fixture()
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, s); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	missing := make(chan int, 1)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				missing <- n
				return
			default:
			}
			if _, err := os.Lstat(filepath.Join(dir, ManifestFile)); err != nil {
				n++
			}
		}
	}()
	for i := 0; i < 300; i++ {
		if err := Write(dir, s); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if n := <-missing; n > 0 {
		t.Errorf("the build folder was missing %d times while it was replaced", n)
	}
}

// child is this test binary running only the helper test, which writes
// into dir (passed in the environment variable env).
func child(helper, env, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$")
	cmd.Env = append(os.Environ(), env+"="+dir)
	return cmd
}

// timeChild runs the helper to its end and returns how long it took, so
// that signals can be spread over a whole run.
func timeChild(t *testing.T, helper, env, dir string) time.Duration {
	t.Helper()
	start := time.Now()
	if out, err := child(helper, env, dir).CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return time.Since(start)
}

// TestCheckOutputReadsTheManifestStart: a manifest that names fabricc in
// its first key is taken at its word by CheckOutput, without reading the
// rest (72 MB at 4,096 switches); Write reads it whole and refuses what
// follows. A manifest that names another generator is refused by both.
func TestCheckOutputReadsTheManifestStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"generator": "fabricc", "fabric": "x", "devices": [` + strings.Repeat(" ", 1<<20) + `not JSON`
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckOutput(dir); err != nil {
		t.Errorf("CheckOutput = %v, want nil: the manifest names fabricc first", err)
	}
	s := &Set{Model: []byte("{}\n"), Manifest: []byte("{}\n")}
	want := dir + " is not empty and its manifest.json was not written by fabricc"
	if err := Write(dir, s); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Write = %v, want %q...", err, want)
	}
}

// TestWriteIntoDot: "-o ." (or a folder holding the working folder) is
// refused before anything is written: the build renames a new folder into
// the place of the output folder, which would leave the shell in the old
// one. The folder given from its parent is written, with its lock, stage
// and swap beside it.
func TestWriteIntoDot(t *testing.T) {
	f, devs := fixture()
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	if err := os.MkdirAll(filepath.Join(out, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(out, "sub"))
	for _, dir := range []string{".", ".."} {
		err := Write(dir, s)
		want := dir + " is the current folder or holds it: a build puts a new folder in the place of its output folder, " +
			"which would leave this shell in the old one; run it from the folder above"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("Write(%q) from inside it: %v, want %q", dir, err, want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Fatalf("the refused writes left %d entries in the folder, want only sub", len(entries))
	}
	t.Chdir(parent)
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	if err := Write("out/../out", s); err != nil {
		t.Fatalf("Write(\"out/../out\"): %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, ManifestFile)); err != nil {
		t.Errorf("no manifest.json in the folder: %v", err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s left inside the folder", e.Name())
		}
	}
}

// TestWriteIntoDotThroughALink: the shell's working folder reached
// through a symbolic link (os.Getwd gives $PWD, the link's path) is still
// the output folder when -o names it by its real path: refused as -o .
// is, with nothing written.
func TestWriteIntoDotThroughALink(t *testing.T) {
	f, devs := fixture()
	s, err := assemble(f, devs)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	real := filepath.Join(parent, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(parent, "link")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(parent, "link"))
	err = Write(real, s)
	want := real + " is the current folder or holds it"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Write(%q) from the folder reached through a link: %v, want %q...", real, err, want)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 2 {
		t.Errorf("the refused write left %d entries beside the folder, want real and link", len(entries))
	}
}
