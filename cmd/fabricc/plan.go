package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/plan"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPlanCmd) }

// newPlanCmd is `fabricc plan --base REV PATH`.
func newPlanCmd() *cobra.Command {
	var lf loadFlags
	var base, format string
	var asJSON bool
	var markdownLimit int
	cmd := &cobra.Command{
		Use:   "plan --base BASE [PATH]",
		Short: "Show what changes in meaning between two revisions of a fabric",
		Long: "plan compiles the fabric at PATH (the current folder when none is given) and the\n" +
			"base revision, compares the two models and\n" +
			"prints per device what changes and why: a changed input (a cable, a VLAN, a platform)\n" +
			"with the derived values it moves (PFC headroom, pool demand). BASE is a fabric (.hcl file\n" +
			"or folder), a `fabricc build` output folder (its model.json), or a git revision of PATH\n" +
			"(read with git archive; the work tree is not touched). The same -var and --var-file apply\n" +
			"to both revisions. A git revision must be in the clone: in a shallow CI clone, or one that\n" +
			"fetched one branch, a base such as origin/main is missing, and the error says how to\n" +
			"fetch it (git fetch, actions/checkout fetch-depth: 0, GitLab GIT_DEPTH: 0).\n\n" +
			"The plan also covers the rollout (docs/changes.md): the order of push and host scripts\n" +
			"that keeps each host's MTU, lossless marking, trust and VLAN agreeing with its switch port,\n" +
			"the changes that may interrupt traffic (impact), the hosts whose script changes, and the\n" +
			"warnings the change raises or removes.\n\n" +
			"With --json (or --format json) stdout holds one JSON object, the envelope every command\n" +
			"prints (docs/json.md), with the plan as its result.\n\n" +
			"Exit status: 0 nothing changes, 2 something changes, 1 an error.",
		Example: "  fabricc plan --base main examples/multivendor-clos\n" +
			"  fabricc plan --base out/ fabric/ --format markdown > plan.md\n" +
			"  fabricc plan --base HEAD~1 fabric/ --json | jq .result.devices",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return exitCode(1, fmt.Errorf("plan takes at most one fabric PATH, got %d arguments", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				format = "json"
			}
			return runPlan(cmd, base, pathArg(args), format, markdownLimit, &lf)
		},
	}
	// Every failure of plan, a wrong command line included, is exit 1:
	// 2 means "changes".
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return exitCode(1, err) })
	lf.register(cmd.Flags())
	cmd.Flags().StringVar(&base, "base", "", "the `revision` to compare with: a fabric folder or file, a build output folder, or a git revision")
	cmd.Flags().StringVar(&format, "format", "text", "output `format`: text, markdown (for a pull-request comment) or json")
	countVar(cmd.Flags(), &markdownLimit, "markdown-limit", plan.CommentLimit, 0, "a number of characters, or 0 for no limit", "with --format markdown, write at most `N` characters, the whole sections that fit and a line naming what is left out (0: no limit); the default is what a GitHub comment holds")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as one JSON object on stdout (docs/json.md; same as --format json)")
	return cmd
}

// runPlan loads both revisions, compares and prints.
func runPlan(cmd *cobra.Command, base, path, format string, markdownLimit int, lf *loadFlags) error {
	tuneGC()
	write, ok := map[string]func(*bytes.Buffer, *plan.Plan) error{
		"text":     func(b *bytes.Buffer, p *plan.Plan) error { return plan.WriteText(b, p) },
		"markdown": func(b *bytes.Buffer, p *plan.Plan) error { return plan.WriteMarkdown(b, p, markdownLimit) },
		"json":     nil,
	}[format]
	if !ok {
		return exitCode(1, fmt.Errorf("--format %q: use text, markdown or json", format))
	}
	out := newOutput(cmd, "plan", format == "json")
	p, err := comparePlan(cmd, out, base, path, lf)
	if err != nil {
		return out.done(err)
	}
	if out.json {
		out.result = plan.JSONValue(p)
	} else {
		var b bytes.Buffer
		if err := write(&b, p); err != nil {
			return exitCode(1, err)
		}
		if _, err := cmd.OutOrStdout().Write(b.Bytes()); err != nil {
			return exitCode(1, err)
		}
	}
	if p.Changed() {
		// Exit status 2 as diff's: changes, not a failure.
		return out.done(changesPending)
	}
	return out.done(nil)
}

// comparePlan loads both revisions and compares them; every failure is
// exit status 1 (2 means "changes").
func comparePlan(cmd *cobra.Command, out *output, base, path string, lf *loadFlags) (*plan.Plan, error) {
	if base == "" {
		return nil, exitCode(1, fmt.Errorf("missing --base: give the revision to compare with (a folder, a build output or a git revision)"))
	}
	if _, err := os.Stat(path); err != nil {
		return nil, exitCode(1, fmt.Errorf("%s does not exist; give a .hcl file or a folder of .hcl files", path))
	}
	opts, err := lf.options()
	if err != nil {
		return nil, exitCode(1, err)
	}
	builtBase := startBuiltBase(base)
	head, headWarnings, err := planModel(out, path, opts, nil)
	if err != nil {
		return nil, err
	}
	out.fabric(head)
	var old *model.Fabric
	var oldWarnings []plan.Warning
	var note string
	if builtBase != nil {
		old, err = builtBase()
		note = "The base is a build output, whose warnings are not kept: the plan cannot say which warnings are new."
	} else {
		old, oldWarnings, note, err = loadBase(out, base, path, opts)
	}
	if err != nil {
		return nil, err
	}
	p := plan.Compare(old, head)
	if builtBase == nil {
		plan.DiffWarnings(p, oldWarnings, headWarnings)
	}
	if note != "" {
		p.Notes = append(p.Notes, note)
	}
	return p, nil
}

