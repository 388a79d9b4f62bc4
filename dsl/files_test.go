package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// fileFabric is a fabric whose one local is expr.
func fileFabric(expr string) string {
	return "fabric \"f\" {}\nlocals {\n  x = " + expr + "\n}\n"
}

// TestFileFunctionErrors: each rule of the file functions refuses its
// case with an error at the call naming the path, what is wrong and what
// to do.
func TestFileFunctionErrors(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		expr  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"absolute", `file("/etc/passwd")`, nil,
			`a.hcl:3:7: error: Absolute file path: "/etc/passwd" is not relative to the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there, such as "cabling.csv".`},
		{"home", `file("~/.ssh/id_rsa")`, nil,
			`a.hcl:3:7: error: Absolute file path: "~/.ssh/id_rsa" is not relative to the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there, such as "cabling.csv".`},
		{"dot dot", `file("data/../../x.csv")`, nil,
			`a.hcl:3:7: error: File outside the fabric folder: "data/../../x.csv" leaves the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there.`},
		{"fileexists outside", `fileexists("../x")`, nil,
			`a.hcl:3:7: error: File outside the fabric folder: "../x" leaves the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there.`},
		{"symlink out", `file("key")`, func(t *testing.T, dir string) {
			symlink(t, filepath.Join(outside, "secret"), filepath.Join(dir, "key"))
		}, `a.hcl:3:7: error: File outside the fabric folder: "key" is a symbolic link to "OUT/secret", outside the fabric folder; a fabric reads only files of its own folder. Copy the file into the fabric folder instead of linking to it.`},
		{"folder linked out", `fileexists("ext/secret")`, func(t *testing.T, dir string) {
			symlink(t, outside, filepath.Join(dir, "ext"))
		}, `a.hcl:3:7: error: File outside the fabric folder: "ext/secret" is in a folder linked to "OUT", outside the fabric folder; a fabric reads only files of its own folder. Copy the file into the fabric folder instead of linking to it.`},
		{"folder", `file("data")`, func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "data")) },
			`a.hcl:3:7: error: Not a regular file: "data" is a folder, not a file; give the path of a file in the fabric folder.`},
		{"fileexists folder", `fileexists("data")`, func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "data")) },
			`a.hcl:3:7: error: Not a regular file: "data" is a folder, not a file; give the path of a file in the fabric folder.`},
		{"fifo", `file("pipe")`, func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
				t.Skip(err)
			}
		}, `a.hcl:3:7: error: Not a regular file: "pipe" is a named pipe (FIFO), not a file; give the path of a file in the fabric folder.`},
		{"too large", `file("big.csv")`, func(t *testing.T, dir string) {
			f, err := os.Create(filepath.Join(dir, "big.csv"))
			if err == nil {
				err = f.Truncate(MaxDataFileBytes + 1)
				f.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}, `a.hcl:3:7: error: File too large: "big.csv" is 16777217 bytes; a file a fabric reads holds at most 16777216 (16 MiB). Keep only what the fabric needs in it, or split it.`},
		{"not UTF-8", `file("hosts.csv")`, func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "hosts.csv"), "name\nn\xe9ud1\n")
		}, `a.hcl:3:7: error: File is not UTF-8: "hosts.csv" holds the byte 0xE9 at line 2, column 2, which is not UTF-8 text; save the file as UTF-8 (a spreadsheet's "CSV UTF-8" export).`},
		{"missing", `file("cabling.csv")`, nil,
			`a.hcl:3:7: error: File not found: There is no file "cabling.csv" in the fabric folder; a path is relative to the fabric folder (fileexists tells whether a file is there).`},
		{"broken link", `fileexists("gone")`, func(t *testing.T, dir string) {
			symlink(t, filepath.Join(dir, "nothing"), filepath.Join(dir, "gone"))
		}, `a.hcl:3:7: error: Broken symbolic link: "gone" is a symbolic link to a file that does not exist; copy the file into the fabric folder.`},
		{"empty", `file("")`, nil,
			`a.hcl:3:7: error: Empty file path: The path is empty; give a path relative to the fabric folder, such as "cabling.csv".`},
		{"csv wrong fields", `csvdecode(file("cabling.csv"))`, func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "cabling.csv"), "a,b\n1,2\n3\n")
		}, `a.hcl:3:7: error: Invalid CSV: cabling.csv:3: CSV parse error on line 3: wrong number of fields; fix that line of the file (the first line is the header, and every line has as many fields).`},
		{"csv not from a file", `csvdecode("a,b\n1\n")`, nil,
			`a.hcl:3:7: error: Error in function call: Call to function "csvdecode" failed: CSV parse error on line 2: wrong number of fields.`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFabric(t, map[string]string{"a.hcl": fileFabric(tc.expr)})
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			_, _, diags := Load(dir, Options{})
			got := strings.TrimSpace(strings.ReplaceAll(compact(t, dir, diags), outside, "OUT"))
			got = strings.ReplaceAll(got, dir, "DIR")
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, name string) {
	t.Helper()
	if err := os.MkdirAll(name, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, name, text string) {
	t.Helper()
	mkdir(t, filepath.Dir(name))
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cablingFabric reads a cabling plan exported from a spreadsheet and
// makes one link per line, and the fabric's description from a template.
const cablingFabric = `variable "plan" {
  default = "plans/cabling.csv"
}

locals {
  cables = csvdecode(file(var.plan))
  spare  = fileexists("plans/spares.csv") ? csvdecode(file("plans/spares.csv")) : []
}

fabric "f" {
  description = templatefile("fabric.tmpl", { name = "pod1", cables = local.cables, spares = length(local.spare) })
}

dynamic "link" {
  for_each = local.cables
  content {
    a      = "${link.value.switch}:${link.value.port}"
    b      = "${link.value.host}:${link.value.nic}"
    length = tonumber(link.value.length_m)
    cable  = link.value.cable
  }
}
`

// cablingCSV is a cabling plan as a spreadsheet saves it: a header, a
// quoted field with a comma.
const cablingCSV = "switch,port,host,nic,length_m,cable\n" +
	"leaf1,swp1,node1,roce0,2,dac\n" +
	"leaf1,swp2,node2,roce0,3.5,\"aoc\"\n"

// TestCablingPlan: csvdecode(file()) of a cabling plan drives a dynamic
// link block, templatefile renders a template with the vars it is given
// and fileexists is false for a file that is not there; Read lists the
// files looked at, the missing one too, once each.
func TestCablingPlan(t *testing.T) {
	dir := writeFabric(t, map[string]string{"fabric.hcl": cablingFabric,
		"fabric.tmpl": "${name}: %{ for c in cables }${c.switch}:${c.port} %{ endfor }(${spares} spares)"})
	write(t, filepath.Join(dir, "plans", "cabling.csv"), cablingCSV)
	var read []string
	cfg, _, diags := Load(dir, Options{Read: &read})
	if diags.HasErrors() {
		t.Fatal(compact(t, dir, diags))
	}
	var links []string
	for _, l := range cfg.Links {
		links = append(links, fmt.Sprintf("%s %s %g %s", l.A, l.B, l.Length, *l.Cable))
	}
	want := []string{"leaf1:swp1 node1:roce0 2 dac", "leaf1:swp2 node2:roce0 3.5 aoc"}
	if !slices.Equal(links, want) {
		t.Errorf("links %q, want %q", links, want)
	}
	if got, want := *cfg.Fabric.Description, "pod1: leaf1:swp1 leaf1:swp2 (0 spares)"; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	if want := []string{"fabric.tmpl", "plans/cabling.csv", "plans/spares.csv"}; !slices.Equal(read, want) {
		t.Errorf("read %q, want %q", read, want)
	}

	// The plan's path from -var and from FABRICC_VAR_ obeys the same rules.
	for _, opts := range []Options{{Vars: map[string]string{"plan": "../cabling.csv"}}, {EnvVars: map[string]string{"plan": "../cabling.csv"}}} {
		_, _, diags = Load(dir, opts)
		want := `fabric.hcl:6:22: error: File outside the fabric folder: "../cabling.csv" leaves the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there.` + "\n"
		if got := compact(t, dir, diags); got != want {
			t.Errorf("%+v: got\n%swant\n%s", opts, got, want)
		}
	}
	write(t, filepath.Join(dir, "other.csv"), strings.Replace(cablingCSV, "3.5", "7", 1))
	cfg, _, diags = Load(dir, Options{Vars: map[string]string{"plan": "other.csv"}})
	if diags.HasErrors() || cfg.Links[1].Length != 7 {
		t.Errorf("-var plan=other.csv: %s", compact(t, dir, diags))
	}

	// A single .hcl file reads from its own folder.
	cfg, _, diags = Load(filepath.Join(dir, "fabric.hcl"), Options{Read: &read})
	if diags.HasErrors() || len(cfg.Links) != 2 {
		t.Errorf("single file: %s", compact(t, dir, diags))
	}
}

// TestTemplateErrors: an error inside a template points into the
// template file, with the call as a related place; a template sees only
// its vars and cannot call templatefile.
func TestTemplateErrors(t *testing.T) {
	tests := []struct{ name, tmpl, want string }{
		{"error inside", "line one\n${upper(n)} and ${n + 1}\n",
			"t.tmpl:2:19: error: Invalid operand: Unsuitable value for left operand: a number is required.\n  a.hcl:3:7: note: templatefile call\n"},
		{"var. in a template", "${var.mtu}",
			`t.tmpl:1:3: error: Unknown template variable: The template refers to "var", which the vars of templatefile do not hold; a template sees only the vars it is given, not var.; pass the value in vars (templatefile("t.tmpl", { name = var.name })).` + "\n  a.hcl:3:7: note: templatefile call\n"},
		{"syntax", "%{ if }\n",
			"t.tmpl:1:7: error: Invalid expression: Expected the start of an expression, but found an invalid expression token.\n  a.hcl:3:7: note: templatefile call\n" +
				"t.tmpl:2:1: error: Unexpected end of template: The if directive at t.tmpl:1,1-8 is missing its corresponding endif directive.\n  a.hcl:3:7: note: templatefile call\n"},
		{"recursive", `${templatefile("t.tmpl", {})}`,
			`t.tmpl:1:3: error: Template calls templatefile: A template cannot call templatefile (nor can Terraform's); render the inner template in the fabric and pass the text in vars.` + "\n  a.hcl:3:7: note: templatefile call\n"},
		{"file outside, in a template", `${file("../x")}`,
			`t.tmpl:1:3: error: File outside the fabric folder: "../x" leaves the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there.` + "\n  a.hcl:3:7: note: templatefile call\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFabric(t, map[string]string{"a.hcl": fileFabric(`templatefile("t.tmpl", { n = "x" })`), "t.tmpl": tc.tmpl})
			_, files, diags := Load(dir, Options{})
			if got := compact(t, dir, diags); got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
			if files[filepath.Join(dir, "t.tmpl")] == nil {
				t.Errorf("the template is not among the files for snippets")
			}
		})
	}
}

// TestFileReadOnce: a Load reads a file once however often it is named,
// and every call counts against the evaluation limits.
func TestFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "one")
	r := newFileReader(dir, MaxDataFileBytes)
	first := r.get("a.txt")
	write(t, filepath.Join(dir, "a.txt"), "two")
	if again := r.get("./a.txt"); again.text != "one" || first.text != "one" {
		t.Errorf("read %q then %q, want the first read twice", first.text, again.text)
	}

	big := strings.Repeat("x", 1<<20)
	dir = writeFabric(t, map[string]string{"a.hcl": fileFabric(`[for i in range(40) : file("big.txt")]`), "big.txt": big})
	_, _, diags := Load(dir, Options{})
	want := `a.hcl:3:29: error: Error in function call: Call to function "file" failed: the fabric's expressions together produce more than 33554432 bytes of text, and this expression is where the count crossed the limit; it need not be wrong itself. If the fabric is this large on purpose, give --large (docs/language.md, Strings and limits); otherwise check for a template, join, format or replace that repeats more than meant.` + "\n"
	if got := compact(t, dir, diags); got != want {
		t.Errorf("40 reads of a 1 MiB file:\n%swant\n%s", got, want)
	}
}

