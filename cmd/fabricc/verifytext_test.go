package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/verify"
)

// TestWriteDifferencesByImpact: a mixed set from three switches and a
// host prints lossless first, each class once as a header, then by
// device and port; each DIFF line keeps its words, and an impact that
// says more than its class's header follows the first DIFF line that has
// it: the lossless DSCP and priority a DSCP map entry and a trust break
// (carried from the intended State, verify.Difference.Lossless), once
// for both, the priority PFC is missing on, the MTU frames are dropped
// over.
func TestWriteDifferencesByImpact(t *testing.T) {
	roce := &verify.LosslessMarks{{DSCP: 26, Priority: 3}}
	rep := &push.Report{Action: push.ActionVerify, Devices: []*push.DeviceResult{
		{Device: "gpu09", Status: push.StatusMismatch, Differences: []verify.Difference{
			{Device: "gpu09", Port: "fab0", Field: "mtu", Intended: "9000", Actual: "1500"},
		}},
		{Device: "leaf2", Status: push.StatusMismatch, Differences: []verify.Difference{
			{Device: "leaf2", Field: "DSCP 26 traffic class", Intended: "3", Actual: "0", Scope: verify.ScopeSwitchWide, Lossless: roce},
			{Device: "leaf2", Port: "swp31", Field: "MTU", Intended: "9214", Actual: "1500"},
			{Device: "leaf2", Port: "swp31", Field: "operational MTU", Intended: "9214", Actual: "1500"},
			{Device: "leaf2", Port: "swp32", Field: "neighbor", Intended: "spine2 swp2", Actual: "spine1 swp2"},
		}},
		{Device: "leaf3", Status: push.StatusMismatch, Differences: []verify.Difference{
			{Device: "leaf3", Port: "1/1", Field: "description", Intended: "gpu09", Actual: "old"},
			{Device: "leaf3", Port: "1/1", Field: "PFC priorities", Intended: "3", Actual: "none"},
		}},
		{Device: "spine1", Status: push.StatusMismatch, Differences: []verify.Difference{
			{Device: "spine1", Port: "Ethernet1/1", Field: "trust", Intended: "dscp", Actual: "pcp", Lossless: roce},
			{Device: "spine1", Port: "Ethernet2/1", Field: "ECN TC3", Intended: "min 150000 B max 1500000 B", Actual: "min 1536000 B max 3072000 B"},
		}},
	}}
	var b strings.Builder
	writeDifferences(&b, rep)
	want := `lossless (RoCE may be dropped instead of paused):
DIFF leaf2 (switch-wide) DSCP 26 traffic class: intended 3, actual 0
  RoCE's DSCP 26 no longer reaches priority 3: its traffic is dropped, not paused
DIFF leaf3 1/1 PFC priorities: intended 3, actual none
  RoCE in priority 3 may be dropped instead of paused
DIFF spine1 Ethernet1/1 trust: intended dscp, actual pcp
mtu (RoCE frames over the port's MTU are dropped):
DIFF gpu09 fab0 mtu: intended 9000, actual 1500
  RoCE frames over 1500 bytes dropped
DIFF leaf2 swp31 MTU: intended 9214, actual 1500
DIFF leaf2 swp31 operational MTU: intended 9214, actual 1500
congestion (RoCE slows or is unfair under load, no loss):
DIFF spine1 Ethernet2/1 ECN TC3: intended min 150000 B max 1500000 B, actual min 1536000 B max 3072000 B
cabling (links are not cabled, or not up, as the fabric says):
DIFF leaf2 swp32 neighbor: intended spine2 swp2, actual spine1 swp2
other (not classed by its effect on RoCE):
DIFF leaf3 1/1 description: intended gpu09, actual old
`
	if b.String() != want {
		t.Errorf("verify text:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestWriteDifferencesLLDPOff: Onyx LLDP switched off by hand is a
// cabling difference whose effect on RoCE follows it, in the text and
// in the JSON; on a switch with no port whose NIC takes its PFC by
// DCBX, that effect is the cabling check's.
func TestWriteDifferencesLLDPOff(t *testing.T) {
	d := verify.Difference{Device: "leaf1", Field: "lldp", Intended: "on", Actual: "off", Scope: verify.ScopeSwitchWide}
	var b strings.Builder
	writeDifferences(&b, &push.Report{Action: push.ActionVerify, Devices: []*push.DeviceResult{
		{Device: "leaf1", Status: push.StatusMismatch, Differences: []verify.Difference{d}},
	}})
	effect := "the switch learns no LLDP neighbor: the cabling goes unchecked (no NIC here takes its PFC by DCBX)"
	want := "cabling (links are not cabled, or not up, as the fabric says):\nDIFF leaf1 (switch-wide) lldp: intended on, actual off\n  " + effect + "\n"
	if b.String() != want {
		t.Errorf("verify text:\n%s\nwant:\n%s", b.String(), want)
	}
	j, err := json.Marshal(d)
	wantJSON := `{"device":"leaf1","field":"lldp","intended":"on","actual":"off","scope":"switch-wide","impact":{"class":"cabling","text":"` + effect + `"}}`
	if err != nil || string(j) != wantJSON {
		t.Errorf("JSON:\n%s (%v)\nwant:\n%s", j, err, wantJSON)
	}
}
