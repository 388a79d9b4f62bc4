package dsl

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// writeFabric writes files into a fresh folder and returns it.
func writeFabric(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// compact renders diags in compact form with dir stripped from names.
func compact(t *testing.T, dir string, diags hcl.Diagnostics) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCompact(&b, diags); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(b.String(), dir+string(filepath.Separator), "")
}

// portNames lists "switch:port" for every port of cfg, in order.
func portNames(cfg *Config) []string {
	var out []string
	for _, sw := range cfg.Switches {
		for _, p := range sw.Ports {
			out = append(out, sw.Name+":"+p.Spec)
		}
	}
	return out
}

func TestLoadValues(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  func(dir string) Options
		check func(t *testing.T, cfg *Config)
	}{
		{
			name: "variable default and type",
			files: map[string]string{"a.hcl": `
variable "mtu" {
  type    = number
  default = "9216"
}
fabric "f" {}
switch "s1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" { mtu = var.mtu }
}`},
			check: func(t *testing.T, cfg *Config) {
				if got := *cfg.Switches[0].Ports[0].MTU; got != 9216 {
					t.Errorf("mtu = %d, want 9216", got)
				}
			},
		},
		{
			name: "-var beats var file beats default; string fallback",
			files: map[string]string{
				"a.hcl": `
variable "mtu" { default = 1500 }
variable "model" { type = string }
variable "desc" { default = "x" }
fabric "f" { description = var.desc }
switch "s1" {
  platform = "cumulus"
  model    = var.model
  port "swp1" { mtu = var.mtu }
}`,
				"vars.txt": "mtu = 9000\nmodel = \"SN3700\"\n"},
			opts: func(dir string) Options {
				return Options{
					VarFiles: []string{filepath.Join(dir, "vars.txt")},
					Vars:     map[string]string{"mtu": "9216", "desc": "lab fabric"},
				}
			},
			check: func(t *testing.T, cfg *Config) {
				sw := cfg.Switches[0]
				if *sw.Ports[0].MTU != 9216 || sw.Model != "SN3700" || *cfg.Fabric.Description != "lab fabric" {
					t.Errorf("got mtu %d model %q description %q, want 9216 SN3700 \"lab fabric\"",
						*sw.Ports[0].MTU, sw.Model, *cfg.Fabric.Description)
				}
			},
		},
		{
			// Terraform's optional(type, default): a missing attribute
			// takes its default, a written one keeps its value.
			name: "optional object attributes with defaults",
			files: map[string]string{"a.hcl": `
variable "leaves" {
  type = map(object({
    model = optional(string, "SN3700")
    mtu   = optional(number, 9216)
  }))
  default = {
    leaf1 = {}
    leaf2 = { model = "SN2410", mtu = 9000 }
  }
  validation {
    condition     = alltrue([for l in var.leaves : l.mtu >= 1500])
    error_message = "An MTU must be at least 1500."
  }
}
fabric "f" {}
dynamic "switch" {
  for_each = var.leaves
  labels   = [switch.key]
  content {
    platform = "cumulus"
    model    = switch.value.model
    port "swp1" { mtu = switch.value.mtu }
  }
}`},
			check: func(t *testing.T, cfg *Config) {
				var got []string
				for _, sw := range cfg.Switches {
					got = append(got, fmt.Sprintf("%s %s %d", sw.Name, sw.Model, *sw.Ports[0].MTU))
				}
				want := []string{"leaf1 SN3700 9216", "leaf2 SN2410 9000"}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("switches (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "locals in dependency order, functions",
			files: map[string]string{"a.hcl": `
locals {
  hosts  = [for i in range(1, local.count + 1) : format("gpu%02d", i)]
  count  = 2
  net    = "10.1.0.0/24"
  addr   = cidrhost(local.net, -2)
  v6     = cidrhost("fd00::/64", 258)
  ports  = ports("swp1-2,swp10")
}
fabric "f" { description = join(" ", concat(local.hosts, [local.addr, local.v6], local.ports)) }`},
			check: func(t *testing.T, cfg *Config) {
				want := "gpu01 gpu02 10.1.0.254 fd00::102 swp1 swp2 swp10"
				if got := *cfg.Fabric.Description; got != want {
					t.Errorf("description = %q, want %q", got, want)
				}
			},
		},
		{
			name: "dynamic blocks at two levels",
			files: map[string]string{"a.hcl": `
locals {
  leaves = { leaf1 = "swp1-2", leaf2 = "swp3" }
}
fabric "f" {}
dynamic "switch" {
  for_each = local.leaves
  iterator = leaf
  labels   = [leaf.key]
  content {
    platform = "cumulus"
    model    = "SN2410"
    dynamic "port" {
      for_each = ports(leaf.value)
      labels   = [port.value]
      content { mtu = 9216 }
    }
  }
}`},
			check: func(t *testing.T, cfg *Config) {
				want := []string{"leaf1:swp1", "leaf1:swp2", "leaf2:swp3"}
				if d := cmp.Diff(want, portNames(cfg)); d != "" {
					t.Errorf("ports (-want +got):\n%s", d)
				}
			},
		},
		{
			name: "folder files merged in name order",
			files: map[string]string{
				"b.hcl":      "switch \"b\" {\n  platform = \"eos\"\n  model = \"7050\"\n}\n",
				"a.hcl":      "fabric \"f\" {}\nswitch \"a\" {\n  platform = \"onyx\"\n  model = \"SN2410\"\n}\n",
				"c.hcl":      "link {\n  a = \"a:1/1\"\n  b = \"b:Ethernet1\"\n  length = local.len\n}\n",
				"locals.hcl": `locals { len = 2.5 }`,
				"notes.txt":  `this is not read`,
			},
			check: func(t *testing.T, cfg *Config) {
				if len(cfg.Switches) != 2 || cfg.Switches[0].Name != "a" || cfg.Switches[1].Name != "b" {
					t.Errorf("switches = %+v, want a then b", cfg.Switches)
				}
				if len(cfg.Links) != 1 || cfg.Links[0].Length != 2.5 {
					t.Errorf("links = %+v, want one of 2.5 m", cfg.Links)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFabric(t, tc.files)
			var opts Options
			if tc.opts != nil {
				opts = tc.opts(dir)
			}
			cfg, _, diags := Load(dir, opts)
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics:\n%s", compact(t, dir, diags))
			}
			tc.check(t, cfg)
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  string
	}{
		{
			name:  "variable without value",
			files: map[string]string{"a.hcl": "variable \"n\" {}\nfabric \"f\" { description = var.n }\n"},
			want:  "a.hcl:1:1: error: No value for required variable: Variable \"n\" has no default and was not set. Set it with -var n=VALUE, in a var file given with --var-file, or give it a default.\n",
		},
		{
			name:  "unknown -var with suggestion",
			files: map[string]string{"a.hcl": "variable \"mtu\" { default = 1 }\nfabric \"f\" {}\n"},
			opts:  Options{Vars: map[string]string{"mut": "9216"}},
			want:  "error: Undeclared variable: -var sets \"mut\", which the fabric does not declare. Did you mean \"mtu\"?\n",
		},
		{
			name:  "-var of the wrong type",
			files: map[string]string{"a.hcl": "variable \"mtu\" { type = number }\nfabric \"f\" {}\n"},
			opts:  Options{Vars: map[string]string{"mtu": "jumbo"}},
			want:  "error: Invalid value for variable: -var mtu=jumbo: a number is required.\n",
		},
		{
			// A setting is quoted visibly: no escape reaches the terminal.
			name:  "-var of the wrong type with a control character",
			files: map[string]string{"a.hcl": "variable \"mtu\" { type = number }\nfabric \"f\" {}\n"},
			opts:  Options{Vars: map[string]string{"mtu": "\x1b[2J9216"}},
			want:  "error: Invalid value for variable: -var mtu=\\x1b[2J9216: a number is required.\n",
		},
		{
			name:  "default of the wrong type",
			files: map[string]string{"a.hcl": "variable \"ports\" {\n  type    = list(string)\n  default = 3\n}\nfabric \"f\" {}\n"},
			want:  "a.hcl:3:13: error: Invalid default value for variable: This default cannot be used for variable \"ports\": list of string required, but have number.\n",
		},
		{
			// Terraform's custom validation rules: the error_message, at
			// the place the value was set, the rule as a related place.
			name: "var file value fails a validation rule",
			files: map[string]string{
				"a.hcl":    "variable \"mtu\" {\n  type = number\n  validation {\n    condition     = var.mtu >= 1500 && var.mtu <= 9216\n    error_message = \"The MTU must be 1500-9216 bytes.\"\n  }\n}\nfabric \"f\" {}\n",
				"vars.txt": "mtu = 9300\n",
			},
			opts: Options{VarFiles: []string{"vars.txt"}},
			want: "vars.txt:1:7: error: Invalid value for variable: Variable \"mtu\": The MTU must be 1500-9216 bytes.\n  a.hcl:4:21: note: the validation rule\n",
		},
		{
			name:  "-var value fails a validation rule",
			files: map[string]string{"a.hcl": "variable \"pods\" {\n  default = 2\n  validation {\n    condition     = var.pods > 0\n    error_message = \"A fabric has at least one pod.\"\n  }\n}\nfabric \"f\" {}\n"},
			opts:  Options{Vars: map[string]string{"pods": "0"}},
			want:  "error: Invalid value for variable: -var pods=0: A fabric has at least one pod.\n  a.hcl:4:21: note: the validation rule\n",
		},
		{
			name:  "default fails a validation rule; the message is made visible",
			files: map[string]string{"a.hcl": "variable \"pods\" {\n  default = 0\n  validation {\n    condition     = var.pods > 0\n    error_message = \"No pods\\u001b[31m\\u2028.\"\n  }\n}\nfabric \"f\" {}\n"},
			want:  "a.hcl:2:13: error: Invalid value for variable: Variable \"pods\": No pods\\x1b[31m\\u2028.\n  a.hcl:4:21: note: the validation rule\n",
		},
		{
			name:  "validation condition that is not a boolean",
			files: map[string]string{"a.hcl": "variable \"pods\" {\n  default = 2\n  validation {\n    condition     = var.pods\n    error_message = \"x\"\n  }\n}\nfabric \"f\" {}\n"},
			want:  "a.hcl:4:21: error: Invalid validation result: The condition must be true or false, not a number.\n",
		},
		{
			name:  "validation block without an error_message",
			files: map[string]string{"a.hcl": "variable \"pods\" {\n  default = 2\n  validation {\n    condition = var.pods > 0\n  }\n}\nfabric \"f\" {}\n"},
			want:  "a.hcl:3:14: error: Missing required argument: The argument \"error_message\" is required, but no definition was found.\n",
		},
		{
			name: "var file sets an undeclared variable",
			files: map[string]string{
				"a.hcl":    "variable \"mtu\" { default = 1 }\nfabric \"f\" {}\n",
				"vars.txt": "mut = 9216\n",
			},
			opts: Options{VarFiles: []string{"vars.txt"}},
			want: "vars.txt:1:1: error: Undeclared variable: This var file sets \"mut\", which the fabric does not declare. Did you mean \"mtu\"?\n",
		},
		{
			// The element named and pointed at, not the whole map shown.
			name: "var file map with a wrong-typed element",
			files: map[string]string{
				"a.hcl":    "variable \"len\" { type = map(number) }\nfabric \"f\" {}\n",
				"vars.txt": "len = {\n  a = 3\n  \"b\" = \"3m\"\n  c = \"x\"\n}\n",
			},
			opts: Options{VarFiles: []string{"vars.txt"}},
			want: "vars.txt:3:9: error: Invalid value for variable: Variable \"len\": element \"b\": a number is required (2 elements fail: \"b\", \"c\").\n",
		},
		{
			name:  "default list with a wrong-typed element",
			files: map[string]string{"a.hcl": "variable \"mtu\" {\n  type    = list(number)\n  default = [\n    1,\n    \"x\",\n  ]\n}\nfabric \"f\" {}\n"},
			want:  "a.hcl:5:5: error: Invalid default value for variable: This default cannot be used for variable \"mtu\": element 1: a number is required.\n",
		},
		{
			// One error for the file, saying what it is.
			name: "var file in the fabric folder",
			files: map[string]string{
				"a.hcl":    "variable \"pods\" {}\nvariable \"mtu\" {}\nfabric \"f\" {}\n",
				"prod.hcl": "pods = 2\nmtu = 9000\n",
			},
			opts: Options{Vars: map[string]string{"pods": "2", "mtu": "9000"}},
			want: "prod.hcl:1:1: error: Var file read as fabric: \"prod.hcl\" sets \"pods\", \"mtu\", which the fabric declares as variables: it looks like a var file. " +
				"Every .hcl file in the fabric's folder is read as part of the fabric; give the var file another extension (\"prod.tfvars\"; --var-file reads a file of any name) or move it out of the folder.\n",
		},
		{
			// An argument that is not a variable's name stays as it was.
			name:  "top-level argument that is not a variable",
			files: map[string]string{"a.hcl": "variable \"pods\" { default = 1 }\nfabric \"f\" {}\npod = 2\n"},
			want:  "a.hcl:3:1: error: Unsupported argument: An argument named \"pod\" is not expected here.\n",
		},
		{
			// The file's own error, not "No value for required variable
			// leaves", which line 1 sets; one the file cannot set is still
			// reported once the file reads.
			name: "var file that does not parse",
			files: map[string]string{
				"a.hcl":    "variable \"leaves\" {}\nvariable \"speed\" {}\nfabric \"f\" {}\n",
				"vars.txt": "leaves = 2\nspeed = 25G\n",
			},
			opts: Options{VarFiles: []string{"vars.txt"}},
			want: "vars.txt:2:11: error: Missing newline after argument: An argument definition must end with a newline.\n",
		},
		{
			name: "duplicate variable",
			files: map[string]string{
				"a.hcl": "variable \"mtu\" { default = 1 }\nfabric \"f\" {}\n",
				"b.hcl": "variable \"mtu\" { default = 2 }\n",
			},
			want: "b.hcl:1:1: error: Duplicate variable: Variable \"mtu\" is already declared at a.hcl:1,1-15; remove or rename one.\n" +
				"  a.hcl:1:1: note: variable \"mtu\" first declared here\n",
		},
		{
			name: "locals cycle names every local",
			files: map[string]string{"a.hcl": `fabric "f" { description = local.a }
locals {
  a = local.b
  b = "${local.c}x"
  c = local.a
  d = 1
}
`},
			want: "a.hcl:3:3: error: Cycle in locals: These locals refer to each other in a circle: local.a -> local.b -> local.c -> local.a. Break the circle by computing one of them without the others.\n" +
				"  a.hcl:4:3: note: local \"b\" is part of the cycle\n" +
				"  a.hcl:5:3: note: local \"c\" is part of the cycle\n",
		},
		{
			name: "duplicate local across files",
			files: map[string]string{
				"a.hcl": "fabric \"f\" {}\nlocals {\n  x = 1\n}\n",
				"b.hcl": "locals {\n  x = 2\n}\n",
			},
			want: "b.hcl:2:3: error: Duplicate local value: Local \"x\" is already defined at a.hcl:3,3-4; each local is defined once across all files.\n" +
				"  a.hcl:3:3: note: local \"x\" first defined here\n",
		},
		{
			name: "duplicate fabric in another file",
			files: map[string]string{
				"a.hcl": "fabric \"f\" {}\n",
				"b.hcl": "\nfabric \"g\" {}\n",
			},
			want: "b.hcl:2:1: error: Duplicate fabric block: A fabric has at most one fabric block, and the first is at a.hcl:1,1-11; merge the two.\n" +
				"  a.hcl:1:1: note: first fabric block\n",
		},
		{
			name:  "missing fabric",
			files: map[string]string{"a.hcl": "qos {}\n"},
			want:  "a.hcl:1:1: error: Missing fabric block: A fabric needs exactly one fabric \"NAME\" { } block; add one.\n",
		},
		{
			name:  "two qos blocks",
			files: map[string]string{"a.hcl": "fabric \"f\" {}\nqos {}\nqos {}\n"},
			want:  "a.hcl:3:1: error: Duplicate qos block: A fabric has at most one qos block, and the first is at a.hcl:2,1-4; merge the two.\n  a.hcl:2:1: note: first qos block\n",
		},
		{
			name:  "undefined variable: no follow-on error, a suggestion",
			files: map[string]string{"a.hcl": "variable \"mtu\" { default = 9216 }\nfabric \"f\" {}\nswitch \"s\" {\n  platform = \"eos\"\n  model = \"x\"\n  port \"Ethernet1\" { mtu = var.mut }\n}\n"},
			want:  "a.hcl:6:31: error: Reference to undeclared input variable: An input variable with the name \"mut\" has not been declared. Did you mean \"mtu\"?\n",
		},
		{
			name:  "undeclared local without a close name",
			files: map[string]string{"a.hcl": "locals {\n  mtu = 9216\n}\nfabric \"f\" { description = local.zzzz }\n"},
			want:  "a.hcl:4:33: error: Reference to undeclared local value: A local value with the name \"zzzz\" has not been declared. Define it in a locals {} block: zzzz = ...\n",
		},
		{
			name:  "bad ports() spec",
			files: map[string]string{"a.hcl": "fabric \"f\" { description = join(\",\", ports(\"swp3-1\")) }\n"},
			want:  "a.hcl:1:45: error: Invalid function argument: Invalid value for \"spec\" parameter: \"swp3-1\": the range counts down (3 > 1); write the lower port first.\n",
		},
		{
			name:  "bad cidrhost",
			files: map[string]string{"a.hcl": "fabric \"f\" { description = cidrhost(\"10.0.0.0/30\", 4) }\n"},
			want:  "a.hcl:1:52: error: Invalid function argument: Invalid value for \"hostnum\" parameter: prefix 10.0.0.0/30 has 4 addresses; host number must be from -4 to 3.\n",
		},
		{
			name:  "unknown attribute suggestion",
			files: map[string]string{"a.hcl": "fabric \"f\" {\n  descripton = \"x\"\n}\n"},
			want:  "a.hcl:2:3: error: Unsupported argument: An argument named \"descripton\" is not expected here. Did you mean \"description\"?\n",
		},
		{
			// One mistake: not also "Missing required argument length"
			// at the block's brace.
			name:  "misspelt required argument",
			files: map[string]string{"a.hcl": "fabric \"f\" {}\nlink {\n  a = \"s:swp1\"\n  b = \"t:swp1\"\n  lenght = 3\n}\n"},
			want:  "a.hcl:5:3: error: Unsupported argument: An argument named \"lenght\" is not expected here. Did you mean \"length\"? The block requires \"length\", which is missing because of this.\n",
		},
		{
			// Misspelt in a dynamic block: one diagnostic for every instance.
			name: "misspelt required argument in a dynamic block",
			files: map[string]string{"a.hcl": `fabric "f" {}
dynamic "link" {
  for_each = ["swp1", "swp2"]
  content {
    a = "s:${link.value}"
    b = "t:${link.value}"
    lenght = 3
  }
}
`},
			want: "a.hcl:7:5: error: Unsupported argument: An argument named \"lenght\" is not expected here. Did you mean \"length\"? The block requires \"length\", which is missing because of this.\n" +
				"a.hcl:7:5: error: Unsupported argument: An argument named \"lenght\" is not expected here. Did you mean \"length\"? The block requires \"length\", which is missing because of this.\n",
		},
		{
			// A suggestion that is not the missing argument leaves both.
			name:  "misspelt optional argument and a missing one",
			files: map[string]string{"a.hcl": "fabric \"f\" {}\nlink {\n  a = \"s:swp1\"\n  b = \"t:swp1\"\n  cabel = \"dac\"\n}\n"},
			want: "a.hcl:2:6: error: Missing required argument: The argument \"length\" is required, but no definition was found.\n" +
				"a.hcl:5:3: error: Unsupported argument: An argument named \"cabel\" is not expected here. Did you mean \"cable\"?\n",
		},
		{
			name:  "malformed",
			files: map[string]string{"a.hcl": "fabric \"f\" {\n"},
			want:  "a.hcl:1:12: error: Unclosed configuration block: There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFabric(t, tc.files)
			opts := tc.opts
			for i, f := range opts.VarFiles {
				opts.VarFiles = append([]string(nil), opts.VarFiles...)
				opts.VarFiles[i] = filepath.Join(dir, f)
			}
			cfg, _, diags := Load(dir, opts)
			if cfg != nil {
				t.Errorf("Load returned a config despite errors")
			}
			if d := cmp.Diff(strings.Split(tc.want, "\n"), strings.Split(compact(t, dir, diags), "\n")); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}

func TestLoadPaths(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		path, want string
	}{
		{filepath.Join(empty, "nope.hcl"), "Cannot read fabric"},
		{empty, "holds no .hcl files"},
	}
	for _, tc := range tests {
		_, _, diags := Load(tc.path, Options{})
		if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", tc.path, diags, tc.want)
		}
	}
}

// TestLoadRefusesUnprintableFileNames: a fabric file whose name holds
// ESC or a line break (git carries such a name in a pull request) is
// refused, in a folder and given alone, with the name shown escaped; a
// diagnostic's place never prints a name raw.
func TestLoadRefusesUnprintableFileNames(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x\x1b[2Jy\nz.hcl")
	if err := os.WriteFile(name, []byte("bogus {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "The name of fabric file " + quote.Visible(name) + ` holds a character that is not printable (a control character such as ESC or a line break, or invalid UTF-8), which a terminal or a generated file would take as more than a name. Rename the file.`
	for _, path := range []string{dir, name} {
		_, _, diags := Load(path, Options{})
		if len(diags) != 1 || diags[0].Summary != "Invalid fabric file name" || diags[0].Detail != want {
			t.Errorf("Load(%q) = %v, want one error %q", path, diags, want)
		}
	}
	r := hcl.Range{Filename: "a\x1b]0;PWN\a.hcl", Start: hcl.Pos{Line: 2, Column: 3}}
	if got := Position(r); got != `a\x1b]0;PWN\a.hcl:2:3` {
		t.Errorf("Position = %q, want the name escaped", got)
	}
}

// BenchmarkLoad loads the largest example.
func BenchmarkLoad(b *testing.B) {
	path := filepath.Join("..", "examples", "multivendor-clos")
	for b.Loop() {
		if _, _, diags := Load(path, Options{}); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkLoadClos loads the benchmark fabric of `make bench`
// (bench/fabric) at 512 switches, 15,872 hosts: the dynamic blocks, the
// for expressions over thousands of elements and the evaluation budget,
// on every core, as a large build loads them.
func BenchmarkLoadClos(b *testing.B) {
	path := filepath.Join("..", "bench", "fabric")
	opts := Options{Vars: map[string]string{"switches": "512"}, Large: true}
	for b.Loop() {
		if _, _, diags := Load(path, opts); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// TestLoadPhases requires Load to report its two phases, in order and
// once each, for a fabric that loads, and only "parse" for one that
// does not parse (evaluation never starts).
func TestLoadPhases(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"loads", `fabric "lab" {}`, []string{"parse", "evaluate"}},
		{"syntax error", `fabric "lab" {`, []string{"parse"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFabric(t, map[string]string{"fabric.hcl": tt.src})
			var got []string
			opts := Options{Phase: func(name string, took time.Duration) {
				if took < 0 {
					t.Errorf("phase %s took %v", name, took)
				}
				got = append(got, name)
			}}
			Load(dir, opts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("phases (-want +got):\n%s", diff)
			}
		})
	}
}
