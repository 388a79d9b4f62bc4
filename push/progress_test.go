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
	want := "[leaf1] connect\n" +
		"[leaf1] changed, verified\n" +
		"[leaf2] verified\n" +
		"[leaf3] failed, rolled back: apply: % Invalid input \\x1b[2Jdetected\n" +
		"[leaf4] aborted: not applied, all or nothing: leaf3 failed\n" +
		"[leaf5] failed, stopped before any change was sent; nothing to roll back: staging: fabric ports are LAG/MLAG members; nothing was changed\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