// startBuiltBase starts reading the model of a base that is a build
// output while the head compiles, and returns the function that waits
// for it; nil for any other base. Reading prints nothing, so its errors
// still come after the head's. At 2,048 switches the base's model.json
// (488 MB) takes 3.3 s to decode, as long as compiling the head.
func startBuiltBase(base string) func() (*model.Fabric, error) {
	if plan.ClassifyBase(base) != plan.BaseBuild {
		return nil
	}
	var f *model.Fabric
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err = readBuiltModel(base)
	}()
	return func() (*model.Fabric, error) {
		<-done
		return f, err
	}
}

// loadBase compiles the base revision's model from a fabric or a git
// revision (startBuiltBase reads a build output's). A git revision with
// nothing at the fabric's path is an empty fabric, with a note that says
// so: the change adds the fabric.
func loadBase(out *output, base, path string, opts dsl.Options) (*model.Fabric, []plan.Warning, string, error) {
	// A -var for a variable the change adds is for the head: the base
	// compiles without it, and the plan says so.
	var skipped []string
	opts.Undeclared = func(name string) { skipped = append(skipped, name) }
	f, warnings, note, err := loadBaseWith(out, base, path, opts)
	if err == nil && len(skipped) > 0 {
		what, it := "variable", "it"
		if len(skipped) > 1 {
			what, it = "variables", "them"
		}
		note = strings.TrimSpace(note + fmt.Sprintf(" The base revision does not declare %s %s; -var sets %s for the head only.",
			what, strings.Join(skipped, ", "), it))
	}
	return f, warnings, note, err
}

// loadBaseWith is loadBase with the options as given.
func loadBaseWith(out *output, base, path string, opts dsl.Options) (*model.Fabric, []plan.Warning, string, error) {
	if plan.ClassifyBase(base) == plan.BaseFabric {
		f, warnings, err := planModel(out, base, opts, nil)
		return f, warnings, "", err
	}
	fabric, tmp, err := plan.CheckoutFabric(base, path)
	var missing *plan.NoFabricError
	if errors.As(err, &missing) {
		return &model.Fabric{}, nil, fmt.Sprintf("The base revision %s has no fabric at %q; every device is added.", missing.Rev, missing.Path), nil
	}
	if err != nil {
		return nil, nil, "", exitCode(1, err)
	}
	defer os.RemoveAll(tmp)
	f, warnings, err := planModel(out, fabric, opts, &checkout{rev: base, dir: tmp})
	return f, warnings, "", err
}

// checkout is a git revision's fabric written to a temporary folder.
type checkout struct {
	rev string // the revision as given
	dir string // the temporary folder, removed after compiling
}

// rename turns a path in the temporary folder, alone or in a message,
// into REV:PATH, its path in the repository at the revision
// ("HEAD:fabric/fabric.hcl"): the folder is gone when the message is read.
func (c *checkout) rename(s string) string {
	return strings.ReplaceAll(s, c.dir+string(filepath.Separator), c.rev+":")
}

// readBuiltModel reads the model.json of the build output base, as it
// goes: at 4,096 switches the file is 1 GB.
func readBuiltModel(base string) (*model.Fabric, error) {
	file := filepath.Join(base, plan.ModelFile)
	in, err := os.Open(file)
	if err != nil {
		return nil, exitCode(1, err)
	}
	defer in.Close()
	f, err := model.Decode(bufio.NewReaderSize(in, 1<<20))
	if err != nil {
		return nil, exitCode(1, fmt.Errorf("%s: %w", file, err))
	}
	return f, nil
}

// planModel compiles the fabric at path; its errors are reported with
// their places (printed, or in the JSON envelope) and end the plan with
// exit status 1. co is the git revision the files were read from, nil
// for a fabric on disk: its places are shown as REV:PATH. It returns
// the compile's warnings for the plan's new and gone warnings.
func planModel(out *output, path string, opts dsl.Options, co *checkout) (*model.Fabric, []plan.Warning, error) {
	loading := loadingLine(out.cmd.ErrOrStderr(), "plan", out.json)
	f, files, diags := compileFabric(path, opts)
	loading.finish()
	if co != nil {
		diags, files = dsl.RenameFiles(diags, files, co.rename)
	}
	if !diags.HasErrors() {
		return f, planWarnings(diags, files), nil
	}
	what := path
	if co != nil {
		what = "the base revision " + co.rev
	}
	out.report(files, diags)
	return nil, nil, exitCode(1, fmt.Errorf("%s does not compile (%s); nothing compared", what, countSummary(diags)))
}

// planWarnings are the warnings of a compile, each keyed by its code,
// what it is about (the ports or NICs it names) and the source text it
// points at, not by its line: a line shift elsewhere in the file does
// not make a warning new.
func planWarnings(diags hcl.Diagnostics, files map[string]*hcl.File) []plan.Warning {
	var out []plan.Warning
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning {
			continue
		}
		w := plan.Warning{Code: compiler.WarningCode(d.Summary), Summary: d.Summary, Detail: d.Detail}
		snippet := ""
		if d.Subject != nil {
			w.Subject = dsl.Position(*d.Subject)
			snippet = sourceText(files, *d.Subject)
		}
		w.Key = strings.Join([]string{w.Code, strings.Join(dsl.InstancesOf(d), ","), snippet}, "\x00")
		out = append(out, w)
	}
	return out
}

// sourceText is the text of the source range r, or "" when its file is
// not at hand.
func sourceText(files map[string]*hcl.File, r hcl.Range) string {
	f := files[r.Filename]
	if f == nil || r.Start.Byte < 0 || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(f.Bytes[r.Start.Byte:r.End.Byte])
}
