package artifacts_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
	"gopkg.in/yaml.v3"
)

// cleanValues are the values of the placeholders of
// testdata/hostile.hcl.tmpl in the clean build.
var cleanValues = map[string]string{
	"FABRIC": "hostile", "FABRIC_DESC": "hostile input test",
	"CLASS_BULK": "bulk", "CLASS_ROCE": "roce", "CLASS_CNP": "cnp", "ECN_MIN": "150KB", "WD_ACTION": "drop",
	"VLAN":    "storage",
	"SW_ONYX": "sx", "PLATFORM": "onyx", "SW_MODEL": "SN2410", "VER_ONYX": "3.9.3202", "DESC_ONYX": "to hosts",
	"SPEED": "25G", "MODE": "trunk", "TRUST": "dscp",
	"SW_EOS": "se", "VER_EOS": "4.32.2F", "DESC_EOS": "to hi",
	"SW_CUMULUS": "sc", "VER_CUMULUS": "5.9.2", "DESC_CUMULUS": "to hw",
	"HOST_LINUX": "hl", "OS": "linux", "VER_LINUX": "rhel9", "NIC_LINUX": "n1", "NIC_MODEL": "ConnectX-4",
	"DRIVER": "mlnx_ofed", "IF_LINUX": "ens1f0", "ADDRESS": "10.0.2.11/24", "APP": "iser",
	"HOST_INBOX": "hi", "NIC_INBOX": "n2", "IF_INBOX": "ens2f0", "ROCE_MODE": "v2",
	"HOST_WINDOWS": "hw", "VER_WINDOWS": "2019", "NIC_WINDOWS": "n3", "IF_WINDOWS": "Ethernet 4", "NIC_CLASS": "roce",
	"HOST_FREEBSD": "hb", "VER_FREEBSD": "13.2", "NIC_FREEBSD": "n4", "IF_FREEBSD": "mce0",
	"CABLE": "dac",
}

// payload is one hostile string. Whole payloads replace the clean value;
// the others are appended to it, so a name keeps referring to the same
// device.
type payload struct {
	name, value string
	whole       bool
}

