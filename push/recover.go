package push

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// What a push killed at the wrong moment leaves on a switch, and what
// the next push does about it, under the device lock and before it
// stages anything (README, "Pushing to switches"):
//
//   - staged, never effective (an EOS session fabricc-* still pending,
//     an NVUE pending revision with changes): thrown away, so that it
//     does not ride along with the new change;
//   - effective under a timer (an EOS session with a commit timer, an
//     NVUE revision applied with --confirm): the switch reverts it on
//     its own within minutes. When the switch verifies as the intended
//     state it is confirmed and saved; otherwise it is rolled back now;
//   - effective, not saved, left by the transaction of a stale lock (an
//     Onyx running configuration with unsaved changes and that push's
//     checkpoint, an EOS or NVUE change confirmed but not saved): saved
//     when it verifies; otherwise Onyx is brought back to the
//     checkpoint, and EOS and NVUE are left to the new push;
//   - the checkpoint of a stale lock's Onyx push without unsaved changes
//     (killed after its save, or before its first line): deleted.
//
// What is not fabricc's makes a push refuse, changing nothing: a timer,
// since fabricc would confirm or revert someone else's change, and
// unsaved changes, since a push ends by saving the whole configuration
// and so would save them too, unless the push runs with --save-unsaved
// (Options.SaveUnsaved). A dry run and verify change nothing: they
// report each of these as pending.
//
// Unsaved changes are fabricc's when a stale lock names the push that
// made them. A change under a timer is unsaved too; that difference is
// the timed change's own and is not listed again: a push only starts on
// a switch without unsaved changes (or with --save-unsaved), so what a
// fabricc timer holds unsaved is that push's change.

// leftoverKind says how a leftover affects the switch.
type leftoverKind int

const (
	leftStaged  leftoverKind = iota // not effective
	leftTimed                       // effective, reverts on a timer
	leftUnsaved                     // effective, not saved
)

// leftover is one thing an earlier run left on a switch.
type leftover struct {
	what string
	kind leftoverKind
	// ours: fabricc's own (a fabricc-* session or revision, or the
	// transaction of a stale lock).
	ours bool
	// advice is what to run about it, for verify and a dry run, which
	// change nothing (a push that acts on it does not repeat it).
	advice string
	// finish makes it permanent; undo throws it away or rolls it back
	// (nil when the platform cannot).
	finish, undo func(Conn) error
}

// pending is lo as verify and a dry run list it: what it is, and what
// to run about it.
func (lo leftover) pending() string {
	if lo.advice == "" {
		return lo.what
	}
	return lo.what + ": " + lo.advice
}

// sends returns a step that sends cmds in order.
func sends(cmds ...string) func(Conn) error {
	return func(c Conn) error {
		for _, cmd := range cmds {
			if _, err := c.Send(cmd); err != nil {
				return err
			}
		}
		return nil
	}
}

// eosSessions reads `show configuration sessions detail | json`. Its
// form changed in EOS 4.32 (napalm-automation/napalm issue #2166, "EOS
// 4.32+ Pending Commit Syntax Change", which quotes both for a session
// after `commit timer`): up to 4.31 a session under a commit timer is
// "state": "pendingCommitTimer" and a committed one "completed"; from
// 4.32 every committed session is "committed", timer or not, and the
// top-level "commitTimerSessionName" (with "commitTimerExpireTime")
// names the session whose timer runs, present only while one does.
// napalm's EOS driver (_get_pending_commits, "Syntax change >EOS 4.32")
// reads the top-level keys when they are present, and so does this.
func eosSessions(c Conn) (eosSessionList, error) {
	out, err := c.Send("show configuration sessions detail | json")
	if err != nil {
		return eosSessionList{}, err
	}
	return parseEOSSessions(out)
}

// eosSessionList is what `show configuration sessions detail | json`
// says of each session.
type eosSessionList struct {
	// states are the sessions' states, by name.
	states map[string]string
	// timed is the session under a commit timer, "" for none.
	timed string
}

