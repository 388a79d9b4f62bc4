package push

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/push/verify"
)

// Statuses of a device in a report.
const (
	StatusChanged   = "changed"   // push applied, verified and confirmed a change
	StatusUnchanged = "unchanged" // nothing to change; verified
	StatusDryRun    = "dry-run"   // diff computed, nothing changed; the summary says "would change" or "up to date"
	StatusVerified  = "verified"  // verify only: matches the model
	StatusMismatch  = "mismatch"  // verify only: differs from the model
	StatusFailed    = "failed"    // push failed; see RolledBack and NothingSent
	StatusAborted   = "aborted"   // push rolled its change back, or did not apply (or, --save-unsaved, save) it, because another switch failed (all or nothing)
	StatusLocked    = "locked"    // another push holds the device; nothing was changed
	StatusPending   = "pending"   // verify only: a change waits for a timer, a confirmation or a save
	// StatusRunning is a device still at work when the --report file was
	// written: the file is rewritten at each step, so a run killed
	// outright (kill -9) leaves its last state; Steps' last is the step.
	StatusRunning = "running"
)

// What a push did about something an earlier, interrupted run left on a
// device (Recovery.Action).
const (
	RecoveryCompleted  = "completed"     // it verified as the intended state and was confirmed or saved
	RecoveryRolledBack = "rolled back"   // it did not verify, or an all-or-nothing push of several switches does not complete it, and was undone
	RecoveryDiscarded  = "discarded"     // staged, never effective: thrown away
	RecoveryLockBroken = "lock broken"   // the lock of a gone (or, with --break-lock, any) holder removed
	RecoveryLeft       = "left as it is" // not undoable, or not saved because the push failed; the detail says what to do
	// RecoverySaved: unsaved changes no fabricc push made, saved with
	// this push's change because it ran with --save-unsaved
	// (Options.SaveUnsaved); without it the push refuses.
	RecoverySaved = "saved with this push"
)

// Recovery is one thing an earlier run left on the device and what this
// run did about it.
type Recovery struct {
	Found  string `json:"found"`
	Action string `json:"action"`
}

// String is the finding and the action, as "found: action".
func (r Recovery) String() string { return r.Found + ": " + r.Action }

// Report is what `fabricc push|diff|verify --report FILE` writes.
type Report struct {
	// ID names the transaction (EOS session fabricc-<id>, Onyx
	// checkpoint fabricc-pre-<id>).
	ID     string `json:"id"`
	Action string `json:"action"`
	Fabric string `json:"fabric"`
	// Build is which build the run compared the switches with or
	// pushed: a drift alert must say whether it checked build N or N+1.
	Build *BuildInfo `json:"build,omitempty"`
	// StartedAt and FinishedAt are when the run started and ended
	// (Stamp); FinishedAt is absent in a report written while the run
	// was still going (the last one a killed run left).
	StartedAt  string          `json:"started_at,omitempty"`
	FinishedAt string          `json:"finished_at,omitempty"`
	Devices    []*DeviceResult `json:"devices"`
	// Summary counts the devices by status, and their differences.
	Summary Summary `json:"summary"`
	// FabricSwitches is how many switches the fabric has, when the run
	// worked on fewer of them (LeftOut names the others); 0 when it
	// worked on every one.
	FabricSwitches int `json:"fabric_switches,omitempty"`
	// LeftOut are the fabric's switches this run left out, and why.
	LeftOut []LeftOut `json:"left_out,omitempty"`
	// Warnings are what the command warned of (a partial push), also
	// among the --json envelope's diagnostics.
	Warnings []string `json:"warnings,omitempty"`
	// FabricHosts is how many hosts the fabric has.
	FabricHosts int `json:"fabric_hosts,omitempty"`
	// HostsNotChecked are the fabric's hosts this run did not check, and
	// why: push and diff check none; verify those the inventory does not
	// list or --limit leaves out, and Windows hosts.
	HostsNotChecked []HostNotChecked `json:"hosts_not_checked,omitempty"`
	// HostScriptsChanged is, for push and diff of an --artifacts build
	// whose previous build fabricc build kept, the hosts whose script
	// changed since; absent when that cannot be known.
	HostScriptsChanged *HostChanges `json:"host_scripts_changed,omitempty"`
	// MixedMs is, for a push that applied a change to some switch, how
	// long switches ran a configuration other switches did not have yet
	// or no longer: from the first apply to the last confirmation or
	// rollback, in milliseconds.
	MixedMs int64 `json:"mixed_ms,omitempty"`
	// MixedOpen is true when the mixed state has not ended: a
	// --per-device push changed some switches and left others behind
	// (LeftOut), so MixedMs is only how long it lasted during the push.
	MixedOpen bool `json:"mixed_open,omitempty"`
}

