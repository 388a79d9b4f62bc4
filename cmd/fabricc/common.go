package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// loadFlags are the -var and --var-file flags every command that reads a
// fabric takes.
type loadFlags struct {
	vars     []string
	varFiles []string
	large    bool
	// env, when recorded is set, stands for the environment's
	// FABRICC_VAR_ settings: those a build recorded in its manifest.
	env      map[string]string
	recorded bool
}

// register adds the flags to fs.
func (l *loadFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&l.vars, "var", nil, "set a variable: `NAME=VALUE`, VALUE an HCL expression or plain text (repeatable; FABRICC_VAR_NAME=VALUE in the environment sets it too, under --var-file and --var)")
	fs.StringArrayVar(&l.varFiles, "var-file", nil, "read variables from `FILE`, HCL lines of name = value (repeatable)")
	fs.BoolVar(&l.large, "large", false, "raise the evaluation limits for a fabric of tens of thousands of devices (docs/language.md, Strings and limits)")
}

// options turns the flags into dsl.Options; a -var without "=" is a
// usage error.
func (l *loadFlags) options() (dsl.Options, error) {
	opts := dsl.Options{Vars: map[string]string{}, VarFiles: l.varFiles, Large: l.large, EnvVars: l.env}
	if !l.recorded {
		opts.EnvVars = envVars(os.Environ())
	}
	opts.EnvApplied = map[string]string{}
	opts.Read = new([]string)
	for _, kv := range l.vars {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return opts, usageError(fmt.Errorf("-var %q: expected name=VALUE", kv))
		}
		opts.Vars[strings.TrimSpace(name)] = value
	}
	for _, f := range l.varFiles {
		if err := existingFile(f, "--var-file: variables file", "give a file of name = value lines"); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

// envVars picks the FABRICC_VAR_name=value settings out of environ.
func envVars(environ []string) map[string]string {
	var out map[string]string
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		name, ok := strings.CutPrefix(name, dsl.EnvPrefix)
		if !ok || name == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = value
	}
	return out
}

// given reports whether any of the flags was given.
func (l *loadFlags) given() bool { return len(l.vars) > 0 || len(l.varFiles) > 0 || l.large }

// buildInputs are the load options (from loadFlags.options) of the
// fabric at path as the build folder dir's manifest.json records them:
// var files relative to dir, as the fabric's path is, and the SHA-256 of
// the sources. The files were read a moment ago; a digest that fails
// only leaves push's stale-build check without its record.
func buildInputs(path string, opts dsl.Options, dir string) artifacts.Inputs {
	in := artifacts.Inputs{Large: opts.Large}
	if opts.Read != nil && len(*opts.Read) > 0 {
		in.DataFiles = *opts.Read
	}
	in.SourcesSHA256, _ = dsl.SourceDigest(path, opts.VarFiles, in.DataFiles)
	if len(opts.Vars) > 0 {
		in.Vars = opts.Vars
	}
	if len(opts.EnvApplied) > 0 {
		in.EnvVars = opts.EnvApplied
	}
	for _, f := range opts.VarFiles {
		in.VarFiles = append(in.VarFiles, relativePath(dir, f))
	}
	return in
}

// recordedFlags are the flags a build recorded in the manifest of the
// folder dir, var files made relative to the current folder.
func recordedFlags(in artifacts.Inputs, dir string) *loadFlags {
	l := &loadFlags{large: in.Large, env: in.EnvVars, recorded: true}
	names := make([]string, 0, len(in.Vars))
	for name := range in.Vars {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		l.vars = append(l.vars, name+"="+in.Vars[name])
	}
	for _, f := range in.VarFiles {
		p := filepath.FromSlash(f)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		l.varFiles = append(l.varFiles, p)
	}
	return l
}

// existingPath is a usage error unless path exists.
func existingPath(path string) error {
	return existingFile(path, "", "give a .hcl file or a folder of .hcl files")
}

