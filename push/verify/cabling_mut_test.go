package verify

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

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

// TestCablingTextsAndOrder: what a neighbor does not send is said, not
// left blank; several neighbors of a port are listed by name whatever
// order the switch printed them in; ports are listed in natural order
// (swp2 before swp10) whatever order the model lists them in; and EOS's
// short form "Et9/1" is Ethernet9/1 as "Et1/1" is Ethernet1/1.
func TestCablingTextsAndOrder(t *testing.T) {
	peer := func(dev, port string) *model.Peer { return &model.Peer{Kind: "switch", Device: dev, Port: port} }
	leaf := model.Switch{Name: "leaf1", Platform: model.PlatformCumulus, Ports: []model.Port{
		{Name: "swp10", Peer: peer("spine1", "Ethernet10/1")},
		{Name: "swp9", Peer: peer("spine1", "Ethernet9/1")},
		{Name: "swp3", Peer: peer("spine1", "Ethernet3/1")},
		{Name: "swp2", Peer: peer("spine1", "Ethernet2/1")},
		{Name: "swp12", Peer: peer("spine1", "Ethernet12/1")},
		{Name: "swp11", Peer: peer("spine1", "Ethernet11/1")},
	}}
	f := &model.Fabric{Switches: []model.Switch{leaf, {Name: "spine1", Platform: model.PlatformEOS}}}
	seen := Neighbors{
		"swp10": {{SystemName: "spine9", PortID: "Ethernet2/1"}, {SystemName: "spine8", PortID: "Ethernet3/1"}},
		"swp9":  {{SystemName: "spine1", PortID: "Et9/1"}},
		"swp3":  {{PortID: "Ethernet7/1"}},
		"swp5":  {{SystemName: "oob-mgmt"}},
		"swp12": {{PortID: "Ethernet12/1"}},
		"swp11": {{PortID: "Ethernet11/1"}},
	}
	got, diffs := CompareCabling(NewPeers(f), &f.Switches[0], seen)
	want := Cabling{Cabled: 6, Matched: 1, Differ: 2, NoNeighbor: []string{"swp2"}, Partly: []string{"swp11", "swp12"}, Uncabled: []Seen{{"swp5", "oob-mgmt (no port ID)"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cabling (-want +got):\n%s", d)
	}
	var lines []string
	for _, d := range diffs {
		lines = append(lines, d.String())
	}
	wantDiffs := []string{
		"leaf1 swp3 neighbor: intended spine1 Ethernet3/1, actual (no system name) Ethernet7/1",
		"leaf1 swp10 neighbor: intended spine1 Ethernet10/1, actual spine8 Ethernet3/1, spine9 Ethernet2/1",
	}
	if d := cmp.Diff(wantDiffs, lines); d != "" {
		t.Errorf("differences (-want +got):\n%s", d)
	}
}