// Summary counts a run's devices by status, each status the action
// gives present even when 0 (verify: verified, mismatch, pending,
// failed, aborted; push: changed, unchanged, locked, failed, aborted;
// diff: dry-run, locked, failed, aborted; any other status found, such
// as running, besides), with "devices", how many there are, and
// "differences", how many differences they have in all: what a monitor
// exports without walking the devices. encoding/json writes its keys
// sorted.
type Summary map[string]int

// summaryStatuses are the statuses each action gives (Summary).
var summaryStatuses = map[string][]string{
	ActionVerify: {StatusVerified, StatusMismatch, StatusPending, StatusFailed, StatusAborted},
	ActionPush:   {StatusChanged, StatusUnchanged, StatusLocked, StatusFailed, StatusAborted},
	ActionDiff:   {StatusDryRun, StatusLocked, StatusFailed, StatusAborted},
}

// Summarize sets r.Summary from its devices.
func (r *Report) Summarize() {
	s := Summary{"devices": len(r.Devices), "differences": 0}
	for _, st := range summaryStatuses[r.Action] {
		s[st] = 0
	}
	for _, d := range r.Devices {
		s[d.Status]++
		s["differences"] += len(d.Differences)
	}
	r.Summary = s
}

// settleDifferences makes a result without differences say [] rather
// than null (DeviceResult.Differences).
func (d *DeviceResult) settleDifferences() {
	if d.Differences == nil {
		d.Differences = []verify.Difference{}
	}
}

// BuildInfo identifies the build a run worked from: an --artifacts
// folder (Dir, the SHA-256 of its manifest.json, which lists the SHA-256
// of every file of the build, and the sources digest the manifest
// records), or a fabric PATH built in memory (Path and the digest of its
// sources as fabricc build would record it, dsl.SourceDigest). Two runs
// whose digests are equal worked from the same build.
type BuildInfo struct {
	Dir            string `json:"dir,omitempty"`
	Path           string `json:"path,omitempty"`
	ManifestSHA256 string `json:"manifest_sha256,omitempty"`
	SourcesSHA256  string `json:"sources_sha256,omitempty"`
}

// LeftOut is a switch of the fabric a run did not work on: not in the
// inventory (with push --partial), or not selected by --limit.
type LeftOut struct {
	Switch string `json:"switch"`
	// Why is "not in the inventory", "--limit", or, after a
	// --per-device push, its status and LeftOutPerDevice.
	Why string `json:"why"`
}

// Reasons a switch is left out (LeftOut.Why).
const (
	LeftOutNotListed = "not in the inventory"
	LeftOutLimit     = "--limit"
	// LeftOutPerDevice follows the status (failed, locked) of a switch a
	// --per-device push did not change while it changed others.
	LeftOutPerDevice = " in this --per-device push"
)

