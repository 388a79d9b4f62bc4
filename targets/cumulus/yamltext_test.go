package cumulus

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// samePatchText writes root both ways, entry by entry (writePatch) and
// through yaml.v3's encoder (encodePatch), fails on any difference, and
// reports whether the entry-by-entry way wrote it.
func samePatchText(t *testing.T, root *tree) bool {
	t.Helper()
	var fast, full bytes.Buffer
	ok := writePatch(&fast, root)
	if err := encodePatch(&full, root); err != nil {
		// yaml.v3 refuses it (text that is not UTF-8): so must the
		// entries, and yamlDoc returns yaml.v3's error.
		if ok {
			t.Errorf("yaml.v3 refuses the tree (%v), but it was written entry by entry", err)
		}
		return false
	}
	if ok {
		if diff := cmp.Diff(full.String(), fast.String()); diff != "" {
			t.Errorf("entry by entry differs from yaml.v3 (-yaml.v3 +entries):\n%s", diff)
		}
	}
	return ok
}

// TestPatchTextIsYAMLv3: the patch of the fixture's leaf, written entry
// by entry, is yaml.v3's text byte for byte; so is every tree of hostile
// keys and values below, or it goes to yaml.v3 whole. A key yaml.v3
// writes as a complex key ("? key" on a line of its own: longer than 128
// bytes, or with a line break) must go to yaml.v3.
func TestPatchTextIsYAMLv3(t *testing.T) {
	f := fixture()
	sw := &f.Switches[0]
	tg, err := newTarget(sw.OSVersion)
	if err != nil {
		t.Fatal(err)
	}
	p := &plan{sw: sw.Name}
	if err := build(p, f, sw, tg); err != nil {
		t.Fatal(err)
	}
	root, err := p.patchTree()
	if err != nil {
		t.Fatal(err)
	}
	if !samePatchText(t, root) {
		t.Errorf("the fixture's patch went to yaml.v3 whole; it has no long key")
	}
	hostile := []string{"", " ", "a: b", "a:b", "#x", "a #b", "- x", "'", `"`, `\`, "100", "-1", "0x10", "1e3",
		".inf", "true", "yes", "on", "null", "~", "<<", "=", "é", "e\u0301", "\u2028", "\t", "x\n", "\r", "{}", "[a]",
		"&a", "*a", "!tag", "%x", "@x", "`x", "key:", "? q", ": x", "x ", " x", "---", "...", "\x00", "\ufeff", "\u0085", "a\u2029b",
		strings.Repeat("k", 127), strings.Repeat("k", 128)}
	for _, s := range hostile {
		root := newTree()
		for _, it := range []struct {
			path  []string
			value any
		}{
			{[]string{"k", s}, s}, {[]string{"e", s}, nil}, {[]string{"p", s, "x"}, 1}, {[]string{"n", s}, int64(-7)},
		} {
			if err := root.insert(it.path, it.value, nil); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
		}
		// yaml.v3 writes these keys as complex keys, on two lines.
		complexKey := len(s) > 128 || strings.ContainsAny(s, "\n\r\u0085\u2028\u2029")
		if fast := samePatchText(t, root); fast == complexKey {
			t.Errorf("%q (%d bytes): written entry by entry: %v", s, len(s), fast)
		}
	}
}

// FuzzPatchTextIsYAMLv3 builds trees of any keys and values.
func FuzzPatchTextIsYAMLv3(f *testing.F) {
	f.Add("interface", "swp1", "mtu", "9216", int64(9216))
	f.Add("qos", "a: b", "#", "", int64(-1))
	f.Add("\u2028", "\"", "'", "\x00", int64(0))
	f.Fuzz(func(t *testing.T, a, b, c, value string, n int64) {
		root := newTree()
		for _, it := range []struct {
			path  []string
			value any
		}{
			{[]string{a, b, c}, value}, {[]string{a, c}, n}, {[]string{b, "x"}, nil}, {[]string{c, b, a, "y"}, value},
		} {
			if root.insert(it.path, it.value, nil) != nil {
				return // the same key as a value and an object: the renderer refuses it
			}
		}
		samePatchText(t, root)
	})
}
