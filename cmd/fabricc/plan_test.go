package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// planBase is the plan package's base test fabric.
func planBase(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "plan", "testdata", "base", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// writeFabric writes text as dir/fabric.hcl.
func writeFabric(t *testing.T, dir, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitRun runs git in dir with a fixed identity.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

const cableLine = "  swp1: cable 3 m dac -> 30 m aoc, so PG3 in flight after PAUSE 75,776 -> 82,944 B, PG3 buffer 95,232 -> 102,400 B\n"

// TestPlanCommand runs `fabricc plan` against each kind of base: a
// fabric folder, a build output folder and git revisions of a work tree.
func TestPlanCommand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; the git revision cases need it")
	}
	base := planBase(t)
	changed := strings.Replace(base, "length = 3\n", "length = 30\n", 1)
	root := t.TempDir()
	// A git work tree whose first commit holds the base and whose work
	// tree holds the change; the fabric lives in a subfolder.
	repo := filepath.Join(root, "repo")
	fabric := filepath.Join(repo, "net", "lab")
	writeFabric(t, fabric, base)
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	writeFabric(t, fabric, changed)
	baseDir := filepath.Join(root, "base")
	writeFabric(t, baseDir, base)
	build := filepath.Join(root, "out")
	if code, _, errs := fabricc(t, "build", baseDir, "-o", build); code != 0 {
		t.Fatalf("build: %d %s", code, errs)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
		stderr   string
	}{
		{"folder, no change", []string{"plan", "--base", baseDir, baseDir}, 0, "No changes: fabric \"plan-test\" means the same in both revisions.\n", ""},
		{"folder", []string{"plan", "--base", baseDir, fabric}, 2, cableLine, ""},
		{"build output", []string{"plan", "--base", build, fabric}, 2, cableLine, ""},
		{"git HEAD", []string{"plan", "--base", "HEAD", fabric}, 2, cableLine, ""},
		{"git HEAD, markdown", []string{"plan", "--base", "HEAD", fabric, "--format", "markdown"}, 2, "- **swp1**: cable 3 m dac -\\> 30 m aoc", ""},
		{"git HEAD, json", []string{"plan", "--base", "HEAD", fabric, "--json"}, 2, "\"changed\": true", ""},
		{"git, single file", []string{"plan", "--base", "HEAD", filepath.Join(fabric, "fabric.hcl")}, 2, cableLine, ""},
		{"unknown revision", []string{"plan", "--base", "no-such-rev", fabric}, 1, "", "fabricc: --base \"no-such-rev\" is no folder, file or git revision of "},
		{"option as revision", []string{"plan", "--base", "--output=x", fabric}, 1, "", "fabricc: --base \"--output=x\": not a folder, a file or a git revision\n"},
		{"missing base", []string{"plan", fabric}, 1, "", "fabricc: missing --base"},
		{"bad format", []string{"plan", "--base", "HEAD", "--format", "yaml", fabric}, 1, "", "fabricc: --format \"yaml\": use text, markdown or json\n"},
		{"markdown, small limit", []string{"plan", "--base", "HEAD", fabric, "--format", "markdown", "--markdown-limit", "200"}, 2,
			"\n_Not shown: 2 more devices, from leaf1 on. This comment is limited to 200 characters (--markdown-limit); `fabricc plan` with `--format text` or `--json` prints the whole plan._\n", ""},
		{"markdown, negative limit", []string{"plan", "--base", "HEAD", fabric, "--format", "markdown", "--markdown-limit", "-1"}, 1, "", "fabricc: invalid argument \"-1\" for \"--markdown-limit\" flag: give a number of characters, or 0 for no limit\n"},
		{"bad flag", []string{"plan", "--bogus", fabric}, 1, "", "fabricc: unknown flag: --bogus\n"},
		{"base does not compile", []string{"plan", "--base", filepath.Join(root, "bad"), fabric}, 1, "", "does not compile (1 error, 0 warnings); nothing compared\n"},
	}
	writeFabric(t, filepath.Join(root, "bad"), strings.Replace(base, "length = 3\n", "length = -3\n", 1))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := fabricc(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errs)
			}
			if !strings.Contains(out, tc.contains) {
				t.Errorf("stdout lacks %q:\n%s", tc.contains, out)
			}
			if tc.stderr != "" && !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errs)
			}
			if tc.code == 1 && out != "" {
				t.Errorf("an error printed a plan:\n%s", out)
			}
		})
	}
	// The work tree is untouched by reading the base revision.
	if data, _ := os.ReadFile(filepath.Join(fabric, "fabric.hcl")); string(data) != changed {
		t.Error("plan changed the work tree")
	}
}

