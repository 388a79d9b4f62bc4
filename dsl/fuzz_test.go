package dsl

import (
	"os"
	"path/filepath"
	"testing"
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
