package artifacts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
)

// FuzzBuild runs the compiler on every fabric the front end decodes from
// arbitrary bytes, and renders every fabric the compiler accepts: the
// compiler must not panic, and whatever validate accepts, build must
// build (a renderer error here is a check missing from the compiler).
func FuzzBuild(f *testing.F) {
	corpus, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.hcl"))
	corpus = append(corpus, filepath.Join("testdata", "hostile.hcl.tmpl"))
	for _, s := range corpus {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.hcl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, _, diags := dsl.Load(path, dsl.Options{})
		if diags.HasErrors() {
			return
		}
		m, cdiags := compiler.Compile(cfg)
		if cdiags.HasErrors() {
			return
		}
		if _, err := Render(m); err != nil {
			t.Fatalf("validate accepts the fabric but build fails: %v\n%s", err, data)
		}
	})
}
