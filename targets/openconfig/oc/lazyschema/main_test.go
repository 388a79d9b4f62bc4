package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// generated is the shape of ygot's oc.go around the schema: an import
// block, the eager init and two uses of the schema.
const generated = "package oc\n\nimport (\n\t\"fmt\"\n)\n\n" + eager +
	"\nfunc (t *Device) ΛValidate() error { _ = SchemaTree[\"Device\"]; return nil }\n" +
	"\nfunc Unmarshal() { _, ok := SchemaTree[tn]; _ = fmt.Sprint(ok) }\n"

func TestLazySchema(t *testing.T) {
	out, err := lazySchema([]byte(generated))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		"import (\n\t\"sync\"\n\t\"fmt\"\n)",
		lazy,
		`_ = schemaTree()["Device"]`,
		`_, ok := schemaTree()[tn]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"SchemaTree[", "if SchemaTree, err = UnzipSchema()"} {
		if strings.Contains(got, gone) {
			t.Errorf("rewritten file still holds %q:\n%s", gone, got)
		}
	}
}

// TestLazySchemaRefusesOtherShapes: a generator that writes the init
// differently, twice, or already rewritten gets an error, not a file
// that still unzips at start or unzips twice.
func TestLazySchemaRefusesOtherShapes(t *testing.T) {
	rewritten, err := lazySchema([]byte(generated))
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"init reworded":     strings.Replace(generated, "var err error", "var e error", 1),
		"init twice":        generated + eager,
		"already rewritten": string(rewritten),
		"no schema use":     strings.ReplaceAll(generated, "SchemaTree[", "other["),
		"no import block":   strings.Replace(generated, "import (\n\t\"fmt\"\n)", "import \"fmt\"", 1),
	} {
		if out, err := lazySchema([]byte(src)); err == nil {
			t.Errorf("%s: no error; rewrote it to:\n%s", name, out)
		}
	}
}

// TestGeneratedIsLazy: the committed oc.go went through lazyschema.
func TestGeneratedIsLazy(t *testing.T) {
	src, err := os.ReadFile("../oc.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(src, []byte(lazy)); n != 1 {
		t.Errorf("oc.go holds the lazy schema %d times, want 1: run go generate ./targets/openconfig/oc", n)
	}
	if bytes.Contains(src, []byte("SchemaTree[")) || bytes.Contains(src, []byte("if SchemaTree, err = UnzipSchema()")) {
		t.Error("oc.go still reads or fills SchemaTree: run go generate ./targets/openconfig/oc")
	}
}