// existingFile is a usage error unless path exists: "WHAT PATH does not
// exist; HINT" (or "PATH does not exist; HINT" without what), the one
// wording for every path of a command line that is not there. Any other
// failure to read it is left to the reader, which says what it is.
func existingFile(path, what, hint string) error {
	if _, err := os.Stat(path); err != nil && errors.Is(err, fs.ErrNotExist) {
		if what != "" {
			what += " "
		}
		return usageError(fmt.Errorf("%s%s does not exist; %s", what, path, hint))
	}
	return nil
}

// exactArgs accepts exactly n arguments (argsBetween(n, n)).
func exactArgs(n int) cobra.PositionalArgs { return argsBetween(n, n) }

// argsBetween accepts min to max arguments. Fewer or more are a usage
// error that names what is missing, or which arguments are extra, and
// shows the usage line:
//
//	validate takes one argument (PATH); "extra" is one too many. Usage: fabricc validate PATH
func argsBetween(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		usage := "Usage: " + cmd.UseLine()
		names := argNames(cmd)
		switch {
		case len(args) > max:
			extra := args[max:]
			quoted := make([]string, len(extra))
			for i, a := range extra {
				quoted[i] = fmt.Sprintf("%q", a)
			}
			takes := "no arguments"
			switch {
			case max == 1 && min == 1:
				takes = "one argument (" + strings.Join(names, " ") + ")"
			case max == 1:
				takes = "at most one argument (" + strings.Join(names, " ") + ")"
			case max > 1:
				takes = fmt.Sprintf("at most %d arguments (%s)", max, strings.Join(names, " "))
			}
			tooMany := "is one too many"
			if len(extra) > 1 {
				tooMany = fmt.Sprintf("are %d too many", len(extra))
			}
			return usageError(fmt.Errorf("%s takes %s; %s %s. %s", cmd.Name(), takes, strings.Join(quoted, ", "), tooMany, usage))
		case len(args) < min:
			missing := names
			if len(args) < len(names) {
				missing = names[len(args):]
			}
			return usageError(fmt.Errorf("%s needs %s. %s", cmd.Name(), strings.Join(missing, " "), usage))
		}
		return nil
	}
}

// pathArg is the fabric PATH of a command that takes at most one: the
// current folder when none is given, as terraform plan and validate
// read it.
func pathArg(args []string) string {
	if len(args) == 0 {
		return "."
	}
	return args[0]
}

// argNames are the argument names of cmd's usage line: its words after
// the command name up to the first flag ("validate PATH" gives PATH,
// "push [PATH] -i INVENTORY" gives [PATH]).
func argNames(cmd *cobra.Command) []string {
	var names []string
	for _, w := range strings.Fields(cmd.Use)[1:] {
		if strings.HasPrefix(w, "-") {
			break
		}
		names = append(names, w)
	}
	if len(names) == 0 {
		names = []string{"ARGUMENT"}
	}
	return names
}

// compileFabric loads and compiles the fabric at path. The model is nil
// when the diagnostics hold errors. One mistake repeated by a dynamic
// block or a variable is reported once (dsl.Collapse).
func compileFabric(path string, opts dsl.Options) (*model.Fabric, map[string]*hcl.File, hcl.Diagnostics) {
	f, files, diags, _ := compileFabricSkipped(path, opts)
	return f, files, diags
}

// compileFabricSkipped is compileFabric that also says which checks did
// not run because earlier ones found errors ("" when all ran): a fabric
// that does not decode is not compiled, and the compiler stops after its
// first phase with errors.
func compileFabricSkipped(path string, opts dsl.Options) (*model.Fabric, map[string]*hcl.File, hcl.Diagnostics, string) {
	start := time.Now()
	opts.Phase = timings.add
	cfg, files, diags := dsl.Load(path, opts)
	timings.add("load", time.Since(start))
	if diags.HasErrors() {
		return nil, files, dsl.Collapse(diags, files), compiler.SkippedUndecoded
	}
	// Compile returns a model whenever it reports no error.
	start = time.Now()
	f, cdiags, skipped := compiler.CompileSkipped(cfg)
	timings.add("compile", time.Since(start))
	return f, files, dsl.Collapse(append(diags, cdiags...), files), skipped
}