// payloads are the hostile strings. Each that would run a command writes
// the file PWNED into the working folder with a shell builtin (": >PWNED")
// or a PowerShell cmdlet, so a script that runs it leaves a trace.
var payloads = []payload{
	{"newline", "\n: >PWNED\n", false},
	{"semicolon", "; : >PWNED;", false},
	{"command substitution", "$(: >PWNED)", false},
	{"backticks", "`: >PWNED`", false},
	{"single quote", "'; : >PWNED; '", false},
	{"double quote", "\"; : >PWNED; \"", false},
	{"unicode single quotes", "\u2019; New-Item PWNED; \u2018", false},
	{"unicode low quotes", "\u201a$(New-Item PWNED)\u201b", false},
	{"unicode double quotes", "\u201d; $(New-Item PWNED); \u201c", false},
	{"powershell subexpression", "$(New-Item PWNED)", false},
	{"carriage return", "\rno vlan 2", false},
	{"NUL", "\x00: >PWNED", false},
	{"ESC", "\x1b[2J", false},
	{"line separator", "\u2028no vlan 2", false},
	{"next line", "\u0085no vlan 2", false},
	{"tab", "\tx", false},
	{"bidi override", "\u202ex", false},
	{"20 KB", strings.Repeat("A", 20*1024), false},
	{"dot-dot", "..", true},
	{"empty", "", true},
	{"slash", "/../x", false},
	{"model.json", "model.json", true},
	{"backslash", `\`, false},
	{"comment", " # x", false},
	{"help", "?", false},
	{"pipe", " | : >PWNED", false},
	{"variable", "${HOME}$HOME", false},
	{"dash", "-rf", false},
	{"unicode letter", "é", false},
	{"ampersand", " && : >PWNED", false},
	{"markup", "<b>*x*</b>", false},
	{"trailing dot", ".", false},
}

// hostileTemplate reads the fabric template.
func hostileTemplate(t testing.TB) string {
	b, err := os.ReadFile(filepath.Join("testdata", "hostile.hcl.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hclString escapes s for the inside of an HCL quoted string: every
// character reaches the decoded value exactly (HCL native syntax, Template
// Literals: \n \r \t \" \\ \uNNNN, and $${ %%{ for a literal ${ %{).
func hclString(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r)
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0x202e:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fill writes the template with values (clean values where unset).
func fill(tmpl string, values map[string]string) string {
	out := tmpl
	for k, v := range cleanValues {
		if hv, ok := values[k]; ok {
			v = hv
		}
		out = strings.ReplaceAll(out, "{{"+k+"}}", hclString(v))
	}
	return out
}

// outcome of one case.
type outcome int

const (
	refused outcome = iota
	builtInert
	failed
)

// buildCase loads, compiles and renders one filled template. It returns
// the diagnostics when the fabric is refused, or the set.
func buildCase(t testing.TB, src string) (*artifacts.Set, hcl.Diagnostics, error) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fabric.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, diags := dsl.Load(path, dsl.Options{})
	if diags.HasErrors() {
		return nil, diags, nil
	}
	f, cdiags := compiler.Compile(cfg)
	if cdiags.HasErrors() {
		return nil, cdiags, nil
	}
	set, err := artifacts.Render(f)
	return set, nil, err
}

// unlocated returns the error diagnostics without a FILE:LINE:COL.
func unlocated(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError && (d.Subject == nil || d.Subject.Filename == "" || d.Subject.Start.Line == 0) {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// TestHostileInputs puts every payload into every string field of a
// fabric that uses every target. Each case must be refused by validation
// with a location for every error, or build, and then every artifact must
// be inert: no line more or less than the clean build, every changed line
// the same command as before, shell scripts syntax-checked, shellcheck
// clean, run with --help and --dry-run in a scratch folder without
// creating anything and calling the same commands as the clean scripts,
// YAML and JSON valid, PowerShell of the same command shape (when
// FABRICC_PS_PARSER names an npm install of tree-sitter-powershell). It
// logs the counts (go test -run TestHostileInputs -v ./artifacts/).
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile-input matrix runs shells for every built case")
	}
	tmpl := hostileTemplate(t)
	clean, diags, err := buildCase(t, fill(tmpl, nil))
	if err != nil || diags.HasErrors() {
		t.Fatalf("the clean fabric does not build: %v %v", err, diags)
	}
	r := newRunner(t, clean)
	fields := make([]string, 0, len(cleanValues))
	for k := range cleanValues {
		fields = append(fields, k)
	}
	sort.Strings(fields)
	counts := map[outcome]int{}
	for _, field := range fields {
		for _, p := range payloads {
			value := cleanValues[field] + p.value
			if p.whole {
				value = p.value
			}
			name := field + "/" + p.name
			counts[r.run(name, field, value, fill(tmpl, map[string]string{field: value}))]++
		}
	}
	late := r.finish()
	counts[builtInert] -= late
	counts[failed] += late
	t.Logf("hostile inputs: %d cases, %d refused with a location, %d built and inert, %d failed",
		len(fields)*len(payloads), counts[refused], counts[builtInert], counts[failed])
}

// runner checks cases against the clean build and collects the checks
// that run in batches (shellcheck, the PowerShell parser).
type runner struct {
	t     *testing.T
	clean map[string][]byte
	// cleanCalls are the commands each clean script calls, by file path.
	cleanCalls map[string][]string
	stubs      string
	// batch: scripts of built cases for shellcheck and the PowerShell
	// parser, by path on disk, with the case name.
	shellScripts map[string]string
	psScripts    map[string]string
	psClean      string
	work         string
	// checked holds the files (path and bytes) that passed already.
	checked map[[32]byte]bool
}

// newRunner writes the stub commands and runs the clean scripts once.
func newRunner(t *testing.T, clean *artifacts.Set) *runner {
	r := &runner{t: t, clean: map[string][]byte{}, cleanCalls: map[string][]string{},
		shellScripts: map[string]string{}, psScripts: map[string]string{}, work: t.TempDir(), checked: map[[32]byte]bool{}}
	for _, f := range clean.Files() {
		r.clean[f.Path] = f.Data
	}
	r.stubs = writeStubs(t)
	for _, f := range clean.Files() {
		if strings.HasSuffix(f.Path, ".sh") {
			calls, err := r.runScript("clean", f)
			if err != nil {
				t.Fatalf("clean %s: %v", f.Path, err)
			}
			r.cleanCalls[f.Path] = calls
		}
		if strings.HasSuffix(f.Path, ".ps1") {
			r.psClean = filepath.Join(r.work, "clean.ps1")
			if err := os.WriteFile(r.psClean, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r
}

// stubCommands are the system commands the scripts call: in the test
// they only log their name and succeed, printing nothing.
var stubCommands = []string{
	"ip", "dcb", "ethtool", "mlnx_qos", "nv", "sysctl", "kldload", "kldstat", "ifconfig", "sysrc",
	"modprobe", "lspci", "cpupower", "ulimit", "mlxconfig", "ibdev2netdev", "rdma", "cma_roce_mode", "cma_roce_tos",
}

// writeStubs writes the stub commands into a folder and returns it.
func writeStubs(t *testing.T) string {
	dir := t.TempDir()
	for _, c := range stubCommands {
		script := "#!/bin/sh\nprintf '%s\\n' \"$(basename \"$0\")\" >>\"$FABRICC_STUB_LOG\"\nexit 0\n"
		if err := os.WriteFile(filepath.Join(dir, c), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run checks one case and returns its outcome.
func (r *runner) run(name, field, value, src string) outcome {
	t := r.t
	set, diags, err := buildCase(t, src)
	if diags.HasErrors() {
		if u := unlocated(diags); len(u) > 0 {
			t.Errorf("%s: refused without a location: %s", name, strings.Join(u, "; "))
			return failed
		}
		return refused
	}
	if err != nil {
		t.Errorf("%s: validate accepts %q but build fails: %v", name, shortValue(value), err)
		return failed
	}
	problems := r.inert(name, field, value, set)
	for _, p := range problems {
		t.Errorf("%s (%q): %s", name, shortValue(value), p)
	}
	if len(problems) > 0 {
		return failed
	}
	return builtInert
}

// shortValue cuts a value for a message.
func shortValue(v string) string {
	if len(v) > 40 {
		return v[:40] + "..."
	}
	return v
}

// inert lists how the built set differs from the clean build beyond the
// changed value.
func (r *runner) inert(name, field, value string, set *artifacts.Set) []string {
	var problems []string
	clean := cleanValues[field]
	seen := map[string]bool{}
	for _, f := range set.Files() {
		cleanPath := f.Path
		if strings.HasPrefix(field, "SW_") || strings.HasPrefix(field, "HOST_") {
			cleanPath = strings.ReplaceAll(f.Path, value, clean)
		}
		want, ok := r.clean[cleanPath]
		if !ok {
			problems = append(problems, fmt.Sprintf("file %s has no counterpart in the clean build", f.Path))
			continue
		}
		seen[cleanPath] = true
		switch {
		case strings.HasSuffix(f.Path, ".json"):
			// JSON encoders escape every string; key order and hashes move.
			want = nil
		case strings.HasSuffix(f.Path, ".svg"):
			// A chart's layout moves with the length of a name: its
			// elements must be the clean chart's, in the same order.
			problems = append(problems, compareElements(f.Path, f.Data, want)...)
			want = nil
		case strings.HasSuffix(f.Path, ".md") && value == "":
			// An empty free text leaves its paragraph out of a document.
			problems = append(problems, compareRemoved(f.Path, f.Data, want, clean)...)
			want = nil
		}
		problems = append(problems, compareLines(f.Path, f.Data, want, clean)...)
		problems = append(problems, r.checkFile(name, f, cleanPath)...)
	}
	for p := range r.clean {
		if !seen[p] {
			problems = append(problems, fmt.Sprintf("clean file %s is missing", p))
		}
	}
	return problems
}

// lineBreaks are characters some reader of a generated file takes as the
// end of a line: the file must not hold them raw.
const lineBreaks = "\r\x00\x1b\u0085\u2028\u2029\x0b\x0c"

// compareLines checks that got has the lines of want, each either equal
// or the same command with another value: the text before the clean value
// is the same in both.
func compareLines(path string, got, want []byte, clean string) []string {
	if i := bytes.IndexAny(got, lineBreaks); i >= 0 {
		r, _ := utf8.DecodeRune(got[i:])
		return []string{fmt.Sprintf("%s holds %U raw at byte %d", path, r, i)}
	}
	if want == nil {
		return nil
	}
	gl, wl := scriptLines(got), scriptLines(want)
	if len(gl) != len(wl) {
		return []string{fmt.Sprintf("%s has %d lines, the clean build %d", path, len(gl), len(wl))}
	}
	var out []string
	for i := range gl {
		if gl[i] == wl[i] || scriptID(gl[i]) && scriptID(wl[i]) {
			continue
		}
		at := strings.Index(wl[i], clean)
		if clean == "" || at < 0 || !strings.HasPrefix(gl[i], strings.TrimRight(wl[i][:at], `'"`)) {
			out = append(out, fmt.Sprintf("%s:%d changed beyond the value: %q, clean %q", path, i+1, shortValue(gl[i]), wl[i]))
		}
	}
	return out
}

