package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/newfile"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/transport"
)

func init() { commands = append(commands, newPushCmd) }

// switchFlags are what push, diff and verify share.
type switchFlags struct {
	lf loadFlags
	// build is which build the run works from, once loadBuild read it
	// (push.Report.Build).
	build     *push.BuildInfo
	inventory string
	artifacts string
	limit     string
	parallel  int
	report    string
	insecure  bool
	json      bool
	// lockTimeout and breakLock: the device lock (push and diff).
	lockTimeout time.Duration
	breakLock   string
	// saveUnsaved: push only (--save-unsaved).
	saveUnsaved bool
	// perDevice: push only (--per-device): no all-or-nothing gate.
	perDevice bool
	// noCabling: verify only (--no-cabling): no LLDP cabling check.
	noCabling bool
	// partial: push only (--partial): push although switches of the
	// fabric are missing from the inventory.
	partial bool
	// stale: push only (--stale): push an --artifacts build although its
	// fabric changed since it was built.
	stale bool
	// fabric: --fabric PATH, the fabric an --artifacts build is checked
	// against when it is not where the build's manifest says.
	fabric string
	// warnings: what loading the input warned of (a build that could not
	// be checked against its fabric), for the report.
	warnings []string
	// renamed: --renamed NEW=OLD, a switch being renamed that may still
	// call itself OLD.
	renamed []string
	// requireHosts: verify only (--require-hosts): a Linux or FreeBSD
	// host of the fabric left unchecked fails the run.
	requireHosts bool
	// yes: push only (--yes, --auto-approve): no question on a terminal.
	yes bool
	// rollout: --base and --accept-rollout-hazard (rollout.go).
	rollout rolloutFlags
	// unlockArtifacts lets go of the --artifacts folder's shared lock
	// (readLockArtifacts); nil when none is held.
	unlockArtifacts func()
}

// registerLock adds the device lock flags (push and diff).
func (s *switchFlags) registerLock(fs *pflag.FlagSet) {
	durationVar(fs, &s.lockTimeout, "lock-timeout", 0, "wait up to `DURATION` (e.g. 5m) for another push's lock on a switch; 0 refuses at once, naming the holder")
	fs.Var(txnValue{&s.breakLock}, "break-lock", "take over the device lock of transaction `ID` (as a locked switch's row and verify print it) on any switch, for a push known to be gone; a lock of another transaction stays (a stale lock of a fabricc of this host is broken without it)")
}

// register adds the flags push, diff and verify share, each said for
// its command: hosts is true for verify, which checks the inventory's
// hosts too (push and diff leave them alone).
func (s *switchFlags) register(fs *pflag.FlagSet, hosts bool) {
	s.lf.register(fs)
	devices, input, keys := "switch", "the switch configurations", "switches"
	if hosts {
		devices, input, keys = "switch and host", "the switch configurations and the host scripts", "switches and hosts"
	}
	fs.StringVarP(&s.inventory, "inventory", "i", "", "the inventory, an HCL `FILE`: where each "+devices+" is and how to log in (required)")
	fs.StringVar(&s.artifacts, "artifacts", "", "read "+input+" from `DIR`, the output of fabricc build (instead of a fabric PATH)")
	fs.StringVar(&s.fabric, "fabric", "", "with --artifacts: check the build against the fabric at `PATH` (a .hcl file or folder) instead of where its manifest.json says the fabric is, for a build folder that moved (a CI deploy job's downloaded artifact)")
	fs.StringVar(&s.limit, "limit", "", "only these devices: a comma `LIST` of names, globs, groups or tags; a term !TERM leaves out what it matches ('!leaf2'), &TERM keeps only what it matches too ('leaves,&rack1')")
	countVar(fs, &s.parallel, "parallel", push.DefaultParallel, 1, fmt.Sprintf("a number of devices from 1, such as %d", push.DefaultParallel), "work on `N` devices at once (from 1)")
	fs.StringVar(&s.report, "report", "", "write a JSON report (diff, commands, verification, duration, error per device) to `FILE`")
	fs.BoolVar(&s.insecure, "insecure-ignore-host-key", false, "do not check the host keys of "+keys+" against known_hosts (DANGEROUS: allows a man in the middle)")
	fs.BoolVar(&s.json, "json", false, "print the report and the diagnostics as one JSON object on stdout (docs/json.md)")
	fs.StringArrayVar(&s.renamed, "renamed", nil, "`NEW=OLD`: switch NEW of the fabric is being renamed and may still call itself OLD (its hostname); without it a switch whose hostname is not its name is refused as the wrong switch (repeatable)")
}

const switchArgsHelp = "The input is either a fabric PATH, built in memory first (the current folder when\n" +
	"neither PATH nor --artifacts is given), or --artifacts DIR from `fabricc build`. The\n" +
	"inventory (-i) says where each switch is and where its secret comes from; host keys\n" +
	"are checked against its known_hosts file. Each switch's own\n" +
	"hostname is read first (EOS show hostname, Onyx show hosts, Cumulus hostname): a switch\n" +
	"that calls itself by another name than its inventory entry is refused, nothing changed\n" +
	"(--renamed NEW=OLD for a switch being renamed).\n\n" +
	"--limit LIST: comma-separated terms, each a device name, a glob (leaf*), a group or a\n" +
	"tag; !TERM leaves out the devices it matches, &TERM keeps only those it matches too\n" +
	"(as Ansible's --limit); only exclusions ('!leaf2') start from every device. Working on\n" +
	"some switches of the fabric (--limit, or push --partial) is warned of: fabric-wide\n" +
	"settings then differ on the switches left out until they are pushed too."

// hostsIgnoredHelp is what push and diff say of the inventory's hosts.
const hostsIgnoredHelp = "\n\nThe inventory's hosts are left alone: push and diff never connect to a host, and\n" +
	"applying a host's script stays the operator's job (fabricc verify checks hosts).\n" +
	"The summary says so, and names the hosts whose scripts differ from the previous\n" +
	"build's when --artifacts DIR has one kept beside it (.DIR.prev)."

