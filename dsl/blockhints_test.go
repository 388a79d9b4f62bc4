package dsl

import (
	"strings"
	"testing"
)

// TestRepeatHint: for_each or count written in a block, as on a
// Terraform resource, points at the dynamic block that repeats it (and
// a for_each or count misplaced in a dynamic block at where it goes);
// a block there is one of gets no such advice.
func TestRepeatHint(t *testing.T) {
	tests := []struct{ name, src, want string }{
		// Each source follows a one-line fabric block: lines start at 2.
		{"count on a host", "host \"gpu\" {\n  count = 2\n}\n",
			`f.hcl:3:3: error: Unsupported argument: An argument named "count" is not expected here. A host block makes one host; to make N of them, write a dynamic block: dynamic "host" { for_each = range(N), labels = [format("name%d", host.value)], content { ... } }`},
		{"for_each on a switch", "switch \"leaf\" {\n  for_each = toset([\"a\"])\n}\n",
			`f.hcl:3:3: error: Unsupported argument: An argument named "for_each" is not expected here. A switch block makes one switch; to make one per for_each element, write a dynamic block: dynamic "switch" { for_each = ..., labels = [switch.key], content { ... } }`},
		{"for_each on a link", "link {\n  for_each = [1]\n}\n",
			`f.hcl:3:3: error: Unsupported argument: An argument named "for_each" is not expected here. A link block makes one link; to make one per for_each element, write a dynamic block: dynamic "link" { for_each = ..., content { ... } }`},
		{"count on a dynamic block", "dynamic \"host\" {\n  count = 2\n  for_each = []\n  labels = []\n  content {}\n}\n",
			`f.hcl:3:3: error: Unsupported argument: An argument named "count" is not expected here. A dynamic block repeats with for_each: for_each = range(N) makes N blocks.`},
		{"for_each in content", "switch \"s\" {\n  platform = \"cumulus\"\n  model = \"SN2700\"\n  dynamic \"port\" {\n    for_each = [1]\n    labels = [\"swp1\"]\n    content {\n      for_each = 1\n    }\n  }\n}\n",
			`f.hcl:9:7: error: Unsupported argument: An argument named "for_each" is not expected here. In a dynamic block, for_each goes beside content, not inside it; a dynamic block repeats with for_each only.`},
		{"for_each in qos", "qos {\n  for_each = [1]\n}\n",
			"f.hcl:3:3: error: Unsupported argument: An argument named \"for_each\" is not expected here.\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFabric(t, map[string]string{"f.hcl": "fabric \"f\" {}\n" + tc.src})
			_, _, diags := Load(dir, Options{})
			got := compact(t, dir, diags)
			if !strings.Contains(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one holding\n%s", got, tc.want)
			}
		})
	}
}
