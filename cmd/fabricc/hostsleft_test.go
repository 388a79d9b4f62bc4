package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/push"
)

// copyExample copies the .hcl files of examples/NAME to a folder of the
// test's and returns it.
func copyExample(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fabric")
	files, err := filepath.Glob(filepath.Join(src, "*.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .hcl files in %s: %v", src, err)
	}
	for _, f := range files {
		writeFile(t, filepath.Join(dir, filepath.Base(f)), readFile(t, f))
	}
	return dir
}

// TestPushSaysWhatOfTheHosts: push names the fabric's hosts it leaves
// unchecked and says whether their scripts changed: not known from a
// fabric path or a first build (the hosts are the operator's step); from
// a rebuilt --artifacts folder, the hosts whose script differs from the
// build it replaced (.DIR.prev), in the summary, the --json envelope's
// warning and the report; and none when none does. The report's times
// say when each switch applied and confirmed, and how long the fabric
// ran mixed.
func TestPushSaysWhatOfTheHosts(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	fab := copyExample(t, clos)
	out := filepath.Join(filepath.Dir(fab), "out")
	prev := filepath.Join(filepath.Dir(fab), ".out.prev")
	const notChecked = "hosts not checked: 24 of 24 hosts of the fabric: not in the inventory: gpu01, gpu02, gpu03, gpu04, gpu05 and 19 more\n"
	const unknown = "hosts: push changes no host; running their scripts is the operator's step (fabricc plan --base lists the hosts a change touches; fabricc verify checks them)\n"
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	report := filepath.Join(t.TempDir(), "push.json")
	began := time.Now()
	code, stdout, stderr := fabricc(t, "push", "--yes", "--artifacts", out, "-i", inv, "--report", report)
	// The times are from the push's start, duration_ms from the device's
	// own, which may begin later: the bound is the push's wall time.
	wall := time.Since(began).Milliseconds()
	if want := unknown + notChecked + "push: 6 devices: 6 changed\n"; code != 0 || !strings.HasSuffix(stdout, want) {
		t.Fatalf("first push: exit %d, want the output ending\n%s\n%s\n%s", code, want, stdout, stderr)
	}
	var rep push.Report
	if err := json.Unmarshal([]byte(readFile(t, report)), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.FabricHosts != 24 || len(rep.HostsNotChecked) != 24 || rep.HostsNotChecked[0] != (push.HostNotChecked{Host: "gpu01", Why: "not in the inventory"}) ||
		rep.HostsNotChecked[23] != (push.HostNotChecked{Host: "stor08", Why: "not in the inventory"}) || rep.HostScriptsChanged != nil {
		t.Errorf("report's hosts: %d, %+v, %+v", rep.FabricHosts, rep.HostsNotChecked, rep.HostScriptsChanged)
	}
	var first, last int64
	for _, d := range rep.Devices {
		if d.AppliedMs <= 0 || d.ConfirmedMs < d.AppliedMs || d.RolledBackMs != 0 || d.ConfirmedMs > wall {
			t.Errorf("%s: applied_ms %d, confirmed_ms %d, rolled_back_ms %d, the push's wall time %d ms", d.Device, d.AppliedMs, d.ConfirmedMs, d.RolledBackMs, wall)
		}
		if first == 0 || d.AppliedMs < first {
			first = d.AppliedMs
		}
		last = max(last, d.ConfirmedMs)
	}
	if rep.MixedMs != last-first || rep.MixedMs <= 0 {
		t.Errorf("mixed_ms %d, want %d (first apply %d to last confirmation %d)", rep.MixedMs, last-first, first, last)
	}

	// The storage servers' interface changes: their scripts only.
	hosts := filepath.Join(fab, "hosts.hcl")
	writeFile(t, hosts, strings.Replace(readFile(t, hosts), `"ens1f0np0" : "ens2f0np0"`, `"ens1f0np0" : "ens3f0np0"`, 1))
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("rebuild: %s", stderr)
	}
	stor := []string{"stor01", "stor02", "stor03", "stor04", "stor05", "stor06", "stor07", "stor08"}
	changed := "the hosts' settings changed too: run the scripts of 8 hosts: stor01, stor02, stor03, stor04, stor05 and 3 more (they differ from the previous build's, " + prev + "); push changes no host"
	code, stdout, stderr = fabricc(t, "push", "--yes", "--artifacts", out, "-i", inv, "--report", report, "--json")
	var env struct {
		Diagnostics []struct{ Severity, Summary string } `json:"diagnostics"`
		Result      push.Report                          `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 {
		t.Fatalf("push --json after the rebuild: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if len(env.Diagnostics) != 1 || env.Diagnostics[0].Severity != "warning" || env.Diagnostics[0].Summary != changed {
		t.Errorf("diagnostics %+v, want one warning %q", env.Diagnostics, changed)
	}
	if hc := env.Result.HostScriptsChanged; hc == nil || hc.Since != prev || !slices.Equal(hc.Hosts, stor) {
		t.Errorf("result's host_scripts_changed %+v, want %s and %v", hc, prev, stor)
	}
	if want := "hosts: " + changed + "\n" + notChecked + "push: 6 devices: 6 unchanged\n"; !strings.HasSuffix(stderr, want) {
		t.Errorf("push --json's summary (stderr) does not end\n%s\n%s", want, stderr)
	}
	rep = push.Report{}
	if err := json.Unmarshal([]byte(readFile(t, report)), &rep); err != nil || rep.HostScriptsChanged == nil || !slices.Equal(rep.HostScriptsChanged.Hosts, stor) ||
		rep.MixedMs != 0 || rep.Devices[0].AppliedMs != 0 {
		t.Errorf("report after the rebuild: %v, %+v, mixed_ms %d", err, rep.HostScriptsChanged, rep.MixedMs)
	}

	// Built again unchanged: the kept build is the same.
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("third build: %s", stderr)
	}
	code, stdout, stderr = fabricc(t, "push", "--yes", "--artifacts", out, "-i", inv)
	if want := "hosts: no host's script differs from the previous build's (" + prev + "); push changes no host\n" + notChecked; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("push of an unchanged rebuild: exit %d, want\n%s\n%s\n%s", code, want, stdout, stderr)
	}
	code, stdout, stderr = fabricc(t, "diff", fab, "-i", inv)
	if code != 0 || !strings.Contains(stdout, unknown+notChecked) {
		t.Errorf("diff of a fabric path: exit %d, want\n%s%s\n%s\n%s", code, unknown, notChecked, stdout, stderr)
	}
	if _, err := os.Stat(prev); err != nil {
		t.Errorf("the kept build: %v", err)
	}
}