// DeviceResult is one device's outcome.
type DeviceResult struct {
	Device string `json:"device"`
	// Platform is a switch's platform, or a host's operating system.
	Platform string `json:"platform"`
	Address  string `json:"address"`
	// Host is true for a host that verify checked with its script's
	// --check (host.go); its Notes are the script's "skipped:",
	// "manual:" and "note:" lines.
	Host   bool   `json:"host,omitempty"`
	Status string `json:"status"`
	// Diff is the change the device reported (EOS session diff, NVUE
	// config diff) or computed (Onyx), before anything was applied.
	Diff string `json:"diff,omitempty"`
	// Commands are every command line sent, in order.
	Commands []string `json:"commands"`
	// Verified is true when the read-back matched the model.
	Verified bool `json:"verified"`
	// Differences are what differs from the model; [] when nothing
	// does (or nothing was read), never null, so that a pipeline's
	// `.result.devices[].differences[]` works on a clean fabric.
	Differences []verify.Difference `json:"differences"`
	// Cabling is what verify found of the switch's cables from its LLDP
	// neighbors (Options.Cabling); its differences are among
	// Differences.
	Cabling    *verify.Cabling `json:"cabling,omitempty"`
	DurationMs int64           `json:"duration_ms"`
	// StartedAt and FinishedAt are when the device's run started and
	// ended (Stamp); Steps are its steps, each with when it began and
	// how long it took, to line up with the switch's own log.
	StartedAt  string `json:"started_at,omitempty"`
	FinishedAt string `json:"finished_at,omitempty"`
	Steps      []Step `json:"steps,omitempty"`
	// Error is why the device failed.
	Error string `json:"error,omitempty"`
	// RolledBack is true when a failed push was undone; RollbackNote
	// says why the undo itself failed when it did.
	RolledBack   bool   `json:"rolled_back,omitempty"`
	RollbackNote string `json:"rollback,omitempty"`
	// NothingSent is true when a push failed, found the switch locked by
	// another push, or refused it (a pre-check such as a foreign Onyx
	// pool), before a single command of its change was sent, or when it
	// threw its staged change (an EOS configure session, an NVUE
	// revision) away before applying it: the switch was not changed, so
	// nothing was rolled back (RolledBack false).
	NothingSent bool `json:"nothing_sent,omitempty"`
	// discarded: NothingSent because the change was staged (an EOS
	// configure session, an NVUE revision) and thrown away before it was
	// applied, rather than because nothing of it was sent (the summary's
	// words, labelDiscarded).
	discarded bool
	// Recovered lists what earlier, interrupted runs left on the device
	// (pending sessions and revisions, unsaved changes, a stale lock)
	// and what this run did about each.
	Recovered []Recovery `json:"recovered,omitempty"`
	// Pending lists, for verify (and a dry run), the changes that wait
	// for a commit timer, a confirmation or a save, and a lock found.
	Pending []string `json:"pending,omitempty"`
	// Lock names the holder of the device lock that kept this run out
	// (status locked).
	Lock string `json:"lock,omitempty"`
	// Notes are what else this run did that its status does not say.
	Notes []string `json:"notes,omitempty"`
	// Warnings are what the change does to the running switch beyond
	// the fabric's own settings, told before it is applied, each led by
	// the switch's name: a fabric port shut on the switch that it brings
	// up, a port outside the fabric whose lossless priorities it takes
	// away. Each is also a "# warning:" line at the head of Diff.
	Warnings []string `json:"warnings,omitempty"`
	// SwitchWide are the switch-wide settings (VLANs, DSCP map, PFC
	// priorities, buffer pools, ETS) a push changed on the switch, as
	// "PFC priorities 3 -> 3,4", from its read-back before and after
	// (verify.SwitchWideChanges); what a partial push names.
	SwitchWide []string `json:"switch_wide_changes,omitempty"`
	// AppliedMs, ConfirmedMs and RolledBackMs are when, in milliseconds
	// from the start of the push, the switch began to apply its change
	// (from then it runs the new configuration), had it confirmed, and
	// had it rolled back; absent for what did not happen (never 0 when
	// it did: connecting and staging come first).
	AppliedMs    int64 `json:"applied_ms,omitempty"`
	ConfirmedMs  int64 `json:"confirmed_ms,omitempty"`
	RolledBackMs int64 `json:"rolled_back_ms,omitempty"`
	// shared is the failure of another switch that stopped this one in
	// an all-or-nothing push, when it carries a reason of its own (an
	// unreachable switch and what to do): Error holds it whole, the
	// summary's row names the switch only and says the reason once below
	// the table.
	shared *gateFailure
}

