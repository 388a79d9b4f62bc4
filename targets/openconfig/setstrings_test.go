package openconfig

import (
	"bytes"
	"strings"
	"testing"
)

// TestSetRequestHostileStrings renders a port whose name holds a gNMI key
// delimiter, a backslash and braces, and whose description holds a quote,
// a line break, a byte of invalid UTF-8, HTML characters, U+2028 and a
// template action, and checks the request file's exact lines for them
// (braces as \u007b and \u007d, the invalid byte as U+FFFD itself, the
// path key escaped) and that gnmic reads the same values back.
func TestSetRequestHostileStrings(t *testing.T) {
	f := testFabric()
	sw := &f.Switches[0]
	name, desc := `Eth{1}]\`, "a\"b\n\xff<&>\u2028{{.TargetName}}"
	sw.Ports[0].Name, sw.Ports[0].Description = name, desc
	sw.Ports[2].Name = `Eth{2}`
	_, set := renderSet(t, f, sw)
	for _, want := range []string{
		`      "path": "/interfaces/interface[name=Eth\u007b1\u007d\\]\\\\]",`,
		`      "path": "/interfaces/interface[name=Eth\u007b1\u007d\\]\\\\]/ethernet/switched-vlan",`,
		`      "path": "/qos/interfaces/interface[interface-id=Eth\u007b1\u007d\\]\\\\]",`,
		"          \"description\": \"a\\\"b\\n\uFFFD<&>\\u2028\\u007b\\u007b.TargetName\\u007d\\u007d\",",
		`          "name": "Eth\u007b1\u007d]\\",`,
		`    "/interfaces/interface[name=Eth\u007b2\u007d]/config/description"`,
	} {
		if !bytes.Contains(set, []byte("\n"+want+"\n")) {
			t.Errorf("set request has no line\n%s\nin:\n%s", want, set)
		}
	}
	req := readAsGnmic(t, set)
	var got []string
	for _, u := range req.Updates {
		if u.Path == `/interfaces/interface[name=Eth{1}\]\\]` {
			cfg := u.Value.(map[string]any)["openconfig-interfaces:config"].(map[string]any)
			got = append(got, cfg["description"].(string), cfg["name"].(string))
		}
	}
	if want := []string{strings.ToValidUTF8(desc, "\uFFFD"), name}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("gnmic reads description and name %q, want %q", got, want)
	}
}
