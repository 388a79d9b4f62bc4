package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/plan"
	"github.com/fabricc/fabricc/push"
)

// rolloutFlags are push's and diff's rollout check: the revision a
// fabric PATH is compared with, and push's consent to a change that no
// order of push and hosts' scripts rolls out safely.
type rolloutFlags struct {
	// base: --base REV, as plan's (a fabric, a build folder or a git
	// revision of PATH).
	base string
	// accept: push only (--accept-rollout-hazard).
	accept bool
}

// register adds --base and, for push, --accept-rollout-hazard.
func (r *rolloutFlags) register(fs *pflag.FlagSet, isPush bool) {
	fs.StringVar(&r.base, "base", "", "with a fabric PATH: `REV`, the revision the switches run now (a fabric folder or file, a build output folder or a git revision, as plan's --base), to warn of a change with a rollout hazard (fabricc plan's rollout); --artifacts DIR is compared with the build kept beside it (.DIR.prev)")
	if isPush {
		fs.BoolVar(&r.accept, "accept-rollout-hazard", false, "push a change that no order of push and hosts' scripts rolls out safely (fabricc plan: \"no safe order in one step\"; without it such a push is refused): its hosts' traffic breaks until both ends agree")
	}
}

// rolloutHelp is what push and diff say of the rollout check.
const rolloutHelp = "\n\nThe change's rollout is checked as fabricc plan checks it (docs/changes.md), against the\n" +
	"build kept beside --artifacts DIR (.DIR.prev) or, for a fabric PATH, --base REV: each hazard\n" +
	"is a warning, and push refuses a change with no safe order in one step (a moved lossless\n" +
	"priority) unless --accept-rollout-hazard. Without either, nothing is checked."

// rolloutSections are the parts of docs/changes.md, "The order per kind
// of change", that say how to roll out each kind of hazard.
var rolloutSections = map[string]string{
	"lossless none":      "The lossless priority or the RoCE DSCP block moves",
	"trust none":         "Trust (pcp to dscp) or a host's VLAN tagging",
	"VLAN none":          "Trust (pcp to dscp) or a host's VLAN tagging",
	"MTU hosts-first":    "MTU decrease",
	"MTU switches-first": "MTU increase",
}

// rolloutSection is the part of docs/changes.md that says how to roll
// out r.
func rolloutSection(r plan.Rollout) string {
	if s := rolloutSections[r.Contract+" "+r.Order]; s != "" {
		return s
	}
	return "The order per kind of change"
}

// rolloutWarning is the warning of one hazard: plan's rollout line and
// where to read more.
func rolloutWarning(r plan.Rollout) string {
	return v(fmt.Sprintf("rollout: %s (fabricc plan; docs/changes.md, %q)", r.Line(), rolloutSection(r)))
}

// checkRollout runs plan's rollout check between the model the switches
// run now (previousModel) and b's, for push and diff. Each hazard is a
// warning (stderr, the --json diagnostics, the report's warnings and
// the approval question); a push with one that no order avoids is
// refused unless --accept-rollout-hazard, as a stale build is without
// --stale. Nothing is said without a previous model: the check does not
// guess what the switches run. It returns the warnings, for the approval
// question.
func checkRollout(cmd *cobra.Command, args []string, sf *switchFlags, action string, b *push.Build, out *output) ([]string, error) {
	if action == push.ActionVerify {
		return nil, nil
	}
	prev, since, err := previousModel(cmd, args, sf, b, out)
	if err != nil || prev == nil {
		return nil, err
	}
	hazards := plan.Rollouts(prev, b.Fabric)
	if action == push.ActionPush && !sf.rollout.accept {
		if err := refuseRollout(hazards, since); err != nil {
			return nil, err
		}
	}
	var warnings []string
	for _, r := range hazards {
		w := rolloutWarning(r)
		buildWarning(cmd, sf, out, w)
		warnings = append(warnings, w)
	}
	return warnings, nil
}

// refuseRollout is push's error for the hazards no order avoids, nil
// when there is none: what breaks, how to roll the change out instead,
// and the flag that pushes it anyway.
func refuseRollout(hazards []plan.Rollout, since string) error {
	var lines []string
	lossless := false
	for _, r := range hazards {
		if !r.NoSafeOrder() {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s (docs/changes.md, %q)", r.Line(), rolloutSection(r)))
		lossless = lossless || r.Contract == "lossless"
	}
	if len(lines) == 0 {
		return nil
	}
	how := "to push it so, one switch at a time, give --accept-rollout-hazard with --limit SWITCH"
	if lossless {
		how = "make before break as above, each step a change pushed on its own, or give --accept-rollout-hazard to push this change in one step anyway"
	}
	return errors.New(v(fmt.Sprintf("push refused: the change from %s has no safe order in one step (fabricc plan's rollout): %s; %s; nothing was changed",
		since, strings.Join(lines, "; "), how)))
}

// previousModel is the model the switches are taken to run now, and
// what it is: --base for a fabric PATH, the build fabricc build kept
// beside --artifacts DIR (.DIR.prev). nil when there is none; a kept
// build whose model cannot be read is a note, not an error.
func previousModel(cmd *cobra.Command, args []string, sf *switchFlags, b *push.Build, out *output) (*model.Fabric, string, error) {
	if sf.rollout.base != "" {
		return baseModel(out, sf.rollout.base, args[0], &sf.lf)
	}
	if sf.artifacts == "" {
		return nil, "", nil
	}
	prev := artifacts.PreviousOf(sf.artifacts)
	if !artifacts.IsPrevious(prev) || !modelChanged(cmd, b, prev) {
		return nil, "", nil
	}
	f, err := readBuiltModel(prev)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: cannot check the rollout against the previous build: %s\n", v(err.Error()))
		return nil, "", nil
	}
	return f, "the previous build " + prev, nil
}

// modelChanged reports whether the kept build prev has a model.json
// and the manifests of prev and b give it another SHA-256 than b's: an
// unchanged model has no rollout, and is not read again (at 2,048
// switches it is 488 MB). A kept build without one (written by an
// earlier fabricc, which dropped it) is no previous model: nothing is
// said.
func modelChanged(cmd *cobra.Command, b *push.Build, prev string) bool {
	if _, err := os.Lstat(filepath.Join(prev, artifacts.ModelFile)); errors.Is(err, fs.ErrNotExist) {
		return false
	}
	m, err := artifacts.ReadManifest(prev)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: cannot check the rollout against the previous build: %s\n", v(err.Error()))
		return false
	}
	return m.Files[artifacts.ModelFile] != b.Source().Files[artifacts.ModelFile]
}

// baseModel is the model of --base, read as plan reads its base: a
// build folder's model.json, or a fabric or git revision compiled with
// the same -var and --var-file as PATH.
func baseModel(out *output, base, path string, lf *loadFlags) (*model.Fabric, string, error) {
	since := "--base " + base
	if plan.ClassifyBase(base) == plan.BaseBuild {
		f, err := readBuiltModel(base)
		return f, since, err
	}
	opts, err := lf.options()
	if err != nil {
		return nil, "", err
	}
	f, _, _, err := loadBase(out, base, path, opts)
	return f, since, err
}

// checkRolloutFlags refuses --base with --artifacts: a build is
// compared with the build kept beside it.
func checkRolloutFlags(sf *switchFlags) error {
	if sf.rollout.base != "" && sf.artifacts != "" {
		return usageError(errors.New("--base goes with a fabric PATH; --artifacts DIR is compared with the build fabricc build kept beside it (.DIR.prev)"))
	}
	return nil
}