func newPushCmd() *cobra.Command {
	var sf switchFlags
	var dry bool
	cmd := &cobra.Command{
		Use:   "push [PATH] -i INVENTORY",
		Short: "Apply the switch configurations over SSH, transactionally, and verify them",
		Long: "push stages each switch's rendered configuration (EOS configure session, NVUE pending\n" +
			"revision, Onyx computed change), shows the diff, applies it with an automatic rollback\n" +
			"armed (EOS commit timer, NVUE apply --confirm, Onyx inverse commands), reads the switch\n" +
			"back and compares it with the model, and only then confirms and saves. A push is all\n" +
			"or nothing across its switches: each waits, verified, until every switch has verified,\n" +
			"and one that fails makes every switch roll back to its state before the push (status\n" +
			"aborted), since a change on some hops only can stall a RoCE fabric; --per-device lets\n" +
			"each switch finish on its own. Ctrl-C and SIGTERM roll back too; a later SIGTERM\n" +
			"does not cut that short, a second Ctrl-C stops at once after writing the summary and\n" +
			"the --report file. A device lock\n" +
			"on each switch keeps two pushes apart; what an interrupted push left (a commit timer,\n" +
			"an unconfirmed revision, unsaved changes) is finished when it verifies, else rolled\n" +
			"back. A switch with unsaved changes that no fabricc push made is refused, since the\n" +
			"push's save would save them too, unless --save-unsaved. Exit status 1 when any device\n" +
			"failed or the command line is wrong; with --dry-run, as diff: 0 nothing to change, 2\n" +
			"changes pending, 1 an error (so that 2 means only \"changes pending\").\n\n" +
			"When its standard input is a terminal, push first stages every switch's change, prints\n" +
			"the diffs and asks \"Apply these changes to N switches? Only 'yes' is accepted\", as\n" +
			"terraform apply does (on standard error when standard output is a pipe or a file and\n" +
			"standard error the terminal); any other answer drops the staged changes, changes nothing\n" +
			"and exits 1. --yes (or --auto-approve) pushes without asking. Without a terminal to ask\n" +
			"on (CI, a script, </dev/null) and without --yes, push is refused before it connects to\n" +
			"any switch, nothing changed, exit 1.\n\n" + switchArgsHelp + hostsIgnoredHelp + rolloutHelp,
		Example: "  fabricc push examples/multivendor-clos -i inventory.hcl --dry-run\n" +
			"  fabricc push --artifacts out -i inventory.hcl --limit leaves --report push.json",
		// --dry-run exits 2 for changes pending, so a wrong command line
		// exits 1 (the flag may not even be parsed when the line is wrong).
		Annotations: map[string]string{usageExitAnnotation: "true"},
		Args:        argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			action := push.ActionPush
			if dry {
				action = push.ActionDiff
			}
			return runSwitches(cmd, args, &sf, action)
		},
	}
	sf.register(cmd.Flags(), false)
	sf.registerLock(cmd.Flags())
	cmd.Flags().BoolVar(&dry, "dry-run", false, "connect, read and print the diff; change nothing")
	cmd.Flags().BoolVarP(&sf.yes, "yes", "y", false, "apply without asking for approval (needed where standard input is not a terminal: CI, a script)")
	cmd.Flags().BoolVar(&sf.yes, "auto-approve", false, "the same as --yes (terraform apply's name)")
	cmd.Flags().BoolVar(&sf.perDevice, "per-device", false, "let each switch confirm its change once it verifies, whatever the other switches do (without it one failure rolls back every switch)")
	cmd.Flags().BoolVar(&sf.partial, "partial", false, "push although switches of the fabric are not in the inventory (without it such a push is refused): their fabric-wide settings then differ until they are pushed too")
	cmd.Flags().BoolVar(&sf.stale, "stale", false, "push an --artifacts build although its fabric changed since it was built, cannot be found, or does not compile to its model.json (without it such a push is refused; with it, a warning): the switches go back to that build")
	sf.rollout.register(cmd.Flags(), true)
	cmd.Flags().BoolVar(&sf.saveUnsaved, "save-unsaved", false, "push to a switch whose running configuration has unsaved changes that no fabricc push made, saving them with this change (without it such a switch is refused)")
	return cmd
}

// runSwitches loads the input and inventory, runs the engine and reports.
func runSwitches(cmd *cobra.Command, args []string, sf *switchFlags, action string) error {
	if sf.inventory == "" {
		return usageError(errors.New("missing -i INVENTORY: say where the switches are and how to log in"))
	}
	if len(args) == 1 && sf.artifacts != "" {
		return usageError(errors.New("give either a fabric PATH or --artifacts DIR, not both"))
	}
	if sf.artifacts == "" {
		args = []string{pathArg(args)}
	}
	// Paths that are not there are a wrong command line, said alike for
	// each, before anything is read.
	if err := existingFile(sf.inventory, "inventory file", "give -i the inventory's .hcl file"); err != nil {
		return err
	}
	if len(args) == 1 {
		if err := existingPath(args[0]); err != nil {
			return err
		}
	} else if err := existingFile(sf.artifacts, "--artifacts: build folder", "give the folder fabricc build -o wrote"); err != nil {
		return err
	}
	if sf.fabric != "" {
		if sf.artifacts == "" {
			return usageError(errors.New("--fabric goes with --artifacts DIR (the fabric to check that build against); a fabric PATH is built as it is"))
		}
		if err := existingFile(sf.fabric, "--fabric: fabric", "give the .hcl file or folder the build was made from"); err != nil {
			return err
		}
	}
	if err := checkRolloutFlags(sf); err != nil {
		return err
	}
	out := newOutput(cmd, cmd.Name(), sf.json)
	return out.done(switchRun(cmd, args, sf, action, out))
}