// scriptID reports whether line is a Linux host script's identity, the
// SHA-256 of the script (targets/linux): a hash, which moves with every
// value as the manifest's do.
func scriptID(line string) bool {
	h, ok := strings.CutPrefix(line, "FABRICC_SCRIPT_ID=")
	return ok && len(h) == 64 && strings.Trim(h, "0123456789abcdef") == ""
}

// compareElements checks that an SVG file is well-formed XML with the
// same elements, in the same order, as the clean build's: a hostile name
// may move text but never add markup.
func compareElements(path string, got, want []byte) []string {
	g, err := xmlElements(got)
	if err != nil {
		return []string{fmt.Sprintf("%s is not XML: %v", path, err)}
	}
	w, err := xmlElements(want)
	if err != nil {
		return []string{fmt.Sprintf("clean %s is not XML: %v", path, err)}
	}
	if strings.Join(g, " ") != strings.Join(w, " ") {
		return []string{fmt.Sprintf("%s has elements %v, the clean build %v", path, g, w)}
	}
	return nil
}

// xmlElements lists the start elements of an XML document in order.
func xmlElements(data []byte) ([]string, error) {
	var out []string
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if se, ok := tok.(xml.StartElement); ok {
			out = append(out, se.Name.Local)
		}
	}
}

// compareRemoved checks that got is want with only lines removed, each
// removed line blank or holding the clean value.
func compareRemoved(path string, got, want []byte, clean string) []string {
	gl, wl := scriptLines(got), scriptLines(want)
	i := 0
	for _, w := range wl {
		if i < len(gl) && gl[i] == w {
			i++
			continue
		}
		if strings.TrimSpace(w) != "" && !strings.Contains(w, clean) {
			return []string{fmt.Sprintf("%s lost the line %q of the clean build", path, w)}
		}
	}
	if i < len(gl) {
		return []string{fmt.Sprintf("%s:%d is not in the clean build: %q", path, i+1, shortValue(gl[i]))}
	}
	return nil
}

