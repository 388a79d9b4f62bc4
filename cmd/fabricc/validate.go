package main

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"

	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newValidateCmd) }

// newValidateCmd is `fabricc validate PATH`.
func newValidateCmd() *cobra.Command {
	var lf loadFlags
	var df diagFlags
	cmd := &cobra.Command{
		Use:   "validate [PATH]",
		Short: "Check a fabric and report its problems",
		Long: "validate loads the fabric (a .hcl file or a folder of .hcl files; the current folder\n" +
			"when no PATH is given, as terraform validate), compiles it and\n" +
			"runs every check. It exits 0 when the fabric is clean or has only warnings, 1 when\n" +
			"there are errors and 2 when the command line is wrong.",
		Example: "  fabricc validate examples/demartek-lab\n" +
			"  fabricc validate --compact -var leaf_count=4 fabric/\n" +
			"  fabricc validate --json fabric.hcl | jq .errors\n" +
			"  fabricc validate --github fabric/    # in a GitHub Actions workflow: annotations on the lines",
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := df.format()
			if err != nil {
				return err
			}
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			return runValidate(cmd, path, &lf, format)
		},
	}
	lf.register(cmd.Flags())
	df.register(cmd.Flags(), "the result and the diagnostics")
	return cmd
}

// runValidate loads, compiles and reports.
func runValidate(cmd *cobra.Command, path string, lf *loadFlags, format diagFormat) error {
	tuneGC()
	if err := existingPath(path); err != nil {
		return err
	}
	opts, err := lf.options()
	if err != nil {
		return err
	}
	loading := loadingLine(cmd.ErrOrStderr(), "validate", format == formatJSON)
	f, files, diags, skipped := compileFabricSkipped(path, opts)
	loading.finish()
	if format == formatJSON {
		out := newOutput(cmd, "validate", true)
		out.report(files, diags)
		out.fabric(f)
		out.result = summarize(f)
		if diags.HasErrors() {
			return out.done(exitCode(1, nil))
		}
		return out.done(nil)
	}
	if err := printDiagnostics(cmd, format, files, diags); err != nil {
		return err
	}
	if diags.HasErrors() {
		fmt.Fprintln(cmd.ErrOrStderr(), errorSummary(diags, skipped))
		return exitCode(1, nil)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "ok: "+fabricSummary(f)+warningsNote(f, diags))
	timings.report(cmd.ErrOrStderr(), nil)
	return nil
}

// warningsNote is " (2 warnings, 1 accepted)" after the ok line, or "".
func warningsNote(f *model.Fabric, diags hcl.Diagnostics) string {
	var parts []string
	if len(diags) > 0 {
		parts = append(parts, plural(len(diags), "warning"))
	}
	accepted := 0
	for _, a := range f.Accepted {
		accepted += a.Count
	}
	if accepted > 0 {
		parts = append(parts, fmt.Sprintf("%d accepted", accepted))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
