package explain

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/targets"
)

// examples are the example fabrics (every folder of examples/ but bad).
func examples(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "bad" {
			out = append(out, filepath.Join("..", "examples", e.Name()))
		}
	}
	return out
}

// load compiles an example with its sources and renders it with source
// maps.
func load(t *testing.T, dir string) (*Build, *artifacts.Set) {
	t.Helper()
	b, _, diags := Load(dir, dsl.Options{})
	if b == nil {
		t.Fatalf("%s does not compile: %v", dir, diags)
	}
	set, err := artifacts.RenderWith(b.Fabric, artifacts.Options{Warnings: artifacts.Warnings(diags, dir), SourceMaps: true})
	if err != nil {
		t.Fatal(err)
	}
	return b, set
}

// files are the set's rendered files by path (model.json and
// manifest.json are not rendered by a target).
func files(set *artifacts.Set) map[string]targets.File {
	out := map[string]targets.File{}
	for _, f := range set.Top {
		out[f.Name] = f
	}
	for _, d := range set.Devices {
		for _, f := range d.Files {
			out[d.Name+"/"+f.Name] = f
		}
	}
	return out
}

// TestEveryLineMaps walks every line of every file of every example: each
// line is fixed text or comes from model elements that each resolve to at
// least one range inside the example's fabric files; a fixed line names
// no switch or host of the fabric (a line that does was left unmapped).
func TestEveryLineMaps(t *testing.T) {
	for _, dir := range examples(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			b, set := load(t, dir)
			names := deviceNames(b)
			stats := map[string][2]int{}
			for path, f := range files(set) {
				lines := splitLines(f.Data)
				if f.Map == nil || len(f.Map.Lines) != len(lines) {
					t.Fatalf("%s: source map has %d lines, the file %d", path, mapLen(f.Map), len(lines))
				}
				kind := fileKind(path)
				s := stats[kind]
				for n := 1; n <= len(lines); n++ {
					ex, err := b.Line(path, f, n)
					if err != nil {
						t.Fatalf("%s:%d: %v", path, n, err)
					}
					if ex.Fixed {
						s[0]++
						if name := namedDevice(ex.Text, names); name != "" && !strings.HasSuffix(path, ".svg") {
							t.Errorf("%s:%d is fixed text but names %s: %q", path, n, name, ex.Text)
						}
						continue
					}
					s[1]++
					checkSources(t, dir, path, n, ex)
				}
				stats[kind] = s
			}
			logStats(t, stats)
		})
	}
}

// checkSources asserts that every element of ex has a range inside dir.
func checkSources(t *testing.T, dir, path string, n int, ex *Explanation) {
	t.Helper()
	for _, el := range ex.Elements {
		if len(el.Sources) == 0 {
			t.Errorf("%s:%d: element %v has no source range", path, n, el.Path)
		}
		for _, s := range el.Sources {
			rel, err := filepath.Rel(dir, s.Range.Filename)
			if err != nil || strings.HasPrefix(rel, "..") || s.Range.Start.Line < 1 {
				t.Errorf("%s:%d: element %v: range %+v is not inside %s", path, n, el.Path, s.Range, dir)
			}
		}
	}
}

// deviceNames are the fabric's switch and host names.
func deviceNames(b *Build) []string {
	var out []string
	for _, sw := range b.Fabric.Switches {
		out = append(out, sw.Name)
	}
	for _, h := range b.Fabric.Hosts {
		out = append(out, h.Name)
	}
	return out
}

// namedDevice returns a device name line holds as a word, or "".
func namedDevice(line string, names []string) string {
	for _, n := range names {
		if regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(n) + `($|[^A-Za-z0-9_-])`).MatchString(line) {
			return n
		}
	}
	return ""
}

// fileKind is a file's kind for the statistics: its name after the
// device name ("nvue.sh", "md").
func fileKind(path string) string {
	base := filepath.Base(path)
	if _, rest, ok := strings.Cut(base, "."); ok {
		return rest
	}
	return base
}

// mapLen is the number of lines m maps.
func mapLen(m *targets.SourceMap) int {
	if m == nil {
		return 0
	}
	return len(m.Lines)
}

// logStats logs how many lines of each kind are fixed and mapped.
func logStats(t *testing.T, stats map[string][2]int) {
	var kinds []string
	for k := range stats {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("%-16s fixed %5d  mapped %5d", k, stats[k][0], stats[k][1])
	}
}

// TestMappedSameBytes checks that asking for source maps changes no byte
// of any artifact.
func TestMappedSameBytes(t *testing.T) {
	for _, dir := range examples(t) {
		b, mapped := load(t, dir)
		plain, err := artifacts.Render(b.Fabric)
		if err != nil {
			t.Fatal(err)
		}
		want := files(plain)
		got := files(mapped)
		for path, f := range want {
			if path == "fabric.md" {
				continue // rendered with the build's warnings above
			}
			if !bytes.Equal(f.Data, got[path].Data) {
				t.Errorf("%s: %s differs when rendered with a source map", dir, path)
			}
		}
	}
}