// scriptLines splits a file into lines, leaving out the shellcheck
// directive the NVUE script writes before a line that holds a literal $
// or backtick in single quotes.
func scriptLines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "# shellcheck disable=SC2016" {
			out = append(out, l)
		}
	}
	return out
}

// checkFile runs the per-format checks on one file.
func (r *runner) checkFile(name string, f artifacts.File, cleanPath string) []string {
	sum := sha256.Sum256(append([]byte(cleanPath+"\x00"), f.Data...))
	if r.checked[sum] {
		return nil // the same bytes passed every check in an earlier case
	}
	problems := r.checkFormat(name, f, cleanPath)
	if len(problems) == 0 {
		r.checked[sum] = true
	}
	return problems
}

// checkFormat runs the per-format checks on one file.
func (r *runner) checkFormat(name string, f artifacts.File, cleanPath string) []string {
	switch {
	case strings.HasSuffix(f.Path, ".sh"):
		calls, err := r.runScript(name, f)
		if err != nil {
			return []string{fmt.Sprintf("%s: %v", f.Path, err)}
		}
		if want := r.cleanCalls[cleanPath]; strings.Join(calls, " ") != strings.Join(want, " ") {
			return []string{fmt.Sprintf("%s calls %v, the clean script %v", f.Path, calls, want)}
		}
	case strings.HasSuffix(f.Path, ".ps1"):
		p := filepath.Join(r.work, fmt.Sprintf("case%d.ps1", len(r.psScripts)))
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.psScripts[p] = name
	case strings.HasSuffix(f.Path, ".yaml"):
		var n yaml.Node
		if err := yaml.Unmarshal(f.Data, &n); err != nil {
			return []string{fmt.Sprintf("%s is not YAML: %v", f.Path, err)}
		}
	case strings.HasSuffix(f.Path, ".json"):
		if !json.Valid(f.Data) {
			return []string{fmt.Sprintf("%s is not JSON", f.Path)}
		}
	}
	return nil
}

