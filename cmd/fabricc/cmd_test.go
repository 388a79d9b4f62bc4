package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// okFabric is a small fabric that loads without diagnostics.
const okFabric = `variable "mtu" {
  type    = number
  default = 9000
}

fabric "t" {}

host "a" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "25G"
    mtu       = var.mtu
    addresses = ["10.0.0.1/24"]
  }
}
`

// tempFile writes src into a fresh folder as name and returns its path.
func tempFile(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExitCodes(t *testing.T) {
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	good := tempFile(t, "good.hcl", "fabric \"t\" {}\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string // substring
	}{
		{"no command", nil, 2, "fabricc: no COMMAND given: name one of the commands above\nRun 'fabricc --help' for usage.\n"},
		{"missing path", []string{"validate", "/nonexistent/x.hcl"}, 2, "does not exist"},
		{"unknown flag", []string{"validate", "--bogus", good}, 2, "unknown flag: --bogus"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"bad -var", []string{"validate", "-var", "novalue", good}, 2, `-var "novalue": expected name=VALUE`},
		{"json and compact", []string{"validate", "--json", "--compact", good}, 2, "exclude each other"},
		{"errors", []string{"validate", bad}, 1, "1 error, 0 warnings"},
		{"undeclared -var", []string{"validate", "-var", "x=1", good}, 1, `-var sets "x"`},
		{"build without -o", []string{"build", good}, 2, "missing -o DIR"},
		{"version takes no args", []string{"version", "x"}, 2, "version takes no arguments"},
		// A dry run exits 2 for "changes pending": a wrong command line of
		// diff or push (whose --dry-run a wrong line may leave unparsed)
		// exits 1.
		{"diff unknown flag", []string{"diff", "--bogus", good}, 1, "unknown flag: --bogus"},
		{"push --dry-run unknown flag", []string{"push", "--dry-run", "--bogus", good}, 1, "unknown flag: --bogus"},
		{"push unknown flag before --dry-run", []string{"push", "--bogus", "--dry-run", good}, 1, "unknown flag: --bogus"},
		{"push --dry-run without inventory", []string{"push", "--dry-run", good}, 1, "-i"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := fabricc(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}
}

func TestValidateCompact(t *testing.T) {
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	code, stdout, stderr := fabricc(t, "validate", "--compact", bad)
	want := bad + ":2:3: error: Unsupported argument: An argument named \"mttu\" is not expected here.\n"
	wantErr := "1 error, 0 warnings; not checked yet: ports, links, VLANs, QoS, headroom and buffers, the cross-device checks (they run once these errors are fixed)\n"
	if code != 1 || stdout != want || stderr != wantErr {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant 1, %q, %q", code, stdout, stderr, want, wantErr)
	}
}

func TestValidateText(t *testing.T) {
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	_, stdout, stderr := fabricc(t, "validate", bad)
	for _, want := range []string{"Error: Unsupported argument", "  on " + bad + " line 2, column 3, in fabric \"t\":", "   2:   mttu = 1", "1 error, 0 warnings"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if stdout != "" {
		t.Errorf("text diagnostics went to stdout: %q", stdout)
	}
}

func TestValidateJSON(t *testing.T) {
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	code, stdout, _ := fabricc(t, "validate", "--json", bad)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var got struct {
		FormatVersion int    `json:"format_version"`
		Command       string `json:"command"`
		OK            bool   `json:"ok"`
		Diagnostics   []struct {
			Severity, Summary, Detail string
			Range                     struct {
				Filename   string
				Start, End struct{ Line, Column, Byte int }
			}
		}
		Errors, Warnings int
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if got.Errors != 1 || got.Warnings != 0 || len(got.Diagnostics) != 1 || got.FormatVersion != 1 || got.Command != "validate" || got.OK {
		t.Fatalf("got %+v, want one error in a validate envelope", got)
	}
	if strings.Contains(stdout, `"result"`) {
		t.Errorf("a fabric with errors has a result; docs/json.md: absent on errors\n%s", stdout)
	}
	d := got.Diagnostics[0]
	if d.Severity != "error" || d.Summary != "Unsupported argument" || d.Range.Filename != bad ||
		d.Range.Start.Line != 2 || d.Range.Start.Column != 3 || d.Range.Start.Byte != 15 || d.Range.End.Column != 7 {
		t.Errorf("diagnostic = %+v", d)
	}
}

// TestJSONEnvelopeOnEarlyFailure: --json prints one envelope even when
// the command fails before it starts its own (docs/json.md: stdout
// carries exactly one JSON object), with the reason in "error" and the
// exit status unchanged.
func TestJSONEnvelopeOnEarlyFailure(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexist")
	for _, args := range [][]string{
		{"validate", "--json", missing},
		{"build", "--json", missing, "-o", filepath.Join(t.TempDir(), "out")},
	} {
		code, stdout, stderr := fabricc(t, args...)
		want := `{
  "format_version": 1,
  "fabricc_version": "` + fabriccVersion() + `",
  "command": "` + args[0] + `",
  "ok": false,
  "diagnostics": [],
  "errors": 0,
  "warnings": 0,
  "error": "` + missing + ` does not exist; give a .hcl file or a folder of .hcl files"
}
`
		if code != 2 || stdout != want || !strings.Contains(stderr, "does not exist") {
			t.Errorf("%v: exit %d stdout %q stderr %q, want 2 and %q", args, code, stdout, stderr, want)
		}
	}
	// Without --json nothing goes to stdout.
	if _, stdout, _ := fabricc(t, "validate", missing); stdout != "" {
		t.Errorf("text mode wrote %q on stdout", stdout)
	}
}

func TestValidateOK(t *testing.T) {
	good := tempFile(t, "good.hcl", okFabric)
	code, stdout, stderr := fabricc(t, "validate", "-var", "mtu=9216", good)
	if code != 0 || !strings.HasPrefix(stderr, "ok: fabric ") || stdout != "" {
		t.Errorf("exit %d stdout %q stderr %q; want 0 and an ok line", code, stdout, stderr)
	}
	code, stdout, _ = fabricc(t, "validate", "--json", good)
	want := `{
  "format_version": 1,
  "fabricc_version": "` + fabriccVersion() + `",
  "command": "validate",
  "ok": true,
  "diagnostics": [],
  "errors": 0,
  "warnings": 0,
  "result": {
    "fabric": "t",
    "switches": 0,
    "hosts": 1,
    "links": 0
  }
}
`
	if code != 0 || stdout != want {
		t.Errorf("json: exit %d stdout %q, want %q", code, stdout, want)
	}
}

// TestBuildJSON: build --json prints one envelope with the files written.
func TestBuildJSON(t *testing.T) {
	good := tempFile(t, "good.hcl", okFabric)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, _ := fabricc(t, "build", good, "-o", out, "--json")
	var env struct {
		Command string `json:"command"`
		OK      bool   `json:"ok"`
		Result  struct {
			Output  string   `json:"output"`
			Devices int      `json:"devices"`
			Files   []string `json:"files"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 0 || env.Command != "build" || !env.OK || env.Result.Output != out || env.Result.Devices != 1 ||
		len(env.Result.Files) < 3 || env.Result.Files[0] != "a/a.linux.sh" {
		t.Errorf("exit %d, envelope %+v", code, env)
	}
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	code, stdout, _ = fabricc(t, "build", bad, "-o", out, "--json")
	if code != 1 || !strings.Contains(stdout, `"ok": false`) || !strings.Contains(stdout, `"summary": "Unsupported argument"`) {
		t.Errorf("bad build: exit %d\n%s", code, stdout)
	}
}

// TestBuildSummary: a build's summary says what it wrote, then the next
// steps (review fabric.md, push the switches, run each host's script:
// how many hosts, one script's path, paths quoted for the shell); a
// rebuild says how much it kept as it was and how many devices it did
// not render again, and --json counts the same.
func TestBuildSummary(t *testing.T) {
	spaced := filepath.Join(t.TempDir(), "my out")
	code, _, stderr := fabricc(t, "build", "../../examples/tutorial", "-o", spaced)
	want := "wrote 14 files for 3 devices to OUT\n" +
		"next: review 'OUT/fabric.md'; push the switches with fabricc push ../../examples/tutorial -i INVENTORY;\n" +
		"then run each host's script on that host (2 hosts, such as 'OUT/node1/node1.linux.sh')\n"
	if got := strings.ReplaceAll(stderr, spaced, "OUT"); code != 0 || got != want {
		t.Errorf("build: exit %d, stderr %q, want %q", code, got, want)
	}
	good := tempFile(t, "good.hcl", okFabric)
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "wrote 5 files for 1 device to OUT\nnext: review OUT/fabric.md;\nthen run each host's script on that host (1 host, such as OUT/a/a.linux.sh)\n"},
		{nil, "OUT holds 5 files for 1 device: wrote 0, kept 5 unchanged (1 device not rendered again)\nnext: review OUT/fabric.md;\nthen run each host's script on that host (1 host, such as OUT/a/a.linux.sh)\n"},
		// The NIC's MTU changes the host's script and document, model.json
		// and the manifest; fabric.md does not show it.
		{[]string{"-var", "mtu=4000"}, "OUT holds 5 files for 1 device: wrote 4, kept 1 unchanged\nnext: review OUT/fabric.md;\nthen run each host's script on that host (1 host, such as OUT/a/a.linux.sh)\n"},
	} {
		code, _, stderr := fabricc(t, append([]string{"build", good, "-o", out}, tc.args...)...)
		if got := strings.ReplaceAll(stderr, out, "OUT"); code != 0 || got != tc.want {
			t.Errorf("build %v: exit %d, stderr %q, want %q", tc.args, code, got, tc.want)
		}
	}
	code, stdout, _ := fabricc(t, "build", good, "-o", out, "--json")
	var env struct {
		Result struct {
			Written   int `json:"written"`
			Unchanged int `json:"unchanged"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, stdout)
	}
	if env.Result.Written != 4 || env.Result.Unchanged != 1 {
		t.Errorf("--json after going back to the default MTU: written %d, unchanged %d; want 4 and 1", env.Result.Written, env.Result.Unchanged)
	}
}

func TestBuildFailureLeavesDirAlone(t *testing.T) {
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	if code, _, stderr := fabricc(t, "build", "../../examples/homelab-40g", "-o", out); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	model := filepath.Join(out, "model.json")
	before, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := fabricc(t, "build", bad, "-o", out)
	if code != 1 || !strings.Contains(stderr, "nothing written") {
		t.Errorf("exit %d stderr %q; want 1 and 'nothing written'", code, stderr)
	}
	if after, err := os.ReadFile(model); err != nil || !bytes.Equal(after, before) {
		t.Errorf("a failed build changed %s: %v", model, err)
	}
	fresh := filepath.Join(parent, "fresh")
	fabricc(t, "build", bad, "-o", fresh)
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".out.fingerprints", "out"}; !slices.Equal(names, want) {
		t.Errorf("after a failed build %s holds %q, want %q", parent, names, want)
	}
}

// TestBuildRefusesOutputFirst: an output folder the build would refuse
// is refused before the fabric is compiled, so that a mistyped -o does
// not cost a large fabric's compile; the fabric's own errors are not
// reported then, and nothing is written.
func TestBuildRefusesOutputFirst(t *testing.T) {
	bad := tempFile(t, "bad.hcl", "fabric \"t\" {\n  mttu = 1\n}\n")
	parent := t.TempDir()
	file := filepath.Join(parent, "notes.txt")
	writeFile(t, file, "keep")
	project := filepath.Join(parent, "project")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n")
	for _, tc := range []struct{ out, want string }{
		{file, "fabricc: " + file + " exists and is not a folder; choose another output folder; " + file + " left as it was\n"},
		{project, "fabricc: " + project + " is not empty and holds no manifest.json; fabricc replaces only an empty folder or one it wrote. Choose another output folder, or empty it yourself; " + project + " left as it was\n"},
		{filepath.Join(parent, "missing", "out"), "fabricc: the parent folder " + filepath.Join(parent, "missing") + " of " + filepath.Join(parent, "missing", "out") + " does not exist; create it first; " + filepath.Join(parent, "missing", "out") + " left as it was\n"},
	} {
		code, stdout, stderr := fabricc(t, "build", bad, "-o", tc.out)
		if code != 1 || stdout != "" || stderr != tc.want {
			t.Errorf("build -o %s: exit %d\nstdout %q\nstderr %q\nwant exit 1 and stderr %q", tc.out, code, stdout, stderr, tc.want)
		}
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 2 {
		t.Errorf("a refused build left %d entries in %s, want 2", len(entries), parent)
	}
	if data, _ := os.ReadFile(file); string(data) != "keep" {
		t.Errorf("a refused build changed %s", file)
	}
}

func TestFmt(t *testing.T) {
	messy := "fabric \"t\" {\ndescription=\"x\"\n}\n"
	tidy := "fabric \"t\" {\n  description = \"x\"\n}\n"
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // {} is the file path
		fileAfter  string
		stderrPart string
	}{
		{"check lists the file", []string{"fmt", "-check", "{}"}, 1, "{}\n", messy, "1 file not formatted"},
		// As terraform fmt: the files rewritten are listed; -diff shows
		// the change and still writes, unless -check or -write=false.
		{"diff prints and writes", []string{"fmt", "-diff", "{}"}, 0,
			"{}\n--- {}\n+++ {} (formatted)\n@@ -1,3 +1,3 @@\n fabric \"t\" {\n-description=\"x\"\n+  description = \"x\"\n }\n", tidy, ""},
		{"diff without writing", []string{"fmt", "-diff", "-write=false", "{}"}, 0,
			"--- {}\n+++ {} (formatted)\n@@ -1,3 +1,3 @@\n fabric \"t\" {\n-description=\"x\"\n+  description = \"x\"\n }\n", messy, ""},
		{"default writes and lists", []string{"fmt", "{}"}, 0, "{}\n", tidy, ""},
		{"check and diff write nothing", []string{"fmt", "-check", "-diff", "{}"}, 1,
			"{}\n--- {}\n+++ {} (formatted)\n@@ -1,3 +1,3 @@\n fabric \"t\" {\n-description=\"x\"\n+  description = \"x\"\n }\n", messy, "1 file not formatted"},
		{"folder", []string{"fmt", "-check", "{dir}"}, 1, "{}\n", messy, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tempFile(t, "f.hcl", messy)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.NewReplacer("{}", p, "{dir}", filepath.Dir(p)).Replace(a)
			}
			code, stdout, stderr := fabricc(t, args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if want := strings.ReplaceAll(tc.stdout, "{}", p); stdout != want {
				t.Errorf("stdout:\n%s", cmp.Diff(want, stdout))
			}
			if data, _ := os.ReadFile(p); string(data) != tc.fileAfter {
				t.Errorf("file after = %q, want %q", data, tc.fileAfter)
			}
			if !strings.Contains(stderr, tc.stderrPart) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderrPart)
			}
		})
	}
}

func TestFmtBrokenFile(t *testing.T) {
	src := "fabric \"t\" {\n"
	p := tempFile(t, "f.hcl", src)
	code, _, stderr := fabricc(t, "fmt", p)
	if code != 1 || !strings.Contains(stderr, "Unclosed configuration block") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
	if data, _ := os.ReadFile(p); string(data) != src {
		t.Errorf("a broken file was rewritten to %q", data)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := fabricc(t, "version")
	// go test stamps no VCS information.
	want := "fabricc " + noVCS + " (" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d stdout %q, want %q", code, stdout, want)
	}
}

func TestSingleDashLongFlags(t *testing.T) {
	root := newRoot()
	got := singleDashLongFlags(root, []string{"validate", "-var", "a=1", "-var-file=x", "-json", "-o", "d", "-w", "--", "-var"})
	want := []string{"validate", "--var", "a=1", "--var-file=x", "--json", "-o", "d", "-w", "--", "-var"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestCommandsHaveExamples(t *testing.T) {
	root := newRoot()
	for _, name := range []string{"validate", "build", "fmt", "version"} {
		c, _, err := root.Find([]string{name})
		if err != nil || c == root {
			t.Errorf("command %q not registered", name)
			continue
		}
		if c.Example == "" {
			t.Errorf("command %q has no Example", name)
		}
	}
	if root.Example == "" {
		t.Error("the root command has no Example")
	}
}

// TestFmtFolders: fmt walks folders recursively (not hidden ones) and a
// folder with no .hcl file fails instead of passing a check of nothing.
func TestFmtFolders(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a.hcl", "fabric \"t\" {}\n")
	deep := write("pods/pod1/switches.hcl", "fabric \"t\" {\n  description   =   \"x\"\n}\n")
	write(".git/x.hcl", "fabric \"t\" {\n  description   =   \"x\"\n}\n")
	write("notes.txt", "not hcl")
	empty := filepath.Join(root, "empty")
	if err := os.MkdirAll(filepath.Join(empty, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"fmt", "-check", root}, 1, deep + "\n", "1 file not formatted"},
		{[]string{"fmt", "-check", empty}, 1, "", empty + " holds no .hcl files"},
		{[]string{"fmt", empty}, 1, "", "holds no .hcl files"},
		{[]string{"fmt", root}, 0, deep + "\n", ""},
		{[]string{"fmt", "-check", root}, 0, "", ""},
	}
	for _, tt := range tests {
		code, stdout, stderr := fabricc(t, tt.args...)
		if code != tt.code || stdout != tt.stdout || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d stdout %q stderr %q; want %d %q %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".git", "x.hcl")); !strings.Contains(string(data), "   =   ") {
		t.Error("fmt rewrote a file in a hidden folder")
	}
}

