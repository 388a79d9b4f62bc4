package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyCabling: in a lab whose leaf1 has its two uplinks swapped, a
// host that sends no LLDP and a neighbor with a hostile name, push
// applies and confirms (it does not read LLDP), and verify prints the
// exact difference lines and the switch's cabling line and exits 1;
// --no-cabling leaves the cabling out and exits 0.
func TestVerifyCabling(t *testing.T) {
	dir, _ := labWith(t, func(o *sim.Options) {
		if o.Name != "leaf1" {
			return
		}
		o.Miscable("swp31", "swp32")
		o.HideNeighbor("swp3")
		o.Neighbors["swp2"][0].SystemName = "evil\x1b[2J\x07"
	})
	inv := filepath.Join(dir, "inventory.hcl")
	if code, stdout, stderr := fabricc(t, "push", "--yes", clos, "-i", inv, "--limit", "leaf1"); code != 0 || !strings.Contains(stdout, "push: 1 of 6 switches: 1 changed") {
		t.Fatalf("push of a miscabled switch: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr := fabricc(t, "verify", clos, "-i", inv, "--limit", "leaf1")
	// A cabling difference is a difference: exit 2, as a mismatch.
	if code != 2 {
		t.Errorf("verify: exit %d, want 2\n%s", code, stderr)
	}
	var got []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "DIFF ") || strings.HasPrefix(l, "cabling ") || strings.HasPrefix(l, "verify: ") {
			got = append(got, l)
		}
	}
	want := []string{
		"cabling (links are not cabled, or not up, as the fabric says):",
		`DIFF leaf1 swp2 neighbor: intended gpu02 ens1f0np0, actual evil\x1b[2J\a ens1f0np0`,
		"DIFF leaf1 swp31 neighbor: intended spine1 Ethernet1/1, actual spine2 Ethernet1/1",
		"DIFF leaf1 swp32 neighbor: intended spine2 Ethernet1/1, actual spine1 Ethernet1/1",
		"cabling leaf1: 10 cabled ports: 6 as cabled, 3 differ, 1 without an LLDP neighbor (swp3)",
		"verify: 1 of 6 switches: 1 mismatch",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verify printed\n%s\nwant\n%s\nall of it:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
		t.Errorf("a neighbor's control characters reached the terminal raw")
	}

	code, stdout, _ = fabricc(t, "verify", clos, "-i", inv, "--limit", "leaf1", "--json")
	var env struct {
		Result push.Report `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 2 || len(env.Result.Devices) != 1 {
		t.Fatalf("verify --json: exit %d, %v\n%s", code, err, stdout)
	}
	c := env.Result.Devices[0].Cabling
	if c == nil || c.Cabled != 10 || c.Matched != 6 || c.Differ != 3 || strings.Join(c.NoNeighbor, ",") != "swp3" {
		t.Errorf("cabling in the report: %+v", c)
	}
	if d := env.Result.Devices[0].Differences; len(d) != 3 || d[0].Actual != "evil\x1b[2J\x07 ens1f0np0" || d[0].Field != "neighbor" {
		t.Errorf("differences in the report: %+v", d)
	}

	code, stdout, stderr = fabricc(t, "verify", clos, "-i", inv, "--limit", "leaf1", "--no-cabling")
	if code != 0 || !strings.Contains(stdout, "verify: 1 of 6 switches: 1 verified") || strings.Contains(stdout, "cabling") {
		t.Errorf("verify --no-cabling: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
