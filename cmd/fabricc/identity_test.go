package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// swapEntries swaps the port and password file of inventory entries a
// and b in the lab's inventory: an operator's copy-paste mistake, or a
// re-addressed management network. known_hosts keys by address, so the
// host keys still match.
func swapEntries(t *testing.T, inv string, pairs ...[2]string) {
	t.Helper()
	data, err := os.ReadFile(inv)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	block := func(name string) string {
		m := regexp.MustCompile(`(?s)device "` + name + `" \{.*?\n\}`).FindString(text)
		if m == "" {
			t.Fatalf("no %s in the lab inventory", name)
		}
		return m
	}
	field := regexp.MustCompile(`(?m)^  (port|password_file) .*$`)
	for _, p := range pairs {
		a, b := block(p[0]), block(p[1])
		fa, fb := field.FindAllString(a, -1), field.FindAllString(b, -1)
		na, nb := a, b
		for i := range fa {
			na = strings.Replace(na, fa[i], fb[i], 1)
			nb = strings.Replace(nb, fb[i], fa[i], 1)
		}
		text = strings.Replace(strings.Replace(text, a, "\x00A", 1), b, "\x00B", 1)
		text = strings.Replace(strings.Replace(text, "\x00A", na, 1), "\x00B", nb, 1)
	}
	if err := os.WriteFile(inv, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestPushRefusesSwappedEntries is the reviewer's r2 #1 on every
// platform's simulator: the inventory entries of leaf1/leaf2 (Cumulus),
// leaf3/leaf4 (Onyx) and spine1/spine2 (EOS) are swapped. push refuses
// each of them as the wrong switch before anything is staged (exit 1,
// nothing changed), diff too, and verify gives one mismatch row per
// switch instead of LLDP differences; --renamed accepts a switch that
// answers by an old name.
func TestPushRefusesSwappedEntries(t *testing.T) {
	dir, secrets := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	good, _ := os.ReadFile(inv)
	swapEntries(t, inv, [2]string{"leaf1", "leaf2"}, [2]string{"leaf3", "leaf4"}, [2]string{"spine1", "spine2"})
	for _, args := range [][]string{{"push", "--yes", clos, "-i", inv}, {"diff", clos, "-i", inv}, {"verify", clos, "-i", inv}} {
		code, stdout, stderr := fabricc(t, args...)
		if os.Getenv("SHOW") != "" {
			t.Log(stdout, stderr)
		}
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s\n%s", args[0], code, stdout, stderr)
		}
		for _, w := range []string{
			`leaf1   cumulus   failed`,
			`wrong switch: 127.0.0.1:`,
			`answers as "leaf2" (hostname), not leaf1; nothing was changed. leaf2 is another switch of the fabric: are the entries of leaf1 and leaf2 swapped?`,
			`answers as "leaf4" (show hosts), not leaf3`,
			`answers as "spine2" (show hostname), not spine1`,
			`--renamed spine1=spine2`,
		} {
			if args[0] == "verify" {
				w = strings.Replace(strings.Replace(w, "failed", "mismatch", 1), "nothing was changed", "it was not checked further", 1)
			}
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", args[0], w, stdout)
			}
		}
		if strings.Contains(stdout, "DIFF ") || strings.Contains(stdout, "=== ") {
			t.Errorf("%s: read or compared the wrong switches:\n%s", args[0], stdout)
		}
		for _, s := range secrets {
			if strings.Contains(stdout+stderr, s) {
				t.Fatalf("%s printed a password", args[0])
			}
		}
	}
	// Two switches trading names: spine1 of the fabric still calls itself
	// spine2 (with the entries swapped, spine1's entry reaches it).
	code, stdout, stderr := fabricc(t, "diff", clos, "-i", inv, "--limit", "spine1", "--renamed", "spine1=spine2", "--renamed", "spine2=spine1", "--json")
	if !json.Valid([]byte(stdout)) || code != 2 || !strings.Contains(stdout, `calls itself \"spine2\", accepted by --renamed spine1=spine2`) {
		t.Errorf("--renamed: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// An OLD that is another switch of the fabric, which keeps its name,
	// would let that switch (and its cables) pass for spine1.
	if code, _, stderr := fabricc(t, "diff", clos, "-i", inv, "--limit", "spine1", "--renamed", "spine1=spine2"); code != 1 || !strings.Contains(stderr, `--renamed spine1=spine2: "spine2" is another switch of fabric "multivendor-clos", which keeps its name`) {
		t.Errorf("--renamed to another switch's name: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := fabricc(t, "diff", clos, "-i", inv, "--renamed", "nosuch=spine2"); code != 1 || !strings.Contains(stderr, `fabric "multivendor-clos" has no switch "nosuch"`) {
		t.Errorf("--renamed of no switch: exit %d\n%s", code, stderr)
	}
	// Nothing was pushed: with the right inventory every switch still
	// has the whole change to make.
	if err := os.WriteFile(inv, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := fabricc(t, "diff", clos, "-i", inv); code != 2 || !strings.Contains(stdout, "diff: 6 devices: 6 would change") {
		t.Errorf("after the refused push: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
