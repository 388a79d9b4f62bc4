package main

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"testing"
)

// fleetDifferences is jq's [.result.devices[].differences[]] | length
// over stdout's envelope, in Go: it fails where jq fails, on a device
// whose differences are null or absent.
func fleetDifferences(t *testing.T, stdout string) (int, map[string]int) {
	t.Helper()
	var env map[string]any
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	result, _ := env["result"].(map[string]any)
	devices, _ := result["devices"].([]any)
	if len(devices) == 0 {
		t.Fatalf("no devices:\n%s", stdout)
	}
	n := 0
	for _, d := range devices {
		diffs, ok := d.(map[string]any)["differences"].([]any)
		if !ok {
			t.Fatalf("device %v: differences %#v, not an array", d.(map[string]any)["device"], d.(map[string]any)["differences"])
		}
		n += len(diffs)
	}
	var summary map[string]int
	raw, _ := json.Marshal(result["summary"])
	if err := json.Unmarshal(raw, &summary); err != nil {
		t.Fatalf("summary %s: %v", raw, err)
	}
	return n, summary
}

// TestVerifyJSONDifferencesAndSummary: every
// device of verify's --json has differences, [] when it verified, so
// that [.result.devices[].differences[]] works on a clean fabric (it
// failed on null there), and result.summary counts the devices per
// status, each of verify's statuses present, and the differences.
func TestVerifyJSONDifferencesAndSummary(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	code, stdout, stderr := fabricc(t, "verify", clos, "-i", inv, "--json")
	n, summary := fleetDifferences(t, stdout)
	want := map[string]int{"devices": 6, "verified": 0, "mismatch": 6, "pending": 0, "failed": 0, "aborted": 0, "differences": n}
	if code != 2 || n == 0 || !maps.Equal(summary, want) {
		t.Errorf("drifted: exit %d, %d differences, summary %v; want 2, some, %v\n%s", code, n, summary, want, stderr)
	}
	if code, _, stderr := fabricc(t, "push", "--yes", clos, "-i", inv); code != 0 {
		t.Fatalf("push: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr = fabricc(t, "verify", clos, "-i", inv, "--json")
	n, summary = fleetDifferences(t, stdout)
	want = map[string]int{"devices": 6, "verified": 6, "mismatch": 0, "pending": 0, "failed": 0, "aborted": 0, "differences": 0}
	if code != 0 || n != 0 || !maps.Equal(summary, want) {
		t.Errorf("clean: exit %d, %d differences, summary %v; want 0, 0, %v\n%s", code, n, summary, want, stderr)
	}
}