// parseEOSSessions reads both forms of the sessions' JSON (eosSessions).
func parseEOSSessions(out string) (eosSessionList, error) {
	var js struct {
		Sessions map[string]struct {
			State string `json:"state"`
		} `json:"sessions"`
		Timer eosTimerKey `json:"commitTimerSessionName"`
	}
	if err := json.Unmarshal([]byte(jsonPart(out)), &js); err != nil {
		return eosSessionList{}, fmt.Errorf("show configuration sessions detail | json: %w", err)
	}
	l := eosSessionList{states: map[string]string{}}
	for name, s := range js.Sessions {
		l.states[name] = s.State
		if !js.Timer.present && s.State == "pendingCommitTimer" {
			l.timed = name // 4.31 and before
		}
	}
	if js.Timer.present {
		l.timed = js.Timer.name // 4.32 and later
		if _, ok := l.states[l.timed]; !ok && l.timed != "" {
			l.states[l.timed] = "" // listed as the timed leftover all the same
		}
	}
	return l, nil
}

// eosTimerKey is the top-level "commitTimerSessionName" of the sessions'
// JSON (eosSessions). Its presence is the 4.32 form, whose name is the
// timed session even when it is "" (no session named: none is timed,
// whatever a session's state says); absent (or null), the form before
// 4.32 names the timed session by its state instead.
type eosTimerKey struct {
	present bool
	name    string
}

// UnmarshalJSON reads the key's value, which is there: a string, or null
// (taken as absent).
func (k *eosTimerKey) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	k.present = true
	return json.Unmarshal(b, &k.name)
}

// committed reports whether session name is committed and not waiting
// under a commit timer: "completed" up to EOS 4.31, "committed" from
// 4.32 (eosSessions).
func (l eosSessionList) committed(name string) bool {
	st := l.states[name]
	return (st == "completed" || st == "committed") && name != l.timed
}

// eosLeftovers finds configure sessions of interrupted pushes and
// running-config changes not saved to startup-config (EOS does not save
// on commit).
func eosLeftovers(c Conn, stale *Holder) ([]leftover, error) {
	sessions, err := eosSessions(c)
	if err != nil {
		return nil, err
	}
	var out []leftover
	for _, name := range sortedKeys(sessions.states) {
		ours := strings.HasPrefix(name, "fabricc-")
		switch {
		case name == sessions.timed:
			out = append(out, leftover{what: "EOS session " + name + " committed with a timer, not confirmed (the switch reverts it when the timer runs out)",
				kind: leftTimed, ours: ours, finish: sends("configure session "+name+" commit", "write memory"), undo: sends("configure session " + name + " abort")})
		case sessions.states[name] == "pending" && ours:
			out = append(out, leftover{what: "EOS session " + name + " staged and never committed", kind: leftStaged, ours: true,
				undo: sends("configure session " + name + " abort")})
		}
	}
	if sessions.timed != "" {
		return out, nil // the timed session's change is what is unsaved
	}
	unsaved, err := eosUnsaved(c)
	if err != nil {
		return nil, err
	}
	if unsaved {
		out = append(out, eosUnsavedLeftover(staleTxn(stale, func(id string) bool { return sessions.committed("fabricc-" + id) })))
	}
	return out, nil
}

// eosUnsavedLeftover is a running-config that differs from
// startup-config: the change of the stale lock's push (ours), or one no
// fabricc push made.
func eosUnsavedLeftover(txn string) leftover {
	what := "EOS running-config with unsaved changes that no fabricc push made (it differs from startup-config)"
	if txn != "" {
		what = "running-config changes not saved to startup-config" + byTxn(txn)
	}
	return leftover{what: what, kind: leftUnsaved, ours: txn != "", finish: sends("write memory")}
}

// eosUnsaved reports whether running-config differs from
// startup-config, comment lines aside (arista.eos's eos_config compares
// them the same way for diff_against: startup).
func eosUnsaved(c Conn) (bool, error) {
	run, err := c.Send("show running-config")
	if err != nil {
		return false, err
	}
	start, err := c.Send("show startup-config")
	if err != nil {
		return false, err
	}
	return eosConfigLines(run) != eosConfigLines(start), nil
}

// eosConfigLines is a config without comments and blank lines.
func eosConfigLines(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "!") {
			out = append(out, strings.TrimRight(l, " \r"))
		}
	}
	return strings.Join(out, "\n")
}

// byTxn names the interrupted transaction a leftover belongs to.
func byTxn(id string) string {
	return " by the interrupted push " + id
}

// staleTxn is the first transaction of the stale lock (its own, then
// those it took over: Holder.Inherits) that left what has reports; ""
// when none did or there is no stale lock.
func staleTxn(stale *Holder, has func(id string) bool) string {
	for _, id := range stale.txns() {
		if has(id) {
			return id
		}
	}
	return ""
}

