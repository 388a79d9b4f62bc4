package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim"
)

const clos = "../../examples/multivendor-clos"

// labFor starts simulators for the demo fabric and returns the lab
// folder (inventory, known_hosts, secrets) and the secrets' values.
func labFor(t *testing.T) (dir string, secrets []string) {
	t.Helper()
	return labWith(t, nil)
}

// labWith is labFor with adjust changing each switch's simulator
// options before it starts (sim.StartLab).
func labWith(t *testing.T, adjust func(*sim.Options)) (dir string, secrets []string) {
	t.Helper()
	set, _, diags, _, err := buildSet(clos, dsl.Options{})
	if diags.HasErrors() || err != nil {
		t.Fatalf("build: %v %v", diags, err)
	}
	f, err := model.Unmarshal(set.Model)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	lab, err := sim.StartLab(context.Background(), f, dir, adjust)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lab.Close)
	files, _ := filepath.Glob(filepath.Join(dir, "secrets", "*"))
	for _, p := range files {
		st, _ := os.Stat(p)
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, st.Mode().Perm())
		}
		b, _ := os.ReadFile(p)
		secrets = append(secrets, strings.TrimSpace(string(b)))
	}
	if len(secrets) != len(f.Switches) {
		t.Fatalf("%d secrets for %d switches", len(secrets), len(f.Switches))
	}
	return dir, secrets
}

func TestPushCommandStory(t *testing.T) {
	dir, secrets := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := fabricc(t, "build", clos, "-o", out); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	for _, step := range []struct {
		args   []string
		code   int
		stdout []string
	}{
		// A dry run exits 2 when there are changes to make, 0 when none.
		{[]string{"diff", "--artifacts", out, "-i", inv, "--limit", "spine*"}, 2, []string{"=== spine1 (eos)", "diff: 2 of 6 switches: 2 would change"}},
		// The README's --limit: a name pattern and a group the lab's
		// inventory gives by role (leaves, spines).
		{[]string{"diff", "--artifacts", out, "-i", inv, "--limit", "leaf1,spines"}, 2, []string{"=== leaf1 (cumulus)", "=== spine2 (eos)", "diff: 3 of 6 switches: 3 would change"}},
		{[]string{"push", clos, "-i", inv, "--dry-run", "--limit", "onyx"}, 2, []string{"=== leaf3 (onyx)", "+ interface ethernet 1/1 mtu 9216 force", "diff: 2 of 6 switches: 2 would change"}},
		// verify: 2 when the devices were read and differ (as diff and
		// plan: terraform plan -detailed-exitcode), 1 when one could not
		// be checked, 0 when all verified.
		{[]string{"verify", "--artifacts", out, "-i", inv, "--limit", "leaf1"}, 2, []string{"DIFF leaf1 swp1 port: intended configured, actual not in the switch's configuration", "verify: 1 of 6 switches: 1 mismatch"}},
		{[]string{"push", "--yes", "--artifacts", out, "-i", inv, "--parallel", "3", "--report", report}, 0, []string{"push: 6 devices: 6 changed"}},
		{[]string{"push", "--yes", "--artifacts", out, "-i", inv}, 0, []string{"push: 6 devices: 6 unchanged"}},
		{[]string{"verify", clos, "-i", inv}, 0, []string{"verify: 6 devices: 6 verified",
			// Every platform's LLDP neighbors read and found as cabled.
			"cabling leaf1: 10 cabled ports: 10 as cabled, 0 differ, 0 without an LLDP neighbor\n",
			"cabling leaf3: 10 cabled ports: 10 as cabled, 0 differ, 0 without an LLDP neighbor\n",
			"cabling spine1: 6 cabled ports: 6 as cabled, 0 differ, 0 without an LLDP neighbor\n"}},
		{[]string{"diff", clos, "-i", inv}, 0, []string{"diff: 6 devices: 6 up to date"}},
		// diff and push keep 2 for "changes pending" (a dry run): a wrong
		// command line is 1.
		{[]string{"diff", "--artifacts", out}, 1, nil},
		{[]string{"push", "--artifacts", out, "-i", inv, "--limit", "nosuch"}, 1, nil},
		{[]string{"push", clos, "--artifacts", out, "-i", inv}, 1, nil},
	} {
		code, stdout, stderr := fabricc(t, step.args...)
		if code != step.code {
			t.Errorf("%v: exit %d, want %d\n%s\n%s", step.args, code, step.code, stdout, stderr)
		}
		for _, w := range step.stdout {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: stdout lacks %q:\n%s", step.args, w, stdout)
			}
		}
		for _, s := range secrets {
			if strings.Contains(stdout+stderr, s) {
				t.Fatalf("%v printed a password", step.args)
			}
		}
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep push.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Action != "push" || len(rep.Devices) != 6 || rep.Devices[4].Device != "spine1" ||
		!rep.Devices[4].Verified || rep.Devices[4].Diff == "" || len(rep.Devices[4].Commands) == 0 {
		t.Errorf("report = %+v", rep.Devices[4])
	}
	for _, s := range secrets {
		if strings.Contains(string(data), s) {
			t.Fatal("report contains a password")
		}
	}
}

