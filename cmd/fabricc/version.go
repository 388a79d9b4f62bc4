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
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the fabricc version and the Go version it was built with",
		Example: "  fabricc version\n  fabricc --version",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return err
		},
	}
}

// versionLine is "fabricc v1.2.3 (go1.26.8 linux/amd64)".
func versionLine() string {
	bi, _ := debug.ReadBuildInfo()
	return fmt.Sprintf("fabricc %s (%s %s/%s)", versionOf(version, bi), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// versionOf picks the version to show: the -ldflags one when set, else
// the module version Go recorded (`go install module@v1.2.3`), else
// "dev" with the VCS revision and a "+dirty" mark when Go recorded them.
func versionOf(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "dev" && ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "dev"
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
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return "dev-" + rev
}
