package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestLabDirRefusals: lab writes inventory.hcl, known_hosts and
// secrets/ only into a new or empty folder or one an earlier lab wrote.
// In the fabric's own folder the inventory was read as part of the
// fabric, and every command on it failed; a second lab on the folder of
// a running one replaced its inventory and passwords.
func TestLabDirRefusals(t *testing.T) {
	tutorial, err := os.ReadFile("../../examples/tutorial/fabric.hcl")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	mine := filepath.Join(root, "mine")
	writeFile(t, filepath.Join(mine, "fabric.hcl"), string(tutorial))
	notes := filepath.Join(root, "notes")
	writeFile(t, filepath.Join(notes, "todo.txt"), "buy cables\n")
	own := filepath.Join(root, "own")
	writeFile(t, filepath.Join(own, "inventory.hcl"), "device \"leaf1\" {\n  address = \"10.0.0.1\"\n}\n")
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"lab", mine, "--dir", mine, "--run-push"},
			"fabricc: --dir " + mine + " is the fabric's own folder, whose .hcl files are the fabric: the lab's inventory.hcl would be read as part of it; give --dir another folder, or leave --dir out for a new temporary one\n"},
		{[]string{"lab", filepath.Join(mine, "fabric.hcl"), "--dir", mine + "/", "--run-push"},
			"fabricc: --dir " + mine + "/ is the fabric's own folder, whose .hcl files are the fabric: the lab's inventory.hcl would be read as part of it; give --dir another folder, or leave --dir out for a new temporary one\n"},
		{[]string{"lab", mine, "--dir", notes, "--run-push"},
			"fabricc: --dir " + notes + " holds files that fabricc lab did not write (todo.txt); give a new or empty folder, or one an earlier lab wrote\n"},
		// A folder below the fabric's, new or not: its passwords would
		// sit in the fabric's repository.
		{[]string{"lab", mine, "--dir", filepath.Join(mine, "lab", "x"), "--run-push"},
			"fabricc: --dir " + filepath.Join(mine, "lab", "x") + " is inside the fabric's folder " + mine + ": the lab writes its passwords there (secrets/), where the fabric's repository would take them in with its next commit; give --dir a folder outside it, or leave --dir out for a new temporary one\n"},
		// Someone's own inventory is not a lab's.
		{[]string{"lab", mine, "--dir", own, "--run-push"},
			"fabricc: --dir " + own + " holds files that fabricc lab did not write (inventory.hcl); give a new or empty folder, or one an earlier lab wrote\n"},
	} {
		code, stdout, stderr := fabricc(t, tc.args...)
		if code != 1 || stdout != "" || stderr != tc.stderr {
			t.Errorf("%q: exit %d, stdout %q\nstderr %q\nwant %q", tc.args, code, stdout, stderr, tc.stderr)
		}
	}
	for dir, want := range map[string][]string{mine: {"fabric.hcl"}, notes: {"todo.txt"}, own: {"inventory.hcl"}} {
		if got := names(t, dir); !slices.Equal(got, want) {
			t.Errorf("%s holds %v after the refusal, want %v", dir, got, want)
		}
	}
	if code, _, stderr := fabricc(t, "validate", mine); code != 0 {
		t.Errorf("the fabric no longer validates:\n%s", stderr)
	}

	// A running lab keeps its folder; once it stopped, the next lab
	// takes the folder over.
	set, _, diags, _, err := buildSet(mine, dsl.Options{})
	if diags.HasErrors() || err != nil {
		t.Fatalf("build: %v %v", diags, err)
	}
	f, err := model.Unmarshal(set.Model)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "lab")
	first, err := sim.StartLab(context.Background(), f, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	inv, _ := os.ReadFile(first.Inventory())
	secret, _ := os.ReadFile(filepath.Join(dir, "secrets", "leaf1"))
	code, _, stderr := fabricc(t, "lab", mine, "--dir", dir, "--run-push")
	want := "another fabricc lab (process " // this test's process holds it
	if code != 1 || !strings.Contains("\n"+stderr, "\nfabricc: "+want) || !strings.HasSuffix(stderr, ") serves from "+dir+": its inventory and passwords are in use; stop it (Ctrl-C) or give another folder\n") {
		t.Errorf("a second lab on a running lab's folder: exit %d, stderr %q", code, stderr)
	}
	inv2, _ := os.ReadFile(first.Inventory())
	secret2, _ := os.ReadFile(filepath.Join(dir, "secrets", "leaf1"))
	if string(inv2) != string(inv) || string(secret2) != string(secret) {
		t.Error("the refused lab rewrote the running lab's inventory or secret")
	}
	first.Close()
	if code, stdout, stderr := fabricc(t, "lab", mine, "--dir", dir, "--run-push"); code != 0 || !strings.Contains(stdout, "verify: 1 device: 1 verified") {
		t.Errorf("a lab on a stopped lab's folder: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"inventory.hcl", "known_hosts", "secrets"}) {
		t.Errorf("the lab folder holds %v after the lab stopped", got)
	}
}

// names lists the names in the folder dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
