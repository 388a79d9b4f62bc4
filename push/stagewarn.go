package push

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/push/verify"
)

// readBefore reads the switch as verify does, before a push or dry run
// stages its change, into d.before: what the push is about to change is
// told from it (stageWarnings), and the notes after the push and the
// switch-wide changes compare with it. A read that fails is a note, not
// a failure: the push itself reads the switch again to verify it.
func (d *device) readBefore() error {
	got, err := d.readState()
	if errors.Is(err, verify.ErrLineTooLong) {
		// The read after the apply would fail the same way and roll the
		// change back (and, all or nothing, every switch's): refuse now.
		return fmt.Errorf("%w; fabricc cannot verify a change to a configuration it cannot read in full, so it does not make one: "+
			"shorten that line on the switch (a banner or description), then push again; nothing was changed", err)
	}
	if err != nil {
		d.res.Notes = append(d.res.Notes, "not read before the change, so not warned of ports it brings up or takes PFC from: "+err.Error())
		return nil
	}
	d.before = got
	return nil
}

// stageWarnings warns, before anything is applied, of what the staged
// change does to the running switch beyond the fabric's own settings:
// each fabric port shut on the switch that the push brings up (rmig #4:
// every platform, not only Cumulus), and each port outside the fabric
// whose lossless priorities it takes away (rmig #3). Each warning is a
// "# warning:" line at the head of diff, which the approval question
// and the dry run show, and one of the result's Warnings, named by
// switch, for the summary, --json and --report. diff is returned as it
// is when there is nothing to warn of, no change, or no read before.
func (d *device) stageWarnings(diff string) string {
	if d.before == nil || diff == "" {
		return diff
	}
	want := d.want()
	var lines []string
	for _, p := range verify.BroughtUp(want, d.before) {
		lines = append(lines, fmt.Sprintf("%s is administratively down on the switch (%s) and this push brings it up; "+
			"to keep it down, set shutdown = true on the port in the fabric", quote.Visible(p), d.v.AdminDown))
	}
	for _, l := range verify.PFCTakenOut(want, d.before, d.v.SwitchWidePFC) {
		lines = append(lines, l.Warning())
	}
	if len(lines) == 0 {
		return diff
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("# warning: " + l + "\n")
		d.res.Warnings = append(d.res.Warnings, d.t.Switch.Name+" "+l)
	}
	return b.String() + diff
}