// Step is one step of a device's run (as the progress lines name it:
// connect, lock, stage, apply, ...): when it began (Stamp) and how long
// it took; the last step of a device still running has no duration yet.
type Step struct {
	Step       string `json:"step"`
	StartedAt  string `json:"started_at"`
	DurationMs *int64 `json:"duration_ms,omitempty"`
	at         time.Time
}

// StampFormat is RFC 3339 with milliseconds, as Stamp writes it.
const StampFormat = "2006-01-02T15:04:05.000Z07:00"

// Stamp is t in UTC as RFC 3339 with milliseconds
// ("2026-11-27T18:53:23.412Z"; RFC 3339, "Date and Time on the
// Internet: Timestamps"), to line up with switch logs and monitoring.
func Stamp(t time.Time) string { return t.UTC().Format(StampFormat) }

// AddStep ends the last of steps at t and begins step name at t.
func AddStep(steps []Step, name string, t time.Time) []Step {
	steps = EndSteps(steps, t)
	return append(steps, Step{Step: name, StartedAt: Stamp(t), at: t})
}

// EndSteps gives the last of steps its duration, ending at t.
func EndSteps(steps []Step, t time.Time) []Step {
	if n := len(steps); n > 0 && steps[n-1].DurationMs == nil {
		ms := t.Sub(steps[n-1].at).Milliseconds()
		steps[n-1].DurationMs = &ms
	}
	return steps
}

// Failed reports whether any device failed, mismatched, was kept out
// by another push's lock or has a change waiting.
func (r *Report) Failed() bool {
	for _, d := range r.Devices {
		switch d.Status {
		case StatusFailed, StatusAborted, StatusMismatch, StatusLocked, StatusPending:
			return true
		}
	}
	return false
}

// Unfinished are the devices this run could not do its work on, in the
// report's order: failed, kept out by another push's lock, aborted (an
// all-or-nothing push stopped by another switch, or an interruption),
// still running (a report written before the end), and, for verify, a
// switch that answered as another one (mismatch with an error and no
// difference: it was not read). Each makes the exit status 1; a verify
// mismatch that was read, or a change pending, does not (exit 2).
func (r *Report) Unfinished() []*DeviceResult {
	var out []*DeviceResult
	for _, d := range r.Devices {
		if r.unfinished(d) {
			out = append(out, d)
		}
	}
	return out
}

func (r *Report) unfinished(d *DeviceResult) bool {
	switch d.Status {
	case StatusVerified, StatusChanged, StatusUnchanged, StatusDryRun:
		return false
	case StatusMismatch:
		return d.Error != "" && len(d.Differences) == 0
	case StatusPending:
		return r.Action != ActionVerify
	}
	return true
}

// maxNamedUnfinished bounds the reasons UnfinishedError gives, and the
// devices it names for each: an unreachable management network fails
// every switch of a large fabric, and an all-or-nothing push aborts
// every switch but the one that failed.
const maxNamedUnfinished = 5

// unfinishedRank orders UnfinishedError's reasons: the switches that
// failed or were kept out first, those stopped because of them last.
var unfinishedRank = map[string]int{StatusFailed: 0, StatusLocked: 1, StatusMismatch: 2, StatusRunning: 3, StatusPending: 4, StatusAborted: 5}

// unfinishedGroup is the devices of Unfinished that share a status and
// an error (errorOnce).
type unfinishedGroup struct {
	why   string
	rank  int
	names []string
}

