package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim"
)

// closWith is a copy of the multivendor-clos example with extra appended
// to its fabric.hcl.
func closWith(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"fabric.hcl", "hosts.hcl", "links.hcl", "switches.hcl"} {
		data, err := os.ReadFile(filepath.Join(clos, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "fabric.hcl" {
			data = append(data, extra...)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLimitPushSaysWhatChangedFabricWide: a --limit push that changes
// no fabric-wide setting says so in one note, without the alarm, and
// that the switches left out were not read (it cannot say they agree);
// one that does names the settings it brought to the fabric's values on
// the switches pushed, and the switches left out, meant to have them
// too, in the warning on stderr, the --json diagnostics and the
// report's warnings. Neither tells the operator to push the whole
// fabric, which would take back every hand fix on the others.
func TestLimitPushSaysWhatChangedFabricWide(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	if code, stdout, stderr := fabricc(t, "push", "--yes", clos, "-i", inv); code != 0 {
		t.Fatalf("first push: exit %d\n%s\n%s", code, stdout, stderr)
	}
	left := "leaf1 (--limit), leaf3 (--limit), leaf4 (--limit), spine1 (--limit), spine2 (--limit)"
	code, stdout, stderr := fabricc(t, "push", "--yes", clos, "-i", inv, "--limit", "leaf2")
	note := `Note: partial push: 1 of 6 switches of fabric "multivendor-clos"; it changed no fabric-wide setting (VLANs, DSCP map, PFC priorities, pools, ETS) on the switches it pushed; ` +
		"the switches left out (" + left + ") were not read: that they agree with it is what the model wants, and fabricc verify checks it\n"
	if code != 0 || !strings.Contains(stderr, note) || strings.Contains(stderr, "Warning: partial push") || strings.Contains(stderr, "stall RoCE") {
		t.Errorf("push --limit leaf2 with nothing to change: exit %d\n%s\n%s\nwant the note %q and no warning", code, stdout, stderr, note)
	}

	vlan := closWith(t, "\nvlan \"extra\" {\n  id = 300\n}\n")
	report := filepath.Join(t.TempDir(), "report.json")
	code, stdout, stderr = fabricc(t, "push", "--yes", vlan, "-i", inv, "--limit", "leaf2", "--json", "--report", report)
	detail := "This push brought fabric-wide settings to the fabric's values on leaf2: VLANs 101,102,103,104 -> 101,102,103,104,300. " +
		"The switches left out (" + left + ") are meant to have these values too, but were not read: " +
		"fabricc verify checks that they have them; until they do, a PFC priority or DSCP map that differs along a path can stall RoCE traffic."
	var env struct {
		Diagnostics []struct{ Severity, Summary, Detail string } `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 || len(env.Diagnostics) != 1 || env.Diagnostics[0].Detail != detail ||
		env.Diagnostics[0].Summary != `partial push: 1 of 6 switches of fabric "multivendor-clos"` {
		t.Errorf("push --limit leaf2 of a new VLAN: exit %d (%v) %+v\n%s\nwant the detail %q", code, err, env, stderr, detail)
	}
	data, _ := os.ReadFile(report)
	var rep push.Report
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Warnings) != 1 || !strings.HasSuffix(rep.Warnings[0], ": "+detail) ||
		len(rep.Devices) != 1 || strings.Join(rep.Devices[0].SwitchWide, "; ") != "VLANs 101,102,103,104 -> 101,102,103,104,300" {
		t.Errorf("report: %v %+v", err, rep)
	}
}

// TestDiffWarnsOfShutPortAsDiagnostic is rmig #4 on the command line: a
// fabric port shut by hand on an Onyx switch is warned of in the diff,
// as a diagnostic (stderr, the --json envelope), in the summary's DETAIL
// and in the report's warnings, before anything is pushed.
func TestDiffWarnsOfShutPortAsDiagnostic(t *testing.T) {
	f, _, out := closBuild(t)
	sw := f.Switch("leaf3")
	one := startOne(t, sw, sim.Faults{})
	if code, stdout, stderr := fabricc(t, "push", "--yes", "--artifacts", out, "-i", one.inv, "--partial"); code != 0 {
		t.Fatalf("first push: exit %d\n%s\n%s", code, stdout, stderr)
	}
	c, err := dialer(t, one)(one.dev, sw.Platform)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"configure terminal", "interface ethernet 1/2 shutdown", "configuration write"} {
		if _, err := c.Send(cmd); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	summary, detail := "leaf3 1/2 is administratively down on the switch (shutdown) and this push brings it up", "to keep it down, set shutdown = true on the port in the fabric"

	code, stdout, stderr := fabricc(t, "diff", "--artifacts", out, "-i", one.inv)
	if code != 2 || !strings.Contains(stdout, "# warning: 1/2 is administratively down on the switch (shutdown) and this push brings it up; "+detail+"\n") ||
		!strings.Contains(stdout, "warning: "+summary+"; "+detail) || !strings.Contains(stderr, "Warning: "+summary) {
		t.Errorf("diff: exit %d\n%s\n%s", code, stdout, stderr)
	}

	report := filepath.Join(t.TempDir(), "r.json")
	code, stdout, _ = fabricc(t, "diff", "--artifacts", out, "-i", one.inv, "--json", "--report", report)
	var env struct {
		Diagnostics []struct{ Severity, Summary, Detail string } `json:"diagnostics"`
	}
	found := false
	if err := json.Unmarshal([]byte(stdout), &env); err == nil {
		for _, d := range env.Diagnostics {
			found = found || d.Severity == "warning" && d.Summary == summary && d.Detail == detail
		}
	}
	data, _ := os.ReadFile(report)
	var rep push.Report
	if err := json.Unmarshal(data, &rep); code != 2 || !found || err != nil || !slices.Contains(rep.Warnings, summary+"; "+detail) ||
		len(rep.Devices) != 1 || !slices.Equal(rep.Devices[0].Warnings, []string{summary + "; " + detail}) {
		t.Errorf("diff --json --report: exit %d %+v\n%s\nreport %v %+v", code, env, stdout, err, rep)
	}
}
