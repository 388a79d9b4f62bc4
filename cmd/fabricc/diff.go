package main

import (
	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/push"
)

func init() { commands = append(commands, newDiffCmd) }

func newDiffCmd() *cobra.Command {
	var sf switchFlags
	cmd := &cobra.Command{
		Use:   "diff [PATH] -i INVENTORY",
		Short: "Show what push would change on each switch, changing nothing",
		Long: "diff is `push --dry-run`: it stages the change, prints the diff and discards it.\n" +
			"Exit status: 0 nothing to change, 2 changes pending, 1 an error (a wrong command line\n" +
			"included, so that 2 means only \"changes pending\").\n\n" + switchArgsHelp + hostsIgnoredHelp + rolloutHelp,
		Example: "  fabricc diff examples/multivendor-clos -i inventory.hcl\n" +
			"  fabricc diff --artifacts out -i inventory.hcl --json | jq '.result.devices[].diff'",
		Annotations: map[string]string{usageExitAnnotation: "true"},
		Args:        argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSwitches(cmd, args, &sf, push.ActionDiff)
		},
	}
	sf.register(cmd.Flags(), false)
	sf.registerLock(cmd.Flags())
	sf.rollout.register(cmd.Flags(), false)
	// The push refuses a switch with unsaved changes no fabricc push
	// made unless --save-unsaved; so does its dry run.
	cmd.Flags().BoolVar(&sf.saveUnsaved, "save-unsaved", false, "answer for a push with --save-unsaved: a switch with unsaved changes that no fabricc push made is not refused (without it diff fails on it, as push would)")
	return cmd
}
