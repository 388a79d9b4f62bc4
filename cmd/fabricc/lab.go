package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

func init() { commands = append(commands, newLabCmd) }

func newLabCmd() *cobra.Command {
	var lf loadFlags
	var dir string
	var runPush bool
	cmd := &cobra.Command{
		Use:   "lab PATH",
		Short: "Start a simulated switch for every switch of a fabric, on 127.0.0.1",
		Long: "lab starts an SSH simulator (Onyx, EOS or Cumulus NVUE, as the fabric says) for every\n" +
			"switch, writes DIR/inventory.hcl, DIR/known_hosts and one 0600 secret file per switch\n" +
			"(random passwords, never printed), prints where they are and serves until interrupted.\n" +
			"With --run-push it instead runs the whole story and stops: dry run, push, a second push\n" +
			"that must change nothing, verify, and prints the summaries.",
		Example: "  fabricc lab examples/multivendor-clos --dir lab\n" +
			"  fabricc push examples/multivendor-clos -i lab/inventory.hcl\n" +
			"  fabricc lab examples/multivendor-clos --run-push",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLab(cmd, args[0], dir, runPush, &lf)
		},
	}
	lf.register(cmd.Flags())
	cmd.Flags().StringVar(&dir, "dir", "", "folder for the inventory, known_hosts and secrets (default: a new temporary folder)")
	cmd.Flags().BoolVar(&runPush, "run-push", false, "push, re-push, verify against the lab, print the summaries and stop")
	return cmd
}

func runLab(cmd *cobra.Command, path, dir string, runPush bool, lf *loadFlags) error {
	f, set, err := buildInMemory(cmd, path, lf)
	if err != nil {
		return err
	}
	if len(f.Switches) == 0 {
		return fmt.Errorf("fabric %q has no switches; there is nothing to simulate", f.Name)
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fabricc-lab-"); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	devs, err := startLab(ctx, f, dir)
	defer func() {
		for _, d := range devs {
			_ = d.Close()
		}
	}()
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	for i, sw := range f.Switches {
		fmt.Fprintf(out, "%-10s %-8s ssh admin@%s\n", sw.Name, sw.Platform, devs[i].Addr())
	}
	inv := filepath.Join(dir, "inventory.hcl")
	fmt.Fprintf(out, "inventory: %s (known_hosts and 0600 secrets next to it)\n", inv)
	if runPush {
		return labStory(ctx, cmd, push.FromSet(f, set), inv)
	}
	fmt.Fprintf(out, "try: fabricc push %s -i %s\nserving; press Ctrl-C to stop\n", path, inv)
	<-ctx.Done()
	return nil
}

// startLab starts one simulator per switch and writes the inventory, the
// known_hosts file and the secrets.
func startLab(ctx context.Context, f *model.Fabric, dir string) ([]*sim.Device, error) {
	if err := os.MkdirAll(filepath.Join(dir, "secrets"), 0o700); err != nil {
		return nil, err
	}
	var devs []*sim.Device
	var inv, kh strings.Builder
	inv.WriteString("# Written by `fabricc lab`: simulated switches on 127.0.0.1.\n" +
		"known_hosts = \"known_hosts\"\n\ndefaults {\n  username        = \"admin\"\n  command_timeout = \"30s\"\n}\n")
	for _, sw := range f.Switches {
		pw, err := randomPassword()
		if err != nil {
			return devs, err
		}
		opts := sim.SwitchOptions(&sw)
		opts.Users = map[string]string{"admin": pw}
		d, err := sim.Start(ctx, opts)
		if err != nil {
			return devs, fmt.Errorf("switch %s: %w", sw.Name, err)
		}
		devs = append(devs, d)
		secret := filepath.Join("secrets", sw.Name)
		if err := os.WriteFile(filepath.Join(dir, secret), []byte(pw+"\n"), 0o600); err != nil {
			return devs, err
		}
		host, port, _ := strings.Cut(d.Addr(), ":")
		fmt.Fprintf(&inv, "\ndevice %q {\n  address       = %q\n  port          = %s\n  platform      = %q\n  password_file = %q\n  groups        = [%q]\n}\n",
			sw.Name, host, port, sw.Platform, secret, string(sw.Platform))
		kh.WriteString(knownhosts.Line([]string{knownhosts.Normalize(d.Addr())}, d.HostKey()) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "known_hosts"), []byte(kh.String()), 0o600); err != nil {
		return devs, err
	}
	return devs, os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv.String()), 0o600)
}

func randomPassword() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// labStory runs dry run, push, second push and verify against the lab.
func labStory(ctx context.Context, cmd *cobra.Command, b *push.Build, invPath string) error {
	inv, err := loadInventory(cmd, invPath)
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
		rep := push.Run(ctx, push.Options{Action: action, Fabric: b.Fabric, ID: txnID(), Targets: targets, Dial: push.SSHDialer(hk)})
		if action == push.ActionDiff {
			for _, d := range rep.Devices {
				fmt.Fprintf(out, "%s: %d changed lines\n", d.Device, strings.Count(d.Diff, "\n"))
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
