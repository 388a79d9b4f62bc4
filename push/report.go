package push

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fabricc/fabricc/push/verify"
)

// Statuses of a device in a report.
const (
	StatusChanged   = "changed"   // push applied, verified and confirmed a change
	StatusUnchanged = "unchanged" // nothing to change; verified
	StatusDryRun    = "dry-run"   // diff computed, nothing changed
	StatusVerified  = "verified"  // verify only: matches the model
	StatusMismatch  = "mismatch"  // verify only: differs from the model
	StatusFailed    = "failed"    // push failed; see RolledBack
)

// Report is what `fabricc push|diff|verify --report FILE` writes.
type Report struct {
	// ID names the transaction (EOS session fabricc-<id>, Onyx
	// checkpoint fabricc-pre-<id>).
	ID      string          `json:"id"`
	Action  string          `json:"action"`
	Fabric  string          `json:"fabric"`
	Devices []*DeviceResult `json:"devices"`
}

// DeviceResult is one device's outcome.
type DeviceResult struct {
	Device   string `json:"device"`
	Platform string `json:"platform"`
	Address  string `json:"address"`
	Status   string `json:"status"`
	// Diff is the change the device reported (EOS session diff, NVUE
	// config diff) or computed (Onyx), before anything was applied.
	Diff string `json:"diff,omitempty"`
	// Commands are every command line sent, in order.
	Commands []string `json:"commands"`
	// Verified is true when the read-back matched the model.
	Verified    bool                `json:"verified"`
	Differences []verify.Difference `json:"differences,omitempty"`
	DurationMs  int64               `json:"duration_ms"`
	// Error is why the device failed.
	Error string `json:"error,omitempty"`
	// RolledBack is true when a failed push was undone; RollbackNote
	// says why the undo itself failed when it did.
	RolledBack   bool   `json:"rolled_back,omitempty"`
	RollbackNote string `json:"rollback,omitempty"`
}

// Failed reports whether any device failed or mismatched.
func (r *Report) Failed() bool {
	for _, d := range r.Devices {
		if d.Status == StatusFailed || d.Status == StatusMismatch {
			return true
		}
	}
	return false
}

// JSON is the report as indented JSON.
func (r *Report) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	return append(b, '\n'), err
}

// WriteSummary prints one line per device and a totals line.
func (r *Report) WriteSummary(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tPLATFORM\tSTATUS\tVERIFIED\tTIME\tDETAIL")
	counts := map[string]int{}
	for _, d := range r.Devices {
		counts[d.Status]++
		detail := d.Error
		if detail == "" && len(d.Differences) > 0 {
			detail = fmt.Sprintf("%d differences, first: %s", len(d.Differences), d.Differences[0])
		}
		if d.RolledBack {
			detail += " (rolled back)"
		} else if d.RollbackNote != "" {
			detail += " (" + d.RollbackNote + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Device, d.Platform, d.Status, yesNo(d.Verified),
			(time.Duration(d.DurationMs) * time.Millisecond).String(), oneLine(detail))
	}
	_ = tw.Flush()
	var parts []string
	for _, s := range []string{StatusChanged, StatusUnchanged, StatusDryRun, StatusVerified, StatusMismatch, StatusFailed} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	fmt.Fprintf(w, "%s: %d devices: %s\n", r.Action, len(r.Devices), strings.Join(parts, ", "))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
