package cumulus

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

// Device is one simulated Cumulus Linux switch.
type Device struct {
	mu   sync.Mutex
	opts cli.Options
	// schema is the object model of the switch's release (schemaFor).
	schema  *node
	applied tree
	// revs are all revisions by id; pending is the one nv set edits.
	revs    map[int]*revision
	nextID  int
	pending *revision
	// confirm is the revision applied with --confirm, waiting.
	confirm *revision
	files   map[string]string
	drifted bool // the drift fault has been applied
	// staleMTU is the operational MTU of a port whose applied MTU the
	// switch did not take up (the drift fault), by port: `nv show`
	// reports it, `nv config show` the applied value.
	staleMTU map[string]int
	// saved is the configuration `nv config save` last wrote to
	// /etc/nvue.d/startup.yaml (Cumulus Linux user guide, NVUE CLI:
	// "nv config save").
	saved tree
}

// revision is one NVUE revision.
type revision struct {
	id int
	t  tree
	// state: "pending", "applied", "applied_and_saved", "confirm",
	// "confirm_fail", "detached" (values of `nv config revision -o
	// json`). A revision keeps "applied"/"applied_and_saved" when a later
	// one is applied: the NVUE Command Reference, Config Commands, `nv
	// config revision` example lists revisions 1-4 all applied_and_saved.
	// NVIDIA documents no state for a revision waiting for confirmation
	// or rolled back by its window; "confirm" (waiting) and
	// "confirm_fail" (rolled back or rejected with --confirm-no) are the
	// names of the public NVUE REST client entropia/gpn-noc-gpncfg
	// (gpncfg/deployment/__init__.py, NT_CONFIRM and NT_FAIL), whose
	// NT_VALID lists every state it has met.
	state   string
	message string
	// prev is what was applied before (restored when a confirm expires).
	prev  tree
	timer *time.Timer
	// appliedAt and appliedBy: when and by which user the revision was
	// applied, zero before (`nv config history`).
	appliedAt time.Time
	appliedBy string
}

// New builds a Cumulus device with revision 1 applied: the hostname.
func New(opts cli.Options) *Device {
	d := &Device{opts: opts, schema: schemaFor(opts.Version), revs: map[int]*revision{}, nextID: 1, files: map[string]string{}}
	initial := tree{"system": tree{"hostname": opts.Name}}
	d.applied, d.saved = initial, clone(initial)
	first := d.add(clone(initial), "applied_and_saved", "initial configuration")
	first.appliedAt, first.appliedBy = time.Now().UTC().Truncate(time.Second), "root"
	return d
}

// Saved is the configuration saved to startup.yaml.
func (d *Device) Saved() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return toYAML(d.saved)
}

// save is `nv config save`: the applied revision becomes the startup
// configuration ("applied_and_saved" in `nv config revision`).
func (d *Device) save() string {
	d.saved = clone(d.applied)
	for _, r := range d.revs {
		if r.state == "applied" {
			r.state = "applied_and_saved"
		}
	}
	return ""
}

func (d *Device) add(t tree, state, msg string) *revision {
	r := &revision{id: d.nextID, t: t, state: state, message: msg}
	d.revs[r.id] = r
	d.nextID++
	return r
}

// Running is the applied configuration as `nv config show -o yaml`.
func (d *Device) Running() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return toYAML(d.applied)
}

// Close stops a pending confirm timer.
func (d *Device) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.confirm != nil && d.confirm.timer != nil {
		d.confirm.timer.Stop()
	}
}

// NewShell starts a bash login session for the user.
func (d *Device) NewShell(s cli.Session) cli.Shell { return &shell{d: d, user: s.User, rows: s.Rows} }

// edit returns the pending revision, creating it from applied.
func (d *Device) edit() *revision {
	if d.pending == nil {
		d.pending = d.add(clone(d.applied), "pending", "")
	}
	return d.pending
}

// apply makes rev's tree the applied configuration (optionally with a
// confirm window).
func (d *Device) apply(rev *revision, confirm time.Duration) string {
	if d.confirm != nil {
		return "Error: revision " + strconv.Itoa(d.confirm.id) + " is waiting for confirmation; run nv config apply --confirm-yes first"
	}
	if msg := checkApply(rev.t); msg != "" {
		// The refused revision stays pending: what NVUE's revision
		// list shows for it is not documented.
		return invalidConfig(rev.id, msg)
	}
	rev.prev = d.applied
	d.applied = clone(rev.t)
	d.staleMTU = nil // what an apply changes, the switch takes up
	if d.opts.Drift && !d.drifted {
		d.staleMTU, d.drifted = drift(d.applied)
	}
	if rev == d.pending {
		d.pending = nil
	}
	rev.state = "applied"
	rev.appliedAt = time.Now().UTC().Truncate(time.Second)
	// Auto save writes startup.yaml at apply. With --confirm, whether
	// NVUE saves before or after the confirmation is not documented
	// (NVUE Command Reference, Config Commands, `nv config apply`, and
	// the 5.9 user guide's "Auto Save" say only that apply saves); the
	// simulator takes the case that can hurt: it saves at once, and a
	// rollback (timer or --confirm-no) does not restore startup.yaml.
	if autoSave(d.opts.Version, d.applied) {
		d.save()
	}
	if confirm > 0 {
		rev.state = "confirm"
		d.confirm = rev
		rev.timer = time.AfterFunc(confirm, func() { d.expire(rev) })
		return fmt.Sprintf("applied [rev_id: %d]\nConfirm within %s or the configuration is rolled back: nv config apply --confirm-yes", rev.id, confirm)
	}
	return fmt.Sprintf("applied [rev_id: %d]", rev.id)
}

// expire rolls a confirm revision back.
func (d *Device) expire(rev *revision) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.confirm == rev {
		d.expireLocked(rev)
	}
}

func (d *Device) confirmNow() string {
	if d.confirm == nil {
		return "Error: no revision is waiting for confirmation"
	}
	d.confirm.timer.Stop()
	d.confirm.state = "applied"
	d.confirm = nil
	if autoSave(d.opts.Version, d.applied) {
		d.save()
	}
	return ""
}

// drift is the drift fault on NVUE: the switch does not take up the
// applied MTU of the first configured interface (name order), whose
// operational MTU stays 100 bytes lower, as a daemon that missed the
// change would leave it (NVUE Command Reference, Common Options,
// --operational: "The running and applied configuration should be the
// same. If different, inspect the logs."); the applied configuration is
// what was applied. It reports the stale MTU by port and whether it
// found a configured MTU: an apply without one (an operator's setting
// before the push) leaves the fault for the next.
func drift(t tree) (map[string]int, bool) {
	ifs, _ := t["interface"].(map[string]any)
	for _, n := range cli.PortNames(ifs) {
		link, _ := ifs[n].(map[string]any)["link"].(map[string]any)
		if mtu, ok := link["mtu"].(int); ok {
			return map[string]int{n: mtu - 100}, true
		}
	}
	return nil, false
}

// ArmDrift turns the drift fault on (cli.Device).
func (d *Device) ArmDrift() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.opts.Drift = true
}
