package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// FuzzLoad feeds arbitrary bytes to Load as a one-file fabric; it must
// never panic, and a nil Config must come with an error.
func FuzzLoad(f *testing.F) {
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.hcl"))
	for _, s := range examples {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("variable \"n\" {\n  type = number\n}\nlocals {\n  a = local.b\n  b = ports(\"swp1-4\")\n}\nfabric \"f\" {}\n"))
	f.Add([]byte("fabric \"f\" { description = cidrhost(\"fd00::/120\", -1) }\ndynamic \"switch\" {\n  for_each = {}\n  content {}\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.hcl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, _, diags := Load(path, Options{Vars: map[string]string{"n": "3"}})
		if cfg == nil && !diags.HasErrors() {
			t.Fatalf("nil config without an error for %q", data)
		}
		if cfg != nil && cfg.Fabric == nil {
			t.Fatalf("config without a fabric block for %q", data)
		}
	})
}

// FuzzExpandPorts checks ExpandPorts never panics and stays bounded.
func FuzzExpandPorts(f *testing.F) {
	for _, s := range []string{"swp1-32", "Ethernet1/1-1/4", "1/1-1/4", "swp1s0-3,swp2", "a-b-c", "-", "1-", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		names, err := ExpandPorts(spec)
		if err == nil && len(names) > MaxPortsPerSpec {
			t.Fatalf("ExpandPorts(%q) returned %d names", spec, len(names))
		}
	})
}

// FuzzLoadWithVariables fuzzes the variable paths of the front end: a
// fabric, a var file and a -var value, read together. Load must never
// panic, hang or return a config with errors.
func FuzzLoadWithVariables(f *testing.F) {
	f.Add([]byte("variable \"n\" {\n  type = number\n  default = 2\n}\nvariable \"s\" {}\nfabric \"f\" {\n  description = format(\"%s-%d\", var.s, var.n)\n}\n"),
		[]byte("n = 4\n"), "hello")
	f.Add([]byte("variable \"m\" {\n  type = map(string)\n}\nfabric \"f\" {\n  description = join(\",\", values(var.m))\n}\n"),
		[]byte("m = { a = \"x\" }\n"), "{b = \"y\"}")
	f.Add([]byte("variable \"l\" {}\nlocals {\n  p = [for s in var.l : ports(s)]\n}\nfabric \"f\" {}\n"), []byte(""), `["swp1-4", "swp9"]`)
	f.Fuzz(func(t *testing.T, fabric, varFile []byte, value string) {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.hcl")
		vars := filepath.Join(dir, "v.hcl")
		if err := os.WriteFile(path, fabric, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(vars, varFile, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, _, diags := Load(path, Options{VarFiles: []string{vars}, Vars: map[string]string{"s": value, "l": value, "m": value}})
		if (cfg == nil) != diags.HasErrors() {
			t.Fatalf("config %v with errors %v", cfg != nil, diags.HasErrors())
		}
	})
}

// FuzzExpression evaluates one arbitrary expression with the functions a
// fabric may call, under the same budget as Load: no function, wrapper or
// limit check may panic or run away.
func FuzzExpression(f *testing.F) {
	for _, s := range []string{
		`cidrhost("fd00::/120", -1)`, `ports("swp1-4,swp9s0-3")`, `range(1, 10, 2)`, `setproduct([1, 2], ["a"])`,
		`format("%-5s|%08.3f", "x", 3.14)`, `join(",", [for i in range(5) : tostring(i)])`, `replace("aaa", "/a/", "bb")`,
		`indent(2, "a\nb")`, `jsondecode("[1,2,{\"a\":null}]")`, `try(tonumber("x"), 0)`, `regexall("[a-z]+", "ab cd")`,
		`flatten([[1], [[2]]])`, `"${upper("x")}%{for i in [1, 2]}${i}%{endfor}"`, `chunklist(range(7), 3)`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		if diags := checkTokens([]byte(src), "e.hcl"); diags.HasErrors() {
			return
		}
		expr, diags := hclsyntax.ParseExpression([]byte(src), "e.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		work := newBudget(DefaultLimits)
		chargeExpr(expr, work)
		ctx := &hcl.EvalContext{Functions: boundedFunctions(Functions(), work)}
		_, _ = expr.Value(ctx)
	})
}

// FuzzFastDecodeSame is the differential check of the fast decoder and
// the native nodes: for any input, they must give the Config and
// diagnostics of the reference decoder (gohcl over dynblock) evaluating
// through HCL alone, or hand over to it.
func FuzzFastDecodeSame(f *testing.F) {
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.hcl"))
	for _, s := range examples {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("fabric \"f\" {}\ndynamic \"vlan\" {\n  for_each = {a = 1, b = 2}\n  labels = [vlan.key]\n  content { id = vlan.value }\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.hcl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fast, _, fd := Load(path, Options{})
		referenceDecoding, plainEvaluation = true, true
		ref, _, rd := Load(path, Options{})
		referenceDecoding, plainEvaluation = false, false
		if d := cmp.Diff(ref, fast); d != "" {
			t.Fatalf("Config differs (-reference +fast) for %q:\n%s", data, d)
		}
		if fmt.Sprint(SortDiagnostics(fd)) != fmt.Sprint(SortDiagnostics(rd)) {
			t.Fatalf("diagnostics differ for %q:\nfast %v\nreference %v", data, fd, rd)
		}
	})
}
