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

// interactive reports whether push may ask for approval: its standard
// input and output are both terminals (someone is there to answer, and
// sees the diff). A pipe, CI, make demo and tests get no question.
// Tests replace it.
var interactive = func(cmd *cobra.Command) bool {
	return fileTerminal(cmd.InOrStdin()) && fileTerminal(cmd.OutOrStdout())
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

// newApprover is the approver of a push (not a dry run) on a terminal
// without --yes; nil when push asks nothing.
func newApprover(cmd *cobra.Command, sf *switchFlags, action string) (*approver, error) {
	if action != push.ActionPush || sf.yes || !interactive(cmd) {
		return nil, nil
	}
	if sf.json {
		// stdout is the JSON envelope: no diff or question there.
		return nil, usageError(errors.New("push --json on a terminal asks no question: give --yes (or --auto-approve) to push without one"))
	}
	return &approver{in: cmd.InOrStdin(), out: cmd.OutOrStdout()}, nil
}
