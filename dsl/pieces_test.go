package dsl

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// loadInPieces loads path with files cut into pieces of at least least
// bytes, and whole, and returns both results with their diagnostics as
// HCL's text writer prints them (source snippets and the block each
// place is in).
func loadInPieces(t *testing.T, path string, least int) (pieces, whole *Config, pd, wd string) {
	t.Helper()
	defer func(n int) { pieceBytes = n }(pieceBytes)
	pieceBytes = least
	pieces, pf, pdiags := Load(path, Options{})
	pieceBytes = 0
	whole, wf, wdiags := Load(path, Options{})
	return pieces, whole, hclText(t, pf, pdiags), hclText(t, wf, wdiags)
}

// hclText prints diags with HCL's diagnostic writer.
func hclText(t *testing.T, files map[string]*hcl.File, diags hcl.Diagnostics) string {
	t.Helper()
	var b bytes.Buffer
	if err := hcl.NewDiagnosticTextWriter(&b, files, 100, false).WriteDiagnostics(diags); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// plainFabric is a fabric of n leaves written as plain blocks, as a
// script writes one out: switches, hosts with their NICs, and links,
// with comments between them.
func plainFabric(n int) string {
	var b strings.Builder
	b.WriteString("fabric \"plain\" {}\n\n/* generated\n   by a script */\nvlan \"rack\" {\n  id = 100\n}\n")
	for l := range n {
		fmt.Fprintf(&b, "# leaf %d\nswitch \"leaf%d\" {\n  platform = \"cumulus\"\n  model    = \"SN3420\"\n", l, l)
		for p := 1; p <= 4; p++ {
			fmt.Fprintf(&b, "  port \"swp%d\" {\n    speed = \"25G\"\n    mode  = \"access\"\n    vlans = [100] // rack\n  }\n", p)
		}
		b.WriteString("}\n")
		for h := range 4 {
			fmt.Fprintf(&b, "host \"h%d-%d\" {\n  os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-5\"\n    interface = \"ens1f0np0\"\n    mtu       = 9000\n    addresses = [\"10.%d.%d.10/24\"]\n  }\n}\n", l, h, l%200, h)
			fmt.Fprintf(&b, "link {\n  a      = \"leaf%d:swp%d\"\n  b      = \"h%d-%d:roce0\"\n  length = %d\n}\n", l, h+1, l, h, h+1)
		}
	}
	return b.String()
}

// TestPiecesParseSame loads every fabric of the repository, and plain
// fabrics with and without mistakes, cut into pieces as small as can
// be, and whole: the same Config and the same printed diagnostics.
func TestPiecesParseSame(t *testing.T) {
	dir := t.TempDir()
	plain := plainFabric(40)
	broken := map[string]string{
		"plain.hcl":            plain,
		"unclosed.hcl":         plain + "switch \"x\" {\n  platform = \"eos\"\n",
		"brace-on-next.hcl":    strings.Replace(plain, "switch \"leaf7\" {", "switch \"leaf7\"\n{", 1),
		"attribute-twice.hcl":  "description = \"a\"\n" + plain + "description = \"b\"\n",
		"unknown-in-leaf9.hcl": strings.Replace(plain, "switch \"leaf9\" {\n", "switch \"leaf9\" {\n  colour = \"red\"\n", 1),
		"bad-value-late.hcl":   strings.Replace(plain, "length = 3\n}\n# leaf 39", "length = -3\n}\n# leaf 39", 1),
	}
	var paths []string
	for name, src := range broken {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if cuts := topLevelCuts([]byte(plain), 64); len(cuts) < 100 {
		t.Fatalf("the plain fabric is cut in %d places; the test needs many", len(cuts))
	}
	for _, path := range append(fabricPaths(t), paths...) {
		t.Run(path, func(t *testing.T) {
			pieces, whole, pd, wd := loadInPieces(t, path, 1)
			if d := cmp.Diff(whole, pieces); d != "" {
				t.Errorf("Config differs (-whole +pieces):\n%s", d)
			}
			if pd != wd {
				t.Errorf("diagnostics differ:\npieces:\n%s\nwhole:\n%s", pd, wd)
			}
		})
	}
}

// TestPiecesAreUsed: a large plain file is parsed in pieces, its body
// ranges are the whole file's, and HCL's context for a place in a late
// piece names its block.
func TestPiecesAreUsed(t *testing.T) {
	src := []byte(plainFabric(40))
	whole, diags := hclsyntax.ParseConfig(src, "f.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cuts := topLevelCuts(src, 4096)
	if len(cuts) < 4 {
		t.Fatalf("%d cuts in %d bytes", len(cuts), len(src))
	}
	f := parsePieces(src, "f.hcl", cuts)
	if f == nil {
		t.Fatal("a plain fabric was not parsed in pieces")
	}
	wb, pb := whole.Body.(*hclsyntax.Body), f.Body.(*hclsyntax.Body)
	if pb.SrcRange != wb.SrcRange || pb.EndRange != wb.EndRange || len(pb.Blocks) != len(wb.Blocks) {
		t.Errorf("body %v %v with %d blocks, whole %v %v with %d", pb.SrcRange, pb.EndRange, len(pb.Blocks), wb.SrcRange, wb.EndRange, len(wb.Blocks))
	}
	last := wb.Blocks[len(wb.Blocks)-1]
	offset := last.Body.SrcRange.Start.Byte + 1
	got, want := f.Nav.(interface{ ContextString(int) string }).ContextString(offset), whole.Nav.(interface{ ContextString(int) string }).ContextString(offset)
	if got != want || want == "" {
		t.Errorf("context %q, want %q", got, want)
	}
}

// FuzzPiecesParseSame: any file parses in pieces as it parses whole, or
// is parsed whole.
func FuzzPiecesParseSame(f *testing.F) {
	f.Add(plainFabric(2))
	f.Add("a = 1\nb = [\n1]\nc = 2\n")
	f.Add("x {\n}\n/* a\n b */\ny \"l\" {\n  z = \"q\\\"\"\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		whole, wd := hclsyntax.ParseConfig([]byte(src), "f.hcl", hcl.InitialPos)
		cuts := topLevelCuts([]byte(src), 1)
		if cuts == nil {
			return
		}
		pieces := parsePieces([]byte(src), "f.hcl", cuts)
		if pieces == nil {
			return
		}
		if wd.HasErrors() {
			t.Fatalf("pieces parse without an error, whole: %v", wd)
		}
		// Operations are hclsyntax's own values (OpDivide, ...): the same
		// one is the same pointer; their functions cannot be compared.
		sameOp := cmp.Comparer(func(a, b *hclsyntax.Operation) bool { return a == b })
		if d := cmp.Diff(whole.Body, pieces.Body, sameOp, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
			t.Fatalf("body differs (-whole +pieces):\n%s", d)
		}
	})
}
