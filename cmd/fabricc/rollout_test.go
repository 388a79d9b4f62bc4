package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/push"
)

// roceMove moves class roce of the demo fabric from priority 3, DSCP
// 24-31 to priority 4, DSCP 32-39 in one change: plan finds no safe
// order for it (docs/changes.md).
func roceMove(t *testing.T, fab string) {
	t.Helper()
	p := filepath.Join(fab, "fabric.hcl")
	was := readFile(t, p)
	now := strings.Replace(was, "  profile = \"nvidia-roce\"\n", "  profile = \"nvidia-roce\"\n  class \"roce\" {\n    priority = 4\n    dscp     = [34, 32, 33, 35, 36, 37, 38, 39]\n  }\n", 1)
	if now == was {
		t.Fatal("the demo fabric's qos block changed: no profile line to add class roce after")
	}
	writeFile(t, p, now)
}

// The hazard of roceMove as plan says it, and push's and diff's
// warning of it.
const (
	roceMoveHazard = "lossless: no safe order in one step. After the push, until its script runs, gpu01:roce0 marks RoCE with DSCP 26, which leaf1:swp1 maps to priority 0, without PFC there: its RoCE runs lossy (and 23 more links); " +
		"a host whose script runs before the push breaks it too: gpu01:roce0 marks RoCE with DSCP 34, which leaf1:swp1 maps to priority 0, without PFC there: its RoCE runs lossy. " +
		"Make before break instead (docs/changes.md): 1. add the new priority and DSCP block as a second lossless class beside the old one, roce_class unchanged: push, then every host's script; " +
		"2. set roce_class to the new class: every host's script; 3. remove the old class once every host's --check passes: push, then every host's script. fabricc plan shows no rollout hazard for each of these steps."
	roceMoveSection = `(docs/changes.md, "The lossless priority or the RoCE DSCP block moves")`
	roceMoveWarning = "rollout: " + roceMoveHazard + ` (fabricc plan; docs/changes.md, "The lossless priority or the RoCE DSCP block moves")`
)

// roceMoveRefusal is push's error for roceMove compared with since.
func roceMoveRefusal(since string) string {
	return "fabricc: push refused: the change from " + since + " has no safe order in one step (fabricc plan's rollout): " + roceMoveHazard + " " + roceMoveSection +
		"; make before break as above, each step a change pushed on its own, or give --accept-rollout-hazard to push this change in one step anyway; nothing was changed\n"
}