// runScript checks a shell script's syntax, queues it for shellcheck, and
// runs it with --help and --dry-run (the NVUE script without options) in
// an empty folder with the stub commands first in PATH. It returns the
// commands the runs called; an error when a run failed or left a file.
func (r *runner) runScript(name string, f artifacts.File) ([]string, error) {
	dir, err := os.MkdirTemp(r.work, "run-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(r.work, fmt.Sprintf("s%d-%s", len(r.shellScripts), filepath.Base(f.Path)))
	if err := os.WriteFile(script, f.Data, 0o755); err != nil {
		return nil, err
	}
	r.shellScripts[script] = name
	shell := "bash"
	if bytes.HasPrefix(f.Data, []byte("#!/bin/sh")) {
		shell = "sh"
	}
	if out, err := exec.Command(shell, "-n", script).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s -n: %v\n%s", shell, err, out)
	}
	runs := [][]string{{"--help"}, {"--dry-run"}}
	if strings.HasSuffix(f.Path, ".nvue.sh") {
		runs = [][]string{nil}
	}
	log := filepath.Join(r.work, "stub.log")
	os.Remove(log)
	for _, args := range runs {
		cmd := exec.Command(shell, append([]string{script}, args...)...)
		cmd.Dir = dir
		// FABRICC_ANY_HOST: this machine is not the host a script is
		// for, and a dry run stops where the run would (the host name
		// still goes through the guard's quoting, into its note).
		cmd.Env = []string{"PATH=" + r.stubs + ":/usr/bin:/bin", "FABRICC_STUB_LOG=" + log, "HOME=" + dir, "LANG=C.UTF-8", "FABRICC_ANY_HOST=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s %v: %v\n%s", filepath.Base(f.Path), args, err, out)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		return nil, fmt.Errorf("running it left %s in its folder", left[0].Name())
	}
	data, _ := os.ReadFile(log)
	return strings.Fields(string(data)), nil
}

// finish runs the batched checks and returns how many cases failed them.
func (r *runner) finish() int {
	bad := map[string]bool{}
	r.shellcheck(bad)
	r.powershell(bad)
	return len(bad)
}

// shellcheck runs shellcheck over every queued script when it is
// installed; every finding is a failure.
func (r *runner) shellcheck(bad map[string]bool) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		r.t.Log("shellcheck not installed; skipping the shellcheck pass")
		return
	}
	paths := sortedKeys(r.shellScripts)
	for len(paths) > 0 {
		n := min(len(paths), 200)
		out, _ := exec.Command(sc, append([]string{"-f", "gcc"}, paths[:n]...)...).CombinedOutput()
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			file, _, _ := strings.Cut(sc.Text(), ":")
			if name, ok := r.shellScripts[file]; ok {
				r.t.Errorf("%s: shellcheck: %s", name, sc.Text())
				bad[name] = true
			}
		}
		paths = paths[n:]
	}
}

// powershell compares the command shape of every queued script with the
// clean script's, when FABRICC_PS_PARSER is set.
func (r *runner) powershell(bad map[string]bool) {
	dir := os.Getenv("FABRICC_PS_PARSER")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil || r.psClean == "" {
		r.t.Log("FABRICC_PS_PARSER or node not set up; skipping the PowerShell shape pass")
		return
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "psshape.mjs"))
	paths := append([]string{r.psClean}, sortedKeys(r.psScripts)...)
	cmd := exec.Command(node, append([]string{script}, paths...)...)
	cmd.Env = append(os.Environ(), "FABRICC_PS_PARSER="+dir)
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("psshape.mjs: %v", err)
	}
	shapes := map[string][2]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 {
			shapes[f[0]] = [2]string{f[1], f[2]}
		}
	}
	want := shapes[r.psClean]
	if want[1] != "0" {
		r.t.Fatalf("the clean PowerShell script has %s parse errors", want[1])
	}
	for p, name := range r.psScripts {
		got, ok := shapes[p]
		switch {
		case !ok:
			r.t.Errorf("%s: the PowerShell parser printed nothing for the script", name)
		case got[1] != "0":
			r.t.Errorf("%s: the PowerShell script has %s parse errors", name, got[1])
		case got[0] != want[0]:
			r.t.Errorf("%s: the PowerShell script's command shape differs from the clean script's", name)
		default:
			continue
		}
		bad[name] = true
	}
	r.t.Logf("PowerShell shape compared for %d scripts", len(r.psScripts))
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// modelPayloads are what no rule of the language lets through, put
// straight into a model as a hand-built one could hold them.
var modelPayloads = []string{"\nno vlan 2", "\rno vlan 2", "\u2028no vlan 2", "\u0085x", "\x00x", "\x1b[2J", "'\"\u2018\u2019\u201c; x"}

