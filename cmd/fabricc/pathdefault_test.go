package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPathDefaultsToTheCurrentFolder: every command that takes a fabric
// PATH reads the current folder without one, as validate and fmt do
// (terraform plan from the configuration's folder).
func TestPathDefaultsToTheCurrentFolder(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	out := filepath.Join(t.TempDir(), "out")
	lab := filepath.Join(t.TempDir(), "lab")
	tutorial, err := filepath.Abs("../../examples/tutorial")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(clos)
	for _, step := range []struct {
		cd     string // "" stays
		args   []string
		code   int
		output string // in stdout, or stderr for build's summary
	}{
		{"", []string{"build", "-o", out}, 0, "wrote 89 files for 30 devices to " + out + "\n"},
		{"", []string{"plan", "--base", out}, 0, "No changes: fabric \"multivendor-clos\" means the same in both revisions.\n"},
		{"", []string{"diff", "-i", inv, "--limit", "leaf1"}, 2, "diff: 1 of 6 switches: 1 would change\n"},
		{"", []string{"push", "--yes", "-i", inv, "--limit", "leaf1"}, 0, "push: 1 of 6 switches: 1 changed\n"},
		{"", []string{"verify", "-i", inv, "--limit", "leaf1"}, 0, "verify: 1 of 6 switches: 1 verified\n"},
		{tutorial, []string{"lab", "--dir", lab, "--run-push"}, 0, "verify: 1 device: 1 verified\n"},
	} {
		if step.cd != "" {
			t.Chdir(step.cd)
		}
		code, stdout, stderr := fabricc(t, step.args...)
		if code != step.code || !strings.Contains(stdout+stderr, step.output) {
			t.Errorf("%v: exit %d, want %d and %q:\n%s\n%s", step.args, code, step.code, step.output, stdout, stderr)
		}
	}
}

// TestNoCommand: fabricc alone prints its help on stderr, nothing on
// stdout, and exits 2, so that a wrapper that lost its command fails.
func TestNoCommand(t *testing.T) {
	code, stdout, stderr := fabricc(t)
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "fabricc reads one HCL description") ||
		!strings.Contains(stderr, "\nCommands:\n  build ") ||
		!strings.HasSuffix(stderr, "fabricc: no COMMAND given: name one of the commands above\nRun 'fabricc --help' for usage.\n") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if code, stdout, _ := fabricc(t, "--help"); code != 0 || !strings.Contains(stdout, "\nCommands:\n") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
}