// TestPlanJSON: plan --json prints the shared envelope (docs/json.md)
// with the plan as its result, and keeps plan's exit status: 2 changes,
// 0 none, 1 an error (the compile errors then in diagnostics).
func TestPlanJSON(t *testing.T) {
	base := planBase(t)
	root := t.TempDir()
	baseDir, headDir, badDir := filepath.Join(root, "base"), filepath.Join(root, "head"), filepath.Join(root, "bad")
	writeFabric(t, baseDir, base)
	writeFabric(t, headDir, strings.Replace(base, "length = 3\n", "length = 30\n", 1))
	writeFabric(t, badDir, strings.Replace(base, "length = 3\n", "length = -3\n", 1))
	type change struct{ Field, Before, After string }
	type envelope struct {
		Command     string
		OK          bool
		Errors      int
		Error       string
		Diagnostics []struct{ Summary string }
		Result      *struct {
			Fabric  string
			Changed bool
			Devices []struct {
				Name    string
				Changes []struct {
					Subject string
					Changes []change
				}
			}
		}
	}
	tests := []struct {
		name    string
		base    string
		format  []string
		code    int
		ok      bool
		changed bool
		devices []string
		errors  []string
	}{
		{"cable change", baseDir, []string{"--json"}, 2, true, true, []string{"leaf1", "h1"}, nil},
		{"format json", baseDir, []string{"--format", "json"}, 2, true, true, []string{"leaf1", "h1"}, nil},
		{"no change", headDir, []string{"--json"}, 0, true, false, []string{}, nil},
		{"base does not compile", badDir, []string{"--json"}, 1, false, false, nil, []string{"Invalid cable length"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"plan", "--base", tc.base, headDir}, tc.format...)
			code, stdout, stderr := fabricc(t, args...)
			var env envelope
			dec := json.NewDecoder(strings.NewReader(stdout))
			if err := dec.Decode(&env); err != nil || dec.More() {
				t.Fatalf("stdout is not one JSON object (%v):\n%s", err, stdout)
			}
			if code != tc.code || env.Command != "plan" || env.OK != tc.ok {
				t.Fatalf("exit %d command %q ok %v, want %d plan %v\nstderr:\n%s", code, env.Command, env.OK, tc.code, tc.ok, stderr)
			}
			var summaries []string
			for _, d := range env.Diagnostics {
				summaries = append(summaries, d.Summary)
			}
			if tc.errors != nil {
				if env.Result != nil || !slices.Equal(summaries, tc.errors) || env.Errors != len(tc.errors) {
					t.Errorf("result %+v, diagnostics %q, want none and %q", env.Result, summaries, tc.errors)
				}
				return
			}
			var names []string
			for _, d := range env.Result.Devices {
				names = append(names, d.Name)
			}
			if env.Result.Fabric != "plan-test" || env.Result.Changed != tc.changed || !slices.Equal(names, tc.devices) {
				t.Errorf("result: fabric %q changed %v devices %q", env.Result.Fabric, env.Result.Changed, names)
			}
			if tc.changed {
				got := env.Result.Devices[0].Changes[0]
				want := change{"cable", "3 m dac", "30 m aoc"}
				if got.Subject != "swp1" || len(got.Changes) != 1 || got.Changes[0] != want {
					t.Errorf("leaf1's first change = %+v, want swp1 %+v", got, want)
				}
			}
		})
	}
}

