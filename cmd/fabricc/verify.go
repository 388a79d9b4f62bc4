package main

import (
	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/push"
)

func init() { commands = append(commands, newVerifyCmd) }

func newVerifyCmd() *cobra.Command {
	var sf switchFlags
	cmd := &cobra.Command{
		Use:   "verify [PATH] -i INVENTORY",
		Short: "Read each switch back and compare it with the model",
		Long: "verify reads every switch's configuration back, turns it into model terms (PFC\n" +
			"priorities, trust, ETS, ECN thresholds, VLANs, MTU) and lists every difference as\n" +
			"device, port, field, intended, actual. Exit status 1 when any device differs, failed\n" +
			"or has a change pending (a commit timer, an unconfirmed revision or unsaved changes\n" +
			"of a push, or a push's device lock); 2 when the command line is wrong.\n\n" + switchArgsHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSwitches(cmd, args, &sf, push.ActionVerify)
		},
	}
	sf.register(cmd.Flags())
	return cmd
}