// TestSourceDigestDataFiles: the digest covers the files the fabric
// read, by their names in the fabric folder: it changes with a byte of
// the cabling plan and when a file fileexists did not find appears, and
// stays when the folder moves.
func TestSourceDigestDataFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "fab")
	write(t, filepath.Join(dir, "fabric.hcl"), cablingFabric)
	write(t, filepath.Join(dir, "fabric.tmpl"), "${name}")
	write(t, filepath.Join(dir, "plans", "cabling.csv"), cablingCSV)
	var read []string
	if _, _, diags := Load(dir, Options{Read: &read}); diags.HasErrors() {
		t.Fatal(compact(t, dir, diags))
	}
	digest := func() string {
		d, err := SourceDigest(dir, nil, read)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	before := digest()
	if without, _ := SourceDigest(dir, nil, nil); without == before {
		t.Errorf("the digest does not cover the files read")
	}
	if err := os.Rename(dir, filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(root, "moved")
	if moved := digest(); moved != before {
		t.Errorf("moving the folder changed the digest")
	}
	write(t, filepath.Join(dir, "plans", "cabling.csv"), strings.Replace(cablingCSV, "3.5", "4", 1))
	changed := digest()
	if changed == before {
		t.Errorf("a change of the cabling plan left the digest as it was")
	}
	write(t, filepath.Join(dir, "plans", "spares.csv"), "switch\n")
	if digest() == changed {
		t.Errorf("a file fileexists did not find appeared, and the digest stayed")
	}
}

// TestCSVValueChecked: a value a CSV brings is checked as any string
// where it lands: an escape sequence in a port name is refused at the
// dynamic block's attribute, and the message shows it escaped.
func TestCSVValueChecked(t *testing.T) {
	dir := writeFabric(t, map[string]string{"fabric.hcl": cablingFabric, "fabric.tmpl": "${name}"})
	write(t, filepath.Join(dir, "plans", "cabling.csv"), strings.Replace(cablingCSV, "swp2", "\"swp2\x1b[31m\"", 1))
	_, _, diags := Load(dir, Options{})
	want := `fabric.hcl:17:14: error: Invalid character: link end a "leaf1:swp2\x1b[31m" holds U+001B (escape) at character 11. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.` + "\n"
	if got := compact(t, dir, diags); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}
