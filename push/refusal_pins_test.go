package push

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// Tests that pin push's warning decisions where hand mutation testing
// (review mutants2) changed one with no test failing.

// TestRefusalPinsStageWarningsNeedAChangeAndARead: stageWarnings warns
// only of what a staged change does to a switch it read first. With no
// change staged ("" diff) there is nothing it brings up, even where the
// switch has a fabric port shut that the fabric wants up: the diff stays
// empty (no change to approve) and no warning is recorded. With a change
// but no read before it (the read failed: a note, readBefore), the diff
// is shown as it is.
func TestRefusalPinsStageWarningsNeedAChangeAndARead(t *testing.T) {
	want, before := verify.NewState(), verify.NewState()
	want.Port("swp1")
	before.Port("swp1").Shutdown = true
	d := &device{t: Target{Switch: &model.Switch{Name: "leaf1"}}, v: &Vendor{AdminDown: "link state down"},
		res: &DeviceResult{}, wanted: want, before: before}
	if got := d.stageWarnings(""); got != "" || len(d.res.Warnings) != 0 {
		t.Errorf("no change: diff %q, warnings %q; want none", got, d.res.Warnings)
	}
	d.before = nil
	if got := d.stageWarnings("+mtu 9216\n"); got != "+mtu 9216\n" || len(d.res.Warnings) != 0 {
		t.Errorf("not read before: diff %q, warnings %q; want the diff as it is", got, d.res.Warnings)
	}
	// The case both guards let through: read and changed, the shut port warned.
	d.before = before
	if got := d.stageWarnings("+x\n"); len(d.res.Warnings) != 1 || got == "+x\n" {
		t.Errorf("read and changed: diff %q, warnings %q; want the brought-up warning", got, d.res.Warnings)
	}
}