// modelStrings are setters of every free-text and name field of a model
// that a renderer writes.
var modelStrings = map[string]func(f *model.Fabric, v string){
	"fabric name":         func(f *model.Fabric, v string) { f.Name = v },
	"fabric description":  func(f *model.Fabric, v string) { f.Description = v },
	"VLAN name":           func(f *model.Fabric, v string) { f.VLANs[0].Name = v },
	"class name":          func(f *model.Fabric, v string) { f.QoS.Classes[0].Name = v },
	"switch os_version":   func(f *model.Fabric, v string) { eachSwitch(f, func(s *model.Switch) { s.OSVersion += v }) },
	"switch model":        func(f *model.Fabric, v string) { eachSwitch(f, func(s *model.Switch) { s.Hardware.Model += v }) },
	"port description":    func(f *model.Fabric, v string) { eachSwitch(f, func(s *model.Switch) { s.Ports[0].Description += v }) },
	"peer device":         func(f *model.Fabric, v string) { eachSwitch(f, func(s *model.Switch) { s.Ports[0].Peer.Device += v }) },
	"host os_version":     func(f *model.Fabric, v string) { eachHost(f, func(h *model.Host) { h.OSVersion += v }) },
	"nic name":            func(f *model.Fabric, v string) { eachHost(f, func(h *model.Host) { h.NICs[0].Name += v }) },
	"nic interface":       func(f *model.Fabric, v string) { eachHost(f, func(h *model.Host) { h.NICs[0].Interface += v }) },
	"nic model":           func(f *model.Fabric, v string) { eachHost(f, func(h *model.Host) { h.NICs[0].Model += v }) },
	"nic peer device":     func(f *model.Fabric, v string) { eachHost(f, func(h *model.Host) { h.NICs[0].Peer.Device += v }) },
	"host name (comment)": func(f *model.Fabric, v string) { eachHost(f, func(h *model.Host) { h.Name = v }) },
}

func eachSwitch(f *model.Fabric, do func(*model.Switch)) {
	for i := range f.Switches {
		do(&f.Switches[i])
	}
}

func eachHost(f *model.Fabric, do func(*model.Host)) {
	for i := range f.Hosts {
		do(&f.Hosts[i])
	}
}

// TestHostileModel renders models that hold strings the language never
// lets through (line breaks, NUL, ESC, quotes of every kind) in every
// free-text and name field: each renderer either refuses the model or
// writes the string through its context's rule, so no file gains a line
// or holds a raw line break. This checks that every target is wired
// through package quote, not only that the language refuses.
func TestHostileModel(t *testing.T) {
	tmpl := hostileTemplate(t)
	src := fill(tmpl, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, "fabric.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	compile := func() *model.Fabric {
		cfg, _, diags := dsl.Load(path, dsl.Options{})
		f, cdiags := compiler.Compile(cfg)
		if diags.HasErrors() || cdiags.HasErrors() {
			t.Fatalf("clean fabric: %v %v", diags, cdiags)
		}
		return f
	}
	clean, err := artifacts.Render(compile())
	if err != nil {
		t.Fatal(err)
	}
	cleanFiles := map[string][]byte{}
	for _, f := range clean.Files() {
		cleanFiles[filepath.Base(f.Path)[strings.Index(filepath.Base(f.Path), "."):]+"@"+filepath.Dir(f.Path)] = f.Data
	}
	refusedN, inertN := 0, 0
	for field, set := range modelStrings {
		for _, p := range modelPayloads {
			f := compile()
			set(f, p)
			s, err := artifacts.Render(f)
			if err != nil {
				refusedN++
				continue
			}
			bad := false
			for _, file := range s.Files() {
				if i := bytes.IndexAny(file.Data, lineBreaks+"\n"); i >= 0 && strings.HasSuffix(file.Path, ".json") {
					continue // JSON escapes every control character
				}
				if i := bytes.IndexAny(file.Data, lineBreaks); i >= 0 {
					t.Errorf("%s = %q: %s holds a raw line break or control character at byte %d", field, p, file.Path, i)
					bad = true
				}
			}
			for _, file := range s.Files() {
				base := filepath.Base(file.Path)
				key := base[strings.Index(base, "."):] + "@" + filepath.Dir(file.Path)
				want, ok := cleanFiles[key]
				if !ok || strings.HasSuffix(file.Path, ".json") {
					continue
				}
				if g, w := len(scriptLines(file.Data)), len(scriptLines(want)); g != w {
					t.Errorf("%s = %q: %s has %d lines, the clean build %d", field, p, file.Path, g, w)
					bad = true
				}
			}
			if !bad {
				inertN++
			}
		}
	}
	t.Logf("hostile model: %d cases, %d refused by a renderer, %d rendered inert", len(modelStrings)*len(modelPayloads), refusedN, inertN)
}
