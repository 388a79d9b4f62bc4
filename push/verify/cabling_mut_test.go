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

// TestRenamedPeerSendingAnotherName: --renamed spine1=spine1-old accepts
// spine1's old name on its cable, not any name: a third device on that
// port differs, as without --renamed.
func TestRenamedPeerSendingAnotherName(t *testing.T) {
	ps, sw := cabledLeaf()
	ps.AcceptOldNames(map[string]string{"spine1": "spine1-old"})
	seen := asCabled()
	seen["swp1"] = []Neighbor{{SystemName: "laptop", PortID: "Ethernet1/1"}}
	got, diffs := CompareCabling(ps, sw, seen)
	if got.Matched != 3 || got.Differ != 1 || len(got.OldName) != 0 || len(diffs) != 1 ||
		diffs[0].String() != "leaf1 swp1 neighbor: intended spine1 Ethernet1/1, actual laptop Ethernet1/1" {
		t.Errorf("cabling %+v, differences %v; want swp1 to differ: intended spine1 Ethernet1/1, actual laptop Ethernet1/1", got, diffs)
	}
}
