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
		Long:  "diff is `push --dry-run`: it stages the change, prints the diff and discards it.\n\n" + switchArgsHelp,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSwitches(cmd, args, &sf, push.ActionDiff)
		},
	}
	sf.register(cmd.Flags())
	return cmd
}
