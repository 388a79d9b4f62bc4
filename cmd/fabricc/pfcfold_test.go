package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/sim"
)

// TestVerifyNoPFCProfileOneLine: a Cumulus port whose PFC profile was
// unset by hand (`nv unset interface swp1 qos pfc`: it falls back to
// default-global, which fabricc's configuration unsets) has no PFC
// priorities and none of the profile's buffer settings; verify prints
// one line for the one cause, under the lossless header, then the
// operational PFC priorities the switch reports.
func TestVerifyNoPFCProfileOneLine(t *testing.T) {
	f := compiled(t, rehearse)
	text := pushedConfigs(t, rehearse, f)["leaf1"]
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "nv set interface swp1 qos pfc") {
			kept = append(kept, l)
		}
	}
	if len(kept) == len(strings.Split(text, "\n")) {
		t.Fatalf("leaf1's configuration has no swp1 PFC profile line:\n%s", text)
	}
	path := filepath.Join(t.TempDir(), "leaf1.cfg")
	writeFile(t, path, strings.Join(kept, "\n"))
	configs, given, err := parseLabConfigs([]string{"leaf1=" + path}, f)
	if err != nil {
		t.Fatal(err)
	}
	lab, err := sim.StartLab(context.Background(), f, filepath.Join(t.TempDir(), "lab"), labAdjust(configs))
	if err != nil {
		t.Fatal(labConfigError(err, given))
	}
	defer lab.Close()
	code, stdout, stderr := fabricc(t, "verify", rehearse, "-i", lab.Inventory(), "--limit", "leaf1", "--no-cabling")
	var got []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "DIFF ") || strings.HasPrefix(l, "lossless ") {
			got = append(got, l)
		}
	}
	want := []string{
		"lossless (RoCE may be dropped instead of paused):",
		"DIFF leaf1 swp1 PFC priorities: intended 3, actual none (no PFC profile, so no cable-length, port-buffer, xoff-threshold or xon-threshold either)",
		"DIFF leaf1 swp1 operational PFC priorities: intended 3, actual none",
	}
	if code != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verify: exit %d, printed\n%s\nwant exit 2 and\n%s\nall of it:\n%s\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"), stdout, stderr)
	}
}
