package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/explain"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newExplainCmd) }

// newExplainCmd is `fabricc explain FILE:LINE`.
func newExplainCmd() *cobra.Command {
	var lf loadFlags
	var fabric string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain FILE:LINE",
		Short: "Say which part of the fabric produced a line of a built file, and how",
		Long: "explain takes a line of a file `fabricc build` wrote and prints the model element it\n" +
			"came from (a switch port, a priority group, a traffic class, a NIC), the places in the\n" +
			"HCL whose values flowed into it (file:line:col), and for derived numbers the derivation\n" +
			"with its inputs: a PFC headroom with the cable, MTU, speed and ASIC figures it was\n" +
			"computed from, a pool size with the buffer budget, an ECN threshold with its class.\n\n" +
			"It finds the fabric through the build folder's manifest.json (or --fabric), builds it\n" +
			"again in memory and refuses a file that is not what that build gives: a file changed\n" +
			"by hand, or a fabric changed since the build. Give the same -var and --var-file as the\n" +
			"build. Exit status: 0 explained, 1 an error, 2 a wrong command line.",
		Example: "  fabricc explain out/leaf1/leaf1.nvue.sh:79\n" +
			"  fabricc explain out/fabric.md:12 --json | jq '.result.elements[].sources'",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplain(cmd, args[0], fabric, &lf, asJSON)
		},
	}
	lf.register(cmd.Flags())
	cmd.Flags().StringVar(&fabric, "fabric", "", "the fabric `PATH` the folder was built from (default: the path its manifest.json records)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the explanation as one JSON object on stdout (docs/json.md)")
	return cmd
}

// runExplain explains one line.
func runExplain(cmd *cobra.Command, arg, fabric string, lf *loadFlags, asJSON bool) error {
	tuneGC() // it compiles the whole fabric again, as build does
	file, line, err := parseFileLine(arg)
	if err != nil {
		return usageError(err)
	}
	if _, err := lf.options(); err != nil {
		return err
	}
	out := newOutput(cmd, "explain", asJSON)
	dir, rel, err := buildFolder(file)
	if err != nil {
		return out.done(exitCode(1, err))
	}
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return out.done(exitCode(1, errors.New(v(err.Error()))))
	}
	if err := checkListed(m, file, rel); err != nil {
		return out.done(exitCode(1, err))
	}
	if fabric == "" {
		if fabric, err = recordedFabric(m, dir); err != nil {
			return out.done(exitCode(1, err))
		}
	}
	if !lf.given() {
		// Evaluate the fabric as the build did.
		lf = recordedFlags(m.Inputs, dir)
		if err := varFilesBeside(lf.varFiles, fabric); err != nil {
			return out.done(exitCode(1, err))
		}
	}
	opts, err := lf.options()
	if err != nil {
		return out.done(exitCode(1, fmt.Errorf("%w (as %s records the build's -var, --var-file and --large; give them to override)", err, artifacts.ManifestFile)))
	}
	loading := loadingLine(cmd.ErrOrStderr(), "explain", asJSON)
	b, files, diags := explain.Load(fabric, opts)
	loading.finish()
	if asJSON || diags.HasErrors() {
		// The build's warnings are not what was asked; errors are.
		out.report(files, diags)
	}
	if b == nil {
		return out.done(exitCode(1, fmt.Errorf("the fabric %s does not compile (%s); nothing explained", v(fabric), countSummary(diags))))
	}
	out.fabric(b.Fabric)
	stale := func(now string) error {
		return fmt.Errorf("%s is stale: building %s now %s "+
			"(the fabric or fabricc changed since, or the -var, --var-file or --large given here differ from the build's, which %s records); run fabricc build again",
			v(file), v(fabric), now, artifacts.ManifestFile)
	}
	rendered, err := artifacts.RenderFile(b.Fabric, artifacts.Options{Warnings: artifacts.Warnings(diags, fabric)}, rel)
	if err != nil {
		// The manifest lists the file, so the build's fabric had it.
		return out.done(exitCode(1, stale(fmt.Sprintf("gives no %s (%s), unlike the build that wrote the folder", v(rel), v(err.Error())))))
	}
	if artifacts.Digest(rendered.Data) != m.Files[rel] {
		return out.done(exitCode(1, stale(fmt.Sprintf("gives another %s than the build that wrote the folder", v(rel)))))
	}
	ex, err := b.Line(file, rendered, line)
	if err != nil {
		return out.done(exitCode(1, errors.New(v(err.Error()))))
	}
	if asJSON {
		out.result = ex
		return out.done(nil)
	}
	return explain.WriteText(cmd.OutOrStdout(), ex)
}

