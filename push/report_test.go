package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/push/verify"
)

// TestSummarySaysWhichDevicesWouldChange: a dry run's table and totals
// say which devices the push would change and which are up to date
// (the report keeps status dry-run), a diff verifies nothing ("-", not
// "no"), one device is "1 device", and no row ends in spaces (a row
// without a detail ended in the TIME column's padding). A diff's table
// has no TIME column (its output must be the
// same for the same inputs and switches); verify's has.
func TestSummarySaysWhichDevicesWouldChange(t *testing.T) {
	rep := &Report{Action: ActionDiff, Devices: []*DeviceResult{
		{Device: "leaf1", Platform: "cumulus", Status: StatusDryRun, Diff: "+ mtu 9216\n", DurationMs: 204},
		{Device: "leaf3", Platform: "onyx", Status: StatusDryRun, Pending: []string{"Onyx running configuration with unsaved changes that no fabricc push made"}},
		{Device: "spine1", Platform: "eos", Status: StatusDryRun},
		{Device: "spine2", Platform: "eos", Status: StatusLocked, Error: "spine2 is locked"},
	}}
	var b strings.Builder
	rep.WriteSummary(&b)
	want := "DEVICE  PLATFORM  STATUS        VERIFIED  DETAIL\n" +
		"leaf1   cumulus   would change  -\n" +
		"leaf3   onyx      up to date    -         pending: Onyx running configuration with unsaved changes that no fabricc push made\n" +
		"spine1  eos       up to date    -\n" +
		"spine2  eos       locked        -         spine2 is locked\n" +
		"diff: 4 devices: 1 would change, 2 up to date, 1 locked\n"
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}

	one := &Report{Action: ActionVerify, Devices: []*DeviceResult{{Device: "leaf1", Platform: "cumulus", Status: StatusVerified, Verified: true}}}
	b.Reset()
	one.WriteSummary(&b)
	if !strings.HasSuffix(b.String(), "\nleaf1   cumulus   verified  yes       0s\nverify: 1 device: 1 verified\n") {
		t.Errorf("summary of one device:\n%s", b.String())
	}
}

// TestSummaryCablingLines: verify's summary has one cabling line per
// switch checked, after the table; device text in the detail column and
// in a cabling line reaches the terminal escaped.
func TestSummaryCablingLines(t *testing.T) {
	rep := &Report{Action: ActionVerify, Devices: []*DeviceResult{
		{Device: "leaf1", Platform: "cumulus", Status: StatusVerified, Verified: true,
			Cabling: &verify.Cabling{Cabled: 2, Matched: 1, NoNeighbor: []string{"swp2"}}},
		{Device: "leaf3", Platform: "onyx", Status: StatusVerified, Verified: true,
			Notes:   []string{"cabling not checked: reading the LLDP neighbors: % Unrecognized \x1b[2J"},
			Cabling: &verify.Cabling{Error: "reading the LLDP neighbors: % Unrecognized \x1b[2J"}},
	}}
	var b strings.Builder
	rep.WriteSummary(&b)
	want := "DEVICE  PLATFORM  STATUS    VERIFIED  TIME  DETAIL\n" +
		"leaf1   cumulus   verified  yes       0s\n" +
		`leaf3   onyx      verified  yes       0s    cabling not checked: reading the LLDP neighbors: % Unrecognized \x1b[2J` + "\n" +
		"cabling leaf1: 2 cabled ports: 1 as cabled, 0 differ, 1 without an LLDP neighbor (swp2)\n" +
		`cabling leaf3: not checked: reading the LLDP neighbors: % Unrecognized \x1b[2J` + "\n" +
		"verify: 2 devices: 2 verified\n"
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestSummaryVerifiedOfRolledBack: a switch whose change was rolled back
// or never applied shows "-" under VERIFIED, not the "yes" of a
// read-back that matched before the rollback (nor "no", a failed
// check); the switch that failed its verification shows "no". A switch
// refused before any of its change was sent says so, not "(rolled
// back)", and shows "-".
func TestSummaryVerifiedOfRolledBack(t *testing.T) {
	rep := &Report{Action: ActionPush, Devices: []*DeviceResult{
		{Device: "leaf1", Platform: "cumulus", Status: StatusAborted, Verified: true, RolledBack: true, Error: "not confirmed, all or nothing: leaf3 failed"},
		{Device: "leaf3", Platform: "onyx", Status: StatusFailed, RolledBack: true, Error: "verification failed"},
		{Device: "leaf4", Platform: "onyx", Status: StatusFailed, Verified: true, RolledBack: true, Error: "confirmation refused"},
		{Device: "spine1", Platform: "eos", Status: StatusAborted, Error: "not applied, all or nothing: leaf3 failed"},
		{Device: "spine2", Platform: "eos", Status: StatusChanged, Verified: true},
		{Device: "spine3", Platform: "onyx", Status: StatusFailed, NothingSent: true, Error: "staging: stray DSCP maps; nothing was changed"},
	}}
	var b strings.Builder
	rep.WriteSummary(&b)
	want := "DEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\n" +
		"leaf1   cumulus   aborted  -         0s    not confirmed, all or nothing: leaf3 failed (rolled back)\n" +
		"leaf3   onyx      failed   no        0s    verification failed (rolled back)\n" +
		"leaf4   onyx      failed   -         0s    confirmation refused (rolled back)\n" +
		"spine1  eos       aborted  -         0s    not applied, all or nothing: leaf3 failed\n" +
		"spine2  eos       changed  yes       0s\n" +
		"spine3  onyx      failed   -         0s    staging: stray DSCP maps; nothing was changed (stopped before any change was sent; nothing to roll back)\n" +
		"cabling (LLDP) not checked by push: fabricc verify checks it\n" +
		"push: 6 devices: 1 changed, 3 failed, 2 aborted\n"
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}
}
