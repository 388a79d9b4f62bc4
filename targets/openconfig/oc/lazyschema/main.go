// Command lazyschema rewrites the oc.go that ygot's generator writes so
// that the YANG schema is unzipped when first used instead of in the
// package's init. Unzipping takes about 20 ms and 9 MB, which every
// fabricc command paid at start, though only a build that writes
// OpenConfig JSON validates against the schema: `fabricc version` took
// 30 ms, 21 of them in this init (GODEBUG=inittrace=1).
//
// It replaces the generated SchemaTree variable and the init that fills
// it with schemaTree, a function that unzips once, and every
// SchemaTree[...] with schemaTree()[...]. It fails, changing nothing,
// when the generated code does not have the shape it expects, so a new
// ygot cannot silently leave the eager init in place.
//
//	go run ./lazyschema oc.go   (a go:generate step of package oc)
package main

import (
	"bytes"
	"fmt"
	"os"
)

// eager is what ygot v0.36.0 generates: the schema variable and an init
// that unzips it.
const eager = `var (
	SchemaTree map[string]*yang.Entry
	ΛEnumTypes map[string][]reflect.Type
)

func init() {
	var err error
	initΛEnumTypes()
	if SchemaTree, err = UnzipSchema(); err != nil {
		panic("schema error: " + err.Error())
	}
}
`

// lazy replaces eager: the enum types stay in init (2 µs), the schema
// is unzipped by the first call of schemaTree.
const lazy = `var ΛEnumTypes map[string][]reflect.Type

func init() {
	initΛEnumTypes()
}

// schemaTree returns the unzipped schema, unzipping it on the first
// call (rewritten by lazyschema: an init that unzipped it cost every
// program importing this package about 20 ms at start).
var schemaTree = sync.OnceValue(func() map[string]*yang.Entry {
	tree, err := UnzipSchema()
	if err != nil {
		panic("schema error: " + err.Error())
	}
	return tree
})
`

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: lazyschema oc.go")
		os.Exit(2)
	}
	if err := rewrite(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "lazyschema:", err)
		os.Exit(1)
	}
}

// rewrite makes the schema of the generated file at path lazy.
func rewrite(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := lazySchema(src)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

// lazySchema returns src with the eager schema init replaced.
func lazySchema(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(eager)); n != 1 {
		return nil, fmt.Errorf("expected the generated schema variable and init once, found them %d times", n)
	}
	src = bytes.Replace(src, []byte(eager), []byte(lazy), 1)
	if !bytes.Contains(src, []byte("SchemaTree[")) {
		return nil, fmt.Errorf("no SchemaTree[...] to rewrite")
	}
	src = bytes.ReplaceAll(src, []byte("SchemaTree["), []byte("schemaTree()["))
	imports := []byte("import (\n")
	if !bytes.Contains(src, imports) {
		return nil, fmt.Errorf("no import block to add sync to")
	}
	return bytes.Replace(src, imports, []byte("import (\n\t\"sync\"\n"), 1), nil
}
