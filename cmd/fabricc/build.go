package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newBuildCmd) }

// newBuildCmd is `fabricc build [PATH] -o DIR`.
func newBuildCmd() *cobra.Command {
	var lf loadFlags
	var out string
	var df diagFlags
	var check, diff bool
	cmd := &cobra.Command{
		Use:   "build [PATH] -o DIR",
		Short: "Compile a fabric and write every device's configuration into a folder",
		Long: "build loads, compiles and checks the fabric (PATH, a .hcl file or a folder; the\n" +
			"current folder when no PATH is given, as validate), renders every switch\n" +
			"configuration and host script, and writes them with model.json and manifest.json\n" +
			"into DIR, one folder per device. DIR is replaced only when everything succeeded; a failed build leaves it\n" +
			"exactly as it was. The build it replaced is kept beside it as .DIR.prev (sharing\n" +
			"every unchanged file), so that the next rebuild writes only what changed.\n\n" +
			"--check writes nothing: it renders the build and compares each file, as it is\n" +
			"rendered, byte for byte with DIR (golden files kept in a repository), lists each path\n" +
			"that differs (changed, new: the build writes it and DIR lacks it, removed: DIR holds\n" +
			"it and the build does not write it) and exits 0 when DIR is what the build writes, 2\n" +
			"when it differs, 1 on an error (a wrong command line included); --diff adds a unified\n" +
			"diff of each, as fabricc fmt --check --diff does.",
		Example: "  fabricc build examples/multivendor-clos -o out\n" +
			"  fabricc build fabric/ -o build/lab -var leaf_count=4 --var-file lab.vars.hcl\n" +
			"  fabricc build fabric/ -o golden --check --diff",
		Annotations: map[string]string{usageExitFlagAnnotation: "check"},
		Args:        argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError(fmt.Errorf("missing -o DIR: say where to write the artifacts"))
			}
			format, err := df.format()
			if err != nil {
				return err
			}
			if diff && !check {
				return usageError(fmt.Errorf("--diff goes with --check (build --check --diff compares DIR with the build and writes nothing)"))
			}
			if check {
				return runBuildCheck(cmd, pathArg(args), out, &lf, format, diff)
			}
			return runBuild(cmd, pathArg(args), out, &lf, format)
		},
	}
	lf.register(cmd.Flags())
	cmd.Flags().StringVarP(&out, "output", "o", "", "`DIR` to write the artifacts into (replaced as a whole)")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing: compare DIR byte for byte with what the build would write, list the paths that differ; exit 0 same, 2 differs, 1 error")
	cmd.Flags().BoolVar(&diff, "diff", false, "with --check, also print a unified diff of each path that differs")
	df.register(cmd.Flags(), "what was written and the diagnostics")
	return cmd
}

// buildResult is the --json result of build: where the files went.
type buildResult struct {
	Output  string   `json:"output"`
	Devices int      `json:"devices"`
	Files   []string `json:"files"`
	// Written counts the files written anew (new or changed bytes),
	// Unchanged those a rebuild kept as they were.
	Written   int `json:"written"`
	Unchanged int `json:"unchanged"`
}

// runBuild compiles, renders and writes.
func runBuild(cmd *cobra.Command, path, dir string, lf *loadFlags, format diagFormat) error {
	tuneGC()
	if err := existingPath(path); err != nil {
		return err
	}
	opts, err := lf.options()
	if err != nil {
		return err
	}
	out := newOutput(cmd, "build", format == formatJSON)
	// An output folder the build would refuse is refused first: a large
	// fabric takes seconds to compile.
	if err := artifacts.CheckOutput(dir); err != nil {
		return out.done(exitCode(1, fmt.Errorf("%w; %s left as it was", err, dir)))
	}
	errw := cmd.ErrOrStderr()
	loading := loadingLine(errw, "build", out.json)
	f, files, diags, skipped := compileFabricSkipped(path, opts)
	loading.finish()
	out.fabric(f)
	if out.json {
		out.report(files, diags)
	} else if perr := printDiagnostics(cmd, format, files, diags); perr != nil {
		return perr
	}
	if diags.HasErrors() {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s; nothing written\n", errorSummary(diags, skipped))
		return out.done(exitCode(1, nil))
	}
	// SIGINT and SIGTERM stop the build and remove its temporary folder;
	// dir keeps what it held. Devices are rendered and written one by
	// one (artifacts.Build), so a large fabric is never held in memory as
	// files.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	var done atomic.Int64
	// A loading line exists only where progress is shown.
	total := int64(len(f.Switches) + len(f.Hosts))
	writing := startProgress(loading != nil, errw, "build", total, &done, progressDelay)
	// Another build into dir runs first (artifacts.Options.Waiting).
	waiting := func(pid int) {
		writing.finish()
		fmt.Fprintln(errw, waitingLine(dir, pid))
		writing = startProgress(loading != nil, errw, "build", total, &done, progressDelay)
	}
	// A push, diff or verify --artifacts reads dir (its shared lock).
	waitingForReader := func(pid int) {
		writing.finish()
		fmt.Fprintln(errw, readerWaitingLine(dir, pid))
		writing = startProgress(loading != nil, errw, "build", total, &done, progressDelay)
	}
	bopts := buildOptions(path, dir, opts, diags)
	bopts.Progress, bopts.Waiting, bopts.WaitingForReader = &done, waiting, waitingForReader
	built, err := artifacts.Build(ctx, dir, f, bopts)
	writing.finish()
	if err != nil {
		return out.done(exitCode(1, fmt.Errorf("%w; %s left as it was", err, dir)))
	}
	timings.add("render+write", time.Since(start))
	timings.report(cmd.ErrOrStderr(), built)
	res := &buildResult{Output: dir, Devices: built.Devices, Files: []string{},
		Written: built.Written, Unchanged: built.Files - built.Written}
	if out.json {
		res.Files = built.Paths()
	}
	out.result = res
	fmt.Fprintln(cmd.ErrOrStderr(), builtSummary(path, dir, f, built))
	return out.done(nil)
}

