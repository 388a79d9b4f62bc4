package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

func init() { commands = append(commands, newLabCmd) }

func newLabCmd() *cobra.Command {
	var lf loadFlags
	var dir string
	var runPush bool
	var faults, configs []string
	cmd := &cobra.Command{
		Use:   "lab [PATH]",
		Short: "Start a simulated switch for every switch of a fabric, on 127.0.0.1",
		Long: "lab starts an SSH simulator (Onyx, EOS or Cumulus NVUE, as the fabric says) for every\n" +
			"switch of the fabric at PATH (the current folder when none is given), writes\n" +
			"DIR/inventory.hcl, DIR/known_hosts and one 0600 secret file per switch (random\n" +
			"passwords, never printed), prints where they are and serves until interrupted.\n" +
			"With --run-push it instead runs the whole story and stops: dry run, push, a second push\n" +
			"that must change nothing, verify, and prints the summaries. --fault makes a switch\n" +
			"misbehave, to see a rollback, an all-or-nothing abort or a cabling difference. --config\n" +
			"starts a switch with a running configuration (a brownfield switch's, to rehearse a\n" +
			"migration: verify then lists what differs, diff what push would replace).",
		Example: "  fabricc lab examples/multivendor-clos --dir lab\n" +
			"  fabricc push examples/multivendor-clos -i lab/inventory.hcl\n" +
			"  fabricc lab examples/multivendor-clos --run-push\n" +
			"  fabricc lab examples/multivendor-clos --run-push --fault leaf3:drift\n" +
			"  fabricc lab examples/multivendor-clos --dir lab --config leaf3=brownfield/leaf3.cfg",
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLab(cmd, pathArg(args), dir, runPush, faults, configs, &lf)
		},
	}
	lf.register(cmd.Flags())
	cmd.Flags().StringVar(&dir, "dir", "", "`DIR` for the inventory, known_hosts and secrets: new, empty or an earlier lab's, not the fabric's folder (default: a new temporary folder)")
	cmd.Flags().BoolVar(&runPush, "run-push", false, "push, re-push, verify against the lab, print the summaries and stop")
	cmd.Flags().StringArrayVar(&faults, "fault", nil, labFaultHelp)
	cmd.Flags().StringArrayVar(&configs, "config", nil, labConfigHelp)
	return cmd
}

func runLab(cmd *cobra.Command, path, dir string, runPush bool, faultSpecs, configSpecs []string, lf *loadFlags) error {
	// A folder the lab would refuse is refused before the fabric is
	// compiled; StartLab checks it again, holding its lock.
	if dir != "" {
		if err := labDirAllowed(path, dir); err != nil {
			return err
		}
	}
	b, err := buildInMemory(cmd, path, lf, nil)
	if err != nil {
		return err
	}
	f := b.Fabric
	if len(f.Switches) == 0 {
		return fmt.Errorf("fabric %q has no switches; there is nothing to simulate", f.Name)
	}
	faults, err := parseLabFaults(faultSpecs, f)
	if err != nil {
		return usageError(err)
	}
	configFaults, configGiven, err := parseLabConfigs(configSpecs, f)
	if err != nil {
		return usageError(err)
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fabricc-lab-"); err != nil {
			return err
		}
	}
	ctx, stop := interruptible(cmd, "stopping the simulators")
	defer stop()
	lab, err := sim.StartLab(ctx, f, dir, labAdjust(append(configFaults, faults...)))
	if err != nil {
		return labConfigError(err, configGiven)
	}
	defer lab.Close()
	out := cmd.OutOrStdout()
	for _, d := range lab.Devices {
		from := ""
		if d.Options.InitialName != "" {
			from = "  (started from " + quote.Visible(d.Options.InitialName) + ")"
		}
		fmt.Fprintf(out, "%-10s %-8s ssh %s@%s%s\n", d.Switch.Name, d.Switch.Platform, sim.LabUser, d.Addr(), from)
	}
	inv := lab.Inventory()
	fmt.Fprintf(out, "inventory: %s (known_hosts and 0600 secrets next to it)\n", inv)
	if runPush {
		return labStory(ctx, cmd, b, inv)
	}
	fmt.Fprintf(out, "try: fabricc push %s -i %s\nserving; press Ctrl-C to stop\n", path, inv)
	<-ctx.Done()
	return nil
}

// labDirAllowed refuses a --dir the lab must not write into: the folder
// of the fabric's .hcl files (dsl reads every .hcl file of a folder, so
// the lab's inventory.hcl would become part of the fabric), or a folder
// with anything but an earlier lab's files (sim.CheckLabDir).
func labDirAllowed(path, dir string) error {
	folder := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		folder = filepath.Dir(path)
	}
	if same(folder, dir) {
		return fmt.Errorf("--dir %s is the fabric's own folder, whose .hcl files are the fabric: the lab's inventory.hcl would be read as part of it; give --dir another folder, or leave --dir out for a new temporary one", dir)
	}
	if within(dir, folder) {
		return fmt.Errorf("--dir %s is inside the fabric's folder %s: the lab writes its passwords there (secrets/), where the fabric's repository would take them in with its next commit; give --dir a folder outside it, or leave --dir out for a new temporary one", dir, folder)
	}
	if err := sim.CheckLabDir(dir); err != nil {
		return fmt.Errorf("--dir %w", err)
	}
	return nil
}

// within reports whether dir, which need not exist yet, is below the
// existing folder parent, links resolved.
func within(dir, parent string) bool {
	p, err := filepath.EvalSymlinks(parent)
	if err != nil {
		return false
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	var rest []string
	for {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = filepath.Join(append([]string{real}, rest...)...)
			break
		}
		up := filepath.Dir(d)
		if up == d {
			return false
		}
		rest = append([]string{filepath.Base(d)}, rest...)
		d = up
	}
	if p, err = filepath.Abs(p); err != nil {
		return false
	}
	rel, err := filepath.Rel(p, d)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// same reports whether the paths a and b name one existing folder.
func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// labStory runs dry run, push, second push and verify against the lab.
func labStory(ctx context.Context, cmd *cobra.Command, b *push.Build, invPath string) error {
	inv, err := loadInventory(invPath, newOutput(cmd, "lab", false))
	if err != nil {
		return err
	}
	targets, err := b.Targets(inv.Devices)
	if err != nil {
		return err
	}
	hk, err := transport.HostKeyCallback(inv.KnownHosts, false)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	failed := false
	for _, action := range []string{push.ActionDiff, push.ActionPush, push.ActionPush, push.ActionVerify} {
		fmt.Fprintf(out, "\n## fabricc %s\n", action)
		// The summary tables tell the story; per-step progress would
		// drown them.
		rep := push.Run(ctx, push.Options{Action: action, Fabric: b.Fabric, ID: txnID(), Targets: targets, Dial: push.SSHDialer(hk),
			Cabling: action == push.ActionVerify})
		if action == push.ActionDiff {
			for _, d := range rep.Devices {
				if d.Status != push.StatusDryRun {
					// No diff was read: 0 changed lines would say it is up
					// to date.
					fmt.Fprintf(out, "%s: no diff (%s; see the summary below)\n", d.Device, d.Status)
					continue
				}
				fmt.Fprintf(out, "%s: %s\n", d.Device, plural(strings.Count(d.Diff, "\n"), "changed line"))
			}
		}
		rep.WriteSummary(out)
		failed = failed || rep.Failed()
	}
	if failed {
		return exitCode(1, errors.New("the lab story failed; see the summaries above"))
	}
	return nil
}