// parseFileLine splits "FILE:LINE" at its last colon.
func parseFileLine(arg string) (string, int, error) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("%q: give FILE:LINE, such as out/leaf1/leaf1.nvue.sh:79", v(arg))
	}
	n, err := strconv.Atoi(arg[i+1:])
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("%q: the line must be a number from 1, as in out/leaf1/leaf1.nvue.sh:79", v(arg))
	}
	return arg[:i], n, nil
}

// buildFolder finds the build folder holding file (the folder with
// manifest.json, one or two levels up: files sit at the top or in a
// device folder) and the file's slash path inside it.
func buildFolder(file string) (dir, rel string, err error) {
	st, err := os.Lstat(file)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", v(file), errors.Unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return "", "", fmt.Errorf("%s is not a regular file", v(file))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", "", err
	}
	for dir, depth := filepath.Dir(abs), 0; depth < 2; dir, depth = filepath.Dir(dir), depth+1 {
		if _, err := os.Lstat(filepath.Join(dir, artifacts.ManifestFile)); err == nil {
			rel, _ := filepath.Rel(dir, abs)
			return dir, filepath.ToSlash(rel), nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", "", fmt.Errorf("reading %s: %w", v(dir), err)
		}
	}
	return "", "", fmt.Errorf("%s is not in a folder fabricc build wrote: no %s next to it or one folder up", v(file), artifacts.ManifestFile)
}

// checkListed refuses a file the manifest does not list, one fabricc
// does not explain, and one changed since the build.
func checkListed(m *artifacts.Manifest, file, rel string) error {
	if path.Base(rel) == artifacts.ModelFile || rel == artifacts.ManifestFile {
		// The manifest does not list itself: it is the index.
		return fmt.Errorf("%s is the compiled model (or its index), written whole by fabricc, not by a target; explain a line of a device file or %s", v(file), "fabric.md")
	}
	want, ok := m.Files[rel]
	if !ok {
		return fmt.Errorf("%s is not listed in its folder's %s; explain works on the files fabricc build wrote", v(file), artifacts.ManifestFile)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("reading %s: %w", v(file), errors.Unwrap(err))
	}
	if artifacts.Digest(data) != want {
		return fmt.Errorf("%s was changed after fabricc build wrote it (its SHA-256 differs from %s); build the folder again", v(file), artifacts.ManifestFile)
	}
	return nil
}

// recordedFabric is the fabric path the manifest records, relative to
// the current folder.
func recordedFabric(m *artifacts.Manifest, dir string) (string, error) {
	if m.FabricPath == "" {
		return "", fmt.Errorf("%s records no fabric path (written by an older fabricc or in memory); give it with --fabric PATH", filepath.Join(dir, artifacts.ManifestFile))
	}
	p := manifestFabric(m, dir)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("the fabric %s that %s names is gone; give it with --fabric PATH", v(p), artifacts.ManifestFile)
	}
	return p, nil
}

// varFilesBeside refuses a var file a build folder's manifest names
// outside the folder that holds the fabric (its parent: a repository's
// top, where var files live beside the fabric folder). A build folder
// may come from elsewhere (a CI job's artifact), and a var file that is
// not HCL is quoted in the diagnostics: a manifest naming /etc/shadow
// would print its lines. Links are followed before the comparison.
func varFilesBeside(varFiles []string, fabric string) error {
	base := filepath.Dir(filepath.Clean(fabric))
	for _, f := range varFiles {
		err := dsl.InsideFolder(f, base)
		if err != nil && !errors.Is(err, fs.ErrNotExist) { // a missing file is the loader's to say
			return fmt.Errorf("%s records the var file %s, outside %s, the folder that holds the fabric; explain reads a var file a build folder names only from there, as the folder may come from elsewhere: give it with --var-file if you trust it",
				artifacts.ManifestFile, v(f), v(base))
		}
	}
	return nil
}

// manifestFabric is the manifest's fabric path (not empty) joined to
// the build folder dir, relative to the current folder when it can be.
func manifestFabric(m *artifacts.Manifest, dir string) string {
	p := filepath.FromSlash(m.FabricPath)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil {
			p = rel
		}
	}
	return p
}

// v makes a user string safe for a terminal.
func v(s string) string { return quote.Visible(s) }