// switchRun is runSwitches after the command line is checked.
func switchRun(cmd *cobra.Command, args []string, sf *switchFlags, action string, out *output) error {
	defer func() {
		if sf.unlockArtifacts != nil {
			sf.unlockArtifacts()
		}
	}()
	// The inventory first: its mistakes are found in a moment, a
	// large fabric's compilation takes seconds.
	inv, err := loadInventory(sf.inventory, out)
	if err != nil {
		return err
	}
	b, err := loadBuild(cmd, args, sf, action, out)
	if err != nil || b == nil {
		return err
	}
	limit := sf.limit
	if action == push.ActionVerify || action == push.ActionDiff {
		limit = hostLimit(cmd.ErrOrStderr(), b.Fabric, inv, limit)
	}
	devs, err := inv.Select(limit)
	if err != nil {
		return usageError(err)
	}
	if devs, err = inFabric(cmd, b, inv, devs, limit); err != nil {
		return err
	}
	renamed, err := renamedSwitches(b, sf.renamed)
	if err != nil {
		return err
	}
	targets, err := b.Targets(devs)
	if err != nil {
		return err
	}
	var hosts []push.HostTarget
	if action == push.ActionVerify {
		if hosts, err = b.HostTargets(devs); err != nil {
			return err
		}
	} else {
		noteHostsLeftAlone(cmd, b.Hosts(devs))
		if len(targets) == 0 {
			// Select refuses a term that matches nothing, so that a typo
			// does not quietly push to fewer switches; a selection of
			// hosts alone would push to none.
			what := "the inventory lists no switch of the fabric"
			if sf.limit != "" {
				what = fmt.Sprintf("--limit %q selects no switch", sf.limit)
			}
			return usageError(fmt.Errorf("%s; %s changes switches only (fabricc verify checks hosts)", what, cmd.Name()))
		}
	}
	left := leftOut(b, inv, targets)
	var warning string
	partial := len(left) > 0 && len(targets) > 0
	if partial {
		if err := refuseUnlisted(action, sf, inv, left); err != nil {
			return err
		}
	}
	if partial && action != push.ActionPush {
		// A push says it once it knows what it changed (partialPushWarning).
		warning = warnNow(cmd, out, partialWarning(action, b, len(targets), left))
	}
	rolloutWarnings, err := checkRollout(cmd, args, sf, action, b, out)
	if err != nil {
		return err
	}
	// Nobody to ask and nothing approved: refused before any key or
	// switch is read.
	ap, err := newApprover(cmd, sf, action)
	if err != nil {
		return err
	}
	if sf.insecure {
		warnInsecure(cmd)
	}
	hk, err := transport.HostKeyCallback(inv.KnownHosts, sf.insecure)
	if err != nil {
		return err
	}
	ctx, stop, sig := listenSignals(cmd, "rolling back what is in flight")
	defer stop()
	o := push.Options{Action: action, Fabric: b.Fabric, ID: txnID(), Targets: targets,
		Dial: push.SSHDialer(hk), Parallel: sf.parallel, LockTimeout: sf.lockTimeout, BreakLock: sf.breakLock, SaveUnsaved: sf.saveUnsaved, PerDevice: sf.perDevice,
		Cabling: action == push.ActionVerify && !sf.noCabling, Hosts: hosts, RunScript: push.SSHScriptRunner(hk), Renamed: renamed, Build: sf.build}
	if ap != nil {
		o.Approve, ap.warnings = ap.approve, rolloutWarnings
	}
	live := newLiveReport(o, sf.report)
	sig.onForced(func(cause string) { writeForced(cmd, live.snapshot(cause), sf.report, out) })
	rep := runEngine(ctx, cmd, o, live)
	live.stop()
	if out.json {
		out.report(nil, interruptDiagnostic(ctx, cmd.Name()))
	}
	if partial && action == push.ActionPush {
		if diag, note := partialPushWarning(b, rep, left); diag != nil {
			warning = warnNow(cmd, out, diag)
		} else {
			fmt.Fprintf(cmd.ErrOrStderr(), "Note: %s\n", note)
		}
	}
	if partial {
		rep.FabricSwitches, rep.LeftOut = len(b.Fabric.Switches), left
	}
	if warning != "" {
		rep.Warnings = []string{warning}
	}
	rep.Warnings = append(sf.warnings, rep.Warnings...)
	rep.Warnings = append(rep.Warnings, deviceWarnings(rep, out)...)
	if o.PerDevice && action == push.ActionPush {
		warnPerDeviceMixed(cmd, rep, b, out)
	}
	noteHosts(cmd, rep, b, inv, devs, hosts, out)
	err = finish(cmd, rep, sf.report, out, ap != nil && ap.asked && !ap.aside)
	if push.InterruptOf(ctx) != nil {
		return interruptedExit(err)
	}
	if ap != nil && ap.declined {
		return exitCode(1, errNotApproved)
	}
	if action == push.ActionVerify && sf.requireHosts {
		var ee *exitError
		if rerr := requireHosts(rep); rerr != nil && (err == nil || errors.As(err, &ee) && ee.Code == 2) {
			return rerr
		}
	}
	return err
}

// loadBuild reads --artifacts or builds the fabric PATH in memory.
func loadBuild(cmd *cobra.Command, args []string, sf *switchFlags, action string, out *output) (*push.Build, error) {
	if sf.artifacts != "" {
		return loadArtifacts(cmd, sf, action, out)
	}
	b, digest, err := compileInMemory(cmd, args[0], &sf.lf, out)
	sf.build = &push.BuildInfo{Path: args[0], SourcesSHA256: digest}
	return b, err
}

// loadArtifacts checks the --artifacts folder against its fabric
// (staleBuild) and then loads it (push.LoadArtifacts). The fabric is
// compiled and dropped before the folder's model is read, so that the
// two are never held at once (each about 1.2-1.7 GB at 4,096 switches).
// A manifest.json that is not the one checked when the folder is loaded
// was written by a build that replaced the folder meanwhile.
//
// A folder given through a symbolic link (a release layout's current ->
// builds/123) is resolved once, first: every read is then of that one
// folder, even if the link is pointed elsewhere meanwhile, and the
// manifest's fabric_path is relative to it.
func loadArtifacts(cmd *cobra.Command, sf *switchFlags, action string, out *output) (*push.Build, error) {
	if st, err := os.Lstat(sf.artifacts); err == nil && st.Mode()&os.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(sf.artifacts)
		if err != nil {
			return nil, fmt.Errorf("--artifacts %s: %w", v(sf.artifacts), err)
		}
		sf.artifacts = real
	}
	if err := readLockArtifacts(cmd, sf); err != nil {
		return nil, err
	}
	m, err := artifacts.ReadManifest(sf.artifacts)
	if err == nil {
		err = sf.readBuildInfo(m)
	}
	if err != nil {
		// LoadArtifacts says what is wrong with the folder.
		_, lerr := push.LoadArtifacts(sf.artifacts)
		if lerr == nil {
			lerr = err
		}
		return nil, lerr
	}
	if err := staleBuild(cmd, *m, sf, action, out); err != nil {
		return nil, err
	}
	b, err := push.LoadArtifacts(sf.artifacts)
	if replaced(sf.artifacts, m, b) {
		// A file that does not hash as listed, then, is the other build's.
		err := fmt.Errorf("%s was replaced by another build while %s read it; run again", v(sf.artifacts), cmd.Name())
		if cmd.Name() == push.ActionPush {
			err = fmt.Errorf("%w; nothing was changed", err)
		}
		return nil, err
	}
	return b, err
}

// readBuildInfo records which build the --artifacts folder holds: its
// folder, the SHA-256 of its manifest.json (read under the folder's
// read lock, right after m; replaced tells a build that swapped the
// folder meanwhile) and the sources digest m records.
func (sf *switchFlags) readBuildInfo(m *artifacts.Manifest) error {
	raw, err := os.ReadFile(filepath.Join(sf.artifacts, artifacts.ManifestFile))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	sf.build = &push.BuildInfo{Dir: sf.artifacts, ManifestSHA256: hex.EncodeToString(sum[:]), SourcesSHA256: m.Inputs.SourcesSHA256}
	return nil
}

// readLockArtifacts takes the --artifacts folder's lock shared for the
// rest of the run (sf.unlockArtifacts lets go of it): a build into the
// folder waits until push, diff or verify is done reading it (verify
// reads a host's script when it checks the host), and they wait for a
// build that runs, saying so. When the lock cannot be taken (no file can
// be made beside a read-only folder), the folder is read without it and
// a build that replaces it meanwhile is found after the fact (replaced,
// the files' SHA-256): say so, once.
func readLockArtifacts(cmd *cobra.Command, sf *switchFlags) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	waiting := func(pid int) {
		who := "a fabricc build"
		if pid > 0 {
			who += fmt.Sprintf(" (process %d)", pid)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s is writing %s; waiting for it to finish\n", cmd.Name(), who, v(sf.artifacts))
	}
	unlock, err := artifacts.ReadLock(ctx, sf.artifacts, waiting)
	var nolock *artifacts.NoLockError
	if errors.As(err, &nolock) {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s: %s cannot keep a build from replacing it while it reads it; a build that does is found after the fact\n", v(err.Error()), cmd.Name())
		return nil
	}
	if err != nil {
		return err
	}
	sf.unlockArtifacts = unlock
	return nil
}

