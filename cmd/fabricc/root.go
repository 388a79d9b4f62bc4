// Command fabricc compiles an HCL description of a lossless RoCE fabric
// into switch configurations and host scripts, checks it, and pushes it.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commands builds the subcommands. Each subcommand file appends its
// constructor in init(), so adding a command touches no shared file:
//
//	func init() { commands = append(commands, newPushCmd) }
//
// Commands write with cmd.OutOrStdout() / cmd.ErrOrStderr() and report a
// failure by returning an error; wrap it with exitCode to choose the exit
// status (1 by default) and with usageError for bad command lines (2).
var commands []func() *cobra.Command

// exitError carries the exit status a command failed with. A nil Err
// means the command already printed everything it had to say.
type exitError struct {
	Code int
	Err  error
}

// Error returns the wrapped error's message, or the bare exit status.
func (e *exitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error, for errors.Is and errors.As.
func (e *exitError) Unwrap() error { return e.Err }

// exitCode returns an error that makes fabricc exit with code; err may
// be nil when the reason was already printed.
func exitCode(code int, err error) error { return &exitError{Code: code, Err: err} }

// usageError marks err as a wrong command line (exit status 2).
func usageError(err error) error { return &exitError{Code: 2, Err: err} }

// usageExitAnnotation marks a command whose exit status 2 means
// something else than a wrong command line (diff: changes pending); a
// wrong command line then exits 1.
const usageExitAnnotation = "fabricc/usage-exit-1"

// usageExitFlagAnnotation names a boolean flag that, when given, makes
// exit status 2 mean something else for its command (build --check: DIR
// differs); a wrong command line then exits 1. A flag that comes after
// the mistake on the command line is not read, and 2 stays.
const usageExitFlagAnnotation = "fabricc/usage-exit-1-with"

// usageExitIs1 reports whether a wrong command line of cmd exits 1.
func usageExitIs1(cmd *cobra.Command) bool {
	if cmd.Annotations[usageExitAnnotation] != "" {
		return true
	}
	name := cmd.Annotations[usageExitFlagAnnotation]
	if name == "" {
		return false
	}
	f := cmd.Flags().Lookup(name)
	return f != nil && f.Changed && f.Value.String() == "true"
}

// newRoot builds the command tree.
func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "fabricc COMMAND [ARGUMENTS]",
		Short: "Compile an HCL description of a lossless RoCE fabric into switch and host configuration",
		Long: "fabricc reads one HCL description of a lossless RoCE fabric (switches, ports, hosts,\n" +
			"NICs, cables, VLANs, traffic classes), checks it end to end, and renders switch\n" +
			"configurations (Onyx, Arista EOS, Cumulus NVUE), host scripts (Linux, Windows,\n" +
			"FreeBSD) and OpenConfig JSON from one checked model.",
		Example: "  fabricc validate examples/demartek-lab\n" +
			"  fabricc build examples/multivendor-clos -o out\n" +
			"  fabricc fmt --check examples/multivendor-clos",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       "-", // makes --version; the template prints versionLine
		RunE:          noCommand,
	}
	root.SetVersionTemplate(versionLine() + "\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })
	for _, c := range commands {
		root.AddCommand(c())
	}
	plainHelp(root)
	completeFlagValues(root)
	return root
}

// noCommand is fabricc without a command: the help on stderr and exit
// status 2, a wrong command line, so that a script or wrapper that lost
// its command fails instead of passing (Terraform exits 127 there).
func noCommand(cmd *cobra.Command, _ []string) error {
	cmd.SetOut(cmd.ErrOrStderr())
	_ = cmd.Help()
	return usageError(errors.New("no COMMAND given: name one of the commands above"))
}

// run executes fabricc with args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runWithInput(args, os.Stdin, stdout, stderr)
}

// runWithInput is run with stdin as the standard input (push's
// approval answer, fmt -).
func runWithInput(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
	out := &watchedWriter{Writer: stdout}
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	root.SetArgs(singleDashLongFlags(root, args))
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	if wantsJSON(cmd) && !out.written {
		// --json promises one envelope on stdout whatever happens
		// (docs/json.md): a failure before the command made its own
		// (a path that does not exist, a wrong flag value) gets one too.
		env := newEnvelope(cmd.Name(), nil)
		env.OK, env.Error = false, err.Error()
		_ = env.write(stdout)
	}
	code := 1
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		code = ee.Code
		if ee.Err == nil {
			return code
		}
	case strings.HasPrefix(err.Error(), "unknown command"), strings.HasPrefix(err.Error(), "unknown flag"):
		code = 2
	}
	fmt.Fprintf(stderr, "fabricc: %v\n", err)
	if code == 2 {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		if usageExitIs1(cmd) {
			code = 1 // the command gives 2 another meaning
		}
	}
	return code
}

// watchedWriter records whether anything was written through it.
type watchedWriter struct {
	io.Writer
	written bool
}

// Write implements io.Writer.
func (w *watchedWriter) Write(p []byte) (int, error) {
	w.written = w.written || len(p) > 0
	return w.Writer.Write(p)
}

// wantsJSON reports whether cmd was run with --json.
func wantsJSON(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup("json")
	return f != nil && f.Changed && f.Value.String() == "true"
}

// singleDashLongFlags lets long flags be written with one dash, as
// Terraform users type them (-var, -var-file, -check, -diff): any
// "-name" or "-name=value" whose name is a long flag of some command
// becomes "--name...". Arguments after "--" are left alone.
func singleDashLongFlags(root *cobra.Command, args []string) []string {
	long := map[string]bool{}
	collectFlags(root, long)
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a[1:], "=")
			if len(name) > 1 && long[name] {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

// collectFlags adds the long flag names of c and its subcommands to long.
func collectFlags(c *cobra.Command, long map[string]bool) {
	add := func(f *pflag.Flag) { long[f.Name] = true }
	c.Flags().VisitAll(add)
	c.PersistentFlags().VisitAll(add)
	for _, sub := range c.Commands() {
		collectFlags(sub, long)
	}
}

func main() {
	stop := startProfile()
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
