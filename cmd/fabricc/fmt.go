package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newFmtCmd) }

// fmtFlags are the flags of `fabricc fmt`.
type fmtFlags struct {
	check, diff, write bool
}

// newFmtCmd is `fabricc fmt PATH...`.
func newFmtCmd() *cobra.Command {
	var ff fmtFlags
	cmd := &cobra.Command{
		Use:   "fmt [PATH...]",
		Short: "Rewrite fabric files in canonical layout",
		Long: "fmt rewrites .hcl files, or every .hcl file below a folder (recursively; the current\n" +
			"folder when no PATH is given), in canonical HCL layout, and lists the files it rewrote,\n" +
			"as terraform fmt does. With --check it changes nothing, lists the files that are not\n" +
			"formatted and exits 1 if there are any; --diff also prints each change as a unified\n" +
			"diff (and still rewrites, unless --check or --write=false). PATH - reads a fabric file\n" +
			"on standard input and prints it formatted, for an editor's format-on-save. Files that\n" +
			"do not parse are reported and never rewritten. A folder without .hcl files is an\n" +
			"error (exit 1), so a check that found nothing to check does not pass.",
		Example: "  fabricc fmt examples/demartek-lab\n" +
			"  fabricc fmt --check --diff fabric/\n" +
			"  fabricc fmt - < fabric.hcl",
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("write") {
				ff.write = !ff.check
			}
			if ff.check && ff.write {
				return usageError(fmt.Errorf("--check and --write exclude each other"))
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			if slices.Contains(args, "-") {
				if len(args) > 1 {
					return usageError(fmt.Errorf("- (standard input) is formatted alone; give it without other paths"))
				}
				return fmtStdin(cmd)
			}
			return runFmt(cmd, args, ff)
		},
	}
	cmd.Flags().BoolVar(&ff.check, "check", false, "change nothing; list unformatted files and exit 1 if there are any")
	cmd.Flags().BoolVar(&ff.diff, "diff", false, "also print a unified diff of each change")
	cmd.Flags().BoolVarP(&ff.write, "write", "w", false, "rewrite the files (default unless --check)")
	return cmd
}

// runFmt formats every file named by paths.
func runFmt(cmd *cobra.Command, paths []string, ff fmtFlags) error {
	files, err := hclFiles(paths)
	if err != nil {
		return err
	}
	var unformatted int
	var diags hcl.Diagnostics
	sources := map[string]*hcl.File{}
	for _, name := range files {
		changed, d, err := fmtFile(cmd, name, ff, sources)
		if err != nil {
			return exitCode(1, err)
		}
		diags = append(diags, d...)
		if changed {
			unformatted++
		}
	}
	if diags.HasErrors() {
		if err := printDiagnostics(cmd, formatText, sources, diags); err != nil {
			return err
		}
		return exitCode(1, fmt.Errorf("left %s unchanged because of the parse errors above", plural(countFiles(diags), "file")))
	}
	if ff.check && unformatted > 0 {
		return exitCode(1, fmt.Errorf("%s not formatted; run fabricc fmt", plural(unformatted, "file")))
	}
	return nil
}

// fmtFile formats one file and reports whether it was not canonical.
func fmtFile(cmd *cobra.Command, name string, ff fmtFlags, sources map[string]*hcl.File) (bool, hcl.Diagnostics, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return false, nil, err
	}
	out, diags := dsl.Format(src, name)
	if diags.HasErrors() {
		sources[name] = &hcl.File{Bytes: src}
		return false, diags, nil
	}
	if string(out) == string(src) {
		return false, nil, nil
	}
	if ff.check || ff.write {
		fmt.Fprintln(cmd.OutOrStdout(), quote.Visible(name))
	}
	if ff.diff {
		shown := quote.Visible(name)
		fmt.Fprint(cmd.OutOrStdout(), udiff.Unified(shown, shown+" (formatted)", string(src), string(out)))
	}
	if ff.write {
		st, err := os.Stat(name)
		if err != nil {
			return true, nil, err
		}
		if err := os.WriteFile(name, out, st.Mode().Perm()); err != nil {
			return true, nil, err
		}
	}
	return true, nil, nil
}

// fmtStdin formats the fabric file on standard input to standard output;
// a file that does not parse is reported and nothing is printed.
func fmtStdin(cmd *cobra.Command) error {
	limit := dsl.LargeLimits.FileBytes // the most any fabric file holds (--large)
	src, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), limit+1))
	if err != nil {
		return exitCode(1, fmt.Errorf("reading standard input: %w", err))
	}
	if int64(len(src)) > limit {
		return exitCode(1, fmt.Errorf("standard input holds more than %d bytes, the most a fabric file holds", limit))
	}
	const name = "<stdin>"
	out, diags := dsl.Format(src, name)
	if diags.HasErrors() {
		if err := printDiagnostics(cmd, formatText, map[string]*hcl.File{name: {Bytes: src}}, diags); err != nil {
			return err
		}
		return exitCode(1, fmt.Errorf("standard input not formatted because of the parse errors above"))
	}
	_, err = cmd.OutOrStdout().Write(out)
	return err
}

// hclFiles expands paths into .hcl files: files as given, folders to
// every *.hcl file below them (recursively, skipping folders whose name
// starts with a dot, such as .git), in path order. A folder holding no
// .hcl file is an error: a check that looked at nothing must not pass.
func hclFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, existingPath(p)
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		names, err := walkHCL(p)
		if err != nil {
			return nil, exitCode(1, err)
		}
		if len(names) == 0 {
			return nil, exitCode(1, fmt.Errorf("%s holds no .hcl files", p))
		}
		out = append(out, names...)
	}
	return out, nil
}

// walkHCL lists the .hcl files below root, sorted.
func walkHCL(root string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".hcl"):
			names = append(names, path)
		}
		return nil
	})
	sort.Strings(names)
	return names, err
}

// countFiles is the number of distinct files with errors in diags.
func countFiles(diags hcl.Diagnostics) int {
	seen := map[string]bool{}
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Subject != nil {
			seen[d.Subject.Filename] = true
		}
	}
	return len(seen)
}