// errorSummary is "2 errors, 0 warnings", and when checks were skipped,
// a note that fixing them may show more (compileFabricSkipped).
func errorSummary(diags hcl.Diagnostics, skipped string) string {
	if skipped == "" {
		return countSummary(diags)
	}
	return countSummary(diags) + "; not checked yet: " + skipped + " (they run once these errors are fixed)"
}

// diagFormat selects how diagnostics are printed.
type diagFormat int

// Diagnostic formats: text with source snippets (the default), compact
// (--compact, one line each), JSON (--json) and GitHub Actions workflow
// commands (--github).
const (
	formatText diagFormat = iota
	formatCompact
	formatJSON
	formatGitHub
)

// diagFlags are the flags that choose the diagnostics' format.
type diagFlags struct {
	compact, json, github bool
}

// register adds --compact, --json (what jsonWhat says the object holds)
// and --github to fs.
func (d *diagFlags) register(fs *pflag.FlagSet, jsonWhat string) {
	fs.BoolVar(&d.compact, "compact", false, "print one FILE:LINE:COL line per diagnostic on stdout")
	fs.BoolVar(&d.json, "json", false, "print "+jsonWhat+" as one JSON object on stdout (docs/json.md)")
	fs.BoolVar(&d.github, "github", false, "print each diagnostic as a GitHub Actions workflow command on stdout, shown on the pull request's lines (docs/review.md)")
}

// format is the format the flags choose, or a usage error when more
// than one is set.
func (d *diagFlags) format() (diagFormat, error) {
	var set []string
	format := formatText
	for _, f := range []struct {
		on     bool
		name   string
		format diagFormat
	}{{d.compact, "--compact", formatCompact}, {d.json, "--json", formatJSON}, {d.github, "--github", formatGitHub}} {
		if f.on {
			set, format = append(set, f.name), f.format
		}
	}
	if len(set) > 1 {
		return formatText, usageError(fmt.Errorf("%s exclude each other; keep one", strings.Join(set, " and ")))
	}
	return format, nil
}

// githubBase is the folder --github annotations name files relative
// to: the repository's root, which is $GITHUB_WORKSPACE in a workflow
// ("Store information in variables", default environment variables),
// else the top of the git work tree the current folder is in, else ""
// (each file as given).
func githubBase() string {
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" {
		return ws
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(out), "\r\n")
}

// printDiagnostics writes diags in the chosen format: compact to stdout
// (for tools), text to stderr (for people). JSON goes into the command's
// envelope (output).
func printDiagnostics(cmd *cobra.Command, format diagFormat, files map[string]*hcl.File, diags hcl.Diagnostics) error {
	switch format {
	case formatCompact:
		return dsl.WriteCompact(cmd.OutOrStdout(), diags)
	case formatGitHub:
		return dsl.WriteGitHub(cmd.OutOrStdout(), diags, githubBase())
	}
	if len(diags) == 0 {
		return nil
	}
	w := cmd.ErrOrStderr()
	width := uint(0)
	if isTerminal(w) {
		width = 100
	}
	return dsl.WriteText(w, files, diags, width, useColor(w))
}

// countSummary is "2 errors, 1 warning".
func countSummary(diags hcl.Diagnostics) string {
	e, w := dsl.Count(diags)
	return plural(e, "error") + ", " + plural(w, "warning")
}

// fabricSummary is `fabric "x": 1 switch, 5 hosts, 6 links`.
func fabricSummary(f *model.Fabric) string {
	return fmt.Sprintf("fabric %q: %s, %s, %s", f.Name,
		plural(len(f.Switches), "switch"), plural(len(f.Hosts), "host"), plural(len(f.Links), "link"))
}

// plural is "1 host", "2 hosts", "2 switches".
func plural(n int, noun string) string { return english.Count(n, noun) }