// nvueRevisions reads `nv config revision -o json`: each revision's
// state and the message `nv config apply -m` gave it.
func nvueRevisions(c Conn) (map[string]nvueRev, error) {
	out, err := c.Send("nv config revision -o json")
	if err != nil {
		return nil, err
	}
	var revs map[string]nvueRev
	if err := json.Unmarshal([]byte(jsonPart(out)), &revs); err != nil {
		return nil, fmt.Errorf("nv config revision -o json: %w", err)
	}
	return revs, nil
}

// nvueRev is one revision of `nv config revision -o json`.
type nvueRev struct {
	State   string `json:"state"`
	Message string `json:"message"`
}

// nvueLeftovers finds a revision waiting for confirmation, pending
// changes nobody applied (`nv config diff`), the unsaved revision of a
// stale lock's push, and an applied configuration that differs from the
// startup one (`nv config diff startup applied`; NVUE Command Reference,
// Config Commands, "nv config diff <revision-base> <revision-target>":
// either may be applied, startup or a revision number). A revision's
// state does not tell it: with auto-save on, every applied revision
// stays applied_and_saved (the same reference's `nv config revision`
// example), and one applied before a save keeps "applied".
func nvueLeftovers(c Conn, stale *Holder) ([]leftover, error) {
	revs, err := nvueRevisions(c)
	if err != nil {
		return nil, err
	}
	var out []leftover
	explained := false // the unsaved difference belongs to a leftover listed
	// A revision keeps "applied" when a later one is applied (the
	// reference's `nv config revision` example), so only the newest
	// applied one is the configuration in effect.
	current := newestRevision(revs, nvueApplied)
	for _, id := range sortedKeys(revs) {
		r := revs[id]
		switch {
		case r.State == nvueConfirmWaiting:
			explained = true
			out = append(out, leftover{what: "NVUE revision " + id + " applied with --confirm and not confirmed (the switch reverts it when the window closes)",
				kind: leftTimed, ours: strings.HasPrefix(r.Message, "fabricc-"),
				finish: sends(nvueConfirm, "nv config save"), undo: sends("nv config apply --confirm-no -y")})
		case r.State == "applied" && id == current && staleTxn(stale, func(txn string) bool { return r.Message == "fabricc-"+txn }) != "":
			explained = true
			out = append(out, leftover{what: "NVUE revision " + id + " confirmed but not saved" + byTxn(strings.TrimPrefix(r.Message, "fabricc-")),
				kind: leftUnsaved, ours: true, finish: sends("nv config save")})
		}
	}
	if !explained {
		lo, err := nvueUnsavedLeftover(c, revs)
		if err != nil {
			return nil, err
		}
		if lo != nil {
			out = append(out, *lo)
		}
	}
	diff, err := c.Send("nv config diff")
	if err != nil {
		return nil, err
	}
	if !nvueNoDiff(diff) {
		// Pending changes would be applied with the next patch; NVUE
		// keeps what `nv config detach` drops as a detached revision.
		out = append(out, leftover{what: "NVUE pending changes nobody applied", kind: leftStaged, ours: true, undo: sends("nv config detach")})
	}
	return out, nil
}

// nvueUnsavedLeftover is an applied configuration that differs from
// startup.yaml: the save of a fabricc revision whose confirm window
// rolled it back (ours), or changes no fabricc push made; nil when they
// are the same. With auto save on (the default from Cumulus Linux 5.9)
// `nv config apply --confirm` may save the revision at apply, and a push
// killed in its window leaves the switch to roll it back on its timer,
// startup.yaml still holding it (push/nvue.go restoreStartup). That is
// when startup.yaml is the newest revision the window rolled back
// (nvueRolledBackStates) with a fabricc message: `nv config save`, which
// writes the reverted configuration over it, settles it either way.
func nvueUnsavedLeftover(c Conn, revs map[string]nvueRev) (*leftover, error) {
	unsaved, err := nvueUnsaved(c)
	if err != nil || !unsaved {
		return nil, err
	}
	if id := newestRevision(revs, func(r nvueRev) bool {
		return slices.Contains(nvueRolledBackStates, r.State) && strings.HasPrefix(r.Message, "fabricc-")
	}); id != "" {
		diff, err := c.Send("nv config diff startup " + id)
		if err != nil {
			return nil, err
		}
		if nvueNoDiff(diff) {
			save := sends("nv config save")
			return &leftover{what: "NVUE startup.yaml holds revision " + id + " (" + revs[id].Message + "), which its confirm window rolled back: auto save wrote it at apply",
				kind: leftUnsaved, ours: true, finish: save, undo: save}, nil
		}
	}
	return &leftover{what: "NVUE applied configuration with unsaved changes that no fabricc push made (nv config diff startup applied lists them)",
		kind: leftUnsaved, finish: sends("nv config save")}, nil
}