// TestPlanFabricWideChanges: a class or VLAN change that no port input
// shows lists the switch, in text and in --json's result.devices, with
// the fabric-wide changes as the cause.
func TestPlanFabricWideChanges(t *testing.T) {
	base := planBase(t)
	root := t.TempDir()
	baseDir := filepath.Join(root, "base")
	writeFabric(t, baseDir, base)
	const qos = "profile = \"nvidia-roce\"\n"
	tests := []struct {
		name, old, new string
		text           string // the whole standard output
		devices        []string
		effect         string // leaf1's first change, as "field before -> after because"
	}{
		{"ECN minimum", qos, qos + "\n  class \"roce\" {\n    ecn {\n      min = \"200KB\"\n    }\n  }\n",
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.

fabric-wide
  class roce: ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %

leaf1 (switch)
  TC3 ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %, because of class roce ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %
`,
			[]string{"leaf1"}, "TC3 ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 % because class roce ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %"},
		{"unused VLAN", "vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"spare\" {\n  id = 200\n}\n",
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.

fabric-wide
  VLAN 200: added: name spare

leaf1 (switch)
  VLANs 10 -> 10, 200, because of VLAN 200 added: name spare
`,
			[]string{"leaf1"}, "VLANs 10 -> 10, 200 because VLAN 200 added: name spare"},
		{"ETS bandwidths", qos, qos + "\n  class \"roce\" {\n    bandwidth = 60\n  }\n\n  class \"default\" {\n    bandwidth = 40\n  }\n",
			`Fabric "plan-test": 3 devices change (leaf1, h1, h2); 2 fabric-wide changes.
Hosts to run their script: 2 (h1, h2).

fabric-wide
  class default: ETS WRR 50 % -> WRR 40 %
  class roce: ETS WRR 50 % -> WRR 60 %

leaf1 (switch)
  ETS TC0 45 %, TC3 50 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 % -> TC0 35 %, TC3 60 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 %, because of the fabric-wide changes above

h1 (host)
  roce0: ETS TC0 50 %, TC3 50 %, TC6 strict -> TC0 40 %, TC3 60 %, TC6 strict, because of the fabric-wide changes above
  script changes: run it

h2 (host)
  roce0: ETS TC0 50 %, TC3 50 %, TC6 strict -> TC0 40 %, TC3 60 %, TC6 strict, because of the fabric-wide changes above
  script changes: run it
`,
			[]string{"leaf1", "h1", "h2"}, "ETS TC0 45 %, TC3 50 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 % -> TC0 35 %, TC3 60 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 % because the fabric-wide changes above"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			head := filepath.Join(root, strings.ReplaceAll(tc.name, " ", "-"))
			if !strings.Contains(base, tc.old) {
				t.Fatalf("%q not in the base fabric", tc.old)
			}
			writeFabric(t, head, strings.Replace(base, tc.old, tc.new, 1))
			code, out, errs := fabricc(t, "plan", "--base", baseDir, head)
			if code != 2 || out != tc.text {
				t.Errorf("exit %d, want 2; stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, tc.text, errs)
			}
			code, out, _ = fabricc(t, "plan", "--base", baseDir, head, "--json")
			var env struct {
				Result struct {
					Devices []struct {
						Name    string
						Changes []struct {
							Subject string
							Effects []struct{ Field, Before, After string }
							Because []string
						}
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &env); err != nil || code != 2 {
				t.Fatalf("exit %d (%v):\n%s", code, err, out)
			}
			var names []string
			for _, d := range env.Result.Devices {
				names = append(names, d.Name)
			}
			if !slices.Equal(names, tc.devices) {
				t.Fatalf("result.devices %q, want %q", names, tc.devices)
			}
			first := env.Result.Devices[0].Changes[0]
			if len(first.Effects) != 1 || first.Subject != "" {
				t.Fatalf("leaf1's first change = %+v, want one effect on the switch itself", first)
			}
			e := first.Effects[0]
			if got := e.Field + " " + e.Before + " -> " + e.After + " because " + strings.Join(first.Because, "; "); got != tc.effect {
				t.Errorf("leaf1's first change: %q, want %q", got, tc.effect)
			}
		})
	}
}

// TestPlanBaseWithoutFabric: a git revision before the fabric was added
// (the first pull request of a fabric) is a plan that adds every device,
// with a line that says why, not an error.
func TestPlanBaseWithoutFabric(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("no fabric yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "before the fabric")
	fabric := filepath.Join(repo, "fabric")
	writeFabric(t, fabric, planBase(t))
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "the fabric")
	want := `Fabric "plan-test": 3 devices change (leaf1, h1, h2); 6 fabric-wide changes.
Hosts to run their script: 2 (h1, h2).
The base revision HEAD~1 has no fabric at "fabric"; every device is added.

fabric-wide
  fabric: name none -> plan-test
  qos: profile none -> nvidia-roce, PFC priorities none -> 3, RoCE class none -> roce, CNP class none -> cnp, lossless MTU 0 -> 4,096 B, small packets 0 -> 100 %
  class default: added: priority 0, TC0, DSCP 0-23, 32-47, 56-63, WRR 50 %
  class roce: added: priority 3, TC3, DSCP 24-31, lossless, WRR 50 %
  class cnp: added: priority 6, TC6, DSCP 48-55, strict
  VLAN 10: added: name compute

leaf1 (switch, added)
  added: cumulus 5.9.2 on SN2700, 2 ports

h1 (host, added)
  added: linux ubuntu22.04, 1 NIC
  new host: run its script

h2 (host, added)
  added: linux ubuntu22.04, 1 NIC
  new host: run its script
`
	code, out, errs := fabricc(t, "plan", "--base", "HEAD~1", fabric)
	if code != 2 || out != want {
		t.Errorf("exit %d, want 2\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, errs)
	}
	// A single file new since the revision, and --json.
	code, out, errs = fabricc(t, "plan", "--base", "HEAD~1", filepath.Join(fabric, "fabric.hcl"), "--json")
	var env struct {
		OK     bool
		Result struct {
			Notes   []string
			Devices []struct{ Name, Status string }
		}
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 2 || !env.OK {
		t.Fatalf("exit %d ok %v (%v):\n%s\nstderr:\n%s", code, env.OK, err, out, errs)
	}
	var devices []string
	for _, d := range env.Result.Devices {
		devices = append(devices, d.Name+" "+d.Status)
	}
	wantNotes := []string{`The base revision HEAD~1 has no fabric at "fabric/fabric.hcl"; every device is added.`}
	if !slices.Equal(env.Result.Notes, wantNotes) || !slices.Equal(devices, []string{"leaf1 added", "h1 added", "h2 added"}) {
		t.Errorf("notes %q devices %q, want %q and every device added", env.Result.Notes, devices, wantNotes)
	}
}

// TestPlanBaseDiagnosticNames: the errors of a git revision that does
// not compile name its files as REV:PATH, in the summary, the detail, the
// related places and the snippets (text) and in --json's ranges, never
// the temporary folder the revision was read into.
func TestPlanBaseDiagnosticNames(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := planBase(t)
	repo := t.TempDir()
	fabric := filepath.Join(repo, "net", "lab")
	writeFabric(t, fabric, base+"\nqos {\n  profile = \"nvidia-roce\"\n}\n")
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "two qos blocks")
	writeFabric(t, fabric, base)
	code, out, errs := fabricc(t, "plan", "--base", "HEAD", fabric)
	want := `Error: Duplicate qos block

  on HEAD:net/lab/fabric.hcl line 72, column 1, in qos:
  72: qos {

A fabric has at most one qos block, and the first is at HEAD:net/lab/fabric.hcl:5,1-4; merge the two.

  first qos block:
  on HEAD:net/lab/fabric.hcl line 5, column 1:
   5: qos {

fabricc: the base revision HEAD does not compile (1 error, 0 warnings); nothing compared
`
	if code != 1 || out != "" || errs != want {
		t.Errorf("exit %d, want 1; stdout %q\nstderr:\n%s\nwant:\n%s", code, out, errs, want)
	}
	code, out, _ = fabricc(t, "plan", "--base", "HEAD", fabric, "--json")
	var env struct {
		Diagnostics []struct {
			Detail  string
			Range   struct{ Filename string }
			Related []struct{ Range struct{ Filename string } }
		}
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 1 || len(env.Diagnostics) != 1 || len(env.Diagnostics[0].Related) != 1 {
		t.Fatalf("exit %d (%v):\n%s", code, err, out)
	}
	d := env.Diagnostics[0]
	if got := []string{d.Range.Filename, d.Related[0].Range.Filename, d.Detail}; !slices.Equal(got, []string{"HEAD:net/lab/fabric.hcl", "HEAD:net/lab/fabric.hcl",
		"A fabric has at most one qos block, and the first is at HEAD:net/lab/fabric.hcl:5,1-4; merge the two."}) {
		t.Errorf("range, related range, detail: %q", got)
	}
	if strings.Contains(out, "fabricc-plan-") {
		t.Errorf("--json names the temporary folder:\n%s", out)
	}
}

// TestPlanHelpJQExample: the jq path the help's --json example reads is
// in the output: the devices of the changed plan, not null.
func TestPlanHelpJQExample(t *testing.T) {
	_, help, _ := fabricc(t, "plan", "--help")
	_, path, ok := strings.Cut(help, "--json | jq .")
	if !ok {
		t.Fatalf("plan --help has no jq example:\n%s", help)
	}
	path, _, _ = strings.Cut(path, "\n")
	root := t.TempDir()
	baseDir, headDir := filepath.Join(root, "base"), filepath.Join(root, "head")
	writeFabric(t, baseDir, planBase(t))
	writeFabric(t, headDir, strings.Replace(planBase(t), "length = 3\n", "length = 30\n", 1))
	_, out, _ := fabricc(t, "plan", "--base", baseDir, headDir, "--json")
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	for _, key := range strings.Split(path, ".") {
		obj, _ := v.(map[string]any)
		v = obj[key]
	}
	if devices, _ := v.([]any); len(devices) != 2 {
		t.Errorf("jq .%s of a plan with two changed devices gives %v", path, v)
	}
}

// TestPlanVarOfANewVariable: a -var for a variable the change adds is
// the head's alone: the base, which does not declare it, compiles
// without it (it was an error), and the plan says so.
func TestPlanVarOfANewVariable(t *testing.T) {
	base := planBase(t)
	root := t.TempDir()
	baseDir, headDir := filepath.Join(root, "base"), filepath.Join(root, "head")
	writeFabric(t, baseDir, base)
	writeFabric(t, headDir, "variable \"spare_vlan\" {\n  default = 300\n}\n\n"+base+"\nvlan \"spare\" {\n  id = var.spare_vlan\n}\n")
	code, stdout, stderr := fabricc(t, "plan", "--base", baseDir, "-var", "spare_vlan=200", headDir)
	want := `Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.
The base revision does not declare variable spare_vlan; -var sets it for the head only.

fabric-wide
  VLAN 200: added: name spare

leaf1 (switch)
  VLANs 10 -> 10, 200, because of VLAN 200 added: name spare
`
	if code != 2 || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}
	// validate keeps refusing a -var the fabric does not declare.
	if code, _, stderr := fabricc(t, "validate", "-var", "spare_vlan=200", baseDir); code != 1 || !strings.Contains(stderr, `-var sets "spare_vlan", which the fabric does not declare`) {
		t.Errorf("validate: exit %d\n%s", code, stderr)
	}
}

// TestPlanShallowClone: in a shallow CI clone (made here with git clone
// --depth 1), a base that was not fetched is not called a mistake alone:
// the message says the clone is shallow, or has no such remote-tracking
// branch, and how to fetch it (git fetch, actions/checkout fetch-depth:
// 0, GitLab GIT_DEPTH: 0).
func TestPlanShallowClone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := planBase(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(root, "repo")
	writeFabric(t, filepath.Join(repo, "fabric"), base)
	gitRun(t, repo, "init", "-q", "-b", "main")
	gitRun(t, repo, "add", "fabric/fabric.hcl")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	gitRun(t, repo, "checkout", "-q", "-b", "cable")
	writeFabric(t, filepath.Join(repo, "fabric"), strings.Replace(base, "length = 3\n", "length = 30\n", 1))
	gitRun(t, repo, "commit", "-q", "-a", "-m", "cable")
	gitRun(t, root, "clone", "-q", "--depth", "1", "--branch", "cable", "file://"+repo, "shallow")
	gitRun(t, root, "clone", "-q", "--single-branch", "--branch", "cable", "file://"+repo, "single")

	history := "or clone with the history (actions/checkout: fetch-depth: 0; GitLab CI: GIT_DEPTH: 0)\n"
	shallow, single := filepath.Join(root, "shallow"), filepath.Join(root, "single")
	for _, c := range []struct{ dir, base, want string }{
		{shallow, "origin/main", "fabricc: --base \"origin/main\" is no folder, file or git revision of " + shallow +
			": this clone is shallow (git rev-parse --is-shallow-repository) and has no origin/main; fetch it (git fetch --depth=1 origin main:refs/remotes/origin/main), " + history},
		{shallow, "HEAD~1", "fabricc: --base \"HEAD~1\" is no folder, file or git revision of " + shallow +
			": this clone is shallow (git rev-parse --is-shallow-repository), so HEAD~1 may not have been fetched; fetch the history (git fetch --unshallow), " + history},
		{single, "origin/main", "fabricc: --base \"origin/main\" is no folder, file or git revision of " + single +
			": the clone has no remote-tracking branch origin/main (a CI clone often fetches one branch); fetch it (git fetch --depth=1 origin main:refs/remotes/origin/main), " + history},
		{single, "no-such-rev", "fabricc: --base \"no-such-rev\" is no folder, file or git revision of " + single + "\n"},
	} {
		t.Chdir(c.dir)
		code, _, stderr := fabricc(t, "plan", "--base", c.base, "fabric")
		if code != 1 || stderr != c.want {
			t.Errorf("%s: plan --base %s: exit %d\n%s\nwant\n%s", filepath.Base(c.dir), c.base, code, stderr, c.want)
		}
	}
	// The advice works: after the fetch it names, the plan runs.
	gitRun(t, shallow, "fetch", "-q", "--depth=1", "origin", "main:refs/remotes/origin/main")
	t.Chdir(shallow)
	if code, stdout, stderr := fabricc(t, "plan", "--base", "origin/main", "fabric"); code != 2 || !strings.Contains(stdout, cableLine) {
		t.Errorf("plan after the fetch: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
