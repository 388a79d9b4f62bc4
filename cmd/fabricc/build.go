package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newBuildCmd) }

// newBuildCmd is `fabricc build PATH -o DIR`.
func newBuildCmd() *cobra.Command {
	var lf loadFlags
	var out string
	var compact bool
	cmd := &cobra.Command{
		Use:   "build PATH -o DIR",
		Short: "Compile a fabric and write every device's configuration into a folder",
		Long: "build loads, compiles and checks the fabric, renders every switch configuration and\n" +
			"host script, and writes them with model.json and manifest.json into DIR, one folder\n" +
			"per device. DIR is replaced only when everything succeeded; a failed build leaves it\n" +
			"exactly as it was.",
		Example: "  fabricc build examples/multivendor-clos -o out\n" +
			"  fabricc build fabric/ -o build/lab -var leaf_count=4 --var-file lab.vars.hcl",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError(fmt.Errorf("missing -o DIR: say where to write the artifacts"))
			}
			format := formatText
			if compact {
				format = formatCompact
			}
			return runBuild(cmd, args[0], out, &lf, format)
		},
	}
	lf.register(cmd.Flags())
	cmd.Flags().StringVarP(&out, "output", "o", "", "folder to write the artifacts into (replaced as a whole)")
	cmd.Flags().BoolVar(&compact, "compact", false, "print one FILE:LINE:COL line per diagnostic on stdout")
	return cmd
}

// runBuild compiles, renders and writes.
func runBuild(cmd *cobra.Command, path, out string, lf *loadFlags, format diagFormat) error {
	if err := existingPath(path); err != nil {
		return err
	}
	opts, err := lf.options()
	if err != nil {
		return err
	}
	set, files, diags, err := buildSet(path, opts)
	if perr := printDiagnostics(cmd, format, files, diags); perr != nil {
		return perr
	}
	if diags.HasErrors() {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s; nothing written\n", countSummary(diags))
		return exitCode(1, nil)
	}
	if err != nil {
		return exitCode(1, fmt.Errorf("%w; nothing written", err))
	}
	// SIGINT and SIGTERM stop the write and remove its temporary folder;
	// out keeps what it held.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := artifacts.WriteContext(ctx, out, set); err != nil {
		return exitCode(1, fmt.Errorf("%w; %s left as it was", err, out))
	}
	n := len(set.Files())
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s for %s to %s\n", plural(n, "file"), plural(len(set.Devices), "device"), out)
	return nil
}

// buildSet loads, compiles and renders the fabric at path in memory.
// The error is a renderer failure; diagnostics errors leave it nil.
func buildSet(path string, opts dsl.Options) (*artifacts.Set, map[string]*hcl.File, hcl.Diagnostics, error) {
	f, files, diags := compileFabric(path, opts)
	if diags.HasErrors() {
		return nil, files, diags, nil
	}
	set, err := artifacts.Render(f)
	return set, files, diags, err
}