// TestFmtStdinAndDefaultFolder: "fmt -" formats standard input to
// standard output (an editor's format-on-save), reporting a file that
// does not parse; fmt and validate without a path take the current
// folder, as terraform fmt and terraform validate do.
func TestFmtStdinAndDefaultFolder(t *testing.T) {
	stdin := func(src string) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() { w.WriteString(src); w.Close() }()
		old := os.Stdin
		os.Stdin = r
		t.Cleanup(func() { os.Stdin = old; r.Close() })
	}
	stdin("fabric \"t\" {\ndescription=\"x\"\n}\n")
	if code, stdout, stderr := fabricc(t, "fmt", "-"); code != 0 || stdout != "fabric \"t\" {\n  description = \"x\"\n}\n" {
		t.Errorf("fmt -: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	stdin("fabric \"t\" {\n")
	if code, stdout, stderr := fabricc(t, "fmt", "-"); code != 1 || stdout != "" || !strings.Contains(stderr, "on <stdin> line 1") ||
		!strings.HasSuffix(stderr, "fabricc: standard input not formatted because of the parse errors above\n") {
		t.Errorf("fmt - of a broken file: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := fabricc(t, "fmt", "-", "x.hcl"); code != 2 || !strings.Contains(stderr, "- (standard input) is formatted alone") {
		t.Errorf("fmt - x.hcl: exit %d stderr %q", code, stderr)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "f.hcl"), "fabric \"t\" {\ndescription=\"x\"\n}\n")
	t.Chdir(dir)
	if code, stdout, stderr := fabricc(t, "fmt"); code != 0 || stdout != "f.hcl\n" {
		t.Errorf("fmt in a folder: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if code, stdout, stderr := fabricc(t, "validate", "--compact"); code != 0 || !strings.Contains(stderr, `ok: fabric "t"`) {
		t.Errorf("validate in a folder: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// TestBuildRefusalAsREADMESays: README says which output folders are
// refused before the fabric is compiled and which only when the build
// starts writing: a fabricc build folder with a file its manifest does
// not list is refused after compiling, the fabric's warnings first (it
// said every refused folder was refused before), and left as it was.
func TestBuildRefusalAsREADMESays(t *testing.T) {
	readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	for _, claim := range []string{
		"someone else's folder: not empty, without a `manifest.json` fabricc wrote) is refused before the fabric is compiled.",
		"A build folder of fabricc's holding a file its manifest does not list (added after that build) is refused when the build starts writing, after compiling (the fabric's warnings come first)",
	} {
		if !strings.Contains(readme, claim) {
			t.Errorf("README.md does not say: %s", claim)
		}
	}
	// demartek-lab builds with warnings (the flagship example has none).
	lab := filepath.Join("..", "..", "examples", "demartek-lab")
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := fabricc(t, "build", lab, "-o", out); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	writeFile(t, filepath.Join(out, "extra.txt"), "mine")
	code, _, stderr := fabricc(t, "build", lab, "-o", out)
	refusal := "fabricc: " + out + " is not empty and holds " + filepath.Join(out, "extra.txt") + ", which its manifest.json does not list"
	if code != 1 || !strings.HasPrefix(stderr, "Warning: ") || !strings.Contains(stderr, "\n"+refusal) {
		t.Errorf("exit %d, stderr:\n%s\nwant the fabric's warnings, then %q", code, stderr, refusal)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "extra.txt")); string(data) != "mine" {
		t.Error("the refused build changed the folder")
	}
}
