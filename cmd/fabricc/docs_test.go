package main

import (
	"fmt"
	"github.com/fabricc/fabricc/compiler"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExamplesFormatted keeps the example fabrics in canonical layout, so
// that what a newcomer copies is what `fabricc fmt` would write.
func TestExamplesFormatted(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	entries, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "bad" {
			continue
		}
		if code, _, stderr := fabricc(t, "fmt", "-check", filepath.Join("examples", e.Name())); code != 0 {
			t.Errorf("examples/%s is not formatted (run fabricc fmt examples/%s):\n%s", e.Name(), e.Name(), stderr)
		}
	}
}

// hclBlock matches a fenced HCL code block of a Markdown file.
var hclBlock = regexp.MustCompile("(?s)```hcl\n(.*?)```")

// TestDocExamplesValidate compiles every complete fabric (a code block
// with a `fabric` block) shown in the README and the language reference,
// so the documentation cannot drift from the language.
func TestDocExamplesValidate(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	found := 0
	for _, doc := range []string{"README.md", filepath.Join("docs", "language.md")} {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range hclBlock.FindAllStringSubmatch(string(src), -1) {
			if !strings.HasPrefix(m[1], "fabric \"") && !strings.Contains(m[1], "\nfabric \"") {
				continue
			}
			found++
			path := filepath.Join(t.TempDir(), "fabric.hcl")
			if err := os.WriteFile(path, []byte(m[1]), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, _, stderr := fabricc(t, "validate", path); code != 0 {
				t.Errorf("%s, HCL block %d does not validate:\n%s", doc, i+1, stderr)
			}
		}
	}
	if found < 2 {
		t.Errorf("found %d complete fabrics in the docs, want the README's and the language reference's", found)
	}
}

// TestWarningsDocumented keeps the Warnings table of docs/language.md
// equal to the compiler's list, code and meaning.
func TestWarningsDocumented(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range compiler.Warnings {
		if row := "| `" + w.Code + "` | " + w.Meaning + " |"; !strings.Contains(string(src), row) {
			t.Errorf("docs/language.md, Warnings, lacks the row\n%s", row)
		}
	}
}

// TestPlatformDefaultsDocumented keeps "Defaults per platform" of
// docs/language.md equal to the defaults the compiler applies.
func TestPlatformDefaultsDocumented(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range compiler.Models().Platforms {
		if row := fmt.Sprintf("| %s | %s | %d", p.Name, p.DefaultOSVersion, p.PortMTU); !strings.Contains(string(src), row) {
			t.Errorf("docs/language.md, Defaults per platform, lacks a row starting %q", row)
		}
	}
}
