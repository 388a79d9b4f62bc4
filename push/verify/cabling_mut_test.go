package verify

import "testing"

// Tests that pin CompareCabling and Cabling.Summary (cabling.go) where a
// one-token mutation (review mutants4) left every earlier test passing.

// TestCablingSummaryOfOne: a list of one port is named as a list of
// several is: one partly checked port, one matched by a switch's old
// name, one neighbor outside the fabric's cables.
func TestCablingSummaryOfOne(t *testing.T) {
	c := Cabling{Cabled: 3, Matched: 2, NoNeighbor: []string{"swp2"}, Partly: []string{"swp3"}, OldName: []string{"swp1"},
		Uncabled: []Seen{{"eth0", "oob swp10"}}}
	want := "leaf1: 3 cabled ports: 2 as cabled, 0 differ, 1 without an LLDP neighbor (swp2), 1 partly checked (swp3), " +
		"1 by a switch's old name (swp1; --renamed); 1 neighbor on ports the fabric does not cable"
	if got := c.Summary("leaf1"); got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
}