// TestRolloutHazardPushAndDiff: a lossless-priority move, which plan
// finds no safe order for, is warned of by diff and push, compared with
// the build kept beside --artifacts DIR (.DIR.prev) or with --base REV
// for a fabric PATH: on stderr, in the --json diagnostics, the --report
// file and the approval question. push refuses it, changing nothing,
// unless --accept-rollout-hazard. Without a previous model, or against
// an unchanged one, nothing is said.
func TestRolloutHazardPushAndDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; --base REV needs it")
	}
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	fab := copyExample(t, clos)
	repo := filepath.Dir(fab)
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", "fabric")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	out := filepath.Join(repo, "out")
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	roceMove(t, fab)
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("rebuild: %s", stderr)
	}
	prev := filepath.Join(repo, ".out.prev")
	warning := "warning: " + roceMoveWarning + "\n"

	code, stdout, stderr := fabricc(t, "diff", "--artifacts", out, "-i", inv)
	if code != 2 || !strings.HasPrefix(stderr, warning) || !strings.HasSuffix(stdout, "diff: 6 devices: 6 would change\n") {
		t.Errorf("diff --artifacts: exit %d, want 2, the warning first on stderr\n%s\nstderr:\n%s\nstdout:\n%s", code, warning, stderr, stdout)
	}
	report := filepath.Join(t.TempDir(), "diff.json")
	code, stdout, _ = fabricc(t, "diff", "--artifacts", out, "-i", inv, "--json", "--report", report)
	var env struct {
		Diagnostics []struct{ Severity, Summary string } `json:"diagnostics"`
		Result      push.Report                          `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 2 {
		t.Fatalf("diff --json: exit %d, %v\n%s", code, err, stdout)
	}
	if !slices.ContainsFunc(env.Diagnostics, func(d struct{ Severity, Summary string }) bool {
		return d.Severity == "warning" && d.Summary == roceMoveWarning
	}) {
		t.Errorf("diff --json's diagnostics %+v lack the warning %q", env.Diagnostics, roceMoveWarning)
	}
	var rep push.Report
	if err := json.Unmarshal([]byte(readFile(t, report)), &rep); err != nil || !slices.Equal(rep.Warnings, []string{roceMoveWarning}) || !slices.Equal(env.Result.Warnings, rep.Warnings) {
		t.Errorf("diff's report warnings %q (%v), result's %q, want [%q]", rep.Warnings, err, env.Result.Warnings, roceMoveWarning)
	}

	// push refuses it, before connecting to any switch.
	code, stdout, stderr = fabricc(t, "push", "--artifacts", out, "-i", inv)
	if want := roceMoveRefusal("the previous build " + prev); code != 1 || stderr != want || stdout != "" {
		t.Errorf("push: exit %d, want 1 and stderr\n%s\ngot stdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
	}

	// With the flag, the approval question says it again.
	was := interactive
	t.Cleanup(func() { interactive = was })
	interactive = func(*cobra.Command) bool { return true }
	var o, e bytes.Buffer
	code = runWithInput([]string{"push", "--artifacts", out, "-i", inv, "--accept-rollout-hazard"}, strings.NewReader("no\n"), &o, &e)
	if want := "\n" + warning + "\nApply these changes to 6 switches?"; code != 1 || !strings.Contains(o.String(), want) || !strings.HasPrefix(e.String(), warning) {
		t.Errorf("push --accept-rollout-hazard on a terminal: exit %d, want 1 and the question led by\n%s\nstdout:\n%s\nstderr:\n%s", code, want, o.String(), e.String())
	}
	interactive = was

	code, stdout, stderr = fabricc(t, "push", "--yes", "--artifacts", out, "-i", inv, "--accept-rollout-hazard", "--report", report)
	if code != 0 || !strings.HasPrefix(stderr, warning) || !strings.HasSuffix(stdout, "push: 6 devices: 6 changed\n") {
		t.Fatalf("push --accept-rollout-hazard: exit %d\nstderr:\n%s\nstdout:\n%s", code, stderr, stdout)
	}
	rep = push.Report{}
	if err := json.Unmarshal([]byte(readFile(t, report)), &rep); err != nil || !slices.Equal(rep.Warnings, []string{roceMoveWarning}) {
		t.Errorf("push's report warnings %q (%v), want [%q]", rep.Warnings, err, roceMoveWarning)
	}

	// Built again unchanged: the kept build's model is the same, no hazard.
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("third build: %s", stderr)
	}
	code, _, stderr = fabricc(t, "diff", "--artifacts", out, "-i", inv)
	if code != 0 || strings.Contains(stderr, "rollout") {
		t.Errorf("diff of an unchanged rebuild: exit %d, want 0 and no rollout warning\n%s", code, stderr)
	}

	// A fabric PATH: --base REV, a git revision of it.
	code, _, stderr = fabricc(t, "diff", fab, "-i", inv, "--base", "HEAD")
	if code != 0 || !strings.HasPrefix(stderr, warning) {
		t.Errorf("diff --base HEAD: exit %d, want 0 (the switches run the change) and the warning first\n%s", code, stderr)
	}
	code, stdout, stderr = fabricc(t, "push", "--yes", fab, "-i", inv, "--base", "HEAD")
	if want := roceMoveRefusal("--base HEAD"); code != 1 || stderr != want || stdout != "" {
		t.Errorf("push --base HEAD: exit %d, want 1 and stderr\n%s\ngot stdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
	}
	// Without a previous model, nothing is said.
	code, _, stderr = fabricc(t, "diff", fab, "-i", inv)
	if code != 0 || strings.Contains(stderr, "rollout") {
		t.Errorf("diff of a fabric PATH without --base: exit %d, want 0 and no rollout warning\n%s", code, stderr)
	}
	code, _, stderr = fabricc(t, "diff", "--artifacts", out, "-i", inv, "--base", "HEAD")
	if want := "fabricc: --base goes with a fabric PATH; --artifacts DIR is compared with the build fabricc build kept beside it (.DIR.prev)\nRun 'fabricc diff --help' for usage.\n"; code != 1 || stderr != want {
		t.Errorf("diff --artifacts --base: exit %d, stderr\n%s\nwant\n%s", code, stderr, want)
	}
}
