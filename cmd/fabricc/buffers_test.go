package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyAfterRecabling is the tutorial reader's case: leaf1 pushed
// while node2's cable was 3 m, then the cable is changed to 30 m in the
// fabric. verify must not say "verified": the switch still holds the 3 m
// PFC profile, and the lines name its cable-length and port-buffer (the
// lossless group's buffer, 95232 B for 3 m and 102400 B for 30 m; the
// xoff-threshold where PAUSE is sent is 19456 B for both). Verified
// against the fabric it was pushed with, it passes.
func TestVerifyAfterRecabling(t *testing.T) {
	data, fab, inv := pushedTutorial(t)
	writeFile(t, filepath.Join(fab, "fabric.hcl"), recabled(t, data, 30))
	code, stdout, stderr := fabricc(t, "verify", fab, "-i", inv)
	var got []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "DIFF ") || strings.HasPrefix(l, "verify: ") {
			got = append(got, l)
		}
	}
	want := []string{
		"DIFF leaf1 swp2 PFC profile cable-length: intended 30 m, actual 3 m",
		"DIFF leaf1 swp2 PFC profile port-buffer: intended 102400 B, actual 95232 B",
		"verify: 1 device: 1 mismatch",
	}
	if code != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verify after recabling: exit %d, printed\n%s\nwant exit 2 and\n%s\nall of it:\n%s\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"), stdout, stderr)
	}
	writeFile(t, filepath.Join(fab, "fabric.hcl"), data)
	if code, stdout, stderr := fabricc(t, "verify", fab, "-i", inv); code != 0 || !strings.Contains(stdout, "verify: 1 device: 1 verified") {
		t.Errorf("verify against the fabric pushed: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestPushOverWhatAnEarlierFabricLeft: a Cumulus switch pushed with the
// tutorial's 2 m and 3 m cables holds one PFC profile per port; with
// both cables 2 m the ports share default-global, and a patch alone
// would leave swp2 on its 3 m profile (NVUE merges a patch). The push
// unsets the ports' profiles first, so it changes, verifies and is then
// up to date; trunk VLANs the fabric no longer gives are gone the same
// way (a patch only adds VLANs to a trunk).
func TestPushOverWhatAnEarlierFabricLeft(t *testing.T) {
	_, fab, inv := pushedTutorial(t)
	data, err := os.ReadFile(filepath.Join(fab, "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(fab, "fabric.hcl"), recabled(t, string(data), 2))
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"push", "--yes", fab, "-i", inv}, "push: 1 device: 1 changed"},
		{[]string{"push", "--yes", fab, "-i", inv}, "push: 1 device: 1 unchanged"},
		{[]string{"verify", fab, "-i", inv}, "verify: 1 device: 1 verified"},
	} {
		if code, stdout, stderr := fabricc(t, step.args...); code != 0 || !strings.Contains(stdout, step.want) {
			t.Errorf("%s: exit %d, want %q:\n%s\n%s", step.args[0], code, step.want, stdout, stderr)
		}
	}
}

// pushedTutorial copies examples/tutorial into a fabric folder, starts a
// lab for it and pushes it there; it returns the fabric's text, its
// folder and the lab's inventory.
func pushedTutorial(t *testing.T) (data, fab, inv string) {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile("../../examples/tutorial/fabric.hcl")
	if err != nil {
		t.Fatal(err)
	}
	fab = filepath.Join(dir, "fabric")
	writeFile(t, filepath.Join(fab, "fabric.hcl"), string(b))
	set, _, diags, _, err := buildSet(fab, dsl.Options{})
	if diags.HasErrors() || err != nil {
		t.Fatalf("build: %v %v", diags, err)
	}
	f, err := model.Unmarshal(set.Model)
	if err != nil {
		t.Fatal(err)
	}
	labDir := filepath.Join(dir, "lab")
	lab, err := sim.StartLab(context.Background(), f, labDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lab.Close)
	inv = filepath.Join(labDir, "inventory.hcl")
	if code, stdout, stderr := fabricc(t, "push", "--yes", fab, "-i", inv); code != 0 {
		t.Fatalf("push: exit %d\n%s\n%s", code, stdout, stderr)
	}
	return string(b), fab, inv
}

// recabled is the tutorial fabric with node2's 3 m cable of length m.
func recabled(t *testing.T, data string, m int) string {
	t.Helper()
	out := strings.Replace(data, "b      = \"node2:roce0\"\n  length = 3\n", fmt.Sprintf("b      = \"node2:roce0\"\n  length = %d\n", m), 1)
	if out == data {
		t.Fatal("the tutorial fabric has no 3 m cable to node2")
	}
	return out
}
