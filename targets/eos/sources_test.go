package eos

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commandHead is how README's source table names a configuration line:
// its first three words, stopping before the first word with a digit (a
// value), and only the keyword of a line whose rest is free text.
func commandHead(line string) string {
	f := strings.Fields(line)
	if len(f) > 0 && (f[0] == "description" || f[0] == "name") {
		return f[0]
	}
	var head []string
	for _, w := range f {
		if len(head) == 3 || strings.ContainsAny(w, "0123456789") {
			break
		}
		head = append(head, w)
	}
	return strings.Join(head, " ")
}

// TestEveryEOSLineHasASource (review reos, finding 6's list): every
// kind of line targets/eos writes, for a Tomahawk and a Jericho switch
// with the watchdog on, access, trunk and routed ports, and for the
// example fabrics (golden/), has a row in README's "EOS lines and their
// public sources", so a new line cannot ship without saying whether a
// public source shows it.
func TestEveryEOSLineHasASource(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### EOS lines and their public sources")
	if !ok {
		t.Fatal(`README has no section "EOS lines and their public sources"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var configs []string
	for _, asic := range []string{"Tomahawk", "Jericho2"} {
		f := testFabric()
		f.Switches[0].Hardware.ASIC = asic
		files, err := Render(f, &f.Switches[0])
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, string(files[0].Data))
	}
	golden, _ := filepath.Glob(filepath.Join("..", "..", "golden", "*", "*", "*.eos.cfg"))
	for _, g := range golden {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, string(b))
	}
	missing := map[string]bool{}
	for _, c := range configs {
		for _, l := range strings.Split(c, "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "!") {
				continue
			}
			if h := commandHead(l); !strings.Contains(section, "`"+h) {
				missing[h] = true
			}
		}
	}
	for h := range missing {
		t.Errorf("README's EOS source table has no row for %q", h)
	}
}
