package main

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/artifacts"
)

// checkResult is the --json result of build --check: whether the folder
// is what the build writes, and the paths (slashes, relative to it)
// where it is not.
type checkResult struct {
	Output  string   `json:"output"`
	Files   int      `json:"files"`
	Same    bool     `json:"same"`
	Changed []string `json:"changed"`
	New     []string `json:"new"`
	Removed []string `json:"removed"`
}

// runBuildCheck is build --check: it renders the fabric (the same
// renderers and manifest as build), compares each file with dir's byte
// for byte as it is rendered (artifacts.Check) and writes nothing. Exit
// status 0 same, 2 differs (changesPending), 1 an error.
func runBuildCheck(cmd *cobra.Command, fabric, dir string, lf *loadFlags, format diagFormat, diff bool) error {
	tuneGC()
	if err := existingPath(fabric); err != nil {
		return err
	}
	opts, err := lf.options()
	if err != nil {
		return err
	}
	out := newOutput(cmd, "build", format == formatJSON)
	errw := cmd.ErrOrStderr()
	loading := loadingLine(errw, "build", out.json)
	f, files, diags := compileFabric(fabric, opts)
	loading.finish()
	out.fabric(f)
	if out.json {
		out.report(files, diags)
	} else if perr := printDiagnostics(cmd, format, files, diags); perr != nil {
		return perr
	}
	if diags.HasErrors() {
		fmt.Fprintf(errw, "%s; nothing compared\n", countSummary(diags))
		return out.done(exitCode(1, nil))
	}
	// Each file is compared as it is rendered; the bytes of a difference
	// are kept only for --diff.
	diffs, built, err := artifacts.Check(dir, f, buildOptions(fabric, dir, opts, diags), diff)
	var ferr *artifacts.FolderError
	if errors.As(err, &ferr) {
		return out.done(exitCode(1, fmt.Errorf("reading %s: %w", v(dir), ferr.Err)))
	}
	if err != nil {
		return out.done(exitCode(1, err))
	}
	res := &checkResult{Output: dir, Files: built, Same: len(diffs) == 0, Changed: []string{}, New: []string{}, Removed: []string{}}
	for _, d := range diffs {
		switch d.Kind {
		case artifacts.Changed:
			res.Changed = append(res.Changed, d.Path)
		case artifacts.Added:
			res.New = append(res.New, d.Path)
		default:
			res.Removed = append(res.Removed, d.Path)
		}
		if !out.json {
			printDifference(cmd, dir, d, diff)
		}
	}
	out.result = res
	if res.Same {
		fmt.Fprintf(errw, "%s is up to date: its %s are what fabricc build %s writes\n", v(dir), plural(res.Files, "file"), v(fabric))
		return out.done(nil)
	}
	fmt.Fprintf(errw, "%s differs from the build of %s: %d changed, %d new, %d removed; run fabricc build %s -o %s to update it\n",
		v(dir), v(fabric), len(res.Changed), len(res.New), len(res.Removed), v(fabric), v(dir))
	return out.done(changesPending)
}

// printDifference prints "KIND DIR/PATH" on stdout and, with diff, the
// unified diff from the folder's file to the build's, each line through
// quote.Visible (writeDeviceText): a folder's file may hold anything.
func printDifference(cmd *cobra.Command, dir string, d artifacts.Difference, diff bool) {
	w := cmd.OutOrStdout()
	name := path.Join(filepath.ToSlash(dir), d.Path)
	fmt.Fprintf(w, "%s %s\n", d.Kind, v(name))
	if !diff {
		return
	}
	from, to := name, name+" (built)"
	if d.Kind == artifacts.Added {
		from = "/dev/null"
	}
	if d.Kind == artifacts.Removed {
		to = "/dev/null"
	}
	writeDeviceText(w, udiff.Unified(from, to, string(d.Old), string(d.New)))
}
