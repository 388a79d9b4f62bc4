package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestPushAsksOnATerminal: on a terminal (the terminal check replaced)
// push stages, prints the diffs and asks; only "yes" applies, anything
// else changes nothing and exits 1. --yes, --auto-approve, --dry-run and
// a push that is not on a terminal ask nothing; --json on a terminal
// needs --yes; a push with nothing to change asks nothing.
func TestPushAsksOnATerminal(t *testing.T) {
	dir, _ := labFor(t)
	inv := dir + "/inventory.hcl"
	was := interactive
	t.Cleanup(func() { interactive = was })
	const question = "Apply these changes to 6 switches? Only 'yes' is accepted.\n  Enter a value: \n"
	for _, step := range []struct {
		terminal bool
		answer   string
		args     []string
		code     int
		stdout   []string // each in stdout
		absent   []string // none in stdout
		stderr   string
	}{
		{true, "no\n", nil, 1, []string{"=== leaf3 (onyx)\n", "\n" + question, "push: 6 devices: 6 aborted\n"}, nil, "fabricc: " + errNotApproved.Error() + "\n"},
		{true, "", nil, 1, []string{question, "push: 6 devices: 6 aborted\n"}, nil, errNotApproved.Error()},
		{true, "y\n", nil, 1, []string{question, "not applied: the push was not approved"}, nil, errNotApproved.Error()},
		{true, "yes\n", []string{"--json"}, 1, nil, []string{"Enter a value"}, "fabricc: push --json on a terminal asks no question: give --yes (or --auto-approve) to push without one\n"},
		{true, "yes\n", []string{"--dry-run"}, 2, []string{"diff: 6 devices: 6 would change\n"}, []string{"Enter a value"}, ""},
		{true, "", []string{"--auto-approve", "--limit", "spine*"}, 0, []string{"push: 2 of 6 switches: 2 changed\n"}, []string{"Enter a value"}, ""},
		{false, "no\n", []string{"--limit", "leaf1"}, 0, []string{"push: 1 of 6 switches: 1 changed\n"}, []string{"Enter a value"}, ""},
		{true, "", []string{"--yes", "--limit", "leaf2"}, 0, []string{"push: 1 of 6 switches: 1 changed\n"}, []string{"Enter a value"}, ""},
		{true, "yes\n", nil, 0, []string{"=== leaf3 (onyx)\n", "Apply these changes to 2 switches? Only 'yes' is accepted.\n", "push: 6 devices: 2 changed, 4 unchanged\n"}, nil, ""},
		{true, "no\n", nil, 0, []string{"push: 6 devices: 6 unchanged\n"}, []string{"Enter a value", "==="}, ""},
	} {
		interactive = func(*cobra.Command) bool { return step.terminal }
		args := append([]string{"push", clos, "-i", inv}, step.args...)
		var out, errb bytes.Buffer
		code := runWithInput(args, strings.NewReader(step.answer), &out, &errb)
		stdout, stderr := out.String(), errb.String()
		if code != step.code {
			t.Errorf("%v answering %q: exit %d, want %d\n%s\n%s", args, step.answer, code, step.code, stdout, stderr)
		}
		for _, w := range step.stdout {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v answering %q: stdout lacks %q:\n%s", args, step.answer, w, stdout)
			}
		}
		for _, w := range step.absent {
			if strings.Contains(stdout, w) {
				t.Errorf("%v answering %q: stdout has %q:\n%s", args, step.answer, w, stdout)
			}
		}
		if !strings.Contains(stderr, step.stderr) {
			t.Errorf("%v answering %q: stderr lacks %q:\n%s", args, step.answer, step.stderr, stderr)
		}
		// The diffs are printed once: with the question, not again
		// after the push.
		if n := strings.Count(stdout, "=== leaf3 (onyx)\n"); n > 1 {
			t.Errorf("%v: leaf3's diff printed %d times", args, n)
		}
	}
}