// UnfinishedError is the --json envelope's error for the devices of
// Unfinished, "" when there are none: how many of the run's devices,
// what that means for the action, then each reason, the devices it
// stopped before it, as "spine2 (failed: ERROR)" or "leaf1, leaf2
// (aborted: not applied, all or nothing: spine2 failed)": failed and
// locked first, at most five reasons and five names each, the rest
// counted; each device's whole error stays in its result. With it the
// envelope says why whenever a device makes the exit status 1, so a
// pipeline tells "the monitor could not see the switch" (error set)
// from drift (ok false, no error, exit status 2).
func (r *Report) UnfinishedError() string {
	bad := r.Unfinished()
	if len(bad) == 0 {
		return ""
	}
	what := "could not be checked"
	switch {
	case r.Action == ActionPush && len(bad) == 1:
		what = "was not pushed"
	case r.Action == ActionPush:
		what = "were not pushed"
	}
	groups := groupUnfinished(bad)
	var parts []string
	for _, g := range groups[:min(len(groups), maxNamedUnfinished)] {
		names := g.names[:min(len(g.names), maxNamedUnfinished)]
		list := strings.Join(names, ", ")
		if n := len(g.names) - len(names); n > 0 {
			list += fmt.Sprintf(" and %d more", n)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", list, g.why))
	}
	if len(groups) > maxNamedUnfinished {
		n := 0
		for _, g := range groups[maxNamedUnfinished:] {
			n += len(g.names)
		}
		parts = append(parts, "and "+plural(n, "more device"))
	}
	return fmt.Sprintf("%d of %s %s: %s", len(bad), plural(len(r.Devices), "device"), what, strings.Join(parts, "; "))
}

// groupUnfinished groups devs by status and error, in unfinishedRank's
// order, each rank in the order of the devices.
func groupUnfinished(devs []*DeviceResult) []*unfinishedGroup {
	var groups []*unfinishedGroup
	byWhy := map[string]*unfinishedGroup{}
	for _, d := range devs {
		why := d.Status
		if e := d.errorOnce(); e != "" {
			why += ": " + oneLine(e)
		}
		g := byWhy[why]
		if g == nil {
			g = &unfinishedGroup{why: why, rank: unfinishedRank[d.Status]}
			byWhy[why] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, d.Device)
	}
	slices.SortStableFunc(groups, func(a, b *unfinishedGroup) int { return a.rank - b.rank })
	return groups
}

// JSON is the report as indented JSON.
func (r *Report) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	return append(b, '\n'), err
}

// What the summary prints for a dry run's device (StatusDryRun in the
// report): whether the push would change it, which the report tells by
// its diff.
const (
	labelWouldChange = "would change" // the dry run found a diff
	labelUpToDate    = "up to date"   // the dry run found none
)

// label is a device's status as the summary prints it.
func (d *DeviceResult) label() string {
	switch {
	case d.Status != StatusDryRun:
		return d.Status
	case d.Diff != "":
		return labelWouldChange
	}
	return labelUpToDate
}

// summaryOrder is the order of the summary's totals.
var summaryOrder = []string{StatusChanged, StatusUnchanged, labelWouldChange, labelUpToDate, StatusVerified,
	StatusMismatch, StatusPending, StatusLocked, StatusFailed, StatusAborted}

