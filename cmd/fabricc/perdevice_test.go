package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push"
)

// TestPerDeviceMixedWarns: a --per-device push with leaf2 unreachable
// changes the five others and leaves leaf2 on the old fabric-wide
// settings, indefinitely. It warns as a partial push does (stderr), and
// the report records leaf2 in left_out, the warning, and mixed_open: the
// mixed state has not ended when the push does. Before, it ended "5
// changed, 1 failed" with no warning and a mixed_ms that read as over.
func TestPerDeviceMixedWarns(t *testing.T) {
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
	report := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := fabricc(t, "push", "--yes", clos, "-i", inv, "--per-device", "--report", report)
	summary := `partial push: --per-device changed 5 of 6 switches of fabric "multivendor-clos"`
	detail := "Not changed: leaf2 (failed in this --per-device push). The fabric-wide settings this push changed (traffic classes, PFC priorities, DSCP maps, ETS, VLANs) " +
		"now differ between the switches changed and these, and go on differing until they are pushed too; a PFC priority or DSCP map that differs along a path can stall RoCE traffic. " +
		"Fix them and push them as soon as you can (--limit leaf2)."
	if code != 1 || !strings.Contains(stdout, "push: 6 devices: 5 changed, 1 failed") || !strings.Contains(stderr, "Warning: "+summary) || !strings.Contains(stderr, detail) {
		t.Fatalf("push --per-device with leaf2 down: exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep push.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	wantLeft := []push.LeftOut{{Switch: "leaf2", Why: "failed in this --per-device push"}}
	if !slices.Equal(rep.LeftOut, wantLeft) || !slices.Equal(rep.Warnings, []string{summary + ": " + detail}) || !rep.MixedOpen || rep.FabricSwitches != 0 {
		t.Errorf("report: left_out %+v warnings %q mixed_open %v fabric_switches %d", rep.LeftOut, rep.Warnings, rep.MixedOpen, rep.FabricSwitches)
	}
}