// replaced reports whether the build folder dir is no longer the one
// whose manifest m was read first: b (nil when loading failed) read
// another manifest, or dir holds another one now. A build swaps the
// whole folder at once (artifacts' swap), so the manifest tells builds
// apart.
func replaced(dir string, m *artifacts.Manifest, b *push.Build) bool {
	if b != nil && !maps.Equal(b.Source().Files, m.Files) {
		return true
	}
	now, err := artifacts.ReadManifest(dir)
	return err != nil || !maps.Equal(now.Files, m.Files)
}

// staleBuild checks the build folder of --artifacts against the fabric
// it was built from: --fabric, or where its manifest says. A build older
// than its fabric would take back on the switches whatever changed since
// (an older build pushed after a newer one). push refuses it, as
// Terraform refuses a stale saved plan, unless --stale; diff and verify
// say so and go on (verifying an older build is a question one may ask).
// A build whose fabric is not found (the folder moved, as a CI deploy
// job receives it) or whose manifest records no fabric path cannot be
// checked: push refuses it too unless --fabric or --stale, diff and
// verify warn.
//
// The sources digest is the folder's own claim: whoever can write the
// folder can copy it from another build. So when it matches, the fabric
// is compiled and the folder's model.json (from which push renders what
// it sends, checkRendered) must be what it compiles to (modelBound):
// push refuses a folder whose model.json is not, diff and verify warn
// (the folder deployed before a fabricc upgrade is one). --stale makes
// push's refusals warnings, this one too: it pushes the folder as it is.
func staleBuild(cmd *cobra.Command, m artifacts.Manifest, sf *switchFlags, action string, out *output) error {
	refuse := action == push.ActionPush && !sf.stale
	if m.FabricPath == "" && sf.fabric == "" {
		// Nothing says where the fabric is: an older fabricc's build, a
		// build on Windows onto another drive than its fabric's (no
		// relative path joins them), or a manifest.json edited. Left
		// unchecked, removing one line of the manifest would skip every
		// check of the folder against its fabric.
		return uncheckedBuild(cmd, sf, out, refuse, fmt.Errorf("%s records no fabric path", artifacts.ManifestFile))
	}
	fabric, varFiles, err := checkedFabric(m, sf)
	if err == nil && m.Inputs.SourcesSHA256 != "" {
		var now string
		now, err = dsl.SourceDigest(fabric, varFiles, m.Inputs.DataFiles)
		if err == nil && now != m.Inputs.SourcesSHA256 {
			msg := fmt.Sprintf("%s is older than its fabric %s: the fabric's files changed since the build (%s records their SHA-256), so pushing it would take back on the switches what changed since", v(sf.artifacts), v(fabric), artifacts.ManifestFile)
			if refuse {
				return fmt.Errorf("%s; build it again (fabricc build %s -o %s), or give --stale to push this build as it is (to go back to it on purpose)", msg, v(fabric), v(sf.artifacts))
			}
			buildWarning(cmd, sf, out, msg)
			return nil
		}
	}
	if err != nil {
		return uncheckedBuild(cmd, sf, out, refuse, err)
	}
	err = modelBound(m, sf, fabric, varFiles)
	switch {
	case err == nil:
		return nil
	case refuse:
		return fmt.Errorf("%w; or give --stale to push this folder as it is; nothing was changed", err)
	case action == push.ActionPush:
		buildWarning(cmd, sf, out, err.Error())
		return nil
	default:
		// diff and verify change nothing: comparing the switches with a
		// folder the fabric no longer compiles to (one built by the
		// fabricc before an upgrade, as deployed) is a question one may
		// ask, so they say so and go on, as for an older build.
		buildWarning(cmd, sf, out, fmt.Sprintf("%s; %s compares the switches with this folder as it is", err, cmd.Name()))
		return nil
	}
}

// modelBound compiles fabric as the build recorded (its -var, var files
// and --large) and refuses the folder unless its model.json is what that
// compiles to, byte for byte: else the folder was built from another
// fabric (its manifest's sources digest copied) or by another fabricc.
func modelBound(m artifacts.Manifest, sf *switchFlags, fabric string, varFiles []string) error {
	lf := recordedFlags(m.Inputs, sf.artifacts)
	lf.varFiles = varFiles
	opts, err := lf.options()
	if err != nil {
		return fmt.Errorf("cannot check %s against its fabric %s: %w", v(sf.artifacts), v(fabric), err)
	}
	f, _, diags := compileFabric(fabric, opts)
	if diags.HasErrors() {
		return fmt.Errorf("cannot check %s against its fabric %s: it does not compile (%s; fabricc validate %s shows them)",
			v(sf.artifacts), v(fabric), countSummary(diags), v(fabric))
	}
	h := sha256.New()
	if err := model.Encode(h, f); err != nil {
		return err
	}
	if hex.EncodeToString(h.Sum(nil)) != m.Files[artifacts.ModelFile] {
		return fmt.Errorf("%s is not what %s compiles to: the folder was built from another fabric, or by another fabricc version; build it again (fabricc build %s -o %s)",
			v(filepath.Join(sf.artifacts, artifacts.ModelFile)), v(fabric), v(fabric), v(sf.artifacts))
	}
	return nil
}

// uncheckedBuild is staleBuild's answer when the fabric, or a var file
// the build read, cannot be read: push refuses (unless --stale), diff
// and verify warn; without --fabric each says to give it.
func uncheckedBuild(cmd *cobra.Command, sf *switchFlags, out *output, refuse bool, err error) error {
	msg := fmt.Sprintf("cannot check %s against its fabric: %s", v(sf.artifacts), v(err.Error()))
	if sf.fabric != "" {
		// --fabric was given: what is missing is a file it reads.
		if refuse {
			return fmt.Errorf("%s; give --stale to push this build unchecked", msg)
		}
		buildWarning(cmd, sf, out, msg)
		return nil
	}
	if refuse {
		return fmt.Errorf("%s; give --fabric PATH, the fabric it was built from (its checkout), or --stale to push this build unchecked", msg)
	}
	buildWarning(cmd, sf, out, msg+"; give --fabric PATH, the fabric it was built from (its checkout), to check it")
	return nil
}