// WriteSummary prints one line per device, for verify one line per
// switch on its cabling (from LLDP) and one per note of a host's check,
// and a totals line.
func (r *Report) WriteSummary(w io.Writer) {
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	// diff's output is what a pull request shows, and a bot updates
	// its comment when it changes: it must be a function of the inputs
	// and the switches, so it has no TIME column (the durations are in
	// --json and --report). push and verify print how long each took.
	timed := r.Action != ActionDiff
	fmt.Fprintln(tw, "DEVICE\tPLATFORM\tSTATUS\tVERIFIED\t"+cond(timed, "TIME\t")+"DETAIL")
	counts := map[string]int{}
	for _, d := range r.Devices {
		counts[d.label()]++
		took := (time.Duration(d.DurationMs) * time.Millisecond).String() + "\t"
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s%s\n", d.Device, d.Platform, d.label(), r.verifiedColumn(d),
			cond(timed, took), quote.Visible(oneLine(d.detail())))
	}
	_ = tw.Flush()
	// A row without a detail would end in the last column's padding.
	for _, line := range strings.SplitAfter(table.String(), "\n") {
		if body, nl := strings.CutSuffix(line, "\n"); nl {
			fmt.Fprintln(w, strings.TrimRight(body, " "))
		}
	}
	if f := r.sharedFailure(); f != nil {
		fmt.Fprintln(w, "all or nothing:", quote.Visible(f.Error()))
	}
	if r.cablingUnchecked() {
		fmt.Fprintln(w, "cabling (LLDP) not checked by push: fabricc verify checks it")
	}
	for _, d := range r.Devices {
		if d.Cabling != nil {
			fmt.Fprintln(w, "cabling", d.Cabling.Summary(d.Device))
		}
	}
	for _, d := range r.Devices {
		for _, n := range d.hostNotes() {
			fmt.Fprintf(w, "host %s: %s\n", d.Device, quote.Visible(n))
		}
	}
	for _, line := range r.hostLines() {
		fmt.Fprintln(w, line)
	}
	var parts []string
	for _, s := range summaryOrder {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	fmt.Fprintf(w, "%s: %s: %s\n", r.Action, r.counted(), strings.Join(parts, ", "))
	if line := r.outcome(); line != "" {
		fmt.Fprintln(w, line)
	}
}

// sharedFailure is the failure of the switch that stopped an
// all-or-nothing push, when the other rows name it without its reason
// (DeviceResult.shared); nil otherwise.
func (r *Report) sharedFailure() *gateFailure {
	for _, d := range r.Devices {
		if d.shared != nil {
			return d.shared
		}
	}
	return nil
}

// cablingUnchecked reports whether a push's table says VERIFIED yes for
// some switch: push reads back the configuration, not the LLDP
// neighbors, so the summary says that the cabling was not checked
// (fabricc verify checks it), lest a "yes" read as a verified fabric.
func (r *Report) cablingUnchecked() bool {
	if r.Action != ActionPush {
		return false
	}
	for _, d := range r.Devices {
		if r.verifiedColumn(d) == "yes" {
			return true
		}
	}
	return false
}

// outcome is the last line of a push that failed (a switch failed,
// aborted or locked): "push: nothing was changed on any switch" when no
// switch runs anything else than before the push, or which switches
// were changed and rolled back when that is all that happened; "" for a
// push that changed a switch or did not fail, and when what a switch
// holds is not known (a rollback failed, a run cut short).
func (r *Report) outcome() string {
	if r.Action != ActionPush || !r.Failed() {
		return ""
	}
	var back []string
	for _, d := range r.Devices {
		switch {
		case d.Status == StatusChanged, d.RollbackNote != "", changedByRecovery(d):
			return ""
		case d.NothingSent, d.Status == StatusUnchanged, d.Status == StatusLocked:
		case d.RolledBack && d.AppliedMs == 0:
			// Its staged change was thrown away before it took effect.
		case d.RolledBack:
			back = append(back, d.Device)
		default:
			return ""
		}
	}
	if len(back) == 0 {
		return "push: nothing was changed on any switch"
	}
	return fmt.Sprintf("push: rolled back on %s, as before the push; no switch keeps this push's change", strings.Join(back, ", "))
}

// changedByRecovery reports whether this run changed what an earlier,
// interrupted push left on d in effect: finished, rolled back or saved
// it (a staged change discarded, a lock broken change nothing running).
func changedByRecovery(d *DeviceResult) bool {
	for _, rc := range d.Recovered {
		switch rc.Action {
		case RecoveryCompleted, RecoveryRolledBack, RecoverySaved:
			return true
		}
	}
	return false
}

// counted is the summary's count: "6 devices", or, when the run left
// switches of the fabric out, "4 of 6 switches" (and its hosts).
func (r *Report) counted() string {
	if r.FabricSwitches == 0 {
		return plural(len(r.Devices), "device")
	}
	hosts := 0
	for _, d := range r.Devices {
		if d.Host {
			hosts++
		}
	}
	s := fmt.Sprintf("%d of %s", len(r.Devices)-hosts, plural(r.FabricSwitches, "switch"))
	if hosts > 0 {
		s += " and " + plural(hosts, "host")
	}
	return s
}

