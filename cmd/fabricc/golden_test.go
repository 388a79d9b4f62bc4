package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/google/go-cmp/cmp"
)

// TestGolden builds every example (every folder of examples/ except bad)
// in memory and compares the artifacts with golden/<example>/: the same
// set of paths and the same bytes. `make golden` (-update) rewrites them.
func TestGolden(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	for _, name := range exampleNames(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("golden", name)
			set, files, diags, _, err := buildSetFor(filepath.Join("examples", name), dir, dsl.Options{})
			if diags.HasErrors() {
				var b bytes.Buffer
				dsl.WriteText(&b, files, diags, 0, false)
				t.Fatalf("example does not compile:\n%s", b.String())
			}
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.MkdirAll("golden", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := artifacts.Write(dir, set); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := readTree(dir)
			if err != nil {
				t.Fatalf("%v: run make golden", err)
			}
			for _, p := range compareTree(want, setTree(set)) {
				t.Error(p)
			}
		})
	}
}

// TestBuildCommandMatchesGolden runs `fabricc build` itself, the path a
// user takes (artifacts.Build, writing device by device), for every
// example and compares the folder with golden/<example>/, which TestGolden
// checks through the in-memory render.
func TestBuildCommandMatchesGolden(t *testing.T) {
	if *update {
		t.Skip("-update rewrites golden/ through TestGolden")
	}
	t.Chdir(filepath.Join("..", ".."))
	for _, name := range exampleNames(t) {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if code, _, stderr := fabricc(t, "build", filepath.Join("examples", name), "-o", out); code != 0 {
				t.Fatalf("build: exit %d\n%s", code, stderr)
			}
			got, err := readTree(out)
			if err != nil {
				t.Fatal(err)
			}
			want, err := readTree(filepath.Join("golden", name))
			if err != nil {
				t.Fatal(err)
			}
			// The manifest records the fabric's path relative to the
			// folder, which differs between golden/<example> and a
			// temporary folder: that field alone is left out.
			for _, tree := range []map[string][]byte{want, got} {
				tree["manifest.json"] = fabricPathField.ReplaceAll(tree["manifest.json"], []byte(`"fabric_path": "PATH"`))
			}
			for _, p := range compareTree(want, got) {
				t.Error(p)
			}
		})
	}
}

// exampleNames are the folders of examples/ but bad, the fabrics with
// golden output; the working folder is the repository's.
func exampleNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "bad" {
			names = append(names, e.Name())
		}
	}
	return names
}

// fabricPathField is the manifest's fabric_path member.
var fabricPathField = regexp.MustCompile(`"fabric_path": "[^"]*"`)

// setTree is the set's files by slash path.
func setTree(s *artifacts.Set) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range s.Files() {
		out[f.Path] = f.Data
	}
	return out
}

// readTree reads every file below dir, by slash path relative to dir.
func readTree(dir string) (map[string][]byte, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("golden folder %s is missing", dir)
	}
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	return out, err
}

// compareTree lists every difference between two file trees: missing and
// extra paths, and for each differing file its name and a line diff.
func compareTree(want, got map[string][]byte) []string {
	var problems []string
	for _, p := range sortedKeys(want) {
		if _, ok := got[p]; !ok {
			problems = append(problems, fmt.Sprintf("%s: in golden but not built (run make golden if that is intended)", p))
		}
	}
	for _, p := range sortedKeys(got) {
		w, ok := want[p]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: built but not in golden (run make golden if that is intended)", p))
			continue
		}
		if !bytes.Equal(w, got[p]) {
			d := cmp.Diff(strings.Split(string(w), "\n"), strings.Split(string(got[p]), "\n"))
			problems = append(problems, fmt.Sprintf("%s differs from golden (-want +got):\n%s", p, d))
		}
	}
	return problems
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestCompareTree makes sure the golden comparison catches one changed
// byte, a missing file and an extra file, and passes identical trees.
func TestCompareTree(t *testing.T) {
	base := map[string][]byte{"model.json": []byte("{\n  \"mtu\": 9216\n}\n"), "leaf1/leaf1.eos.cfg": []byte("mtu 9216\n")}
	clone := func() map[string][]byte {
		c := map[string][]byte{}
		for k, v := range base {
			c[k] = append([]byte(nil), v...)
		}
		return c
	}
	oneByte := clone()
	oneByte["leaf1/leaf1.eos.cfg"][5] = '8'
	missing := clone()
	delete(missing, "model.json")
	extra := clone()
	extra["leaf1/extra.txt"] = nil
	tests := []struct {
		name string
		got  map[string][]byte
		want []string // substrings of the problems, in order
	}{
		{"identical", clone(), nil},
		{"one changed byte", oneByte, []string{"leaf1/leaf1.eos.cfg differs from golden"}},
		{"missing file", missing, []string{"model.json: in golden but not built"}},
		{"extra file", extra, []string{"leaf1/extra.txt: built but not in golden"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probs := compareTree(base, tc.got)
			if len(probs) != len(tc.want) {
				t.Fatalf("got %d problems %q, want %d", len(probs), probs, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(probs[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, probs[i], w)
				}
			}
		})
	}
	if p := compareTree(base, oneByte); len(p) == 1 && !strings.Contains(p[0], "mtu 9816") {
		t.Errorf("line diff does not show the changed line:\n%s", p[0])
	}
}