// checkedFabric is the fabric an --artifacts build is checked against
// and the var files the build read: --fabric when given (a var file the
// build read from inside its fabric is read from inside --fabric), else
// the manifest's fabric path, which must exist.
func checkedFabric(m artifacts.Manifest, sf *switchFlags) (string, []string, error) {
	varFiles := recordedFlags(m.Inputs, sf.artifacts).varFiles
	if sf.fabric == "" {
		p := manifestFabric(&m, sf.artifacts)
		if _, err := os.Stat(p); err != nil {
			return "", nil, fmt.Errorf("%s, where %s says it is, does not exist (the build folder moved?)", p, artifacts.ManifestFile)
		}
		return p, varFiles, nil
	}
	if m.FabricPath != "" {
		was := filepath.FromSlash(m.FabricPath)
		if !filepath.IsAbs(was) {
			was = filepath.Join(sf.artifacts, was)
		}
		for i, f := range varFiles {
			if rel, err := filepath.Rel(was, f); err == nil && filepath.IsLocal(rel) {
				varFiles[i] = filepath.Join(sf.fabric, rel)
			}
		}
	}
	return sf.fabric, varFiles, nil
}

// buildWarning says msg on stderr as "warning: ..." and, with --json,
// among the envelope's diagnostics too; the report keeps it.
func buildWarning(cmd *cobra.Command, sf *switchFlags, out *output, msg string) {
	fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", msg)
	if out.json {
		out.report(nil, hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: msg}})
	}
	sf.warnings = append(sf.warnings, msg)
}

// buildInMemory compiles the fabric at path (push of a PATH, lab) and
// renders its switches: the model and each switch's configuration, the
// files of a build that push sends. Diagnostics go to out; errors among
// them make an exit status 1.
func buildInMemory(cmd *cobra.Command, path string, lf *loadFlags, out *output) (*push.Build, error) {
	b, _, err := compileInMemory(cmd, path, lf, out)
	return b, err
}

// compileInMemory is buildInMemory that also returns the digest of the
// fabric's sources, as fabricc build records it in manifest.json
// (sources_sha256; "" when the files cannot be read again).
func compileInMemory(cmd *cobra.Command, path string, lf *loadFlags, out *output) (*push.Build, string, error) {
	opts, err := lf.options()
	if err != nil {
		return nil, "", err
	}
	if err := existingPath(path); err != nil {
		return nil, "", err
	}
	if out == nil {
		out = newOutput(cmd, cmd.Name(), false)
	}
	f, files, diags := compileFabric(path, opts)
	if !diags.HasErrors() {
		out.fabric(f)
	}
	if len(diags) > 0 {
		out.report(files, diags)
	}
	if diags.HasErrors() {
		return nil, "", exitCode(1, nil)
	}
	devs, err := artifacts.RenderSwitches(f)
	if err != nil {
		return nil, "", err
	}
	digest, _ := dsl.SourceDigest(path, opts.VarFiles, *opts.Read)
	return push.FromDevices(f, devs), digest, nil
}

// loadInventory reads the inventory file; its diagnostics go to out and
// errors among them make an exit status 1.
func loadInventory(path string, out *output) (*inventory.Inventory, error) {
	inv, files, diags := inventory.Load(path)
	if len(diags) > 0 {
		// Warnings too: an inventory problem that does not stop the push
		// should still be seen before anything touches a switch.
		out.report(files, diags)
	}
	if diags.HasErrors() {
		return nil, exitCode(1, nil)
	}
	return inv, nil
}

// inFabric keeps the selected devices that are switches or hosts of the
// fabric. A device the inventory puts in other fabrics only (its
// fabrics list, for an inventory shared by several fabrics) is left
// out, all of them named in one note, unless --limit names it exactly,
// which is an error; also when the fabric has a device of that name
// (two pods each have a spine1, and this fabric's configuration must
// not reach the other pod's). Any other device the fabric does not have is an
// error: in an inventory that does not say which fabric a device
// belongs to, a name the fabric lacks is a typo, and the switch it was
// meant for would be left out.
//
// A device of the inventory that the fabric no longer has (removed, or
// renamed) is no typo: the error says to remove the entry, whose switch
// push then leaves as it is, or to rename it, naming the fabric's
// closest device without an entry.
func inFabric(cmd *cobra.Command, b *push.Build, inv *inventory.Inventory, devs []*inventory.Device, limit string) ([]*inventory.Device, error) {
	fabric := b.Fabric.Name
	named := map[string]bool{}
	for _, term := range strings.Split(limit, ",") {
		named[strings.TrimSpace(term)] = true
	}
	var keep []*inventory.Device
	var elsewhere []string
	for _, d := range devs {
		at := dsl.Position(d.Range)
		fabrics := quotedList(d.Fabrics)
		// The fabrics list decides first: another pod's spine1 is not
		// this fabric's spine1, whose configuration must not reach it.
		switch {
		case !d.In(fabric) && named[d.Name]:
			return nil, usageError(fmt.Errorf("%s: --limit names device %q, which the inventory puts in fabrics %s, not in fabric %q; narrow --limit", at, d.Name, fabrics, fabric))
		case !d.In(fabric):
			elsewhere = append(elsewhere, d.Name)
			continue
		}
		if b.Fabric.Switch(d.Name) != nil || len(b.Hosts([]*inventory.Device{d})) > 0 {
			keep = append(keep, d)
			continue
		}
		fix := notInFabricFix(b, inv, d.Name)
		if len(d.Fabrics) > 0 {
			return nil, fmt.Errorf("%s: inventory device %q says fabrics = [%s], but fabric %q has no switch or host of that name: %s", at, d.Name, fabrics, fabric, fix)
		}
		return nil, fmt.Errorf("%s: inventory device %q is not a switch or host of fabric %q: %s; or, for an inventory that several fabrics share, list the fabrics the device belongs to (fabrics = [...])", at, d.Name, fabric, fix)
	}
	if len(elsewhere) > 0 {
		verbs := "belong to other fabrics (their fabrics lists) and are"
		if len(elsewhere) == 1 {
			verbs = "belongs to other fabrics (their fabrics lists) and is"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s of the inventory (%s) %s left out\n", plural(len(elsewhere), "device"), shortList(elsewhere), verbs)
	}
	return keep, nil
}

// quotedList is names quoted and joined: "a", "b".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// shortList is the first five names joined, then "...".
func shortList(names []string) string {
	if len(names) > 5 {
		names = append(names[:5:5], "...")
	}
	return strings.Join(names, ", ")
}

// notInFabricFix is what to do about inventory device name, which fabric
// b does not have: it left the fabric (remove the entry; push leaves
// that switch as it is), it was renamed (rename the entry, to the
// fabric's closest name without an entry when there is one), or leave it
// out of this run with --limit.
func notInFabricFix(b *push.Build, inv *inventory.Inventory, name string) string {
	var unlisted []string
	for _, sw := range b.Fabric.Switches {
		if inv.Device(sw.Name) == nil {
			unlisted = append(unlisted, sw.Name)
		}
	}
	for _, h := range b.Fabric.Hosts {
		if inv.Device(h.Name) == nil {
			unlisted = append(unlisted, h.Name)
		}
	}
	fix := "if it is no longer in the fabric, remove its entry from the inventory (push and diff leave that switch's configuration as it is)"
	if s := closestUnlisted(name, unlisted); s != "" {
		fix += fmt.Sprintf("; if it was renamed to %s (the fabric's %s has no inventory entry), rename the entry to %q", s, s, s)
	} else {
		fix += "; if it was renamed, give the entry the fabric's new name"
	}
	return fix + fmt.Sprintf("; or leave it out of this run with --limit '!%s'", name)
}

// closestUnlisted is the fabric's name without an inventory entry that
// entry name was most likely renamed to: the closest by edit distance
// (dsl.Suggest), else the one name that starts as it does or that it
// starts with (leaf2old, leaf2), else the only name without an entry;
// "" when none stands out.
func closestUnlisted(name string, unlisted []string) string {
	if s := dsl.Suggest(name, unlisted); s != "" {
		return s
	}
	var prefixed []string
	for _, u := range unlisted {
		a, b := strings.ToLower(name), strings.ToLower(u)
		if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
			prefixed = append(prefixed, u)
		}
	}
	switch {
	case len(prefixed) == 1:
		return prefixed[0]
	case len(unlisted) == 1:
		return unlisted[0]
	}
	return ""
}