// waitingLine says that the build waits for another one into dir, run
// by process pid (0: unknown).
func waitingLine(dir string, pid int) string {
	who := "another fabricc build"
	if pid > 0 {
		who += fmt.Sprintf(" (process %d)", pid)
	}
	return fmt.Sprintf("build: %s is writing %s; waiting for it to finish", who, dir)
}

// readerWaitingLine says that the build waits for a fabricc push, diff
// or verify, process pid (0: unknown), to finish reading dir.
func readerWaitingLine(dir string, pid int) string {
	who := "a fabricc push, diff or verify"
	if pid > 0 {
		who += fmt.Sprintf(" (process %d)", pid)
	}
	return fmt.Sprintf("build: %s is reading %s; waiting for it to finish", who, dir)
}

// builtSummary is the lines a build of the fabric at path ends with:
// what it wrote, and for a rebuild that kept files, how many it kept and
// how many devices it did not have to render again; then the next steps:
// the review, the push of f's switches and the hosts' scripts, with how
// many hosts and one script's path.
func builtSummary(path, dir string, f *model.Fabric, r *artifacts.Result) string {
	next := "next: review " + quote.ShellWord(filepath.Join(dir, "fabric.md"))
	if len(f.Switches) > 0 {
		next += "; push the switches with fabricc push " + quote.ShellWord(path) + " -i INVENTORY"
	}
	if len(f.Hosts) > 0 {
		h := &f.Hosts[0]
		next += fmt.Sprintf(";\nthen run each host's script on that host (%s, such as %s)",
			plural(len(f.Hosts), "host"), quote.ShellWord(filepath.Join(dir, h.Name, targets.HostScriptName(h))))
	}
	return builtCounts(dir, r) + "\n" + next
}

// builtCounts is the first line of builtSummary.
func builtCounts(dir string, r *artifacts.Result) string {
	if r.Written == r.Files {
		return fmt.Sprintf("wrote %s for %s to %s", plural(r.Files, "file"), plural(r.Devices, "device"), dir)
	}
	line := fmt.Sprintf("%s holds %s for %s: wrote %d, kept %d unchanged", dir, plural(r.Files, "file"),
		plural(r.Devices, "device"), r.Written, r.Files-r.Written)
	if r.Kept > 0 {
		line += fmt.Sprintf(" (%s not rendered again)", plural(r.Kept, "device"))
	}
	return line
}

// buildSet loads, compiles and renders the fabric at path in memory.
// The error is a renderer failure; diagnostics errors leave it nil.
func buildSet(path string, opts dsl.Options) (*artifacts.Set, map[string]*hcl.File, hcl.Diagnostics, *model.Fabric, error) {
	return buildSetFor(path, "", opts)
}

// buildSetFor is buildSet for the output folder dir: its manifest
// records where the fabric is, relative to dir, for fabricc explain.
func buildSetFor(path, dir string, opts dsl.Options) (*artifacts.Set, map[string]*hcl.File, hcl.Diagnostics, *model.Fabric, error) {
	f, files, diags := compileFabric(path, opts)
	if diags.HasErrors() {
		return nil, files, diags, nil, nil
	}
	set, err := artifacts.RenderWith(f, buildOptions(path, dir, opts, diags))
	return set, files, diags, f, err
}

// buildOptions are the artifacts options of a build of the fabric at path
// into the folder dir: the ones that feed the manifest, shared by build,
// build --check and buildSetFor so that their manifests agree. The
// inputs are recorded only for an output folder (dir not "").
func buildOptions(path, dir string, opts dsl.Options, diags hcl.Diagnostics) artifacts.Options {
	bopts := artifacts.Options{Warnings: artifacts.Warnings(diags, path), FabricPath: relativePath(dir, path)}
	if dir != "" {
		bopts.Inputs = buildInputs(path, opts, dir)
	}
	return bopts
}

// relativePath is path relative to the folder dir, with slashes
// ("../examples/lab"); "" when dir is "" or no relative path exists.
func relativePath(dir, path string) string {
	if dir == "" {
		return ""
	}
	absDir, err1 := filepath.Abs(dir)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}
