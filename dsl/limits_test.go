package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLimits loads fabrics built to exhaust memory, overflow the stack or
// never finish. Each must end quickly in one located error. Before these
// limits the nesting cases crashed with "goroutine stack exceeds
// 1000000000-byte limit" (exit status 2) and the others ran out of memory.
func TestLimits(t *testing.T) {
	fabric := func(attr string) string { return "fabric \"f\" {\n  description = " + attr + "\n}\n" }
	tests := []struct {
		name, src string
		want      string // compact diagnostic, FILE:LINE:COL: error: Summary...
	}{
		{"parentheses nested 300000 deep", fabric(strings.Repeat("(", 300000) + "1" + strings.Repeat(")", 300000)),
			"f.hcl:2:80: error: Nesting too deep"},
		{"unary operators 500000 deep", fabric("tostring(" + strings.Repeat("!", 500000) + "true)"),
			"f.hcl:2:88: error: Nesting too deep"},
		{"a chain of 400000 operators", fabric("tostring(" + strings.Repeat("1+", 400000) + "1)"),
			"f.hcl:2:20027: error: Too many operators"},
		{"file over 1 MiB", fabric(`"` + strings.Repeat("x", MaxFileBytes) + `"`),
			"f.hcl:1:1: error: File too large"},
		{"range of a billion", fabric("tostring(length(range(1000000000)))"),
			"f.hcl:2:33: error: Error in function call: Call to function \"range\" failed: range makes at most 1024 numbers (HCL's limit, as in Terraform); for more, combine two: flatten([for a in range(N) : [for b in range(1024) : a * 1024 + b]])"},
		{"range just over HCL's", fabric("tostring(length(range(1, 1026)))"),
			"f.hcl:2:33: error: Error in function call: Call to function \"range\" failed: range makes at most 1024 numbers"},
		{"setproduct", "locals {\n  a = range(1000)\n}\n" + fabric("tostring(length(setproduct(local.a, local.a)))"),
			"f.hcl:5:33: error: Error in function call: Call to function \"setproduct\" failed: setproduct would make more than 10000 combinations"},
		{"nested for expressions", fabric("tostring(length(flatten([for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]])))"),
			"f.hcl:2:99: error: Evaluation too large: The fabric's expressions together produce more than 2000000 values"},
		{"template repeating a long string", "locals {\n  big = join(\"\", [for i in range(1000) : \"" + strings.Repeat("x", 100) + "\"])\n}\n" +
			fabric("\"%{for i in range(1000)}${local.big}%{endfor}\""),
			"f.hcl:5:43: error: Evaluation too large: The fabric's expressions together produce more than 33554432 bytes of text"},
		{"transpose's result is charged", "locals {\n  m = { for i in range(1000) : tostring(i) => [for j in range(400) : \"v${j}\"] }\n}\n" +
			fabric("tostring(length(transpose(local.m)))"),
			"f.hcl:5:33: error: Error in function call: Call to function \"transpose\" failed: the fabric's expressions together produce more than 2000000 values"},
		{"format width", fabric(`format("%999999999d", 1)`),
			"f.hcl:2:17: error: Error in function call: Call to function \"format\" failed: a format width or precision of 10000 or more is not supported"},
		{"join with a long separator", "locals {\n  sep = join(\"\", [for i in range(1000) : \"" + strings.Repeat("x", 100) + "\"])\n}\n" + fabric(`join(local.sep, range(1000))`),
			"f.hcl:5:17: error: Error in function call: Call to function \"join\" failed: join would write more than 33554432 bytes of separators"},
		{"nested dynamic blocks", "locals {\n  n = range(1000)\n}\n" + fabric(`"x"`) +
			"dynamic \"switch\" {\n  for_each = local.n\n  labels   = [\"s${switch.value}\"]\n  content {\n    platform = \"eos\"\n    model    = \"x\"\n" +
			"    dynamic \"port\" {\n      for_each = local.n\n      labels   = [\"Ethernet${port.value}\"]\n      content {\n        description = \"x\"\n      }\n    }\n  }\n}\n",
			"f.hcl:14:18: error: Evaluation too large: The fabric's expressions together produce more than 2000000 values"},
		{"ports over the whole fabric", fabric(`"x"`) + "dynamic \"switch\" {\n  for_each = range(20)\n  labels   = [\"s${switch.value}\"]\n  content {\n" +
			"    platform = \"eos\"\n    model    = \"x\"\n    port \"Ethernet1-4096\" {}\n  }\n}\n",
			"f.hcl:10:10: error: Too many ports"},
		{"ESC in a comment", "# \x1b[2J\x1b]0;owned\x07\n" + fabric(`"x"`),
			`f.hcl:1:3: error: Invalid character: The file holds U+001B (escape) at column 3 of line 1: "# \x1b[2J\x1b]0;owned\a". Fabric files are text`},
		{"bidi override in a comment", fabric("\"x\" # \u202e } \""),
			`f.hcl:2:23: error: Invalid character: The file holds U+202E (right-to-left override) at column 23 of line 2: " description = \"x\" # \u202e } \"". Fabric files are text`},
		{"invalid UTF-8 in a label", "host \"h\xff1\" {\n}\n",
			`f.hcl:1:8: error: Invalid character: The file holds the byte 0xFF (not UTF-8) at column 8 of line 1: "host \"h\xff1\" {". Fabric files are UTF-8 text: save the file as UTF-8`},
		{"invalid UTF-8 in a long line", "# " + strings.Repeat("a", 100) + "\xfe" + strings.Repeat("\u00e9", 100) + "\n",
			`f.hcl:1:103: error: Invalid character: The file holds the byte 0xFE (not UTF-8) at column 103 of line 1: ..."` + strings.Repeat("a", 60) + "\\xfe" + strings.Repeat("\u00e9", 30) + `".... Fabric files are UTF-8 text: save the file as UTF-8`},
		{"a chain of 300 locals", "locals {\n" + localsChain(300) + "}\n" + fabric("local.l0"),
			"f.hcl:258:3: error: Locals chain too long"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.hcl")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			cfg, _, diags := Load(path, Options{})
			got := compact(t, dir, diags)
			if cfg != nil || !strings.HasPrefix(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one starting with\n%s", shortText(got), tc.want)
			}
			t.Logf("%s: refused in %v", tc.name, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestLargeFileLimit: a file over 1 MiB is refused under the default
// limits, with the way out named, and read under --large; a file over
// --large's 128 MiB is refused by its size before it is read.
func TestLargeFileLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.hcl")
	// 2 MiB of plain blocks, as a script writes a fabric out.
	var b strings.Builder
	for i := 0; b.Len() <= 2<<20; i++ {
		fmt.Fprintf(&b, "vlan \"v%d\" {\n  id = %d\n}\n", i, i%4000+1)
	}
	if err := os.WriteFile(path, []byte("fabric \"f\" {}\n"+b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, diags := Load(path, Options{})
	want := fmt.Sprintf("is %d bytes; a fabric file holds at most 1048576 (a fabric of tens of thousands of devices needs --large). Split the fabric into several files of a folder.", b.Len()+len("fabric \"f\" {}\n"))
	if len(diags) != 1 || diags[0].Summary != "File too large" || !strings.HasSuffix(diags[0].Detail, want) {
		t.Errorf("default limits: %v, want File too large ending %q", diags, want)
	}
	if _, _, diags := Load(path, Options{Large: true}); diags.HasErrors() {
		t.Errorf("--large: %v", diags)
	}
	huge := filepath.Join(dir, "huge.hcl")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(128<<20 + 1); err != nil { // sparse: no disk is used
		t.Fatal(err)
	}
	f.Close()
	_, _, diags = Load(huge, Options{Large: true})
	if want := "is 134217729 bytes; a fabric file holds at most 134217728. Split"; len(diags) != 1 || !strings.Contains(diags[0].Detail, want) {
		t.Errorf("--large, a file over 128 MiB: %v, want %q", diags, want)
	}
}

// localsChain is n locals, each referring to the next.
func localsChain(n int) string {
	var b strings.Builder
	for i := 0; i < n-1; i++ {
		b.WriteString("  l" + strconv.Itoa(i) + " = local.l" + strconv.Itoa(i+1) + "\n")
	}
	b.WriteString("  l" + strconv.Itoa(n-1) + " = \"end\"\n")
	return b.String()
}

// shortText cuts a long message for the failure output.
func shortText(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// TestOnlyRegularFiles: a FIFO, a device and a symbolic link out of the
// fabric folder are refused at once, with the file named.
func TestOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.hcl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.hcl")
	if err := os.WriteFile(outside, []byte("fabric \"x\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "a.hcl"), []byte("fabric \"x\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(folder, "b.hcl")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		opts Options
		want string
	}{
		{fifo, Options{}, fifo + ":1:1: error: Not a regular file: " + fifo + " is a named pipe (FIFO), not a file; give a .hcl file.\n"},
		{"/dev/zero", Options{}, "/dev/zero:1:1: error: Not a regular file: /dev/zero is a device, not a file; give a .hcl file.\n"},
		{folder, Options{}, filepath.Join(folder, "b.hcl") + ":1:1: error: File outside the fabric folder: " + filepath.Join(folder, "b.hcl") +
			" links to " + outside + ", outside " + folder + ". A fabric folder's files must be in it; copy the file in instead of linking to it.\n"},
		{filepath.Join(folder, "a.hcl"), Options{VarFiles: []string{"/dev/zero"}}, "/dev/zero:1:1: error: Not a regular file: /dev/zero is a device, not a file; give a .hcl file.\n"},
	} {
		done := make(chan string, 1)
		go func() {
			_, _, diags := Load(tc.path, tc.opts)
			var b strings.Builder
			if err := WriteCompact(&b, diags); err != nil {
				t.Error(err)
			}
			done <- b.String()
		}()
		select {
		case got := <-done:
			if got != tc.want {
				t.Errorf("%s:\n%s\nwant\n%s", tc.path, got, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load blocked", tc.path)
		}
	}
}

// TestLargeLimits: what crosses a default limit says that --large raises
// it, and loads under LargeLimits.
func TestLargeLimits(t *testing.T) {
	fabric := func(attr string) string { return "fabric \"f\" {\n  description = " + attr + "\n}\n" }
	tests := []struct {
		name, src, want string
	}{
		{"two million values", fabric("tostring(length(flatten([for a in range(1000) : [for b in range(1000) : [for c in range(2) : c]]])))"),
			"f.hcl:2:99: error: Evaluation too large: The fabric's expressions together produce more than 2000000 values, and this expression is where the count crossed the limit; it need not be wrong itself. " +
				"If the fabric is this large on purpose, give --large (docs/language.md, Strings and limits); otherwise check for a range, for expression or dynamic block that multiplies more than meant.\n"},
		{"81920 ports", fabric(`"x"`) + "dynamic \"switch\" {\n  for_each = range(20)\n  labels   = [\"s${switch.value}\"]\n  content {\n" +
			"    platform = \"eos\"\n    model    = \"x\"\n    port \"Ethernet1-4096\" {}\n  }\n}\n",
			"f.hcl:10:10: error: Too many ports: The fabric's port specs name more than 65536 ports together; fabricc stops at this one. " +
				"Check the ranges and dynamic blocks (a fabric of tens of thousands of devices needs --large).\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.hcl")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, _, diags := Load(path, Options{})
			if got := compact(t, dir, diags); cfg != nil || got != tc.want {
				t.Errorf("default limits:\n%s\nwant\n%s", shortText(got), tc.want)
			}
			cfg, _, diags = Load(path, Options{Large: true})
			if cfg == nil || diags.HasErrors() {
				t.Errorf("--large: %s", compact(t, dir, diags))
			}
		})
	}
}

// withinLimitsCases are inputs for surelyWithinLimits: plain generated
// blocks it must pass, and the shapes it must leave to checkTokens.
var withinLimitsCases = []struct {
	name, src string
	sure      bool
}{
	{"plain blocks", "switch \"leaf1\" {\n  platform = \"cumulus\" # a comment (((\n  port \"swp1\" {\n    vlans = [100] // ]]]\n    mtu   = 9216\n  }\n}\n/* {{{ */\nlink {\n  a = \"leaf1:swp1\"\n  b = \"h\\\"1:roce0\"\n  length = 3\n}\n", true},
	{"interpolation", "fabric \"f\" {\n  description = \"a ${var.x} b\"\n}\n", false},
	{"escaped interpolation", "fabric \"f\" {\n  description = \"a $${x} b\"\n}\n", false},
	{"directive", "fabric \"f\" {\n  description = \"%{if true}x%{endif}\"\n}\n", false},
	{"heredoc", "fabric \"f\" {\n  description = <<EOT\n((((\nEOT\n}\n", false},
	{"string past its line", "fabric \"f\" {\n  description = \"a\\\n" + strings.Repeat("(", 100) + "\"\n}\n", false},
	{"unterminated string", "fabric \"f\" {\n  description = \"abc", false},
	{"unterminated comment", "/* abc", false},
	{"deep nesting", "fabric \"f\" {\n  description = tostring(" + strings.Repeat("[", 64) + "1" + strings.Repeat("]", 64) + ")\n}\n", false},
	{"nesting at the limit", "x = " + strings.Repeat("[", 64) + strings.Repeat("]", 64) + "\n", true},
	{"unary run", "fabric \"f\" {\n  description = tostring(" + strings.Repeat("!", 70) + "true)\n}\n", false},
	{"many operators", "locals {\n  a = " + strings.Repeat("1+", 10001) + "1\n}\n", false},
	{"equal signs are no operators", strings.Repeat("a = 1\n", 20000), true},
}

// TestSurelyWithinLimits checks the prefilter's answers, and that
// checkTokens accepts every input it is sure of.
func TestSurelyWithinLimits(t *testing.T) {
	for _, tc := range withinLimitsCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := surelyWithinLimits([]byte(tc.src)); got != tc.sure {
				t.Errorf("surelyWithinLimits = %v, want %v", got, tc.sure)
			}
			if tc.sure {
				if d := checkTokens([]byte(tc.src), "f.hcl"); d != nil {
					t.Errorf("sure, but checkTokens says %v", d)
				}
			}
		})
	}
}

// FuzzSurelyWithinLimits: whatever surelyWithinLimits is sure of,
// checkTokens accepts; it may only leave work to checkTokens, never
// let past what checkTokens refuses.
func FuzzSurelyWithinLimits(f *testing.F) {
	for _, tc := range withinLimitsCases {
		f.Add(tc.src)
	}
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.hcl"))
	for _, p := range examples {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if surelyWithinLimits([]byte(src)) {
			if d := checkTokens([]byte(src), "f.hcl"); d != nil {
				t.Fatalf("sure of %q, but checkTokens says %v", src, d)
			}
		}
	})
}

// TestParseErrorsInFileOrder: the files of a folder are parsed on every
// core, and their errors still come in file order, every file kept for
// its source snippet.
func TestParseErrorsInFileOrder(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 8 {
		name := fmt.Sprintf("f%d.hcl", i)
		src := strings.Repeat("vlan \"v\" {\n  id = 1\n}\n", 2000*(8-i)) + "vlan {\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, filepath.Join(dir, name))
	}
	_, files, diags := Load(dir, Options{})
	var got []string
	for _, d := range diags {
		if d.Subject != nil && !slices.Contains(got, d.Subject.Filename) {
			got = append(got, d.Subject.Filename)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors in files %v, want %v", got, want)
	}
	if len(files) != len(want) {
		t.Errorf("%d files kept for snippets, want %d", len(files), len(want))
	}
}

// BenchmarkSurelyWithinLimits scans a plain fabric of about 4 MB; its
// figure is against BenchmarkCheckTokens, the lexer pass it spares.
func BenchmarkSurelyWithinLimits(b *testing.B) {
	src := []byte(plainFabric(1000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if !surelyWithinLimits(src) {
			b.Fatal("not sure of a plain fabric")
		}
	}
}

func BenchmarkCheckTokens(b *testing.B) {
	src := []byte(plainFabric(1000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if d := checkTokens(src, "f.hcl"); d != nil {
			b.Fatal(d)
		}
	}
}
