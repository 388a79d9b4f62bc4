package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// completionInventory is an inventory of two switches with groups and
// tags, for --limit's completion.
const completionInventory = `defaults {
  username     = "admin"
  password_env = "FABRICC_PASSWORD"
}
device "leaf1" {
  address  = "127.0.0.1"
  platform = "eos"
  groups   = ["leaves"]
}
device "spine1" {
  address  = "127.0.0.1"
  platform = "onyx"
  groups   = ["spines"]
  tags     = ["row-a"]
}
`

// TestCompletionValues: what fabricc answers the shells' `__complete`
// requests with, one request per kind of flag value.
func TestCompletionValues(t *testing.T) {
	inv := filepath.Join(t.TempDir(), "inventory.hcl")
	writeFile(t, inv, completionInventory)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--format", ""}, "text\nmarkdown\njson\n:4\n"},
		// --limit after a comma keeps what is before it; no space, since
		// another comma may follow.
		{[]string{"push", "-i", inv, "--limit", "leaf1,s"}, "leaf1,leaf1\nleaf1,leaves\nleaf1,row-a\nleaf1,spine1\nleaf1,spines\n:6\n"},
		{[]string{"verify", "--inventory=" + inv, "--limit", ""}, "leaf1\nleaves\nrow-a\nspine1\nspines\n:6\n"},
		// No inventory yet: nothing to offer, and no file names either.
		{[]string{"push", "--limit", ""}, ":4\n"},
		{[]string{"build", "-o", ""}, ":16\n"},
		{[]string{"push", "-i", ""}, "hcl\n:8\n"},
		{[]string{"path", "--fabric", ""}, "hcl\n:8\n"},
		{[]string{"explain", "--fabric", ""}, "hcl\n:8\n"},
		{[]string{"completion", ""}, "bash\nfish\npowershell\nzsh\n:4\n"},
	} {
		code, out, _ := fabricc(t, append([]string{"__complete"}, c.args...)...)
		if code != 0 || out != c.want {
			t.Errorf("__complete %q: exit %d\n%s\nwant:\n%s", c.args, code, out, c.want)
		}
	}
}

// TestCompletionShells: a script for each shell, and a clear refusal of
// another.
func TestCompletionShells(t *testing.T) {
	for shell, first := range map[string]string{
		"bash":       "# bash completion V2 for fabricc",
		"zsh":        "#compdef fabricc",
		"fish":       "# fish completion for fabricc",
		"powershell": "# powershell completion for fabricc",
	} {
		code, out, stderr := fabricc(t, "completion", shell)
		if code != 0 || !strings.HasPrefix(out, first) {
			t.Errorf("completion %s: exit %d, stderr %q, starts %.60q", shell, code, stderr, out)
		}
	}
	code, out, stderr := fabricc(t, "completion", "tcsh")
	want := "fabricc: no completion for shell \"tcsh\"; choose bash, fish, powershell, zsh\nRun 'fabricc completion --help' for usage.\n"
	if code != 2 || out != "" || stderr != want {
		t.Errorf("completion tcsh: exit %d, stdout %q, stderr %q, want 2 and %q", code, out, stderr, want)
	}
}

// TestCompletionInBash runs the bash script as bash-completion runs it
// (bash-completion 2, as Debian ships it), with the fabricc binary on
// PATH: what the user sees after pressing Tab.
func TestCompletionInBash(t *testing.T) {
	const lib = "/usr/share/bash-completion/bash_completion"
	bash, err := exec.LookPath("bash")
	if _, serr := os.Stat(lib); err != nil || serr != nil {
		if os.Getenv("FABRICC_CLIENTS") == "required" {
			t.Fatalf("bash or %s missing (.ci/run installs bash-completion)", lib)
		}
		t.Skipf("bash or %s missing", lib)
	}
	bin := buildBinary(t)
	script := filepath.Join(t.TempDir(), "fabricc.bash")
	code, out, _ := fabricc(t, "completion", "bash")
	if code != 0 {
		t.Fatalf("completion bash: exit %d", code)
	}
	writeFile(t, script, out)
	for line, want := range map[string]string{
		"fabricc va":              "validate",
		"fabricc plan --format m": "markdown",
		"fabricc pu":              "push",
		"fabricc plan --fo":       "--format",
	} {
		// compopt works only inside a completion bash started by Tab:
		// a no-op stands in for it.
		run := `source "$LIB"; source "$SCRIPT"; compopt() { :; }
read -ra COMP_WORDS <<<"$LINE"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$LINE"; COMP_POINT=${#LINE}
__start_fabricc
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", run)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "LIB="+lib, "SCRIPT="+script, "LINE="+line)
		cmd.Stderr = os.Stderr
		got, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(got)) != want {
			t.Errorf("%q then Tab: %v\n%s\nwant %q", line, err, got, want)
		}
	}
}
