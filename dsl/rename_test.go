package dsl

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRenameFiles: every place of every diagnostic, the files its
// snippets are read from and file names in its text take the new name,
// in each format; the diagnostics given are left as they were.
func TestRenameFiles(t *testing.T) {
	files, diags := diagFixture()
	diags[0].Detail += " See b.hcl."
	rename := strings.NewReplacer("a.hcl", "HEAD:fab/a.hcl", "b.hcl", "HEAD:fab/b.hcl").Replace
	got, gotFiles := RenameFiles(diags, files, rename)
	var compact, text, js bytes.Buffer
	if err := WriteCompact(&compact, got); err != nil {
		t.Fatal(err)
	}
	want := "error: Undeclared variable: -var sets \"x\".\n" +
		"HEAD:fab/a.hcl:3:9: warning: MTU out of range\n" +
		"HEAD:fab/b.hcl:1:1: error: Duplicate switch: Switch \"s\" is declared twice. See HEAD:fab/b.hcl.\n" +
		"  HEAD:fab/a.hcl:2:1: note: first declared here\n"
	if d := cmp.Diff(want, compact.String()); d != "" {
		t.Errorf("compact (-want +got):\n%s", d)
	}
	if err := WriteText(&text, gotFiles, got, 0, false); err != nil {
		t.Fatal(err)
	}
	wantText := `Error: Undeclared variable

-var sets "x".

Warning: MTU out of range

  on HEAD:fab/a.hcl line 3, column 9:
   3:   mtu = 99999

Error: Duplicate switch

  on HEAD:fab/b.hcl line 1, column 1:
   1: switch "s" {}

Switch "s" is declared twice. See HEAD:fab/b.hcl.

  first declared here:
  on HEAD:fab/a.hcl line 2, column 1:
   2: switch "s" {

`
	if d := cmp.Diff(wantText, text.String()); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
	if err := WriteJSON(&js, got); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(js.String(), `"filename": "HEAD:fab/`); n != 3 || strings.Contains(js.String(), `"filename": "a.hcl"`) {
		t.Errorf("JSON has %d renamed places, want 3:\n%s", n, js.String())
	}
	var before bytes.Buffer
	if err := WriteCompact(&before, diags); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.Split(before.String(), "\n")[1], "a.hcl:3:9:") || files["a.hcl"] == nil || len(files) != 2 {
		t.Errorf("the diagnostics or files given changed:\n%s", before.String())
	}
}
