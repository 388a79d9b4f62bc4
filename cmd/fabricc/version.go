package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3"
// (make build does). Without it the module version of a `go install
// ...@v1.2.3` build is used, or the VCS revision of a source build.
var version = "dev"

func init() { commands = append(commands, newVersionCmd) }

// newVersionCmd is `fabricc version` (also `fabricc --version`).
func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the fabricc version and the Go version it was built with",
		Long: "version prints the fabricc version and the Go toolchain, OS and architecture it was\n" +
			"built for; --json prints them in the envelope every command prints (docs/json.md),\n" +
			"whose fabricc_version field every other command's --json output carries too.",
		Example: "  fabricc version\n  fabricc --version\n  fabricc version --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				out := newOutput(cmd, "version", true)
				out.result = &versionResult{Version: fabriccVersion(), Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
				return out.done(nil)
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as one JSON object on stdout (docs/json.md)")
	return cmd
}

// versionResult is the --json result of version.
type versionResult struct {
	Version string `json:"version"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

// fabriccVersion is this fabricc's version alone ("v1.2.3", "dev-
// 044b02a7f0d8"), as the --json envelope and push's --report record it.
// Never in a build's files: golden files stay byte-identical across
// fabricc commits that render the same bytes.
func fabriccVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// versionLine is "fabricc v1.2.3 (go1.26.8 linux/amd64)".
func versionLine() string {
	return fmt.Sprintf("fabricc %s (%s %s/%s)", fabriccVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// noVCS is the version of a build that recorded no commit: go build
// with -buildvcs=false, or in a git worktree, where Go finds no VCS root
// (golang/go#58218). make build stamps the commit in both cases.
const noVCS = "dev (no VCS information: built with -buildvcs=false or in a git worktree, golang/go#58218; build with make)"

// versionOf picks the version to show: the -ldflags one when set, else
// the module version Go recorded (`go install module@v1.2.3`), else
// "dev" with the VCS revision and a "+dirty" mark when Go recorded them,
// else noVCS.
func versionOf(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "dev" && ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return noVCS
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return noVCS
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return "dev-" + rev
}