// newestRevision is the highest numbered revision keep takes, "" for none.
func newestRevision(revs map[string]nvueRev, keep func(nvueRev) bool) string {
	best, id := -1, ""
	for k, r := range revs {
		n, err := strconv.Atoi(k)
		if err == nil && n > best && keep(r) {
			best, id = n, k
		}
	}
	return id
}

// nvueUnsaved reports whether the applied configuration differs from the
// startup one, which `nv config save` overwrites with it.
func nvueUnsaved(c Conn) (bool, error) {
	diff, err := c.Send("nv config diff startup applied")
	if err != nil {
		return false, err
	}
	return !nvueNoDiff(diff), nil
}

// nvueNoDiff reports whether an `nv config diff` output lists no change.
// NVUE prints the changes as a YAML list of `- set:` and `- unset:`
// operations (Cumulus Linux user guide, NVUE CLI, "View Differences
// Between Configurations"); what it prints for no change is not shown
// there, so nothing, an empty list and an empty object all count.
func nvueNoDiff(out string) bool {
	switch strings.TrimSpace(out) {
	case "", "[]", "{}":
		return true
	}
	return false
}

// onyxLeftovers finds unsaved changes (`show configuration files`) and,
// when a stale lock names the push that made them, that push's
// checkpoint to return to; a stale push's checkpoint without unsaved
// changes (that push saved, or had not changed anything yet) is not
// needed and is deleted.
func onyxLeftovers(c Conn, stale *Holder) ([]leftover, error) {
	out, err := c.Send("show configuration files")
	if err != nil {
		return nil, err
	}
	files := onyxFiles(out)
	checkpoint, txn := "", staleTxn(stale, func(id string) bool { return files.has("fabricc-pre-" + id) })
	if txn != "" {
		checkpoint = "fabricc-pre-" + txn
	}
	switch {
	case !files.unsaved && checkpoint == "":
		return nil, nil
	case !files.unsaved:
		return []leftover{{what: "checkpoint " + checkpoint + byTxn(txn) + " (no unsaved changes: it is not needed)", kind: leftStaged, ours: true,
			undo: onyxDelete(checkpoint)}}, nil
	case checkpoint == "":
		return []leftover{{what: "Onyx running configuration with unsaved changes that no fabricc push made", kind: leftUnsaved,
			finish: onyxDo("configuration write")}}, nil
	}
	restore := func(c Conn) error {
		if err := onyxRestore(c, checkpoint); err != nil {
			return err
		}
		return onyxDelete(checkpoint)(c)
	}
	// EOS and NVUE revert an unconfirmed change on their own timers;
	// Onyx has none, so after a push killed mid-way it alone keeps the
	// change, and the fabric is mixed until the next push.
	return []leftover{{what: "Onyx running configuration with unsaved changes" + byTxn(txn) + " (checkpoint " + checkpoint + "); Onyx has no commit timer, so it keeps that change while the push's EOS and Cumulus switches revert on theirs",
		advice: "run fabricc push again, which finishes or rolls it back",
		kind:   leftUnsaved, ours: true, finish: onyxDo("configuration write", "configuration delete "+checkpoint), undo: restore}}, nil
}

// onyxDo is a step that sends lines from configuration mode.
func onyxDo(lines ...string) func(Conn) error {
	return func(c Conn) error { return onyxConfigure(c, lines) }
}

// onyxDelete is a step that deletes a configuration file
// (`configuration delete NAME`; NVIDIA Onyx User Manual, "Configuration
// Management": any file but the active one).
func onyxDelete(file string) func(Conn) error { return onyxDo("configuration delete " + file) }

// onyxRestore brings the running configuration back to a saved file's
// commands (`show configuration files NAME`, the TMS CLI's listing of a
// file) without a reboot, as a failed push's rollback does.
func onyxRestore(c Conn, file string) error {
	text, err := c.Send("show configuration files " + file)
	if err != nil {
		return err
	}
	t := &onyxTxn{checkpoint: file, before: onyxLines(text)}
	return t.Rollback(c)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
