package citations

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// private matches a citation no user can follow: the starting documents by
// number or by the word "seed", the private reference notes, and machine
// paths. Cite the public title and section instead: "Demartek RoCE
// Deployment Guide", "Mellanox WinOF-2 User Manual, Rev 1.21", "Mellanox
// WinOF User Manual and Release Notes, Rev 5.50", "ConnectX-3 Pro 40GbE
// home-lab write-up", "SMB Direct - The State of RDMA for use with SMB 3
// traffic (Part III)" (StarWind blog, 2018), a vendor manual page or a
// public repository file.
var private = regexp.MustCompile(`(?i)seed ?0[0-9][0-9]|seed [0-9]|\bseeds?\b|seeds?-facts|vendors\.md|anchors\.md|libraries\.md|shared/reference|shared/seeds|/work/`)

// allowed are phrases that contain a flagged word with a public meaning:
// Go's fuzzing "seed corpus".
var allowed = regexp.MustCompile(`(?i)\bseed corpus\b`)

// thisFile holds the patterns above and is not scanned.
const thisFile = "internal/citations/citations_test.go"

// hits returns "name:line: text" for every line of data with a private
// citation.
func hits(name string, data []byte) []string {
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		if private.MatchString(allowed.ReplaceAllString(line, "")) {
			out = append(out, fmt.Sprintf("%s:%d: %s", name, i+1, strings.TrimSpace(line)))
		}
	}
	return out
}

// repoRoot is the repository root, two levels above this package.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// trackedFiles lists the files git tracks below root (slash paths); without
// git (a source archive) it walks the tree instead, leaving .git out.
func trackedFiles(t *testing.T, root string) []string {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		return strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// binary reports whether data looks like a binary file (a NUL byte in its
// first 8000 bytes, git's own test).
func binary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

// TestNoPrivateCitations fails with file:line for each private citation,
// in the tracked files and in what the examples build.
func TestNoPrivateCitations(t *testing.T) {
	t.Run("tree", checkTree)
	t.Run("output", checkOutput)
}

// checkTree scans every tracked text file, this one excepted: source,
// tests, docs, examples, platform YAMLs, golden files.
func checkTree(t *testing.T) {
	root := repoRoot(t)
	files := trackedFiles(t, root)
	if len(files) < 50 {
		t.Fatalf("found only %d files below %s; is this the repository?", len(files), root)
	}
	var found []string
	for _, name := range files {
		if name == thisFile {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		if !binary(data) {
			found = append(found, hits(name, data)...)
		}
	}
	for _, h := range found {
		t.Error(h)
	}
}

// checkOutput builds every example in memory (each folder of examples/,
// and each file of examples/bad on its own) and scans every artifact and
// the diagnostics as `fabricc validate` prints them.
func checkOutput(t *testing.T) {
	// Relative paths, as a user types them: diagnostics name the files.
	t.Chdir(repoRoot(t))
	sources, err := exampleSources()
	if err != nil {
		t.Fatal(err)
	}
	built := 0
	for _, src := range sources {
		rel := filepath.ToSlash(src)
		diagText, set := build(t, src)
		for _, h := range hits(rel+" (diagnostics)", diagText) {
			t.Error(h)
		}
		if set == nil {
			continue
		}
		built++
		for _, f := range set.Files() {
			for _, h := range hits(rel+" => "+f.Path, f.Data) {
				t.Error(h)
			}
		}
	}
	if built < 3 {
		t.Fatalf("only %d examples built artifacts; want every folder of examples/", built)
	}
}

// exampleSources are the example folders and the bad example files, sorted.
func exampleSources() ([]string, error) {
	dirs, err := filepath.Glob(filepath.Join("examples", "*"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		if filepath.Base(d) != "bad" {
			out = append(out, d)
		}
	}
	bad, err := filepath.Glob(filepath.Join("examples", "bad", "*.hcl"))
	if err != nil {
		return nil, err
	}
	out = append(out, bad...)
	sort.Strings(out)
	return out, nil
}

// build loads and compiles src and renders its artifacts when it compiles.
// It returns the diagnostics in both printed forms (text with snippets,
// and compact) and the artifact set, nil when src has errors.
func build(t *testing.T, src string) ([]byte, *artifacts.Set) {
	cfg, files, diags := dsl.Load(src, dsl.Options{})
	var fabric *model.Fabric
	if !diags.HasErrors() {
		var cdiags hcl.Diagnostics
		fabric, cdiags = compiler.Compile(cfg)
		diags = append(diags, cdiags...)
	}
	var text bytes.Buffer
	if err := dsl.WriteText(&text, files, diags, 0, false); err != nil {
		t.Fatal(err)
	}
	if err := dsl.WriteCompact(&text, diags); err != nil {
		t.Fatal(err)
	}
	if diags.HasErrors() {
		return text.Bytes(), nil
	}
	set, err := artifacts.Render(fabric)
	if err != nil {
		t.Fatalf("%s: render: %v", src, err)
	}
	return text.Bytes(), set
}
