package dsl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// loadBad writes src as f.hcl, loads it and returns its diagnostics in
// the compact and the text form, the temporary folder cut from names.
func loadBad(t *testing.T, src string, color bool) (compactForm, textForm string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "f.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, files, diags := Load(path, Options{})
	if cfg != nil {
		t.Fatal("loaded a file it must refuse")
	}
	var b bytes.Buffer
	if err := WriteText(&b, files, diags, 0, color); err != nil {
		t.Fatal(err)
	}
	return compact(t, dir, diags), strings.ReplaceAll(b.String(), dir+string(filepath.Separator), "")
}

// TestInvalidCharacterShown: a file refused for a character it may not
// hold shows, in the text form, its line with that character escaped and
// a caret line under it, as every other diagnostic shows its line;
// never "(source code not available)", never the raw byte. Lines and
// columns are HCL's: a CRLF is one line end, a leading byte order mark
// no column.
func TestInvalidCharacterShown(t *testing.T) {
	tests := []struct {
		name, src, compact, text string
	}{
		{"invalid UTF-8 mid-line", "fabric \"x\" {\n  description = \"caf\xe9 one\"\n}\n",
			`f.hcl:2:21: error: Invalid character: The file holds the byte 0xE9 (not UTF-8) at column 21 of line 2: " description = \"caf\xe9 one\"". Fabric files are UTF-8 text: save the file as UTF-8 (not Latin-1 or Windows-1252), or remove the byte.` + "\n",
			"Error: Invalid character\n\n" +
				"  on f.hcl line 2, column 21:\n" +
				"   2:   description = \"caf\\xe9 one\"\n" +
				"                          ^^^^\n\n" +
				`The file holds the byte 0xE9 (not UTF-8) at column 21 of line 2: "  description = \"caf\xe9 one\"". Fabric files are UTF-8 text: save the file as UTF-8 (not Latin-1 or Windows-1252), or remove the byte.` + "\n\n"},
		{"NUL", "fabric \"x\" {\n  description = \"a\x00b\"\n}\n",
			`f.hcl:2:19: error: Invalid character: The file holds U+0000 (NUL) at column 19 of line 2: " description = \"a\x00b\"". Fabric files are text: remove it (a string that needs it cannot hold it either).` + "\n",
			"Error: Invalid character\n\n" +
				"  on f.hcl line 2, column 19:\n" +
				"   2:   description = \"a\\x00b\"\n" +
				"                        ^^^^\n\n" +
				`The file holds U+0000 (NUL) at column 19 of line 2: "  description = \"a\x00b\"". Fabric files are text: remove it (a string that needs it cannot hold it either).` + "\n\n"},
		{"a byte order mark mid-file", "fabric \"x\" {\n  desc\ufeffription = \"a\"\n}\n",
			`f.hcl:2:7: error: Invalid character: The file holds U+FEFF (byte order mark) at column 7 of line 2: " desc\ufeffription = \"a\"". A byte order mark may only start a file (an editor writes it there); remove this one.` + "\n",
			"Error: Invalid character\n\n" +
				"  on f.hcl line 2, column 7:\n" +
				"   2:   desc\\ufeffription = \"a\"\n" +
				"            ^^^^^^\n\n" +
				`The file holds U+FEFF (byte order mark) at column 7 of line 2: "  desc\ufeffription = \"a\"". A byte order mark may only start a file (an editor writes it there); remove this one.` + "\n\n"},
		{"CRLF line ends before the byte", "fabric \"x\" {\r\n  # note\r\n  description = \"a\x1b[31mb\"\r\n}\r\n",
			`f.hcl:3:19: error: Invalid character: The file holds U+001B (escape) at column 19 of line 3: " description = \"a\x1b[31mb\"". Fabric files are text: remove it (a string that needs it cannot hold it either).` + "\n",
			"Error: Invalid character\n\n" +
				"  on f.hcl line 3, column 19:\n" +
				"   3:   description = \"a\\x1b[31mb\"\n" +
				"                        ^^^^\n\n" +
				`The file holds U+001B (escape) at column 19 of line 3: "  description = \"a\x1b[31mb\"". Fabric files are text: remove it (a string that needs it cannot hold it either).` + "\n\n"},
		{"leading byte order mark, a tab before the byte", "\ufefffabric \"x\" {\n\tdescription = \"\xff\"\n}\n",
			`f.hcl:2:17: error: Invalid character: The file holds the byte 0xFF (not UTF-8) at column 17 of line 2: "\tdescription = \"\xff\"". Fabric files are UTF-8 text: save the file as UTF-8 (not Latin-1 or Windows-1252), or remove the byte.` + "\n",
			"Error: Invalid character\n\n" +
				"  on f.hcl line 2, column 17:\n" +
				"   2: \tdescription = \"\\xff\"\n" +
				"      \t               ^^^^\n\n" +
				`The file holds the byte 0xFF (not UTF-8) at column 17 of line 2: "\tdescription = \"\xff\"". Fabric files are UTF-8 text: save the file as UTF-8 (not Latin-1 or Windows-1252), or remove the byte.` + "\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gotCompact, gotText := loadBad(t, tc.src, false)
			if d := cmp.Diff(tc.compact, gotCompact); d != "" {
				t.Errorf("compact (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.text, gotText); d != "" {
				t.Errorf("text (-want +got):\n%s", d)
			}
		})
	}
}

// TestInvalidCharacterShownColor: with color, the escaped character is
// highlighted as the subject of every other snippet is.
func TestInvalidCharacterShownColor(t *testing.T) {
	_, got := loadBad(t, "fabric \"x\" {\n  description = \"a\x00b\"\n}\n", true)
	want := "   2:   description = \"a\x1b[1;4m\\x00\x1b[0mb\"\n                        ^^^^\n"
	if !strings.Contains(got, want) {
		t.Errorf("want %q in:\n%q", want, got)
	}
}

// TestInvalidCharacterLongLine: a long line is shown cut to 60 bytes
// either side of the character, the caret still under it.
func TestInvalidCharacterLongLine(t *testing.T) {
	_, got := loadBad(t, "# "+strings.Repeat("a", 100)+"\x07"+strings.Repeat("b", 100)+"\n", false)
	want := "   1: ..." + strings.Repeat("a", 60) + "\\a" + strings.Repeat("b", 59) + "...\n" +
		strings.Repeat(" ", 6+3+60) + "^^\n"
	if !strings.Contains(got, want) {
		t.Errorf("want %q in:\n%s", want, got)
	}
}