// leftOut is the switches of fabric b that targets leaves out: those
// the inventory does not list for the fabric, then those --limit did
// not select, each in the fabric's order.
func leftOut(b *push.Build, inv *inventory.Inventory, targets []push.Target) []push.LeftOut {
	in := map[string]bool{}
	for _, t := range targets {
		in[t.Switch.Name] = true
	}
	var unlisted, limited []push.LeftOut
	for _, sw := range b.Fabric.Switches {
		if in[sw.Name] {
			continue
		}
		if d := inv.Device(sw.Name); d == nil || !d.In(b.Fabric.Name) {
			unlisted = append(unlisted, push.LeftOut{Switch: sw.Name, Why: push.LeftOutNotListed})
		} else {
			limited = append(limited, push.LeftOut{Switch: sw.Name, Why: push.LeftOutLimit})
		}
	}
	return append(unlisted, limited...)
}

// refuseUnlisted is the error of a push (not a dry run) that would leave
// out switches of the fabric the inventory does not list, unless
// --partial says so: a fabric-wide change (a PFC priority, ETS) would
// reach some switches only, and a stale inventory is no choice.
func refuseUnlisted(action string, sf *switchFlags, inv *inventory.Inventory, left []push.LeftOut) error {
	if action != push.ActionPush || sf.partial {
		return nil
	}
	var names []string
	for _, l := range left {
		if l.Why == push.LeftOutNotListed {
			names = append(names, l.Switch)
		}
	}
	if len(names) == 0 {
		return nil
	}
	what := "switch " + names[0] + " of the fabric is"
	if len(names) > 1 {
		what = "switches " + shortList(names) + " of the fabric are"
	}
	them := "it"
	if len(names) > 1 {
		them = "them"
	}
	return fmt.Errorf("%s not in %s: a push to the others would put the fabric-wide settings (traffic classes, PFC priorities, DSCP maps, ETS, VLANs) on some switches only; "+
		"add %s to the inventory, or push without %s with --partial; nothing was changed", what, inv.Path, them, them)
}

// partialWarning is the warning of a dry run or verify of some switches
// of the fabric only (a push's is partialPushWarning), as Terraform
// warns of -target ("Resource targeting is in
// effect"; Terraform CLI documentation, "Resource Targeting"): which
// switches are left out and why, and that the fabric-wide settings
// differ on them until they are pushed too.
func partialWarning(action string, b *push.Build, n int, left []push.LeftOut) *hcl.Diagnostic {
	parts := leftOutParts(left)
	what := map[string]string{push.ActionPush: "push", push.ActionDiff: "dry run", push.ActionVerify: "verify"}[action]
	detail := fmt.Sprintf("Left out: %s. ", strings.Join(parts, ", "))
	switch action {
	case push.ActionDiff:
		detail += "They are not read; a push of this selection alone would leave the fabric-wide settings (traffic classes, PFC priorities, DSCP maps, ETS, VLANs) different on them."
	default:
		detail += "They are not checked; the fabric-wide settings may differ on them."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning,
		Summary: fmt.Sprintf("partial %s: %d of %s of fabric %q", what, n, plural(len(b.Fabric.Switches), "switch"), b.Fabric.Name),
		Detail:  detail}
}

// warnNow reports diag (stderr, or the --json envelope, and then on
// stderr too, where the summary goes with --json) and returns it as the
// report's warnings hold it.
func warnNow(cmd *cobra.Command, out *output, diag *hcl.Diagnostic) string {
	warning := diag.Summary + ": " + diag.Detail
	out.report(nil, hcl.Diagnostics{diag})
	if out.json {
		fmt.Fprintf(cmd.ErrOrStderr(), "Warning: %s\n", warning)
	}
	return warning
}

// partialPushWarning is, after a push of some switches of the fabric,
// the warning that names the fabric-wide settings it changed on the
// switches pushed (push.DeviceResult.SwitchWide, from each one's
// read-back before and after) and the switches left out; when it
// changed none, nil and a one-line note instead. A switch pushed reads
// back as the model says, so each change brought it to the fabric's
// value, which the switches left out are meant to have: whether they
// have it was not read (a push that restores a hand-changed PFC
// priority makes the switch agree with them again; one of a new fabric
// value leaves them behind), and fabricc verify is what checks it.
func partialPushWarning(b *push.Build, rep *push.Report, left []push.LeftOut) (*hcl.Diagnostic, string) {
	// Switches that changed alike are named together, in report order.
	var changes []string
	who := map[string][]string{}
	pushed := 0
	for _, d := range rep.Devices {
		if d.Host {
			continue
		}
		pushed++
		if d.Status == push.StatusChanged && len(d.SwitchWide) > 0 {
			c := strings.Join(d.SwitchWide, ", ")
			if who[c] == nil {
				changes = append(changes, c)
			}
			who[c] = append(who[c], d.Device)
		}
	}
	var changed []string
	for _, c := range changes[:min(len(changes), 5)] {
		changed = append(changed, shortList(who[c])+": "+c)
	}
	if len(changes) > 5 {
		changed = append(changed, fmt.Sprintf("and %d more changes (the report's switch_wide_changes)", len(changes)-5))
	}
	summary := fmt.Sprintf("partial push: %d of %s of fabric %q", pushed, plural(len(b.Fabric.Switches), "switch"), b.Fabric.Name)
	if len(changed) == 0 {
		return nil, fmt.Sprintf("%s; it changed no fabric-wide setting (VLANs, DSCP map, PFC priorities, pools, ETS) on the switches it pushed; "+
			"the switches left out (%s) were not read: that they agree with it is what the model wants, and fabricc verify checks it",
			summary, strings.Join(leftOutParts(left), ", "))
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary,
		Detail: fmt.Sprintf("This push brought fabric-wide settings to the fabric's values on %s. "+
			"The switches left out (%s) are meant to have these values too, but were not read: "+
			"fabricc verify checks that they have them; until they do, a PFC priority or DSCP map that differs along a path can stall RoCE traffic.",
			strings.Join(changed, "; "), strings.Join(leftOutParts(left), ", "))}, ""
}

