package push

import (
	"fmt"
	"testing"

	"github.com/fabricc/fabricc/push/verify"
)

// TestUnfinishedError: the --json envelope's
// error names the failed and locked devices first, each reason once
// with the devices it stopped, at most five reasons and five names a
// reason, the rest counted; verify's drift (mismatch read, pending)
// and a clean run have none.
func TestUnfinishedError(t *testing.T) {
	var devs []*DeviceResult
	for i := 1; i <= 7; i++ {
		devs = append(devs, &DeviceResult{Device: fmt.Sprintf("leaf%d", i), Status: StatusAborted, Error: "not applied, all or nothing: spine1 failed"})
	}
	devs = append(devs, &DeviceResult{Device: "spine1", Status: StatusFailed, Error: "connect spine1 (127.0.0.1:1): connection\nrefused"},
		&DeviceResult{Device: "spine2", Status: StatusLocked, Error: "spine2 is locked by another push"},
		&DeviceResult{Device: "spine3", Status: StatusUnchanged})
	r := &Report{Action: ActionPush, Devices: devs}
	want := "9 of 10 devices were not pushed: spine1 (failed: connect spine1 (127.0.0.1:1): connection refused); " +
		"spine2 (locked: spine2 is locked by another push); " +
		"leaf1, leaf2, leaf3, leaf4, leaf5 and 2 more (aborted: not applied, all or nothing: spine1 failed)"
	if got := r.UnfinishedError(); got != want {
		t.Errorf("push:\n got %q\nwant %q", got, want)
	}

	devs = nil
	for i := 1; i <= 7; i++ {
		devs = append(devs, &DeviceResult{Device: fmt.Sprintf("leaf%d", i), Status: StatusFailed, Error: fmt.Sprintf("connect leaf%d: refused", i)})
	}
	devs = append(devs, &DeviceResult{Device: "spine1", Status: StatusMismatch, Error: "wrong switch: ..."},
		&DeviceResult{Device: "spine2", Status: StatusMismatch, Error: "verification failed", Differences: make([]verify.Difference, 1)},
		&DeviceResult{Device: "spine3", Status: StatusPending})
	r = &Report{Action: ActionVerify, Devices: devs}
	want = "8 of 10 devices could not be checked: leaf1 (failed: connect leaf1: refused); leaf2 (failed: connect leaf2: refused); " +
		"leaf3 (failed: connect leaf3: refused); leaf4 (failed: connect leaf4: refused); leaf5 (failed: connect leaf5: refused); and 3 more devices"
	if got := r.UnfinishedError(); got != want {
		t.Errorf("verify:\n got %q\nwant %q", got, want)
	}
	clean := &Report{Action: ActionVerify, Devices: []*DeviceResult{{Device: "a", Status: StatusVerified}, devs[8], devs[9]}}
	if got := clean.UnfinishedError(); got != "" || len(clean.Unfinished()) != 0 {
		t.Errorf("drift and pending only: %q", got)
	}
}
