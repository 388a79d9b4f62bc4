package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestCommandLineMistakesInWords: a wrong value of a numeric or duration
// flag, a path that is not there and an argument too many or too few
// are said in words (what is wrong, what to give), with the usage, never
// as the Go error of the parser underneath ("strconv.ParseInt: parsing
// ...", "time: missing unit in duration ...", "stat ...: no such file
// or directory", cobra's "accepts 1 arg(s), received 2").
func TestCommandLineMistakesInWords(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	fab := "examples/tutorial"
	inv := "examples/tutorial/fabric.hcl" // exists; never read, the flags fail first
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"push", fab, "-i", inv, "--parallel", "abc"}, 1,
			"fabricc: invalid argument \"abc\" for \"--parallel\" flag: give a number of devices from 1, such as 8\nRun 'fabricc push --help' for usage.\n"},
		// 0 and less were taken as the default, 8.
		{[]string{"push", fab, "-i", inv, "--parallel", "0"}, 1,
			"fabricc: invalid argument \"0\" for \"--parallel\" flag: give a number of devices from 1, such as 8\nRun 'fabricc push --help' for usage.\n"},
		{[]string{"diff", fab, "-i", inv, "--parallel=-2"}, 1,
			"fabricc: invalid argument \"-2\" for \"--parallel\" flag: give a number of devices from 1, such as 8\nRun 'fabricc diff --help' for usage.\n"},
		{[]string{"verify", fab, "-i", inv, "--parallel", "0"}, 1,
			"fabricc: invalid argument \"0\" for \"--parallel\" flag: give a number of devices from 1, such as 8\nRun 'fabricc verify --help' for usage.\n"},
		{[]string{"push", fab, "-i", inv, "--lock-timeout", "5"}, 1,
			"fabricc: invalid argument \"5\" for \"--lock-timeout\" flag: give a duration with its unit, such as 30s or 2m (a bare number has none)\nRun 'fabricc push --help' for usage.\n"},
		{[]string{"diff", fab, "-i", inv, "--lock-timeout", "-1m"}, 1,
			"fabricc: invalid argument \"-1m\" for \"--lock-timeout\" flag: give a duration such as 30s or 2m, or 0\nRun 'fabricc diff --help' for usage.\n"},
		{[]string{"plan", "--base", fab, fab, "--markdown-limit", "many"}, 1,
			"fabricc: invalid argument \"many\" for \"--markdown-limit\" flag: give a number of characters, or 0 for no limit\n"},
		{[]string{"plan", "--base", fab, fab, "--markdown-limit", "-5"}, 1,
			"fabricc: invalid argument \"-5\" for \"--markdown-limit\" flag: give a number of characters, or 0 for no limit\n"},
		// A missing inventory was a diagnostic at "line 1" of a file that
		// is not there; a missing fabric a usage error: both are now the
		// latter, in the same words.
		{[]string{"diff", fab, "-i", "nope.hcl"}, 1,
			"fabricc: inventory file nope.hcl does not exist; give -i the inventory's .hcl file\nRun 'fabricc diff --help' for usage.\n"},
		{[]string{"verify", "nope", "-i", inv}, 1,
			"fabricc: nope does not exist; give a .hcl file or a folder of .hcl files\nRun 'fabricc verify --help' for usage.\n"},
		{[]string{"push", "--artifacts", "nope", "-i", inv}, 1,
			"fabricc: --artifacts: build folder nope does not exist; give the folder fabricc build -o wrote\nRun 'fabricc push --help' for usage.\n"},
		{[]string{"validate", "--var-file", "nonexist.hcl", fab}, 2,
			"fabricc: --var-file: variables file nonexist.hcl does not exist; give a file of name = value lines\nRun 'fabricc validate --help' for usage.\n"},
		{[]string{"build", fab, "-o", "never-written", "--var-file", "nonexist.hcl"}, 2,
			"fabricc: --var-file: variables file nonexist.hcl does not exist; give a file of name = value lines\nRun 'fabricc build --help' for usage.\n"},
		// fmt says a missing path as validate does.
		{[]string{"fmt", "nope/"}, 2,
			"fabricc: nope/ does not exist; give a .hcl file or a folder of .hcl files\nRun 'fabricc fmt --help' for usage.\n"},
		{[]string{"validate", fab, "extra"}, 2,
			"fabricc: validate takes at most one argument ([PATH]); \"extra\" is one too many. Usage: fabricc validate [PATH]\nRun 'fabricc validate --help' for usage.\n"},
		{[]string{"build", fab, "extra", "-o", "out"}, 2,
			"fabricc: build takes at most one argument ([PATH]); \"extra\" is one too many. Usage: fabricc build [PATH] -o DIR\nRun 'fabricc build --help' for usage.\n"},
		{[]string{"push", fab, "--artifacts", "out", "-i", inv}, 1,
			"fabricc: give either a fabric PATH or --artifacts DIR, not both\nRun 'fabricc push --help' for usage.\n"},
		{[]string{"verify", fab, "extra", "more", "-i", inv}, 1,
			"fabricc: verify takes at most one argument ([PATH]); \"extra\", \"more\" are 2 too many. Usage: fabricc verify [PATH] -i INVENTORY\nRun 'fabricc verify --help' for usage.\n"},
		{[]string{"version", "x"}, 2,
			"fabricc: version takes no arguments; \"x\" is one too many. Usage: fabricc version\nRun 'fabricc version --help' for usage.\n"},
	} {
		code, stdout, stderr := fabricc(t, tc.args...)
		if code != tc.code || stderr != tc.stderr || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q\nstderr %q\nwant exit %d, stderr %q", tc.args, code, stdout, stderr, tc.code, tc.stderr)
		}
	}
}

// TestMissingInventoryJSON: with --json a missing inventory is the
// envelope's error, as a missing fabric is, not a diagnostic at line 1
// of a file that does not exist.
func TestMissingInventoryJSON(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	for _, args := range [][]string{
		{"diff", "examples/tutorial", "-i", "nope.hcl", "--json"},
		{"diff", "nope", "-i", "examples/tutorial/fabric.hcl", "--json"},
	} {
		code, stdout, _ := fabricc(t, args...)
		var env struct {
			OK          bool              `json:"ok"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
			Error       string            `json:"error"`
		}
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, stdout)
		}
		if code != 1 || env.OK || len(env.Diagnostics) != 0 || env.Error == "" {
			t.Errorf("%q: exit %d, envelope %s", args, code, stdout)
		}
	}
}
