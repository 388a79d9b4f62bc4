package push

import (
	"strings"
	"testing"
)

// TestLogProgressLines pins the lines a push writes where stderr is not
// a terminal: one per event, naming its device, an error on one line
// with its control characters shown, not obeyed.
func TestLogProgressLines(t *testing.T) {
	var b strings.Builder
	p := &LogProgress{W: &b}
	p.Step("leaf1", stepConnect)
	p.Done(&DeviceResult{Device: "leaf1", Status: StatusChanged, Verified: true})
	p.Done(&DeviceResult{Device: "leaf2", Status: StatusVerified, Verified: true})
	p.Done(&DeviceResult{Device: "leaf3", Status: StatusFailed, RolledBack: true, Error: "apply: % Invalid input\n\x1b[2Jdetected"})
	p.Done(&DeviceResult{Device: "leaf4", Status: StatusAborted, Error: "not applied, all or nothing: leaf3 failed"})
	p.Done(&DeviceResult{Device: "leaf5", Status: StatusFailed, NothingSent: true, Error: "staging: fabric ports are LAG/MLAG members; nothing was changed"})
	p.Done(&DeviceResult{Device: "leaf6", Status: StatusFailed, NothingSent: true, discarded: true, Error: "staging: device refused \"mtu 9214\""})
	want := "[leaf1] connect\n" +
		"[leaf1] changed, verified\n" +
		"[leaf2] verified\n" +
		"[leaf3] failed, rolled back: apply: % Invalid input \\x1b[2Jdetected\n" +
		"[leaf4] aborted: not applied, all or nothing: leaf3 failed\n" +
		"[leaf5] failed, stopped before any change was sent; nothing to roll back: staging: fabric ports are LAG/MLAG members; nothing was changed\n" +
		"[leaf6] failed, its staged change was discarded, never applied; nothing to roll back: staging: device refused \"mtu 9214\"\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestLogProgressSaysASharedFailureOnce: an all-or-nothing push that one
// unreachable switch stopped gives that switch's reason in the first
// line it stops, and "leaf3 failed" in the others.
func TestLogProgressSaysASharedFailureOnce(t *testing.T) {
	var b strings.Builder
	p := &LogProgress{W: &b}
	f := &gateFailure{device: "leaf3", why: " (no connection); to push without it, --limit '!leaf3'"}
	for _, d := range []string{"leaf1", "leaf2", "spine1"} {
		p.Done(&DeviceResult{Device: d, Status: StatusAborted, Error: "not applied, all or nothing: " + f.Error(), shared: f})
	}
	want := "[leaf1] aborted: not applied, all or nothing: leaf3 failed (no connection); to push without it, --limit '!leaf3'\n" +
		"[leaf2] aborted: not applied, all or nothing: leaf3 failed\n" +
		"[spine1] aborted: not applied, all or nothing: leaf3 failed\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
