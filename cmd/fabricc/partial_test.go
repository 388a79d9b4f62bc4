package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push"
)

// dropEntry removes inventory entry name from the lab's inventory.
func dropEntry(t *testing.T, inv, name string) {
	t.Helper()
	data, _ := os.ReadFile(inv)
	text := string(data)
	i := strings.Index(text, "device \""+name+"\"")
	if i < 0 {
		t.Fatalf("no %s in the lab inventory", name)
	}
	j := strings.Index(text[i:], "\n}\n")
	if err := os.WriteFile(inv, []byte(text[:i]+text[i+j+3:]), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestPartialPush is the reviewer's r2 #2: an inventory without spine2
// makes push refuse, naming it, with nothing changed; --partial pushes
// the others with a warning on stderr, in the --json diagnostics and in
// the report file, and the summary counts "5 of 6 switches". diff warns
// without refusing. --limit '!leaf1' (r2 #10) is a partial push too.
func TestPartialPush(t *testing.T) {
	dir, secrets := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	dropEntry(t, inv, "spine2")

	code, stdout, stderr := fabricc(t, "diff", clos, "-i", inv)
	if code != 2 || !strings.Contains(stderr, `Warning: partial dry run: 5 of 6 switches of fabric "multivendor-clos"`) ||
		!strings.Contains(stderr, "spine2 (not in the inventory)") || !strings.Contains(stdout, "diff: 5 of 6 switches: 5 would change") {
		t.Errorf("diff: exit %d\n%s\n%s", code, stdout, stderr)
	}

	code, stdout, stderr = fabricc(t, "push", "--yes", clos, "-i", inv, "--json")
	if code != 1 || !strings.Contains(stdout, `switch spine2 of the fabric is not in `+inv) || !strings.Contains(stdout, "with --partial; nothing was changed") ||
		!strings.Contains(stdout, `"ok": false`) {
		t.Errorf("push without --partial: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, _ := fabricc(t, "diff", clos, "-i", inv); code != 2 || !strings.Contains(stdout, "5 would change") {
		t.Errorf("the refused push changed something: exit %d\n%s", code, stdout)
	}

	report := filepath.Join(t.TempDir(), "report.json")
	code, stdout, stderr = fabricc(t, "push", "--yes", clos, "-i", inv, "--partial", "--json", "--report", report)
	var env struct {
		OK          bool `json:"ok"`
		Warnings    int  `json:"warnings"`
		Diagnostics []struct {
			Severity, Summary, Detail string
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 || !env.OK || env.Warnings != 1 || len(env.Diagnostics) != 1 ||
		env.Diagnostics[0].Severity != "warning" || !strings.Contains(env.Diagnostics[0].Summary, "partial push: 5 of 6 switches") ||
		!strings.Contains(env.Diagnostics[0].Detail, "spine2 (not in the inventory)") || !strings.Contains(env.Diagnostics[0].Detail, "are meant to have these values too, but were not read: fabricc verify checks that they have them") {
		t.Errorf("push --partial --json: exit %d (%v) %+v\n%s\n%s", code, err, env, stdout, stderr)
	}
	if !strings.Contains(stderr, "push: 5 of 6 switches: 5 changed") || !strings.Contains(stderr, "Warning: partial push: 5 of 6 switches") {
		t.Errorf("push --partial: summary\n%s", stderr)
	}
	data, _ := os.ReadFile(report)
	var rep push.Report
	if err := json.Unmarshal(data, &rep); err != nil || rep.FabricSwitches != 6 || len(rep.LeftOut) != 1 || rep.LeftOut[0] != (push.LeftOut{Switch: "spine2", Why: "not in the inventory"}) ||
		len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "fabric-wide settings") {
		t.Errorf("report: %v %+v", err, rep)
	}

	// An exclusion: every switch of the inventory but leaf1.
	code, stdout, stderr = fabricc(t, "diff", clos, "-i", inv, "--limit", "!leaf1")
	if code != 0 || !strings.Contains(stderr, "leaf1 (--limit), spine2 (not in the inventory)") && !strings.Contains(stderr, "spine2 (not in the inventory), leaf1 (--limit)") ||
		!strings.Contains(stdout, "diff: 4 of 6 switches: 4 up to date") {
		t.Errorf("diff --limit '!leaf1': exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, s := range secrets {
		if strings.Contains(stdout+stderr+string(data), s) {
			t.Fatal("printed a password")
		}
	}
}

// TestInventoryEntryNotInFabric is the reviewer's r2 #11: an inventory
// entry the fabric no longer has (here leaf2's entry, named leaf2old)
// is refused with what to do: remove the entry if the switch left the
// fabric, or rename it to the fabric's leaf2, which has no entry; or
// leave it out with --limit '!leaf2old'.
func TestInventoryEntryNotInFabric(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	data, _ := os.ReadFile(inv)
	if err := os.WriteFile(inv, []byte(strings.Replace(string(data), `device "leaf2"`, `device "leaf2old"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := fabricc(t, "push", "--yes", clos, "-i", inv)
	for _, w := range []string{`inventory device "leaf2old" is not a switch or host of fabric "multivendor-clos"`,
		"if it is no longer in the fabric, remove its entry from the inventory (push and diff leave that switch's configuration as it is)",
		`if it was renamed to leaf2 (the fabric's leaf2 has no inventory entry), rename the entry to "leaf2"`,
		`--limit '!leaf2old'`} {
		if code != 1 || !strings.Contains(stderr, w) {
			t.Errorf("exit %d, stderr lacks %q:\n%s", code, w, stderr)
		}
	}
	if strings.Contains(stderr, "fix the name") {
		t.Errorf("still says fix the name:\n%s", stderr)
	}
}

// TestUnreachableSwitchNamesTheWayOn is the reviewer's r2 #10: with
// leaf2 refusing connections, the all-or-nothing push aborts the others
// with a row that names the next step, --limit '!leaf2', and that push
// then goes through with the partial-push warning.
func TestUnreachableSwitchNamesTheWayOn(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	data, _ := os.ReadFile(inv)
	text := string(data)
	i := strings.Index(text, `device "leaf2"`)
	j := i + strings.Index(text[i:], "  port ")
	k := j + strings.Index(text[j:], "\n")
	if i < 0 || j < i || k < j {
		t.Fatal("no leaf2 port in the lab inventory")
	}
	if err := os.WriteFile(inv, []byte(text[:j]+"  port          = 1"+text[k:]), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := fabricc(t, "push", "--yes", clos, "-i", inv)
	// The way on is said once, below the table; each row names leaf2.
	if code != 1 || strings.Count(stdout, "not applied, all or nothing: leaf2 failed\n") != 5 ||
		strings.Count(stdout, "(no connection); to push without it, --limit '!leaf2' (a partial push") != 1 ||
		!strings.Contains(stdout, "\nall or nothing: leaf2 failed (no connection); to push without it, --limit '!leaf2' (a partial push: the fabric-wide settings then differ on it until it is pushed too)\n") ||
		!strings.HasSuffix(stdout, "push: 6 devices: 1 failed, 5 aborted\npush: nothing was changed on any switch\n") {
		t.Errorf("push with leaf2 down: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The progress lines on stderr give the reason once too, in the
	// first switch it stopped; the four others name leaf2.
	if strings.Count(stderr, "to push without it, --limit '!leaf2'") != 1 ||
		strings.Count(stderr, "aborted: not applied, all or nothing: leaf2 failed\n") != 4 {
		t.Errorf("progress lines with leaf2 down:\n%s", stderr)
	}
	code, stdout, stderr = fabricc(t, "push", "--yes", clos, "-i", inv, "--limit", "!leaf2")
	if code != 0 || !strings.Contains(stdout, "push: 5 of 6 switches: 5 changed") || !strings.Contains(stderr, "partial push: 5 of 6 switches") ||
		!strings.Contains(stderr, "leaf2 (--limit)") {
		t.Errorf("push --limit '!leaf2': exit %d\n%s\n%s", code, stdout, stderr)
	}
}
