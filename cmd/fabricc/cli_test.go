package main

import (
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// flagLine matches a flag line of a help text and captures what follows
// the flag name: a value name, or a pflag type name when one leaked.
var flagLine = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--[\w-]+ (\S+)`)

// TestHelpText keeps every command's help free of flag-library
// artefacts: pflag type names, cobra's "[flags]", "help for NAME" and its
// default completion command (fabricc's own says what it completes).
func TestHelpText(t *testing.T) {
	cmds := [][]string{{"--help"}}
	for _, c := range newRoot().Commands() {
		if c.IsAvailableCommand() {
			cmds = append(cmds, []string{c.Name(), "--help"})
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("only %d commands found", len(cmds))
	}
	for _, args := range cmds {
		code, out, stderr := fabricc(t, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		for _, bad := range []string{"[flags]", "help for ", "stringArray", "Generate the autocompletion", "autocompletion script", "Help about any command"} {
			if strings.Contains(out, bad) {
				t.Errorf("%v: help shows %q:\n%s", args, bad, out)
			}
		}
		for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
			if v := m[1]; v == "string" || v == "int" || v == "stringArray" || v == "float" || v == "strings" {
				t.Errorf("%v: a flag shows the type %q instead of a value name:\n%s", args, v, m[0])
			}
		}
	}
	_, out, _ := fabricc(t, "push", "--help")
	for _, want := range []string{"--artifacts DIR ", "--parallel N ", "--report FILE ", "--var NAME=VALUE ", "-i, --inventory FILE "} {
		if !strings.Contains(out, want) {
			t.Errorf("push --help lacks %q:\n%s", want, out)
		}
	}
}

// TestHelpSaysItsCommand: every command's help has examples (verify had
// none), says what applies to that command (push and diff described
// --artifacts "and, for verify, the host scripts"), writes flags as the
// flag list does (fmt's text said -check and -diff), and the help
// command is listed with a description, as shell completion shows it.
func TestHelpSaysItsCommand(t *testing.T) {
	cmds := []string{"help"}
	for _, c := range newRoot().Commands() {
		if c.IsAvailableCommand() {
			cmds = append(cmds, c.Name())
		}
	}
	for _, name := range cmds {
		_, out, _ := fabricc(t, name, "--help")
		if _, ex, _ := strings.Cut(out, "\nExamples:\n"); !regexp.MustCompile(`fabricc ` + name + `\b`).MatchString(ex) {
			t.Errorf("%s --help has no examples of %s:\n%s", name, name, out)
		}
		if strings.Contains(out, "for verify") && name != "verify" {
			t.Errorf("%s --help says what applies to verify:\n%s", name, out)
		}
		if m := regexp.MustCompile(`(^|[\s(])-(check|diff|var-file|write)\b`).FindString(out); m != "" {
			t.Errorf("%s --help writes %q, not the flag list's --form:\n%s", name, m, out)
		}
	}
	for name, want := range map[string][]string{
		"push":   {"--artifacts DIR              read the switch configurations from DIR,", "where each switch is and how to log in", "host keys of switches against"},
		"diff":   {"--artifacts DIR              read the switch configurations from DIR,", "where each switch is and how to log in", "host keys of switches against"},
		"verify": {"--artifacts DIR              read the switch configurations and the host scripts from DIR,", "where each switch and host is and how to log in", "host keys of switches and hosts against"},
	} {
		_, out, _ := fabricc(t, name, "--help")
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s --help lacks %q:\n%s", name, w, out)
			}
		}
	}
	_, out, _ := fabricc(t, "--help")
	if !strings.Contains(out, "\n  help        Show the help of a command (as COMMAND --help does)\n") {
		t.Errorf("fabricc --help does not list help:\n%s", out)
	}
	_, out, _ = fabricc(t, "__complete", "")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, ":") && !strings.Contains(l, "\t") {
			t.Errorf("completion offers %q without a description:\n%s", l, out)
		}
	}
	if !strings.Contains(out, "\nhelp\tShow the help of a command") {
		t.Errorf("completion does not offer help with its description:\n%s", out)
	}
	if _, out, _ = fabricc(t, "__complete", "help", "ve"); !strings.HasPrefix(out, "verify\tRead each switch back") && !strings.Contains(out, "\nverify\t") {
		t.Errorf("help does not complete command names:\n%s", out)
	}
}

// TestVersionFlag: `fabricc --version` and `fabricc version` print the same
// line.
func TestVersionFlag(t *testing.T) {
	c1, a, _ := fabricc(t, "--version")
	c2, b, _ := fabricc(t, "version")
	if c1 != 0 || c2 != 0 || a != b || !strings.HasPrefix(a, "fabricc ") || !strings.Contains(a, "(go1.") {
		t.Errorf("--version %d %q, version %d %q", c1, a, c2, b)
	}
}

func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	tests := []struct {
		name    string
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"ldflags win", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}}, "v1.2.3"},
		{"go install module@version", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"source build, clean", "dev", vcs("0123456789abcdef0123", "false"), "dev-0123456789ab"},
		{"source build, modified", "dev", vcs("0123456789abcdef0123", "true"), "dev-0123456789ab+dirty"},
		{"no vcs", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev (no VCS information: built with -buildvcs=false or in a git worktree, golang/go#58218; build with make)"},
		{"no build info", "dev", nil, "dev (no VCS information: built with -buildvcs=false or in a git worktree, golang/go#58218; build with make)"},
	}
	for _, tt := range tests {
		if got := versionOf(tt.ldflags, tt.bi); got != tt.want {
			t.Errorf("%s: versionOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestColorAllowed(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name     string
		terminal bool
		getenv   func(string) string
		want     bool
	}{
		{"terminal", true, env("TERM", "xterm-256color"), true},
		{"pipe", false, env("TERM", "xterm"), false},
		{"NO_COLOR set", true, env("TERM", "xterm", "NO_COLOR", "1"), false},
		{"NO_COLOR empty", true, env("TERM", "xterm", "NO_COLOR", ""), true},
		{"TERM=dumb", true, env("TERM", "dumb"), false},
	}
	for _, tt := range tests {
		if got := colorAllowed(tt.terminal, tt.getenv); got != tt.want {
			t.Errorf("%s: colorAllowed = %v, want %v", tt.name, got, tt.want)
		}
	}
}
