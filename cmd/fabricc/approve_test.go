package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestPushAsksOnATerminal: on a terminal (the terminal check replaced)
// push stages, prints the diffs and asks; only "yes" applies, anything
// else changes nothing and exits 1. --yes, --auto-approve and --dry-run
// ask nothing; a push whose standard input is not a terminal, without
// --yes, is refused before it connects to any switch (with --json too);
// --json on a terminal needs --yes; a push with nothing to change asks
// nothing.
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
		{true, "yes\n", []string{"--json"}, 1, nil, []string{"Enter a value"}, "fabricc: push --json on a terminal asks no question: give --yes (or --auto-approve) to push without one; nothing was changed\n"},
		{true, "yes\n", []string{"--dry-run"}, 2, []string{"diff: 6 devices: 6 would change\n"}, []string{"Enter a value"}, ""},
		{true, "", []string{"--auto-approve", "--limit", "spine*"}, 0, []string{"push: 2 of 6 switches: 2 changed\n"}, []string{"Enter a value"}, ""},
		{false, "yes\n", []string{"--limit", "leaf1"}, 1, nil, []string{"Enter a value", "push:"}, "fabricc: " + errNeedsApproval.Error() + "\n"},
		{false, "", []string{"--limit", "leaf1", "--json"}, 1, nil, []string{"Enter a value", "\"devices\""}, "fabricc: " + errNeedsApproval.Error() + "\n"},
		{false, "", []string{"--limit", "leaf1", "--yes"}, 0, []string{"push: 1 of 6 switches: 1 changed\n"}, []string{"Enter a value"}, ""},
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

// TestPushRefusedWithoutATerminal: without a terminal on standard input
// and without --yes, push refuses before it connects to any switch (no
// progress line, no summary), exit 1, however the switches would have
// answered: the inventory's switches are not even listening.
func TestPushRefusedWithoutATerminal(t *testing.T) {
	was := interactive
	t.Cleanup(func() { interactive = was })
	interactive = func(*cobra.Command) bool { return false }
	dir := t.TempDir()
	inv := filepath.Join(dir, "inv.hcl")
	writeFile(t, inv, "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n")
	var out, errb bytes.Buffer
	code := runWithInput([]string{"push", clos, "-i", inv, "--limit", "leaf1", "--partial"}, strings.NewReader(""), &out, &errb)
	want := "fabricc: push needs approval: run it on a terminal to be asked, or give --yes (--auto-approve) to push without a question; nothing was changed\n"
	if code != 1 || out.String() != "" || !strings.HasSuffix(errb.String(), want) || strings.Contains(errb.String(), "[leaf1]") {
		t.Errorf("push without a terminal: exit %d, want 1\nstdout:\n%s\nstderr:\n%s\nwant stderr ending %q and no progress", code, out.String(), errb.String(), want)
	}
}

// TestPushAsksOnStderrBesideAPipe: standard input a terminal, standard
// output a pipe (push ... | tee push.log) and standard error the
// terminal: the diffs and the question go to standard error, where the
// person sees them, and the answer is read; standard output, the log,
// still gets the diffs with the summary.
func TestPushAsksOnStderrBesideAPipe(t *testing.T) {
	dir, _ := labFor(t)
	inv := dir + "/inventory.hcl"
	wasI, wasS := interactive, askOnStderr
	t.Cleanup(func() { interactive, askOnStderr = wasI, wasS })
	interactive = func(*cobra.Command) bool { return true }
	askOnStderr = func(*cobra.Command) bool { return true }
	const question = "Apply these changes to 1 switch? Only 'yes' is accepted.\n  Enter a value: \n"
	var out, errb bytes.Buffer
	code := runWithInput([]string{"push", clos, "-i", inv, "--limit", "leaf1"}, strings.NewReader("no\n"), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "=== leaf1 (cumulus)\n") || !strings.Contains(errb.String(), question) ||
		strings.Contains(out.String(), "Enter a value") || !strings.HasSuffix(errb.String(), "fabricc: "+errNotApproved.Error()+"\n") {
		t.Errorf("answering no beside a pipe: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	code = runWithInput([]string{"push", clos, "-i", inv, "--limit", "leaf1"}, strings.NewReader("yes\n"), &out, &errb)
	if code != 0 || !strings.Contains(errb.String(), question) || !strings.Contains(out.String(), "=== leaf1 (cumulus)\n") ||
		!strings.Contains(out.String(), "push: 1 of 6 switches: 1 changed\n") {
		t.Errorf("answering yes beside a pipe: exit %d, want 0 and the diff on stdout too\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
}

// TestCanAsk pins who push may ask: someone at the standard input's
// terminal who sees the question on standard output or standard error.
// push >log 2>&1 from a terminal would otherwise wait for an answer to a
// question written into the log.
func TestCanAsk(t *testing.T) {
	for _, c := range []struct {
		in, out, errOut, want bool
		what                  string
	}{
		{true, true, true, true, "a terminal"},
		{true, false, true, true, "push | tee log: asked on standard error"},
		{true, true, false, true, "push 2>err.log: asked on standard output"},
		{true, false, false, false, "push >log 2>&1: the question would go into the log"},
		{false, true, true, false, "push </dev/null: nobody to answer"},
		{false, false, false, false, "CI"},
	} {
		if got := canAsk(c.in, c.out, c.errOut); got != c.want {
			t.Errorf("%s: canAsk(%v, %v, %v) = %v, want %v", c.what, c.in, c.out, c.errOut, got, c.want)
		}
	}
}
