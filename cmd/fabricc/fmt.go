package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/fabricc/fabricc/dsl"
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
		Use:   "fmt PATH...",
		Short: "Rewrite fabric files in canonical layout",
		Long: "fmt rewrites .hcl files, or every .hcl file below a folder (recursively), in\n" +
			"canonical HCL layout. With --check it changes nothing, lists the files that are not\n" +
			"formatted and exits 1 if there are any; with --diff it prints what would change. Files\n" +
			"that do not parse are reported and never rewritten. A folder without .hcl files is an\n" +
			"error (exit 1), so a check that found nothing to check does not pass.",
		Example: "  fabricc fmt examples/demartek-lab\n" +
			"  fabricc fmt --check --diff fabric/",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError(fmt.Errorf("give at least one .hcl file or folder"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("write") {
				ff.write = !ff.check && !ff.diff
			}
			if ff.check && ff.write {
				return usageError(fmt.Errorf("--check and --write exclude each other"))
			}
			return runFmt(cmd, args, ff)
		},
	}
	cmd.Flags().BoolVar(&ff.check, "check", false, "change nothing; list unformatted files and exit 1 if there are any")
	cmd.Flags().BoolVar(&ff.diff, "diff", false, "print a unified diff of the changes")
	cmd.Flags().BoolVarP(&ff.write, "write", "w", false, "rewrite the files (default unless --check or --diff)")
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
	if ff.check {
		fmt.Fprintln(cmd.OutOrStdout(), name)
	}
	if ff.diff {
		fmt.Fprint(cmd.OutOrStdout(), udiff.Unified(name, name+" (formatted)", string(src), string(out)))
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
