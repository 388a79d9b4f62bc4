package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffOutputIsStable: two diffs of the
// same fabric against the same switches print the same stdout, byte for
// byte, so that a bot that posts it to a pull request re-posts only
// when something changed. Before, the summary's TIME column differed
// run to run.
func TestDiffOutputIsStable(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	code1, first, stderr := fabricc(t, "diff", clos, "-i", inv)
	code2, second, _ := fabricc(t, "diff", clos, "-i", inv)
	if code1 != 2 || code2 != 2 || !strings.Contains(first, "DEVICE  PLATFORM  STATUS        VERIFIED  DETAIL\n") {
		t.Fatalf("exit %d and %d, want 2 (changes pending):\n%s\n%s", code1, code2, first, stderr)
	}
	if first != second {
		t.Errorf("two diffs differ:\n%s\n---\n%s", first, second)
	}
}