func TestPushInsecureWarnsAndWrongPasswordFails(t *testing.T) {
	dir, secrets := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	// A wrong password for leaf3: the error names the cause, not the value.
	const wrong = "definitely-wrong-pw-123"
	if err := os.WriteFile(filepath.Join(dir, "secrets", "leaf3"), []byte(wrong+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The report's name is a link someone planted to a file of theirs:
	// the report replaces the link, never writes through it, and is 0600.
	scratch := t.TempDir()
	report, victim := filepath.Join(scratch, "r.json"), filepath.Join(scratch, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, report); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := fabricc(t, "push", "--yes", clos, "-i", inv, "--limit", "leaf3", "--insecure-ignore-host-key", "--report", report)
	if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
		t.Errorf("--report wrote through a link: the linked file holds %q", got)
	}
	if fi, err := os.Lstat(report); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("--report is not a regular 0600 file: %v %v", fi.Mode(), err)
	}
	if code != 1 || !strings.Contains(stdout, `leaf3   onyx      failed  -         `) || !strings.HasSuffix(stdout, "push: nothing was changed on any switch\n") ||
		!strings.Contains(stdout, `: the device refused the login of user "admin" with the password from the inventory; check the secret the inventory names for it (password_env, password_file, private_key or agent) and the account on the device`) {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
	if !strings.Contains(stderr, "WARNING: --insecure-ignore-host-key") {
		t.Errorf("no warning on stderr:\n%s", stderr)
	}
	data, _ := os.ReadFile(report)
	for _, s := range append(secrets, wrong) {
		if strings.Contains(stdout+stderr+string(data), s) {
			t.Fatal("a password was printed or reported")
		}
	}
}

func TestPushInventoryDiagnostics(t *testing.T) {
	inv := filepath.Join(t.TempDir(), "inv.hcl")
	if err := os.WriteFile(inv, []byte("device \"leaf1\" {\n  address = \"127.0.0.1\"\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := fabricc(t, "push", "--yes", clos, "-i", inv)
	if code != 1 || !strings.Contains(stderr, "Missing username") || !strings.Contains(stderr, "inv.hcl") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	// The inventory is read before the fabric is compiled: its mistake
	// comes alone, not after the fabric's diagnostics.
	code, _, stderr = fabricc(t, "push", "--yes", "../../examples/bad/dscp-70.hcl", "-i", inv)
	if code != 1 || !strings.Contains(stderr, "Missing username") || strings.Contains(stderr, "Invalid DSCP") {
		t.Errorf("broken inventory and fabric: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestPushPlatformMismatchNamesTheInventory: a device whose inventory
// platform is not its fabric's is refused before anything connects,
// with the place in the inventory that declares it.
func TestPushPlatformMismatchNamesTheInventory(t *testing.T) {
	inv := filepath.Join(t.TempDir(), "inv.hcl")
	src := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\n" +
		"device \"leaf1\" {\n  address  = \"127.0.0.1\"\n  platform = \"eos\"\n}\n"
	if err := os.WriteFile(inv, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := fabricc(t, "push", "--yes", clos, "-i", inv, "--limit", "leaf1")
	want := "fabricc: " + inv + ":6:1: device \"leaf1\": the inventory says platform eos, the fabric says cumulus; correct the inventory's platform, or remove it (the fabric's is used)\n"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, want)
	}
}

func TestLabNeedsSwitches(t *testing.T) {
	code, _, stderr := fabricc(t, "lab", "../../examples/homelab-40g", "--run-push")
	if code != 1 || !strings.Contains(stderr, "has no switches") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// TestSwitchesJSON: diff, push and verify print one envelope on stdout
// with --json (docs/json.md), the report as its result, and keep the
// exit statuses (diff 2 with changes pending, 0 without).
func TestSwitchesJSON(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	type envelope struct {
		FormatVersion int    `json:"format_version"`
		Command       string `json:"command"`
		OK            bool   `json:"ok"`
		Errors        int    `json:"errors"`
		Error         string `json:"error"`
		Result        struct {
			Action  string `json:"action"`
			Devices []struct {
				Device, Status, Diff string
				Verified             bool
			} `json:"devices"`
		} `json:"result"`
	}
	for _, step := range []struct {
		args           []string
		code           int
		command, first string // first device's status
		withDiff       bool
	}{
		{[]string{"diff", clos, "-i", inv, "--json", "--limit", "leaf1"}, 2, "diff", "dry-run", true},
		{[]string{"push", "--yes", clos, "-i", inv, "--json"}, 0, "push", "changed", true},
		{[]string{"diff", clos, "-i", inv, "--json"}, 0, "diff", "dry-run", false},
		{[]string{"verify", clos, "-i", inv, "--json"}, 0, "verify", "verified", false},
	} {
		code, stdout, stderr := fabricc(t, step.args...)
		var env envelope
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Fatalf("%v: stdout is not one JSON object: %v\n%s\n%s", step.args, err, stdout, stderr)
		}
		if code != step.code || env.FormatVersion != 1 || env.Command != step.command || !env.OK || env.Errors != 0 || env.Error != "" ||
			env.Result.Action != step.command || len(env.Result.Devices) == 0 || env.Result.Devices[0].Status != step.first ||
			(env.Result.Devices[0].Diff != "") != step.withDiff {
			t.Errorf("%v: exit %d, envelope %+v", step.args, code, env)
		}
		if !strings.Contains(stderr, step.command+": ") {
			t.Errorf("%v: the summary should go to stderr with --json:\n%s", step.args, stderr)
		}
	}
	code, stdout, _ := fabricc(t, "verify", clos, "-i", filepath.Join(dir, "nosuch.hcl"), "--json")
	var env envelope
	// A wrong command line, as a missing fabric path is: the envelope's
	// error, exit status 1 (verify's 2 is "the devices differ").
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 1 || env.OK || env.Errors != 0 ||
		env.Error != "inventory file "+filepath.Join(dir, "nosuch.hcl")+" does not exist; give -i the inventory's .hcl file" {
		t.Errorf("missing inventory: exit %d, envelope %+v (%v)\n%s", code, env, err, stdout)
	}
}

// TestPushSaveUnsaved is the reviewer's case through the command line:
// someone's unsaved change on an Onyx leaf (made over SSH in
// configuration mode) makes `fabricc push` fail on that switch with the
// refusal, exit status 1 and nothing saved; `--save-unsaved` pushes and
// reports the change "saved with this push".
func TestPushSaveUnsaved(t *testing.T) {
	f, _, out := closBuild(t)
	sw := f.Switch("leaf3")
	one := startOne(t, sw, sim.Faults{})
	c, err := dialer(t, one)(one.dev, sw.Platform)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"configure terminal", "interface ethernet 1/20 description SOMEONE-ELSES-UNSAVED"} {
		if _, err := c.Send(cmd); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	saved := one.sim.Saved()
	found := "Onyx running configuration with unsaved changes that no fabricc push made"
	report := filepath.Join(t.TempDir(), "r.json")
	readReport := func() *push.DeviceResult {
		t.Helper()
		var rep push.Report
		data, err := os.ReadFile(report)
		if err == nil {
			err = json.Unmarshal(data, &rep)
		}
		if err != nil || len(rep.Devices) != 1 {
			t.Fatalf("report: %v %d devices", err, len(rep.Devices))
		}
		return rep.Devices[0]
	}

	code, stdout, stderr := fabricc(t, "push", "--yes", "--artifacts", out, "-i", one.inv, "--partial", "--report", report)
	want := found + ": a push ends by saving the whole running configuration, so it would save them too; save them (configuration write) " +
		"or discard them on the switch first, or push with --save-unsaved to save them with this change; nothing was changed"
	if d := readReport(); code != 1 || d.Status != push.StatusFailed || d.Error != want || len(d.Recovered) != 0 {
		t.Fatalf("push: exit %d status %s error %q recovered %v, want 1, failed, %q\n%s%s", code, d.Status, d.Error, d.Recovered, want, stdout, stderr)
	}
	if one.sim.Saved() != saved {
		t.Fatal("the refused push saved the configuration")
	}

	code, stdout, stderr = fabricc(t, "push", "--yes", "--artifacts", out, "-i", one.inv, "--partial", "--save-unsaved", "--report", report)
	d := readReport()
	if code != 0 || d.Status != push.StatusChanged || !slices.Equal(d.Recovered, []push.Recovery{{Found: found, Action: "saved with this push"}}) {
		t.Fatalf("push --save-unsaved: exit %d status %s error %q recovered %v\n%s%s", code, d.Status, d.Error, d.Recovered, stdout, stderr)
	}
	if !strings.Contains(stdout, "found "+found+": saved with this push") {
		t.Errorf("the summary does not say the change was saved:\n%s", stdout)
	}
	if got := one.sim.Saved(); got != one.sim.Running() || !strings.Contains(got, "SOMEONE-ELSES-UNSAVED") {
		t.Errorf("after push --save-unsaved the running configuration is not saved:\n%s", got)
	}
}

// TestWriteChangesEscapesDeviceText: a diff comes from the switch and
// carries what others configured there; its escape sequences and other
// control characters are shown, not obeyed, line by line, and its
// tabs and newlines stay as they are.
func TestWriteChangesEscapesDeviceText(t *testing.T) {
	rep := &push.Report{Action: push.ActionDiff, Devices: []*push.DeviceResult{{Device: "leaf1", Platform: "cumulus",
		Diff: "- set:\n    description: \"\x1b]0;owned\x07\"\n\tkept\r\n"}}}
	var b strings.Builder
	writeChanges(&b, rep, false)
	want := "=== leaf1 (cumulus)\n- set:\n    description: \"\\x1b]0;owned\\a\"\n\tkept\\r\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestInventoryDevicesOfOtherFabrics: an inventory shared by several
// fabrics says which fabrics a device belongs to (fabrics = [...]); a
// command on another fabric leaves it out with one note, unless --limit
// names it. A device that says nothing, or says this fabric, and that
// the fabric does not have is an error naming it (a typo must not leave
// a switch out unnoticed). The fabric's warnings come before each
// error.
func TestInventoryDevicesOfOtherFabrics(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	lab, err := os.ReadFile(inv)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(string(lab), "\n") + 2 // the ghost's block
	ghost := func(attrs string) string {
		p := filepath.Join(t.TempDir(), "inventory.hcl")
		src := strings.Replace(string(lab), `known_hosts = "known_hosts"`, `known_hosts = "`+filepath.Join(dir, "known_hosts")+`"`, 1) +
			"\ndevice \"ghost\" {\n  address  = \"127.0.0.1\"\n  password_env = \"FABRICC_TEST_UNSET\"\n  groups   = [\"leaves\"]\n" + attrs + "}\n"
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		// The lab's relative password files resolve against the copy's
		// folder: the lab's secrets, linked there.
		if err := os.Symlink(filepath.Join(dir, "secrets"), filepath.Join(filepath.Dir(p), "secrets")); err != nil {
			t.Fatal(err)
		}
		return p
	}
	at := func(p string) string { return fmt.Sprintf("%s:%d:1", p, line) }

	p := ghost("")
	code, _, stderr := fabricc(t, "diff", clos, "-i", p, "--limit", "leaves")
	want := "fabricc: " + at(p) + ": inventory device \"ghost\" is not a switch or host of fabric \"multivendor-clos\": if it is no longer in the fabric, remove its entry from the inventory (push and diff leave that switch's configuration as it is); if it was renamed, give the entry the fabric's new name; or leave it out of this run with --limit '!ghost'; or, for an inventory that several fabrics share, list the fabrics the device belongs to (fabrics = [...])\n"
	if code != 1 || !endsWithLine(stderr, want) {
		t.Errorf("a device the fabric lacks: exit %d, stderr %q\nwant %q", code, stderr, want)
	}

	p = ghost("  fabrics = [\"multivendor-clos\"]\n")
	code, _, stderr = fabricc(t, "diff", clos, "-i", p)
	want = "fabricc: " + at(p) + ": inventory device \"ghost\" says fabrics = [\"multivendor-clos\"], but fabric \"multivendor-clos\" has no switch or host of that name: if it is no longer in the fabric, remove its entry from the inventory (push and diff leave that switch's configuration as it is); if it was renamed, give the entry the fabric's new name; or leave it out of this run with --limit '!ghost'\n"
	if code != 1 || !endsWithLine(stderr, want) {
		t.Errorf("a device of this fabric that the fabric lacks: exit %d, stderr %q\nwant %q", code, stderr, want)
	}

	p = ghost("  fabrics = [\"pod2\", \"pod3\"]\n")
	code, stdout, stderr := fabricc(t, "diff", clos, "-i", p, "--limit", "leaves")
	note := "note: 1 device of the inventory (ghost) belongs to other fabrics (their fabrics lists) and is left out\n"
	if code != 2 || strings.Count(stderr, note) != 1 || !strings.Contains(stdout, "diff: 4 of 6 switches: 4 would change") {
		t.Errorf("a device of other fabrics: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = fabricc(t, "diff", clos, "-i", p, "--limit", "leaf1,ghost")
	want = "fabricc: " + at(p) + ": --limit names device \"ghost\", which the inventory puts in fabrics \"pod2\", \"pod3\", not in fabric \"multivendor-clos\"; narrow --limit\nRun 'fabricc diff --help' for usage.\n"
	if code != 1 || !endsWithLine(stderr, want) {
		t.Errorf("--limit naming a device of other fabrics: exit %d, stderr %q\nwant %q", code, stderr, want)
	}

	// Another pod's leaf1: the fabric has a leaf1 too, but the inventory
	// says this address is pod2's, so this fabric's configuration must
	// not reach it. (--limit cumulus leaves the ghost of the leaves group
	// out of the selection.)
	p = ghost("")
	src, err := os.ReadFile(p)
	const leaf1 = "device \"leaf1\" {\n"
	if err != nil || !strings.Contains(string(src), leaf1) {
		t.Fatalf("the lab inventory has no device leaf1 block: %v", err)
	}
	pod2 := strings.Replace(string(src), leaf1, leaf1+"  fabrics = [\"pod2\"]\n", 1)
	if err := os.WriteFile(p, []byte(pod2), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = fabricc(t, "diff", clos, "-i", p, "--limit", "cumulus")
	note = "note: 1 device of the inventory (leaf1) belongs to other fabrics (their fabrics lists) and is left out\n"
	if code != 2 || strings.Count(stderr, note) != 1 || !strings.Contains(stdout, "diff: 1 of 6 switches: 1 would change") || strings.Contains(stdout, "leaf1 ") {
		t.Errorf("another fabric's device named as this fabric's switch: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// endsWithLine reports whether out ends with want, whole lines: want is
// all of out, or follows a newline (the fabric's warnings, when it has
// any, come first).
func endsWithLine(out, want string) bool {
	return out == want || strings.HasSuffix(out, "\n"+want)
}

// TestPushRefusesAStaleBuild: manifest.json records the SHA-256 of the
// fabric's files; pushing an --artifacts build whose fabric changed since
// is refused before anything connects (it would take the change back on
// the switches), unless --stale; diff and verify warn and go on.
func TestPushRefusesAStaleBuild(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	if err := os.WriteFile("inv.hcl", []byte(inv), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	// Unchanged: no word about staleness (the push fails on the closed port).
	if _, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "out", "-i", "inv.hcl"); strings.Contains(stderr, "older than its fabric") {
		t.Errorf("a current build called stale:\n%s", stderr)
	}
	writeFabric(t, "fab", strings.Replace(string(src), "length = 3\n", "length = 30\n", 1))
	msg := "out is older than its fabric fab: the fabric's files changed since the build (manifest.json records their SHA-256), so pushing it would take back on the switches what changed since"
	code, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "out", "-i", "inv.hcl")
	if want := "fabricc: " + msg + "; build it again (fabricc build fab -o out), or give --stale to push this build as it is (to go back to it on purpose)\n"; code != 1 || stderr != want {
		t.Errorf("push of a stale build: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
	for _, args := range [][]string{{"push", "--stale"}, {"diff"}, {"verify"}, {"push", "--dry-run"}} {
		_, _, stderr := fabricc(t, append(args, "--artifacts", "out", "-i", "inv.hcl")...)
		if !strings.HasPrefix(stderr, "warning: "+msg+"\n") || strings.Contains(stderr, "give --stale") {
			t.Errorf("%v: want the warning and no refusal:\n%s", args, stderr)
		}
	}
}

// TestPushRefusesAFolderOfAnotherFabric: the sources digest and fabric
// path are the folder's own claim. A folder built from another fabric,
// with those two manifest fields copied from the reviewed build, is
// refused by push, diff and verify before anything connects, because its
// model.json is not what the fabric compiles to; push --stale only warns.
// The reviewed folder itself is accepted.
func TestPushRefusesAFolderOfAnotherFabric(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	writeFabric(t, "other", strings.Replace(string(src), "length = 3\n", "length = 100\n", 1))
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	if err := os.WriteFile("inv.hcl", []byte(inv), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][2]string{{"fab", "out"}, {"other", "forged"}} {
		if code, _, stderr := fabricc(t, "build", b[0], "-o", b[1]); code != 0 {
			t.Fatalf("build %s: %s", b[0], stderr)
		}
	}
	var reviewed, forged map[string]any
	readJSON(t, filepath.Join("out", "manifest.json"), &reviewed)
	readJSON(t, filepath.Join("forged", "manifest.json"), &forged)
	forged["fabric_path"] = "../fab"
	forged["inputs"].(map[string]any)["sources_sha256"] = reviewed["inputs"].(map[string]any)["sources_sha256"]
	data, err := json.MarshalIndent(forged, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("forged", "manifest.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := "forged/model.json is not what fab compiles to: the folder was built from another fabric, or by another fabricc version; build it again (fabricc build fab -o forged)"
	code, stdout, stderr := fabricc(t, "push", "--artifacts", "forged", "-i", "inv.hcl")
	if want := "fabricc: " + msg + "; or give --stale to push this folder as it is; nothing was changed\n"; code != 1 || stderr != want || stdout != "" {
		t.Errorf("push of a forged folder: exit %d\n%s%s\nwant\n%s", code, stdout, stderr, want)
	}
	// diff and verify change nothing: they say so and compare the
	// switches with the folder as it is (as after a fabricc upgrade, when
	// the deployed folder is no longer what the fabric compiles to).
	for _, cmd := range []string{"diff", "verify"} {
		_, _, stderr := fabricc(t, cmd, "--artifacts", "forged", "-i", "inv.hcl", "--insecure-ignore-host-key")
		if want := "warning: " + msg + "; " + cmd + " compares the switches with this folder as it is\n"; !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "[leaf1] connect\n") {
			t.Errorf("%s of a forged folder: want the warning, then the switch read:\n%s\nwant first\n%s", cmd, stderr, want)
		}
	}
	if _, _, stderr := fabricc(t, "push", "--yes", "--stale", "--artifacts", "forged", "-i", "inv.hcl"); !strings.HasPrefix(stderr, "warning: "+msg+"\n") {
		t.Errorf("push --stale of a forged folder: want the warning:\n%s", stderr)
	}
	_, _, stderr = fabricc(t, "push", "--yes", "--artifacts", "out", "-i", "inv.hcl", "--insecure-ignore-host-key")
	if strings.Contains(stderr, "compiles to") || strings.Contains(stderr, "older than") || !strings.Contains(stderr, "[leaf1] connect\n") {
		t.Errorf("the reviewed folder was not taken to the switch:\n%s", stderr)
	}
}

// TestPushArtifactsThroughASymlink: --artifacts through a symbolic link
// (a release layout's current -> builds/123) reads the folder it points
// to, checked against its fabric from there, as the folder itself.
func TestPushArtifactsThroughASymlink(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	if err := os.WriteFile("inv.hcl", []byte(inv), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	if err := os.Mkdir("releases", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "out"), filepath.Join("releases", "current")); err != nil {
		t.Fatal(err)
	}
	_, _, stderr := fabricc(t, "push", "--yes", "--artifacts", filepath.Join("releases", "current"), "-i", "inv.hcl", "--insecure-ignore-host-key")
	if !strings.Contains(stderr, "[leaf1] connect\n") || strings.Contains(stderr, "regular file") || strings.Contains(stderr, "against its fabric") {
		t.Errorf("push --artifacts through a symbolic link did not reach the switch:\n%s", stderr)
	}
}

// TestReplacedWhileRead: a build swapping the --artifacts folder while
// push reads it is told apart from an edit by the manifest, read before
// and after the load: the same folder is not replaced, another build
// swapped in is (push then says "DIR was replaced by another build while
// push read it; run again" instead of blaming the changed file).
func TestReplacedWhileRead(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	writeFabric(t, "other", strings.Replace(string(src), "length = 3\n", "length = 100\n", 1))
	for _, b := range [][2]string{{"fab", "out"}, {"other", "next"}} {
		if code, _, stderr := fabricc(t, "build", b[0], "-o", b[1]); code != 0 {
			t.Fatalf("build %s: %s", b[0], stderr)
		}
	}
	m, err := artifacts.ReadManifest("out")
	if err != nil {
		t.Fatal(err)
	}
	b, err := push.LoadArtifacts("out")
	if err != nil {
		t.Fatal(err)
	}
	if replaced("out", m, b) {
		t.Error("a folder left alone is said to be replaced")
	}
	// The other build swaps in after the load, as a rebuild's rename does.
	if err := os.Rename("out", "old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename("next", "out"); err != nil {
		t.Fatal(err)
	}
	if !replaced("out", m, b) {
		t.Error("a folder swapped after the load is not said to be replaced")
	}
	if !replaced("out", m, nil) {
		t.Error("a folder swapped during a load that failed is not said to be replaced")
	}
	if b2, err := push.LoadArtifacts("out"); err != nil || !replaced("out", m, b2) {
		t.Errorf("a load of the other build is not said to be replaced (%v)", err)
	}
}

// readJSON decodes the JSON file p into v.
func readJSON(t *testing.T, p string, v any) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// TestPushChecksAMovedBuild: a build folder moved away from its fabric
// (a CI deploy job downloads it elsewhere) cannot be checked where its
// manifest says the fabric is. push refuses it unless --fabric names the
// fabric or --stale; diff and verify warn, also in --json's
// diagnostics; --fabric checks it against the fabric given.
func TestPushChecksAMovedBuild(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	if err := os.WriteFile("inv.hcl", []byte(inv), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	if err := os.Mkdir("dl", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename("out", filepath.Join("dl", "out")); err != nil {
		t.Fatal(err)
	}
	moved := "cannot check dl/out against its fabric: dl/fab, where manifest.json says it is, does not exist (the build folder moved?)"
	code, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "dl/out", "-i", "inv.hcl")
	if want := "fabricc: " + moved + "; give --fabric PATH, the fabric it was built from (its checkout), or --stale to push this build unchecked\n"; code != 1 || stderr != want {
		t.Errorf("push of a moved build: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
	warn := "warning: " + moved + "; give --fabric PATH, the fabric it was built from (its checkout), to check it\n"
	for _, args := range [][]string{{"push", "--stale"}, {"diff"}, {"verify"}, {"push", "--dry-run"}} {
		_, _, stderr := fabricc(t, append(args, "--artifacts", "dl/out", "-i", "inv.hcl")...)
		if !strings.HasPrefix(stderr, warn) {
			t.Errorf("%v: want the warning and no refusal:\n%s\nwant\n%s", args, stderr, warn)
		}
	}
	_, stdout, _ := fabricc(t, "diff", "--artifacts", "dl/out", "-i", "inv.hcl", "--json", "--insecure-ignore-host-key")
	var env struct {
		Diagnostics []struct{ Severity, Summary string }
		Result      struct{ Warnings []string }
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, stdout)
	}
	note := moved + "; give --fabric PATH, the fabric it was built from (its checkout), to check it"
	if len(env.Diagnostics) != 1 || env.Diagnostics[0].Severity != "warning" || env.Diagnostics[0].Summary != note ||
		len(env.Result.Warnings) != 1 || env.Result.Warnings[0] != note {
		t.Errorf("diff --json: want the warning among the diagnostics and the report's warnings:\n%s", stdout)
	}
	// --fabric: the current fabric passes without a word, a changed one
	// is refused as stale.
	if _, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "dl/out", "--fabric", "fab", "-i", "inv.hcl"); strings.Contains(stderr, "against its fabric") || strings.Contains(stderr, "older than") {
		t.Errorf("push --fabric of a current build warned:\n%s", stderr)
	}
	writeFabric(t, "fab", strings.Replace(string(src), "length = 3\n", "length = 30\n", 1))
	code, _, stderr = fabricc(t, "push", "--yes", "--artifacts", "dl/out", "--fabric", "fab", "-i", "inv.hcl")
	if want := "fabricc: dl/out is older than its fabric fab: the fabric's files changed since the build (manifest.json records their SHA-256), so pushing it would take back on the switches what changed since; build it again (fabricc build fab -o dl/out), or give --stale to push this build as it is (to go back to it on purpose)\n"; code != 1 || stderr != want {
		t.Errorf("push --fabric of a stale build: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
	if code, _, stderr := fabricc(t, "push", "fab", "--fabric", "fab", "-i", "inv.hcl"); code != 1 || !strings.Contains(stderr, "--fabric goes with --artifacts DIR") {
		t.Errorf("--fabric with a fabric PATH: exit %d\n%s", code, stderr)
	}

	// A var file the build read from inside its fabric is read from
	// inside --fabric: the moved folder's own ../fab/site.vars is gone.
	withVar := string(src) + "\nvariable \"site\" {\n  type    = string\n  default = \"a\"\n}\n"
	writeFabric(t, "fab", withVar)
	if err := os.WriteFile(filepath.Join("fab", "site.vars"), []byte("site = \"b\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "--var-file", "fab/site.vars", "-o", "out2"); code != 0 {
		t.Fatalf("build with a var file: %s", stderr)
	}
	if err := os.Rename("out2", filepath.Join("dl", "out2")); err != nil {
		t.Fatal(err)
	}
	if _, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "dl/out2", "--fabric", "fab", "-i", "inv.hcl"); strings.Contains(stderr, "against its fabric") || strings.Contains(stderr, "older than") {
		t.Errorf("push --fabric of a current build with a var file:\n%s", stderr)
	}
	if err := os.WriteFile(filepath.Join("fab", "site.vars"), []byte("site = \"c\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "push", "--yes", "--artifacts", "dl/out2", "--fabric", "fab", "-i", "inv.hcl"); code != 1 || !strings.HasPrefix(stderr, "fabricc: dl/out2 is older than its fabric fab: ") {
		t.Errorf("push --fabric after the var file changed: exit %d\n%s", code, stderr)
	}
}

// TestPushChecksABuildWithoutFabricPath: a manifest.json that records no
// fabric path (an older fabricc's, a Windows build onto another drive
// than its fabric's, one with the line removed) gives no fabric to check
// the folder against. push refuses it unless --fabric names the fabric
// or --stale; diff and verify warn; --fabric checks it. Before, such a
// folder was pushed without any check against a fabric.
func TestPushChecksABuildWithoutFabricPath(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	if err := os.WriteFile("inv.hcl", []byte(inv), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	var m map[string]any
	readJSON(t, filepath.Join("out", "manifest.json"), &m)
	if m["fabric_path"] != "../fab" {
		t.Fatalf("manifest.json records fabric_path %v, want ../fab", m["fabric_path"])
	}
	delete(m, "fabric_path")
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("out", "manifest.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := fabricc(t, "push", "--artifacts", "out", "-i", "inv.hcl")
	if want := "fabricc: cannot check out against its fabric: manifest.json records no fabric path; give --fabric PATH, the fabric it was built from (its checkout), or --stale to push this build unchecked\n"; code != 1 || stderr != want {
		t.Errorf("push of a build without a fabric path: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
	warn := "warning: cannot check out against its fabric: manifest.json records no fabric path; give --fabric PATH, the fabric it was built from (its checkout), to check it\n"
	for _, args := range [][]string{{"push", "--stale"}, {"diff"}, {"verify"}} {
		_, _, stderr := fabricc(t, append(args, "--artifacts", "out", "-i", "inv.hcl")...)
		if !strings.HasPrefix(stderr, warn) {
			t.Errorf("%v: want the warning and no refusal:\n%s\nwant\n%s", args, stderr, warn)
		}
	}
	if _, _, stderr := fabricc(t, "push", "--artifacts", "out", "--fabric", "fab", "-i", "inv.hcl"); strings.Contains(stderr, "against its fabric") || strings.Contains(stderr, "older than") {
		t.Errorf("push --fabric of a current build warned:\n%s", stderr)
	}
	writeFabric(t, "fab", strings.Replace(string(src), "length = 3\n", "length = 30\n", 1))
	code, _, stderr = fabricc(t, "push", "--artifacts", "out", "--fabric", "fab", "-i", "inv.hcl")
	if want := "fabricc: out is older than its fabric fab: "; code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("push --fabric of a stale build: exit %d\n%s\nwant it to start %s", code, stderr, want)
	}
}