// deviceWarnings reports each switch's warning of what its change does
// beyond the fabric's own settings (push.DeviceResult.Warnings: a port
// brought up, a port outside the fabric losing its lossless priority)
// as a diagnostic, and returns them for the report's warnings. The
// summary's DETAIL and the diff say them too.
func deviceWarnings(rep *push.Report, out *output) []string {
	var all []string
	var diags hcl.Diagnostics
	for _, d := range rep.Devices {
		for _, w := range d.Warnings {
			summary, detail, _ := strings.Cut(w, "; ")
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail})
			all = append(all, w)
		}
	}
	if len(diags) > 0 {
		out.report(nil, diags)
	}
	return all
}

// leftOutParts lists the first 10 switches left out as "name (why)",
// then "and N more" for the rest.
func leftOutParts(left []push.LeftOut) []string {
	var parts []string
	for _, l := range left[:min(len(left), 10)] {
		parts = append(parts, l.Switch+" ("+l.Why+")")
	}
	if len(left) > 10 {
		parts = append(parts, fmt.Sprintf("and %d more", len(left)-10))
	}
	return parts
}

// warnPerDeviceMixed warns when a --per-device push changed some
// switches and left others behind (failed, locked): the fabric is mixed
// until those are pushed too, as after a partial push, and it stays so.
// The warning goes to the diagnostics (stderr, or the --json envelope)
// and the report (warnings, left_out, mixed_open).
func warnPerDeviceMixed(cmd *cobra.Command, rep *push.Report, b *push.Build, out *output) {
	behind := perDeviceBehind(rep)
	if behind == nil {
		return
	}
	var names []string
	for _, l := range behind {
		names = append(names, l.Switch)
	}
	parts := leftOutParts(behind)
	diag := &hcl.Diagnostic{Severity: hcl.DiagWarning,
		Summary: fmt.Sprintf("partial push: --per-device changed %d of %s of fabric %q", len(rep.Devices)-len(behind), plural(len(b.Fabric.Switches), "switch"), b.Fabric.Name),
		Detail: fmt.Sprintf("Not changed: %s. The fabric-wide settings this push changed (traffic classes, PFC priorities, DSCP maps, ETS, VLANs) now differ between "+
			"the switches changed and these, and go on differing until they are pushed too; a PFC priority or DSCP map that differs along a path can stall RoCE traffic. "+
			"Fix them and push them as soon as you can (--limit %s).", strings.Join(parts, ", "), quote.ShellWord(strings.Join(names, ",")))}
	out.report(nil, hcl.Diagnostics{diag})
	if out.json {
		fmt.Fprintf(cmd.ErrOrStderr(), "Warning: %s: %s\n", diag.Summary, diag.Detail)
	}
	rep.LeftOut = append(rep.LeftOut, behind...)
	rep.Warnings = append(rep.Warnings, diag.Summary+": "+diag.Detail)
	rep.MixedOpen = true
}

// perDeviceBehind is, when a per-device push changed some switch, the
// switches it did not change because they failed or were locked; nil
// when it changed none or left none behind.
func perDeviceBehind(rep *push.Report) []push.LeftOut {
	changed := false
	var behind []push.LeftOut
	for _, d := range rep.Devices {
		switch d.Status {
		case push.StatusChanged:
			changed = true
		case push.StatusFailed, push.StatusLocked:
			behind = append(behind, push.LeftOut{Switch: d.Device, Why: d.Status + push.LeftOutPerDevice})
		}
	}
	if !changed || len(behind) == 0 {
		return nil
	}
	return behind
}

// renamedSwitches reads --renamed NEW=OLD: NEW must be a switch of the
// fabric, OLD the hostname it may still answer by.
func renamedSwitches(b *push.Build, flags []string) (map[string]string, error) {
	m := map[string]string{}
	for _, f := range flags {
		newName, old, ok := strings.Cut(f, "=")
		newName, old = strings.TrimSpace(newName), strings.TrimSpace(old)
		if !ok || newName == "" || old == "" {
			return nil, usageError(fmt.Errorf("--renamed %q: write NEW=OLD, the switch's name in the fabric and the hostname it still has", quote.Visible(f)))
		}
		if b.Fabric.Switch(newName) == nil {
			return nil, usageError(fmt.Errorf("--renamed %q: fabric %q has no switch %q", quote.Visible(f), b.Fabric.Name, quote.Visible(newName)))
		}
		m[newName] = old
	}
	return m, oldNamesFree(b.Fabric, m)
}

// oldNamesFree refuses an OLD of --renamed NEW=OLD that is the name of
// another switch of the fabric that is not being renamed itself: its
// hostname and LLDP name would then be taken for NEW's, and a cable to
// it counted as a cable to NEW.
func oldNamesFree(f *model.Fabric, renamed map[string]string) error {
	for _, newName := range slices.Sorted(maps.Keys(renamed)) {
		old := renamed[newName]
		if _, moving := renamed[old]; old == newName || f.Switch(old) == nil || moving {
			continue
		}
		return usageError(fmt.Errorf("--renamed %s=%s: %q is another switch of fabric %q, which keeps its name; a rename's OLD is the hostname the switch had before, which no switch of the fabric has unless it is being renamed too (give that one its own --renamed)",
			quote.Visible(newName), quote.Visible(old), quote.Visible(old), f.Name))
	}
	return nil
}

// noteHostsLeftAlone says, for push and diff, that the selected hosts of
// the inventory are not touched: only verify connects to a host.
func noteHostsLeftAlone(cmd *cobra.Command, hosts []*inventory.Device) {
	if len(hosts) == 0 {
		return
	}
	var names []string
	for _, h := range hosts[:min(len(hosts), 5)] {
		names = append(names, h.Name)
	}
	if len(hosts) > 5 {
		names = append(names, "...")
	}
	verb := "are"
	if len(hosts) == 1 {
		verb = "is"
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "note: %s of the inventory (%s) %s left alone: %s never changes a host; fabricc verify checks them\n",
		plural(len(hosts), "host"), strings.Join(names, ", "), verb, cmd.Name())
}

// warnInsecure prints the warning every use of --insecure-ignore-host-key
// gets.
func warnInsecure(cmd *cobra.Command) {
	fmt.Fprintln(cmd.ErrOrStderr(), "WARNING: --insecure-ignore-host-key: switch (and host) keys are NOT checked.\n"+
		"WARNING: anyone between you and the devices can read the credentials and the configuration.\n"+
		"WARNING: add the keys to the inventory's known_hosts file instead.")
}