// labelNothingSent is what the summary and the progress lines say of a
// push that stopped before it sent any of its change (NothingSent).
const labelNothingSent = "stopped before any change was sent; nothing to roll back"

// nothingSentLabel is what the summary and the progress lines say of a
// failed switch whose change never took effect: discarded while staged,
// or never sent.
func (d *DeviceResult) nothingSentLabel() string {
	if d.discarded {
		return labelDiscarded
	}
	return labelNothingSent
}

// labelDiscarded is what the summary and the progress lines say of a
// push that failed while its change was staged, and threw the staged
// change away before it was applied (DeviceResult.discarded).
const labelDiscarded = "its staged change was discarded, never applied; nothing to roll back"

// verifiedColumn is "yes" or "no", or "-" where the switch holds
// nothing of this run to verify: in a diff, which reads nothing back (a
// "no" there read as a failed check), and on a switch whose change was
// rolled back or never applied (aborted, rolled back after it verified,
// or stopped before any of it was sent): a "yes" there read as the
// change being in place, a "no" as a failed check. Its detail says what
// happened; the report's verified still says whether the read-back
// matched before the rollback.
func (r *Report) verifiedColumn(d *DeviceResult) string {
	switch {
	case r.Action == ActionDiff, d.Status == StatusAborted, d.Verified && d.RolledBack, d.NothingSent:
		return "-"
	}
	return yesNo(d.Verified)
}

// plural is "1 device", "2 devices".
func plural(n int, noun string) string { return english.Count(n, noun) }

// errorOnce is d's error with the failure of another switch that
// stopped it (shared) shortened to "leaf3 failed": the reason is that
// switch's own error, said once in its line, not once per switch.
func (d *DeviceResult) errorOnce() string {
	if d.shared == nil {
		return d.Error
	}
	return strings.Replace(d.Error, d.shared.Error(), d.shared.short(), 1)
}

// firstByImpact is the difference verify prints first of diffs, the most
// harmful to RoCE (verify.SortByImpact), leaving diffs as they are.
func firstByImpact(diffs []verify.Difference) verify.Difference {
	sorted := slices.Clone(diffs)
	verify.SortByImpact(sorted)
	return sorted[0]
}

// detail is the summary's last column: the error or the first
// difference verify prints (firstByImpact), the rollback, then what was
// waiting, recovered or noted. It carries device text (errors, notes),
// so WriteSummary prints it on one line through quote.Visible.
func (d *DeviceResult) detail() string {
	var parts []string
	detail := d.errorOnce()
	if detail == "" && len(d.Differences) > 0 {
		detail = fmt.Sprintf("%s, first: %s", plural(len(d.Differences), "difference"), firstByImpact(d.Differences))
	}
	switch {
	case d.RolledBack:
		detail += " (rolled back)"
	case d.NothingSent && d.Status == StatusFailed:
		// An aborted switch's error says "not applied" itself.
		detail += " (" + d.nothingSentLabel() + ")"
	case d.RollbackNote != "":
		detail += " (" + d.RollbackNote + ")"
	}
	if detail != "" {
		parts = append(parts, detail)
	}
	for _, w := range d.Warnings {
		parts = append(parts, "warning: "+w)
	}
	for _, p := range d.Pending {
		parts = append(parts, "pending: "+p)
	}
	for _, r := range d.Recovered {
		parts = append(parts, "found "+r.String())
	}
	if n := len(d.hostNotes()); n > 0 {
		parts = append(parts, plural(n, "note")+" below")
	} else {
		parts = append(parts, d.Notes...)
	}
	return strings.Join(parts, "; ")
}

// hostNotes are a host's notes, which the summary prints one a line
// below the table: a script prints one per step it left out or cannot
// do, too many for the table's column.
func (d *DeviceResult) hostNotes() []string {
	if d.Host {
		return d.Notes
	}
	return nil
}

// cond is s when b, else "".
func cond(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
