package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestVerifyUnsavedHandChangeIsMismatch: after a push, a port is changed
// by hand and not saved (how most hand changes start). verify lists the
// difference and the unsaved changes; its status is mismatch, which a
// drift monitor keys on, with the unsaved changes in pending beside it.
// Before, pending won over the difference, as if a push were in flight.
func TestVerifyUnsavedHandChangeIsMismatch(t *testing.T) {
	t.Parallel()
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformOnyx)
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	c := l.dial(t, model.PlatformOnyx)
	for _, cmd := range []string{"configure terminal", "interface ethernet 1/1 shutdown", "exit"} {
		if out, err := c.Send(cmd); err != nil || strings.Contains(out, "%") {
			t.Fatalf("%s: %v %q", cmd, err, out)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	v := l.run(t, ActionVerify, f, sw, cfg)
	wantPending := []string{"Onyx running configuration with unsaved changes that no fabricc push made"}
	var diffs []string
	for _, d := range v.Differences {
		diffs = append(diffs, d.String())
	}
	wantDiffs := []string{sw.Name + " 1/1 admin state: intended up, actual down (shutdown)"}
	if v.Status != StatusMismatch || v.Verified || !slices.Equal(v.Pending, wantPending) || !slices.Equal(diffs, wantDiffs) {
		t.Errorf("verify: status %s verified %v pending %q differences %q; want mismatch, pending %q, differences %q", v.Status, v.Verified, v.Pending, diffs, wantPending, wantDiffs)
	}
}
