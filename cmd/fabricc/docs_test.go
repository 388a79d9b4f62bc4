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
			if strings.Contains(m[1], "file(\"") {
				continue // reads files beside it: TestLanguageCablingExample
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

// TestReviewPlanExamples keeps the plans shown in docs/review.md equal to
// what fabricc plan prints for the changes the text describes, made to
// plan/testdata/base: the first example whole (after its command line),
// the second as a part of the plan.
func TestReviewPlanExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	src, err := os.ReadFile(filepath.Join("docs", "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)\n```\n(.*?)```").FindAllStringSubmatch(string(src), -1)
	base := filepath.Join("plan", "testdata", "base")
	fabric, err := os.ReadFile(filepath.Join(base, "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	const qos = "profile = \"nvidia-roce\"\n"
	tests := []struct {
		name, start string // the example is the block that starts so
		whole       bool   // the block is the whole plan after its first line
		edits       []string
	}{
		{"cable 3 m -> 30 m", "$ fabricc plan --base main fabric/\n", true, []string{"length = 3\n", "length = 30\n"}},
		{"ECN minimum and an unused VLAN", "leaf1 (switch)\n  TC3 ECN", false, []string{
			qos, qos + "\n  class \"roce\" {\n    ecn {\n      min = \"200KB\"\n    }\n  }\n",
			"vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"spare\" {\n  id = 200\n}\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var example string
			for _, b := range blocks {
				if strings.HasPrefix(b[1], tc.start) {
					example = b[1]
				}
			}
			if example == "" {
				t.Fatalf("docs/review.md has no example starting %q", tc.start)
			}
			head := string(fabric)
			for i := 0; i < len(tc.edits); i += 2 {
				if !strings.Contains(head, tc.edits[i]) {
					t.Fatalf("%q not in %s", tc.edits[i], base)
				}
				head = strings.Replace(head, tc.edits[i], tc.edits[i+1], 1)
			}
			dir := filepath.Join(t.TempDir(), "fabric")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(head), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := fabricc(t, "plan", "--base", base, dir)
			if code != 2 {
				t.Fatalf("exit %d:\n%s", code, errs)
			}
			if tc.whole {
				_, example, _ = strings.Cut(example, "\n")
				if out != example {
					t.Errorf("docs/review.md shows:\n%s\nfabricc plan prints:\n%s", example, out)
				}
			} else if !strings.Contains(out, "\n"+example) {
				t.Errorf("docs/review.md shows:\n%s\nwhich is not in what fabricc plan prints:\n%s", example, out)
			}
		})
	}
}