// interruptDiagnostic is the --json envelope's error for a run that an
// interruption (SIGINT, SIGTERM) stopped, none otherwise: without it the
// envelope of an interrupted push said "errors": 0 and no diagnostic,
// which a pipeline that reports the diagnostics showed as a clean run.
func interruptDiagnostic(ctx context.Context, command string) hcl.Diagnostics {
	cause := push.InterruptOf(ctx)
	if cause == nil {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: command + " " + cause.Error(),
		Detail: "each switch at work was rolled back (or, past its confirmation, finished); the result gives each device's status and error"}}
}

// interruptedExit is the exit status of a run that SIGINT or SIGTERM
// interrupted: 1, whatever the devices' statuses, as its error
// diagnostic (interruptDiagnostic) says. A verify or diff whose every
// device was read before the signal came would otherwise exit 2, which
// means only "the devices differ" (or "changes pending"), or 0 beside an
// error in the --json envelope. err, when it says something (writing
// the report failed), stays.
func interruptedExit(err error) error {
	var ee *exitError
	if err == nil || errors.As(err, &ee) && ee.Err == nil {
		return exitCode(1, nil)
	}
	return err
}

// runEngine runs with bars on a real terminal, log lines otherwise.
func runEngine(ctx context.Context, cmd *cobra.Command, o push.Options, live *liveReport) *push.Report {
	errw := cmd.ErrOrStderr()
	// Bars redraw over the approval question: a push that may ask logs.
	if f, ok := errw.(*os.File); ok && canRedraw(errw) && o.Approve == nil {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 && h > 0 {
			var names []string
			for _, t := range o.Targets {
				names = append(names, t.Switch.Name)
			}
			for _, t := range o.Hosts {
				names = append(names, t.Host.Name)
			}
			bp := push.NewBarProgress(errw, names)
			live.Progress, o.Progress = bp, live
			rep := push.Run(ctx, o)
			bp.Wait()
			return rep
		}
	}
	live.Progress, o.Progress = &push.LogProgress{W: errw}, live
	return push.Run(ctx, o)
}

// changesPending is the exit status of a dry run (diff, push --dry-run)
// that found changes to make: 2, as diff(1) and `terraform plan
// -detailed-exitcode` say it; 0 means nothing to change, 1 an error.
var changesPending = &exitError{Code: 2}

// finish prints diffs and differences and the summary (or, with --json,
// hands the report to the envelope and prints the summary on stderr),
// writes the report file and sets the exit status.
func finish(cmd *cobra.Command, rep *push.Report, reportPath string, out *output, diffsShown bool) error {
	w := cmd.OutOrStdout()
	if out.json {
		out.result, out.failure = rep, rep.UnfinishedError()
		w = cmd.ErrOrStderr()
	} else {
		writeChanges(w, rep, diffsShown)
	}
	rep.WriteSummary(w)
	if err := writeReportFile(rep, reportPath); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if rep.Action == push.ActionVerify {
		return verifyStatus(rep)
	}
	if rep.Failed() {
		return exitCode(1, nil)
	}
	if rep.Action == push.ActionDiff && pending(rep) {
		return changesPending
	}
	return nil
}

// writeForced writes the summary and the --report file of a run
// stopped at once (a second Ctrl-C), from what is known so far, so that
// a stop at once still leaves a record of every switch's state.
func writeForced(cmd *cobra.Command, rep *push.Report, reportPath string, out *output) {
	w := cmd.OutOrStdout()
	if out.json {
		w = cmd.ErrOrStderr()
	}
	rep.WriteSummary(w)
	if err := writeReportFile(rep, reportPath); err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "fabricc: writing the report: %v\n", err)
	}
}

// writeReportFile writes the --report file at path (none when path is
// ""): written beside and renamed, never through a link planted at the
// name, and always 0600, whatever file was there.
func writeReportFile(rep *push.Report, path string) error {
	if path == "" {
		return nil
	}
	js, err := reportJSON(rep)
	if err != nil {
		return err
	}
	return newfile.Replace(path, filepath.Base(path)+".tmp-", 0o600, js)
}

// reportJSON is the --report file: the report, led by the fabricc
// version that made it (fabricc_version, as the --json envelope has it).
func reportJSON(rep *push.Report) ([]byte, error) {
	b, err := json.MarshalIndent(struct {
		FabriccVersion string `json:"fabricc_version"`
		*push.Report
	}{fabriccVersion(), rep}, "", "  ")
	return append(b, '\n'), err
}

// verifyStatus is verify's exit status, as plan's and diff's (terraform
// plan -detailed-exitcode): 0 when every device verified; 1 when any
// device could not be checked (failed: unreachable, refused, a script
// that cannot run); 2 when every device was read and some differ from
// the model (mismatch, cabling included) or have a change pending, so
// that a drift job tells a changed switch from a broken runner. A
// switch that answers as another (its identity) was not read: 1. The
// devices that make it 1 are those the --json envelope's error names
// (push.Report.Unfinished).
func verifyStatus(rep *push.Report) error {
	if len(rep.Unfinished()) > 0 {
		return exitCode(1, nil)
	}
	for _, d := range rep.Devices {
		if d.Status == push.StatusMismatch || d.Status == push.StatusPending {
			return exitCode(2, nil)
		}
	}
	return nil
}

// writeChanges prints each device's diff (dry run, or what a push
// changed, unless diffsShown: the approval question showed them) and
// each difference verification found.
func writeChanges(w io.Writer, rep *push.Report, diffsShown bool) {
	for _, d := range rep.Devices {
		if d.Diff != "" && !diffsShown && (rep.Action == push.ActionDiff || d.Status == push.StatusChanged) {
			fmt.Fprintf(w, "=== %s (%s)\n", d.Device, d.Platform)
			writeDeviceText(w, d.Diff)
		}
	}
	writeDifferences(w, rep)
}

// writeDeviceText prints text a device sent, line by line, each through
// quote.Visible: a switch's diff carries what others configured (a
// description, a VLAN name), and its control characters must not reach
// the terminal as such. Tabs stay tabs.
func writeDeviceText(w io.Writer, text string) {
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		body, nl := strings.CutSuffix(line, "\n")
		parts := strings.Split(body, "\t")
		for i := range parts {
			parts[i] = quote.Visible(parts[i])
		}
		fmt.Fprint(w, strings.Join(parts, "\t"))
		if nl {
			fmt.Fprintln(w)
		}
	}
}

// pending reports whether a dry run found a change on some device.
func pending(rep *push.Report) bool {
	for _, d := range rep.Devices {
		if d.Diff != "" {
			return true
		}
	}
	return false
}

// txnID names this run's transaction: time plus randomness, in the
// characters EOS session names allow.
func txnID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}
