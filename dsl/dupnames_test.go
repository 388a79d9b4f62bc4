package dsl

import (
	"strings"
	"testing"
)

// TestDynamicDuplicates: a device name that a dynamic block's labels
// give twice is reported by the loader, naming the for_each keys that
// collide (hostile keys quoted), alone: not after the unknown devices
// the compiler would find first; a collision of plain blocks is left to
// the compiler.
func TestDynamicDuplicates(t *testing.T) {
	const sw = "  content {\n    platform = \"cumulus\"\n    model    = \"SN2700\"\n  }\n}\n"
	tests := []struct{ name, src, want string }{
		{"two keys, one label",
			"locals {\n  leaves = { \"leaf-p0-r0\" = 0, \"leaf-p0-r1\" = 0, \"leaf-p1-r0\" = 1 }\n}\n" +
				"dynamic \"switch\" {\n  for_each = local.leaves\n  labels   = [format(\"leaf-p%d\", switch.value)]\n" + sw,
			`f.hcl:6:15: error: Duplicate switch: switch "leaf-p0" is declared twice: the for_each keys "leaf-p0-r0" and "leaf-p0-r1" of this dynamic block both give the label "leaf-p0".`},
		{"hosts, a hostile key",
			"dynamic \"host\" {\n  for_each = { \"a\\u202e\" = 1, \"b\" = 1 }\n  iterator = h\n  labels   = [\"gpu${h.value}\"]\n  content {\n    os = \"linux\"\n  }\n}\n",
			`f.hcl:4:15: error: Duplicate host: host "gpu1" is declared twice: the for_each keys "a\u202e" and "b" of this dynamic block both give the label "gpu1".`},
		{"a plain block first",
			"switch \"s1\" {\n  platform = \"cumulus\"\n  model    = \"SN2700\"\n}\n" +
				"dynamic \"switch\" {\n  for_each = toset([\"1\", \"2\"])\n  labels   = [\"s${switch.key}\"]\n" + sw,
			`f.hcl:7:15: error: Duplicate switch: switch "s1" is declared twice: the for_each key "1" of this dynamic block gives the label "s1", which an earlier switch block has; rename one or merge the blocks.
  f.hcl:1:8: note: switch "s1" is first declared here`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFabric(t, map[string]string{"f.hcl": tc.src, "g.hcl": "fabric \"f\" {}\n"})
			cfg, _, diags := Load(dir, Options{})
			got := compact(t, dir, diags)
			if cfg != nil || !strings.HasPrefix(got, tc.want) || strings.Count(got, "error:") != 1 {
				t.Errorf("diagnostics:\n%s\nwant one, starting with\n%s", got, tc.want)
			}
		})
	}
	// Two plain blocks: the compiler's to report, the loader passes them.
	dir := writeFabric(t, map[string]string{"f.hcl": "fabric \"f\" {}\nhost \"h\" {\n  os = \"linux\"\n}\nhost \"h\" {\n  os = \"linux\"\n}\n"})
	if cfg, _, diags := Load(dir, Options{}); cfg == nil || diags.HasErrors() {
		t.Errorf("two plain hosts of one name: %s", compact(t, dir, diags))
	}
}
