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
		Short: "Read each switch back, compare it with the model, check its cabling (LLDP) and check the hosts",
		Long: "verify reads every switch's configuration back, turns it into model terms (PFC\n" +
			"priorities, trust, ETS, ECN thresholds, mode, marking probability and NVUE red, VLANs,\n" +
			"MTU) and lists every difference as device, port, field, intended, actual. It also\n" +
			"checks the cabling: each switch's LLDP\n" +
			"neighbors (EOS show lldp neighbors detail, Onyx show lldp interfaces ethernet remote,\n" +
			"NVUE nv show interface lldp-detail) against the fabric's links. A cabled port whose neighbor is\n" +
			"not the model's peer (switch and port, or host and NIC interface; a name may be the\n" +
			"FQDN) is a difference, field \"neighbor\"; a cabled port without a neighbor is not (LLDP\n" +
			"may be off, a host may run no LLDP agent) but is counted on the switch's cabling line,\n" +
			"and so are neighbors on ports the fabric does not cable. --no-cabling skips the check.\n\n" +
			"A device of the inventory named as a host of the fabric (Linux or FreeBSD) is checked\n" +
			"by its own script's read-only check mode: verify logs in over SSH as to a switch (the\n" +
			"inventory's known_hosts; the host entry's own credentials and timeouts), sends the\n" +
			"host's script on standard input and\n" +
			"runs `bash -s -- --check` (FreeBSD: `sh -s -- --check`), through `sudo -n` when the\n" +
			"inventory says sudo = true. Each DIFF line the script prints is a difference (port:\n" +
			"the interface); its skipped:, manual: and note: lines are printed below the table. A\n" +
			"script that cannot run (sudo refused, bash missing, not root) fails with its error.\n" +
			"verify changes nothing on a host, and a Windows host is refused: run its script with\n" +
			"-Check on the host. The summary names the fabric's hosts it did not check (not in the\n" +
			"inventory, left out by --limit, Windows with the -Check to run), as do a warning and\n" +
			"the report's hosts_not_checked; they do not change the exit status unless\n" +
			"--require-hosts.\n\n" +
			"Exit status, as diff's and plan's (terraform plan -detailed-exitcode): 0 when every\n" +
			"device verified; 2 when every device was read and some differ (a mismatch, cabling\n" +
			"included) or have a change pending (a commit timer, an unconfirmed revision or unsaved\n" +
			"changes of a push, or a push's device lock); 1 when any device could not be checked\n" +
			"(unreachable, login refused, a host script that cannot run), when SIGINT or SIGTERM\n" +
			"interrupted it (even after every device was read), when --require-hosts\n" +
			"finds a Linux or FreeBSD host of the fabric unchecked, or the command line is\n" +
			"wrong (so that 2 means only \"the devices differ\").\n\n" + switchArgsHelp,
		Example: "  fabricc verify examples/multivendor-clos -i inventory.hcl\n" +
			"  fabricc verify --artifacts out -i inventory.hcl --limit leaves --report verify.json\n" +
			"  fabricc verify --artifacts out -i inventory.hcl --no-cabling --json | jq '.result.devices[].differences'",
		// 2 is "the devices differ", so a wrong command line exits 1.
		Annotations: map[string]string{usageExitAnnotation: "true"},
		Args:        argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSwitches(cmd, args, &sf, push.ActionVerify)
		},
	}
	sf.register(cmd.Flags(), true)
	cmd.Flags().BoolVar(&sf.requireHosts, "require-hosts", false, "exit 1 when a Linux or FreeBSD host of the fabric was not checked (not in the inventory, or left out by --limit); without it such hosts are named in the summary and a warning, and the exit status says only what was checked")
	cmd.Flags().BoolVar(&sf.noCabling, "no-cabling", false, "do not read the switches' LLDP neighbors to check the cabling (for a fabric without LLDP)")
	return cmd
}
