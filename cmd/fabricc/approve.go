package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/push"
)

// interactive reports whether push can ask for approval: its standard
// input is a terminal, someone there to answer, and its standard output
// or standard error is one too, where that person sees the question
// (push ... | tee push.log is still asked, on standard error; push ...
// >log 2>&1 is not, since the question would go into the log and push
// would wait for an answer to a question nobody sees). Without both a
// push needs --yes: as terraform apply, which without -auto-approve and
// without a terminal stops with "Error: error asking for approval: EOF"
// (Terraform CLI documentation, "Command: apply"), push fails closed
// rather than apply what nobody approved. Tests replace it.
var interactive = func(cmd *cobra.Command) bool {
	return canAsk(fileTerminal(cmd.InOrStdin()), fileTerminal(cmd.OutOrStdout()), fileTerminal(cmd.ErrOrStderr()))
}

// canAsk is interactive's rule, given which of standard input, output
// and error are terminals.
func canAsk(in, out, errOut bool) bool {
	return in && (out || errOut)
}

// askOnStderr reports whether the diffs and the question go to standard
// error: when standard output is not a terminal (a pipe to tee, a file)
// and standard error is, the person at the terminal sees them there;
// otherwise they go to standard output, as always. Tests replace it.
var askOnStderr = func(cmd *cobra.Command) bool {
	return !fileTerminal(cmd.OutOrStdout()) && fileTerminal(cmd.ErrOrStderr())
}

// fileTerminal reports whether x, a reader or writer, is a terminal;
// run's watchedWriter is looked through.
func fileTerminal(x any) bool {
	if w, ok := x.(*watchedWriter); ok {
		x = w.Writer
	}
	f, ok := x.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// errNotApproved is push's error when the operator did not answer yes:
// exit status 1, no switch changed.
var errNotApproved = errors.New("push cancelled: the changes were not approved (only 'yes' is accepted); nothing was changed")

// approver asks push's question on a terminal, as terraform apply does
// (Terraform CLI documentation, "Command: apply": "Terraform will prompt
// for approval unless -auto-approve").
type approver struct {
	in  io.Reader
	out io.Writer
	// asked: the diffs were printed with the question (finish does not
	// print them again); declined: the answer was not yes.
	asked, declined bool
	// aside: the diffs and the question went to standard error, not
	// standard output, which then still gets the diffs with the summary.
	aside bool
	// warnings are said again with the question: the rollout's hazards
	// (rollout.go).
	warnings []string
}

// approve prints every staged diff and the question, and reads one
// line: only "yes" approves; anything else, or no answer (end of
// input), does not.
func (a *approver) approve(staged []push.Staged) bool {
	for _, s := range staged {
		fmt.Fprintf(a.out, "=== %s (%s)\n", s.Device, s.Platform)
		writeDeviceText(a.out, s.Diff)
	}
	a.asked = true
	if len(a.warnings) > 0 {
		fmt.Fprintln(a.out)
	}
	for _, w := range a.warnings {
		fmt.Fprintf(a.out, "warning: %s\n", w)
	}
	fmt.Fprintf(a.out, "\nApply these changes to %s? Only 'yes' is accepted.\n  Enter a value: ", english.Count(len(staged), "switch"))
	line, _ := bufio.NewReader(a.in).ReadString('\n')
	ok := strings.TrimSpace(line) == "yes"
	a.declined = !ok
	fmt.Fprintln(a.out)
	return ok
}

// errNeedsApproval is push's refusal when nobody can be asked and
// nothing approved the push beforehand: exit status 1, before any
// switch is connected to.
var errNeedsApproval = errors.New("push needs approval: run it on a terminal to be asked, or give --yes (--auto-approve) to push without a question; nothing was changed")

// newApprover is the approver of a push (not a dry run) without --yes;
// nil when push asks nothing. A push that nobody can be asked (its
// standard input is not a terminal) is refused.
func newApprover(cmd *cobra.Command, sf *switchFlags, action string) (*approver, error) {
	if action != push.ActionPush || sf.yes {
		return nil, nil
	}
	if !interactive(cmd) {
		return nil, exitCode(1, errNeedsApproval)
	}
	if sf.json {
		// stdout is the JSON envelope: no diff or question there.
		return nil, usageError(errors.New("push --json on a terminal asks no question: give --yes (or --auto-approve) to push without one; nothing was changed"))
	}
	if askOnStderr(cmd) {
		return &approver{in: cmd.InOrStdin(), out: cmd.ErrOrStderr(), aside: true}, nil
	}
	return &approver{in: cmd.InOrStdin(), out: cmd.OutOrStdout()}, nil
}
