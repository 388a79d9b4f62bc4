// Package push applies rendered switch configurations over SSH
// transactionally and verifies them: per platform it stages the change,
// shows the diff, applies it with an automatic rollback armed, reads the
// switch back and compares it with the model, and only then makes the
// change permanent. Any failure returns the switch to the state it was
// in before the push. Platform behaviour is data (Vendor); the engine is
// the same for every platform.
package push

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/push/verify"
	"golang.org/x/sync/semaphore"
)

// Actions the engine runs.
const (
	ActionPush   = "push"
	ActionDiff   = "diff"
	ActionVerify = "verify"
)

// Target is one switch to work on: its model, its rendered configuration
// and how to reach it.
type Target struct {
	Switch *model.Switch
	Config []byte
	Device *inventory.Device
}

// Options configure a run.
type Options struct {
	// Action is ActionPush, ActionDiff or ActionVerify.
	Action string
	// Fabric is the model the switches are verified against.
	Fabric *model.Fabric
	// ID names the transaction on the devices.
	ID      string
	Targets []Target
	// Dial opens the connections (SSHDialer; tests pass their own).
	Dial Dialer
	// Parallel bounds the devices worked on at once; 0 or less means
	// DefaultParallel.
	Parallel int
	// Progress receives per-device events; nil for none.
	Progress Progress
	// LockTimeout is how long a push or dry run waits for another
	// push's device lock; 0 refuses at once, naming the holder.
	LockTimeout time.Duration
	// BreakLock is the transaction (Holder.ID) of a lock to break on
	// any switch, whoever holds it (--break-lock=ID, for a push known to
	// be gone); a lock of any other transaction is not broken unless it
	// is stale. The ID is a nonce, as Terraform's `force-unlock LOCK_ID`
	// (Terraform documentation, "State Locking", "Force Unlock"): a
	// lock another push took since the operator read the ID stays.
	BreakLock string
	// Holder names this run on the device lock; LocalHolder(ID) when
	// its ID is empty.
	Holder Holder
	// Stale reports whether a lock's holder is gone for sure; a stale
	// lock is broken without BreakLock. nil: localStale (a process of
	// this host that no longer runs).
	Stale func(Holder) bool
	// SaveUnsaved lets a push go ahead on a switch whose running
	// configuration has changes no fabricc push made that are not saved
	// (--save-unsaved): the push's save saves them too, and the report
	// says so. Without it such a push refuses, changing nothing.
	SaveUnsaved bool
	// ConfirmWindow is how long the switch keeps an applied, unconfirmed
	// change (EOS commit timer, NVUE confirm window);
	// DefaultConfirmWindow when 0.
	ConfirmWindow time.Duration
	// PerDevice lets each switch of a push confirm on its own, whatever
	// the others do (--per-device). Without it a push is all or nothing
	// across its switches (gate.go).
	PerDevice bool
	// Cabling makes verify also read each switch's LLDP neighbors and
	// compare them with the fabric's cables (DeviceResult.Cabling); a
	// neighbor that is not the model's peer is a difference. Only
	// ActionVerify reads them: a push judges the change it made, and a
	// miscabled port is not a reason to roll a push back.
	Cabling bool
	// Hosts are the hosts verify checks by running their scripts'
	// --check (host.go), after the switches and in the same Parallel
	// slots; only ActionVerify runs them.
	Hosts []HostTarget
	// RunScript runs a host's check (SSHScriptRunner; tests pass their
	// own).
	RunScript ScriptRunner
	// Renamed maps a switch's fabric name to the hostname it may still
	// answer by (--renamed NEW=OLD): a switch being renamed, whose
	// hostname fabricc does not set. Any other hostname than the
	// switch's name is refused (identity.go).
	Renamed map[string]string
	// Approve, when not nil, is asked once in a push, after every switch
	// has staged its change (or ended without one) and before any
	// applies, with the staged changes in switch name order; a switch
	// applies its change only when it returns true, else drops it
	// (status aborted, ErrNotApproved). The question is not asked when
	// nothing is staged or an all-or-nothing push has already failed.
	// The switches wait for the answer within their device timeout.
	// Without it an all-or-nothing push waits the same way and answers
	// yes itself (newApproval): no switch applies before all staged.
	Approve func([]Staged) bool
	// Build says which build the run works from; the report carries it
	// (Report.Build).
	Build *BuildInfo
	// peers indexes the fabric's cable ends for the cabling check; Run
	// builds it once.
	peers *verify.Peers
	// started is when Run began, from which a switch's apply,
	// confirmation and rollback times count.
	started time.Time
}

// Progress is told what each device is doing.
type Progress interface {
	// Step tells that device has begun step, such as "connect", "stage"
	// or "apply".
	Step(device, step string)
	// Done tells that a device has finished, with its result.
	Done(r *DeviceResult)
}

// DefaultParallel bounds the devices worked on at once.
const DefaultParallel = 8

// Run works on every target, at most Parallel at a time, and returns
// the report. A push is all or nothing across its switches unless
// PerDevice: a switch that failed makes the others roll back (gate.go).
// A dry run and verify read each switch on its own; verify then checks
// the Hosts, which follow the switches in the report. ctx cancellation
// (Ctrl-C) stops them all, each rolling back.
func Run(ctx context.Context, o Options) *Report {
	var hosts []HostTarget
	if o.Action == ActionVerify {
		hosts = o.Hosts
	}
	o.started = time.Now()
	rep := &Report{ID: o.ID, Action: o.Action, Fabric: o.Fabric.Name, Build: o.Build, Devices: make([]*DeviceResult, len(o.Targets)+len(hosts))}
	n := o.Parallel
	if n <= 0 {
		n = DefaultParallel
	}
	if o.Action == ActionVerify && o.Cabling {
		o.peers = verify.NewPeers(o.Fabric)
		o.peers.AcceptOldNames(o.Renamed)
	}
	var g *gate
	var turns lockTurns
	if o.Action == ActionPush && !o.PerDevice {
		g = newGate(len(o.Targets))
		if o.LockTimeout > 0 {
			turns = newLockTurns(len(o.Targets))
		}
	}
	var ap *approval
	if o.Action == ActionPush {
		ap = newApproval(len(o.Targets), o.Approve, g)
	}
	// A switch waiting at the gate gives its slot back, so that the
	// switches it waits for can run.
	free := semaphore.NewWeighted(int64(n))
	var wg sync.WaitGroup
	// Switches start, and take their lock turns, in name order, whatever
	// the caller's order: two pushes then contend for locks in the same
	// order, and as slots are taken in that order too, a switch waiting
	// for its turn never holds a slot the switch before it needs.
	for k, i := range byName(o.Targets) {
		t := o.Targets[i]
		take(ctx, free)
		wg.Go(func() {
			r := runDevice(ctx, o, t, &gating{gate: g, turn: turns.of(k), free: free, approval: ap})
			free.Release(1)
			r.settleDifferences()
			rep.Devices[i] = r
			if o.Progress != nil {
				o.Progress.Done(r)
			}
		})
	}
	for k, t := range hosts {
		take(ctx, free)
		wg.Go(func() {
			r := runHost(ctx, o, t)
			free.Release(1)
			r.settleDifferences()
			rep.Devices[len(o.Targets)+k] = r
			if o.Progress != nil {
				o.Progress.Done(r)
			}
		})
	}
	wg.Wait()
	rep.Summarize()
	rep.MixedMs = mixedMs(rep.Devices)
	rep.StartedAt, rep.FinishedAt = Stamp(o.started), Stamp(time.Now())
	return rep
}

// mixedMs is how long the switches of a push ran mixed configurations:
// from the first apply to the last confirmation or rollback; 0 when no
// switch applied.
func mixedMs(devs []*DeviceResult) int64 {
	var first, last int64
	for _, d := range devs {
		if d.AppliedMs == 0 {
			continue
		}
		if first == 0 || d.AppliedMs < first {
			first = d.AppliedMs
		}
		last = max(last, d.ConfirmedMs, d.RolledBackMs)
	}
	if first == 0 || last < first {
		return 0
	}
	return last - first
}

// sinceStart is the time from the start of the run, in milliseconds,
// at least 1 (0 means "did not happen" in the report).
func (d *device) sinceStart() int64 {
	return max(time.Since(d.o.started).Milliseconds(), 1)
}

// byName is the indexes of targets in the order of their switch names.
func byName(targets []Target) []int {
	order := make([]int, len(targets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return targets[order[a]].Switch.Name < targets[order[b]].Switch.Name })
	return order
}

// device is the state of one device's run.
type device struct {
	o    Options
	t    Target
	v    *Vendor
	res  *DeviceResult
	conn *closer
	me   Holder
	// locked: this run holds (or may hold) the device lock.
	locked bool
	// keepLock: a failed rollback left a change only the lock ties to
	// this run (rollbackKeeper), so unlock leaves the lock in place.
	keepLock bool
	// stale is the holder of a lock this run broke: its transaction may
	// have left work behind.
	stale *Holder
	// inherited: this run took a stale lock over and has not resolved
	// what its transactions left yet; unlock hands the lock back.
	inherited bool
	// completed: this run made an earlier run's change permanent.
	completed bool
	// othersUnsaved are unsaved changes no fabricc push made that
	// Options.SaveUnsaved let this push go ahead over; its save saves
	// them.
	othersUnsaved []leftover
	// cancels end the time budgets of the connections fresh opened.
	cancels []context.CancelFunc
	// read is what the latest check read back, with the model's state.
	read *readBack
	// before is the switch as read before a push or dry run staged its
	// change (readBefore); nil when that read failed.
	before *verify.State
	// outs are the latest readState's outputs, by command, of the
	// ReadBack commands the switch answered: the model check and Stage
	// take a read they repeat from them (printedModel, keptReads).
	outs map[string]string
	// keptModel is the hardware model the latest readState's decoding
	// holds (keepModel); nil when it holds none.
	keptModel *string
	// wanted is the intended state, verify.Expect of the switch, made
	// once (want).
	wanted *verify.State
	// unreachable is why the first connection failed (connectCause; ""
	// when it did not): the others' rows name it and the next step.
	unreachable string
	// refused is why the push would refuse the switch, which a dry run
	// reports after its diff (dryRunRefused).
	refused []error
	// inFlight: verify found a push's lock or its unfinished change.
	inFlight bool
	// panicked: a fabricc bug stopped this switch (runGuarded); what it
	// left is not known.
	panicked bool
	*gating
}

// take waits for a slot of free, also after ctx ended: every target
// gets its result, an interrupted one a rollback or an error.
func take(ctx context.Context, free *semaphore.Weighted) {
	_ = free.Acquire(context.WithoutCancel(ctx), 1)
}

// gating is how one switch takes part in an all-or-nothing push: the
// gate (nil for a per-device push, a dry run or verify), its lock turn
// (nil without an order) and the run's slots, one given back while it
// waits at the gate.
type gating struct {
	gate *gate
	turn *turn
	free *semaphore.Weighted
	// gated: this switch has passed or failed the gate.
	gated bool
	// slotless: this switch gave its slot back at the gate and has not
	// taken it again yet (retake).
	slotless bool
	// approval is the push's question to the operator (nil: none);
	// asked: this switch has told it its staged change or that it has
	// none.
	approval *approval
	asked    bool
}

// NewDeviceResult is the result of t before anything is done to it: its
// name, platform and address, and no commands yet.
func NewDeviceResult(t Target) *DeviceResult {
	return &DeviceResult{Device: t.Switch.Name, Platform: string(t.Switch.Platform), Address: t.Device.Addr(), Commands: []string{}, Differences: []verify.Difference{}}
}

func runDevice(ctx context.Context, o Options, t Target, gt *gating) *DeviceResult {
	start := time.Now()
	res := NewDeviceResult(t)
	d := &device{o: o, t: t, res: res, me: o.Holder, gating: gt}
	if d.me.ID == "" {
		d.me = LocalHolder(o.ID)
	}
	err := d.runGuarded(ctx)
	d.retake(ctx) // Run releases the slot this switch holds
	d.turn.done()
	// A switch that ended before its decision point (no connection, a
	// lock, nothing to change) tells the gate now.
	if err != nil {
		d.failGate()
	} else {
		d.passGate()
	}
	d.leaveApproval() // after the gate: a failure there means no question
	if err != nil {
		d.settleInterrupted(ctx, err)
		if res.Status == "" {
			res.Status = StatusFailed
		}
		res.Error = err.Error()
		d.settleNothingSent()
		d.shareGateFailure()
	}
	stamp(res, start)
	return res
}

// settleNothingSent marks a switch of a push that failed, was aborted or
// found another push's lock, before its change took effect: not
// connected, locked, refused, or its staged change (an EOS configure
// session, an NVUE revision) discarded without being applied. The
// switch runs as before the push (NothingSent), so a script reading the
// report tells it from one changed and rolled back.
// A switch whose rollback or discard failed, or that a fabricc bug
// stopped, is not known to be as before.
func (d *device) settleNothingSent() {
	r := d.res
	switch {
	case d.o.Action != ActionPush, d.panicked, r.AppliedMs != 0, r.RolledBack, r.RollbackNote != "":
	case r.Status == StatusFailed, r.Status == StatusAborted, r.Status == StatusLocked:
		r.NothingSent = true
	}
}

// shareGateFailure records, on a switch that an all-or-nothing push
// stopped because another switch failed with a reason of its own (it
// could not be reached: what to do next), that failure: its error
// carries it whole, the summary says it once below its table.
func (d *device) shareGateFailure() {
	if d.gate == nil {
		return
	}
	f, ok := d.gate.failed().(*gateFailure)
	if ok && f.why != "" && f.device != d.t.Switch.Name && strings.Contains(d.res.Error, f.Error()) {
		d.res.shared = f
	}
}

// settleInterrupted gives a switch that the operator's signal (SIGINT,
// SIGTERM) stopped, and that was left as before the push, the status of
// one stopped by another switch's failure: aborted, whichever step it
// was in when the signal came (waiting at the gate, applying, staging),
// since nothing on it failed; a monitor that counts failed switches
// must not page for an operator's cancel. A switch whose rollback
// failed stays failed. Only a switch whose change had been applied says
// it was rolled back: a change only staged was discarded.
func (d *device) settleInterrupted(ctx context.Context, err error) {
	cause := InterruptOf(ctx)
	switch {
	case cause == nil || !errors.Is(err, cause) || d.res.RollbackNote != "":
		return
	case d.res.Status != "" && d.res.Status != StatusFailed && d.res.Status != StatusAborted:
		return // locked, or a verify's verdict
	}
	d.res.Status = StatusAborted
	if d.res.AppliedMs == 0 {
		d.res.RolledBack = false
	}
}

// stamp gives res its duration, its start and end times and its last
// step's duration.
func stamp(res *DeviceResult, start time.Time) {
	end := time.Now()
	res.DurationMs = end.Sub(start).Milliseconds()
	res.StartedAt, res.FinishedAt = Stamp(start), Stamp(end)
	res.Steps = EndSteps(res.Steps, end)
}

func (d *device) step(s string) {
	d.res.Steps = AddStep(d.res.Steps, s, time.Now())
	if d.o.Progress != nil {
		d.o.Progress.Step(d.t.Switch.Name, s)
	}
}

// runGuarded is run, with a panic (a fabricc bug) turned into this
// switch's failure: the process goes on, the other switches of an
// all-or-nothing push roll back, and run's deferred steps (closing the
// connection, releasing the device lock) have run while it unwound.
func (d *device) runGuarded(ctx context.Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			d.res.Status, d.panicked = StatusFailed, true
			err = fmt.Errorf("internal error, a fabricc bug (please report it with this text): %v; %s", p, panicLeft(d.o.Action))
		}
	}()
	return d.run(ctx)
}

// panicLeft is what a panic in action may have left on the switch.
// verify only reads. diff applies nothing, but may have staged the
// change (an EOS configure session, NVUE pending changes), which is not
// in effect and which the next push discards as a leftover of its own
// (recover.go). A push may have applied a part of its change.
func panicLeft(action string) string {
	switch action {
	case ActionVerify:
		return "verify changes nothing on the switch"
	case ActionDiff:
		return "diff changed no setting in effect; a change it staged may be left on the switch, not in effect, and the next push discards it"
	}
	return "the switch may hold a part of the change: run fabricc verify"
}

func (d *device) run(ctx context.Context) error {
	v, err := VendorFor(d.t.Switch.Platform)
	if err != nil {
		return err
	}
	d.v = v
	ctx, cancel := context.WithTimeout(ctx, d.t.Device.DeviceTimeout)
	defer cancel()
	d.step(stepConnect)
	if err := d.connect(ctx); err != nil {
		d.unreachable = connectCause(err)
		return err
	}
	defer func() {
		_ = d.conn.Close()
		for _, c := range d.cancels {
			c()
		}
	}()
	// The switch must be the one the inventory entry names before
	// anything is locked, read back or staged.
	if err := d.checkIdentity(); err != nil {
		d.identityStatus(err)
		return err
	}
	if d.o.Action == ActionVerify {
		return d.verifyOnly()
	}
	var stop <-chan struct{}
	if d.gate != nil {
		stop = d.gate.decided
	}
	if err := d.turn.wait(ctx, stop); err != nil {
		return err
	}
	// Once another switch failed this one applies nothing, but still
	// rolls back what an interrupted push left on it (recoverAborted).
	if err := d.othersFailed(); err != nil {
		return d.recoverAborted(ctx, err)
	}
	err = d.lock(ctx)
	d.turn.done()
	defer d.unlock(ctx)
	if err != nil {
		return err
	}
	if err := d.recover(); err != nil {
		return err
	}
	err = d.push(ctx)
	d.settleUnsaved(false) // when the push did not save them
	if err == nil {
		err = d.dryRunRefused()
	}
	return err
}

// identityStatus is verify's status of a switch whose identity check
// failed: mismatch only when it read the hostname and found another
// switch (IdentityError), the one case where what verify read differs
// from the model. A hostname it could not read or parse leaves the
// switch unchecked, so failed (runDevice's default), or aborted when
// the operator's signal cut the read (settleInterrupted): a drift
// monitor that alerts on mismatch must not page for drift on a switch
// it never read (docs/json.md: mismatch "differs from the model",
// failed "could not be checked").
func (d *device) identityStatus(err error) {
	if d.o.Action == ActionVerify && errors.As(err, new(*IdentityError)) {
		d.res.Status = StatusMismatch
	}
}

// connect dials and arranges for the connection to be cut when ctx ends,
// which makes a command blocked on a silent device return.
func (d *device) connect(ctx context.Context) error {
	c, err := d.dial(ctx)
	if err != nil {
		return err
	}
	stop := func() bool { return false }
	if a, ok := c.(interface{ abort() }); ok {
		stop = context.AfterFunc(ctx, a.abort)
	}
	d.conn = &closer{Conn: recorder{Conn: c, sent: &d.res.Commands}, stop: stop, ctx: ctx}
	return nil
}

// dial opens a connection, giving up when ctx ends first (the dial then
// finishes on its own and its connection is closed).
func (d *device) dial(ctx context.Context) (Conn, error) {
	type dialed struct {
		c   Conn
		err error
	}
	ch := make(chan dialed, 1)
	go func() {
		c, err := d.o.Dial(d.t.Device, d.t.Switch.Platform)
		ch <- dialed{c, err}
	}()
	select {
	case r := <-ch:
		return r.c, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.c != nil {
				_ = r.c.Close()
			}
		}()
		return nil, fmt.Errorf("%w while connecting to %s", ended(ctx), d.t.Device.Addr())
	}
}

// fresh replaces the connection with a new one that has its own time
// budget and outlives ctx: a rollback, a save or an unlock must still
// happen after a device timeout or an interruption (SIGINT, SIGTERM).
func (d *device) fresh(ctx context.Context) error {
	_ = d.conn.Close()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackBudget(d.t.Device))
	d.cancels = append(d.cancels, cancel)
	return d.connect(rctx)
}

// closer cancels the cut-on-timeout of connect on Close, reports a cut
// connection as the device timeout or interruption it was, and marks
// the connection broken after any failure that is not the device's
// answer: after a timeout the session may still be busy with the
// command, so its next answer cannot be trusted to be the next
// command's.
type closer struct {
	Conn
	stop   func() bool // context.AfterFunc's stop
	ctx    context.Context
	broken bool
	// failure is the error that broke the connection.
	failure error
}

// maxCommandShown bounds a command quoted in an error: a Cumulus push
// sends its whole configuration as one base64 line of 18 KB.
const maxCommandShown = 80

// shortCommand is cmd for an error message: its first line, cut to
// maxCommandShown characters with the length of the rest.
func shortCommand(cmd string) string {
	line, _, multi := strings.Cut(cmd, "\n")
	r := []rune(line)
	if len(r) <= maxCommandShown && !multi {
		return line
	}
	if len(r) > maxCommandShown {
		r = r[:maxCommandShown]
	}
	return fmt.Sprintf("%s...(%s)", string(r), english.Count(len([]rune(cmd))-len(r), "more character"))
}

func (c *closer) Send(cmd string) (string, error) {
	if c.broken {
		return "", fmt.Errorf("%q not sent, the connection failed before: %w", shortCommand(cmd), c.failure)
	}
	out, err := c.Conn.Send(cmd)
	switch {
	case err == nil || c.ctx.Err() == nil:
	case errors.Is(c.ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("device timeout reached during %q: %w", shortCommand(cmd), err)
	default:
		err = fmt.Errorf("%w during %q", context.Cause(c.ctx), shortCommand(cmd))
	}
	if err != nil && !refused(err) {
		c.broken, c.failure = true, err
	}
	return out, err
}

func (c *closer) Home() error {
	err := c.Conn.Home()
	if err != nil {
		c.broken, c.failure = true, err
	}
	return err
}

func (c *closer) Close() error {
	c.stop()
	return c.Conn.Close()
}

func (d *device) push(ctx context.Context) error {
	window := d.o.ConfirmWindow
	if window <= 0 {
		window = DefaultConfirmWindow
	}
	txn := d.v.NewTxn(d.o.ID, window)
	if t, ok := txn.(intender); ok {
		t.intend(d.want())
	}
	d.step(stepStage)
	if err := d.readBefore(); err != nil {
		return d.failed(ctx, txn, fmt.Errorf("staging: %w", err))
	}
	// The wrong box is refused first: nothing else about it matters.
	note, err := d.modelNote()
	if err != nil {
		return d.failed(ctx, txn, fmt.Errorf("staging: %w", err))
	}
	diff, err := txn.Stage(d.keptReads(), d.t.Config)
	if err == nil {
		diff = d.stageWarnings(withNote(note, diff))
	}
	d.res.Diff = diff
	if err != nil {
		return d.failed(ctx, txn, fmt.Errorf("staging: %w", err))
	}
	if d.o.Action == ActionDiff || diff == "" {
		d.leaveApproval() // the question need not wait for its read-back
		return d.nothingToApply(ctx, txn)
	}
	if err := d.awaitApproval(ctx, diff); errors.Is(err, ErrNotApproved) {
		d.res.Status = StatusAborted
		return d.discardStaged(ctx, txn, err)
	} else if err != nil {
		return d.failed(ctx, txn, err)
	}
	if err := interrupted(ctx, "applying"); err != nil {
		return d.failed(ctx, txn, err)
	}
	if err := d.othersFailed(); err != nil {
		return d.discardStaged(ctx, txn, err)
	}
	d.step(stepApply)
	applied := time.Now()
	d.res.AppliedMs = d.sinceStart()
	if err := txn.Apply(d.conn); err != nil {
		return d.failed(ctx, txn, fmt.Errorf("applying: %w", err))
	}
	d.step(stepVerify)
	if err := d.verify(); err != nil {
		return d.failed(ctx, txn, err)
	}
	d.res.SwitchWide = []string{"not known: the switch was not read before the push"}
	if d.before != nil {
		d.res.SwitchWide = switchWideChanges(d.read.want, d.before, d.read.got)
	}
	if err := interrupted(ctx, "confirming"); err != nil {
		return d.failed(ctx, txn, err)
	}
	if err := d.awaitOthersArmed(ctx, txn, applied, window); err != nil {
		return err
	}
	d.step(stepConfirm)
	err = txn.Confirm(d.conn)
	d.retake(ctx)
	if err != nil {
		if ok := d.confirmedAnyway(ctx, txn, err); !ok {
			return d.rollback(ctx, txn, fmt.Errorf("confirming: %w", err))
		}
	}
	d.res.ConfirmedMs = d.sinceStart()
	// Confirmed and verified: from here the change is finished, not
	// undone, also when interrupted.
	d.step(stepSave)
	if err := d.save(ctx, txn); err != nil {
		return err
	}
	d.settleUnsaved(true)
	d.cleanup(txn)
	d.res.Status = StatusChanged
	return nil
}

// failed tells the gate that this switch failed before it could
// confirm, and rolls it back.
func (d *device) failed(ctx context.Context, txn Txn, cause error) error {
	d.failGate()
	return d.rollback(ctx, txn, cause)
}

// aborted rolls back a switch that verified but may not confirm,
// because another switch of the push failed (or the wait for them ran
// out).
func (d *device) aborted(ctx context.Context, txn Txn, cause error) error {
	err := d.rollback(ctx, txn, notConfirmed(cause))
	if d.res.RolledBack {
		d.res.Status = StatusAborted
	}
	return err
}

// discardStaged drops a change that was staged but never applied,
// through rollback (which reconnects when it must, and, the change not
// being applied, says nothing was sent rather than rolled back: "not
// applied ... (rolled back)" read as a contradiction); a failure to drop
// it stays in RollbackNote.
func (d *device) discardStaged(ctx context.Context, txn Txn, cause error) error {
	return d.rollback(ctx, txn, cause)
}

// othersFailed is, once a switch of an all-or-nothing push has failed,
// the reason this one does not apply its change (status aborted).
func (d *device) othersFailed() error {
	if d.gate == nil {
		return nil
	}
	if err := d.gate.failed(); err != nil {
		d.res.Status = StatusAborted
		return fmt.Errorf("not applied, all or nothing: %w", err)
	}
	return nil
}

// awaitOthersArmed waits at the gate with a change applied at applied,
// and rolls it back when the push will not confirm: aborted when another
// switch failed, failed when this one stopped waiting for its own reason.
// A switch that reverts the change on its own when its window closes
// stops waiting before, leaving its confirmation the margin.
func (d *device) awaitOthersArmed(ctx context.Context, txn Txn, applied time.Time, window time.Duration) error {
	var deadline time.Time
	if d.v.Armed {
		deadline = applied.Add(window - confirmMargin(window))
	}
	err := d.awaitOthers(ctx, deadline)
	switch {
	case err == nil:
		return nil
	case d.gate.decidedBy(err):
		return d.aborted(ctx, txn, err)
	}
	return d.rollback(ctx, txn, err)
}

// connectCause is why a first connection failed, as the other
// switches' rows say it: "no answer" when the switch answered SSH and
// then hung or closed (a busy CPU, a slow AAA server, a stuck CLI: not
// routing or ACLs), "login refused" when it refused the credentials,
// else "no connection".
func connectCause(err error) string {
	switch {
	case answered(err):
		return "no answer"
	case errors.As(err, new(*transport.LoginRefusedError)):
		return "login refused"
	}
	return "no connection"
}

// passGate tells the gate that this switch verified, or had nothing to
// change; failGate that it failed. Each tells it once.
func (d *device) passGate() {
	if d.gate != nil && !d.gated {
		d.gated = true
		d.gate.pass()
	}
}

func (d *device) failGate() {
	if d.gate != nil && !d.gated {
		d.gated = true
		why := ""
		if d.unreachable != "" {
			// Excluding the switch is the way on (--limit '!NAME'), as a
			// partial push, which the command line warns of.
			why = fmt.Sprintf(" (%s); to push without it, --limit '!%s' (a partial push: the fabric-wide settings then differ on it until it is pushed too)", d.unreachable, d.t.Switch.Name)
		}
		d.gate.fail(d.t.Switch.Name, why, d.res.Status == StatusLocked)
	}
}

// awaitOthers passes the gate and waits, without holding a slot, until
// every switch of the push verified (nil) or one failed. It stops
// waiting at deadline (zero: none), where a switch that reverts an
// unconfirmed change on its own must confirm.
//
// On an error it returns with its slot taken back, for the rollback. On
// nil it returns without one: every switch confirms at once, the moment
// the gate opens, and then calls retake. A switch that queued for a slot
// first, behind the others' saves, could see its window end and its
// change reverted by the switch while the others keep theirs.
func (d *device) awaitOthers(ctx context.Context, deadline time.Time) error {
	if d.gate == nil {
		return nil
	}
	d.passGate()
	d.giveSlot(stepWait)
	err := d.gate.wait(ctx, deadline)
	if err != nil && !d.gate.decidedBy(err) {
		err = d.gate.abandon(d.t.Switch.Name, err, InterruptOf(ctx))
	}
	if err != nil {
		d.retake(ctx)
	}
	return err
}

// notConfirmed is why a switch that verified rolls back: cause, the
// gate's failure, and, unless the operator interrupted the push, how to
// let each switch finish on its own.
func notConfirmed(cause error) error {
	hint := " (--per-device lets each switch finish on its own)"
	if errors.As(cause, new(pushInterrupted)) {
		hint = ""
	}
	return fmt.Errorf("not confirmed, all or nothing: %w; every switch rolls back%s", cause, hint)
}

// InterruptOf is why ctx was cancelled when it was interrupted (the
// signal handler cancels it with "interrupted by SIGINT"), nil when it is
// still running or ran out of time.
func InterruptOf(ctx context.Context) error {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.DeadlineExceeded) || cause == context.Canceled {
		return nil
	}
	return cause
}

// giveSlot shows step and gives the switch's parallel slot back while it
// waits for the others (the gate, the approval), so that a waiting
// switch does not keep the switches after it from running; retake takes
// it again.
func (d *device) giveSlot(step string) {
	d.step(step)
	d.free.Release(1)
	d.slotless = true
}

// retake takes back the slot giveSlot gave up, if it did.
func (d *device) retake(ctx context.Context) {
	if d.slotless {
		take(ctx, d.free)
		d.slotless = false
	}
}

// ended is why a device's ctx ended, as its report says it: the device
// timeout (ctx's own deadline, whose cause reads only "context deadline
// exceeded"), or the interruption (SIGINT, SIGTERM) that cancelled it.
func ended(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errors.New("device timeout reached")
	}
	return context.Cause(ctx)
}

// interrupted is ctx's cause (SIGINT, SIGTERM, the device timeout) when
// it ended, before step.
func interrupted(ctx context.Context, step string) error {
	if ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("%w before %s", ended(ctx), step)
}

// nothingToApply ends a dry run, or a push with nothing to change.
func (d *device) nothingToApply(ctx context.Context, txn Txn) error {
	if err := txn.Discard(d.conn); err != nil {
		return d.rollback(ctx, txn, fmt.Errorf("discarding the staged change: %w", err))
	}
	if d.o.Action == ActionDiff {
		d.res.Status = StatusDryRun
		return nil
	}
	// A read-back that fails or differs fails the switch (runDevice),
	// so the status is set only once it verified.
	if err := d.verify(); err != nil {
		return err
	}
	if len(d.othersUnsaved) > 0 {
		// With --save-unsaved the save of the others' unsaved changes is
		// this push's change on the switch: it waits for the gate like
		// any other (nothing is armed, so without a deadline).
		if err := d.awaitOthers(ctx, time.Time{}); err != nil {
			if d.gate.decidedBy(err) {
				d.res.Status = StatusAborted
				return fmt.Errorf("not saved, all or nothing: %w", err)
			}
			return err
		}
		d.retake(ctx)
	}
	d.res.Status = StatusUnchanged
	if d.completed {
		d.res.Status = StatusChanged // an interrupted push's change, made permanent
	}
	d.passGate()
	return d.saveUnsaved()
}

// confirmedAnyway reads back, over a new connection when needed, whether
// a confirm that failed (no answer, cut connection) took effect. In an
// all-or-nothing push of several switches the gate has opened and every
// other switch confirms, so a switch that shows it unconfirmed is
// confirmed again over that connection, which outlives an interruption
// (Ctrl-C) like a rollback's, rather than rolled back alone.
func (d *device) confirmedAnyway(ctx context.Context, txn Txn, cause error) bool {
	if refused(cause) {
		return false
	}
	if err := d.fresh(ctx); err != nil {
		return false
	}
	ok, err := txn.Confirmed(d.conn)
	if ok && err == nil {
		d.res.Notes = append(d.res.Notes, "the confirmation got no answer ("+cause.Error()+"), but the switch shows it confirmed")
		return true
	}
	if err != nil || d.gate == nil || d.gate.size < 2 {
		return false
	}
	if err := txn.Confirm(d.conn); err != nil {
		return false
	}
	d.res.Notes = append(d.res.Notes, "the confirmation failed ("+cause.Error()+"); every switch of the push confirms, so it was confirmed again over a new connection")
	return true
}

// save writes the confirmed change to the boot configuration; a save
// that fails is tried once more over a new connection, and only then
// rolled back (where the platform still can).
func (d *device) save(ctx context.Context, txn Txn) error {
	err := errors.New("connection failed")
	if !d.conn.broken && ctx.Err() == nil {
		err = txn.Save(d.conn)
	}
	if err == nil {
		return nil
	}
	first := err
	if err = d.fresh(ctx); err == nil {
		err = txn.Save(d.conn)
	}
	if err == nil {
		d.res.Notes = append(d.res.Notes, "saving failed once ("+first.Error()+"); saved over a new connection")
		return nil
	}
	return d.rollback(ctx, txn, fmt.Errorf("saving (twice): %w", err))
}

// check reads the switch back and compares it with the model; it keeps
// what it read in d.read.
func (d *device) check() ([]verify.Difference, error) {
	got, err := d.readState()
	if err != nil {
		return nil, err
	}
	// Only Stage takes the decoded NVUE document, from the read before
	// staging; a State kept for the report need not hold it.
	got.NVUE = nil
	want := d.want()
	d.read = &readBack{want, got}
	return verify.Compare(d.t.Switch.Name, want, got), nil
}

// readState reads the switch with the platform's ReadBack commands and
// parses them into a State; it keeps the outputs the switch answered in
// d.outs.
func (d *device) readState() (*verify.State, error) {
	outs := make([]string, len(d.v.ReadBack))
	d.outs, d.keptModel = map[string]string{}, nil
	for i, cmd := range d.v.ReadBack {
		out, err := d.conn.Send(cmd)
		if err == nil {
			d.outs[cmd] = out
		}
		if err != nil && refused(err) && d.v.OlderLack[cmd] {
			out, err = "", nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading back: %w", err)
		}
		outs[i] = out
	}
	got, err := d.v.Parse(outs)
	if err != nil {
		return nil, fmt.Errorf("reading back: %w", err)
	}
	d.keepModel(got)
	return got, nil
}

// keptReads is the connection Stage works on: it answers each read the
// read before staging made (readBefore; Onyx `show running-config` and
// `show roce`, NVUE `nv config show -o json`, which Stage reads again
// at once) from what that read kept, once, and sends everything else.
// Only reads come between the two (the model check's), under the
// device lock, so the answer is the switch's as it stands. What is
// answered so is not sent, so not in the report's Commands either.
func (d *device) keptReads() Conn {
	outs := d.outs
	d.outs, d.keptModel = nil, nil
	if len(outs) == 0 {
		return d.conn
	}
	k := &kept{Conn: d.conn, outs: outs}
	if d.before != nil {
		// Stage takes the decoded document; d.before, which a gated
		// push holds until every switch is done, need not.
		k.nvue, d.before.NVUE = d.before.NVUE, nil
	}
	return k
}

// kept answers the commands of outs from it, once each (keptReads).
type kept struct {
	Conn
	outs map[string]string
	// nvue is the NVUE applied configuration the read before staging
	// decoded from outs, nil when that failed or on other platforms.
	nvue *verify.NVUEConfig
}

// nvueConfig is the NVUE applied configuration as the read before
// staging decoded it (verify.State.NVUE), taken in place of cmd's kept
// answer, which it uses up as Send does, so Stage does not decode the
// same read again; nil when cmd was not kept or that read did not parse.
func (k *kept) nvueConfig(cmd string) *verify.NVUEConfig {
	if _, ok := k.outs[cmd]; !ok || k.nvue == nil {
		return nil
	}
	delete(k.outs, cmd)
	return k.nvue
}

func (k *kept) Send(cmd string) (string, error) {
	if out, ok := k.outs[cmd]; ok {
		delete(k.outs, cmd)
		return out, nil
	}
	return k.Conn.Send(cmd)
}

// readBack is the model's state of a switch and what check read of it.
type readBack struct{ want, got *verify.State }

// cabling reads the switch's LLDP neighbors and compares them with the
// model's cables; a neighbor that differs is a difference. A command the
// switch refuses (or output that cannot be read) leaves the cabling
// unchecked, said in the result and a note, and is no failure: LLDP is
// not what fabricc configures.
func (d *device) cabling() {
	c := &verify.Cabling{}
	d.res.Cabling = c
	if d.v.Neighbors == "" {
		c.Error = "the platform has no LLDP command in fabricc"
		return
	}
	out, err := d.conn.Send(d.v.Neighbors)
	var seen verify.Neighbors
	if err == nil {
		seen, err = d.v.ParseNeighbors(out)
	}
	if err != nil {
		c.Error = "reading the LLDP neighbors: " + err.Error()
		d.res.Notes = append(d.res.Notes, "cabling not checked: "+c.Error)
		return
	}
	var diffs []verify.Difference
	*c, diffs = verify.CompareCabling(d.o.peers, d.t.Switch, seen)
	d.res.Differences = append(d.res.Differences, diffs...)
}

// verify checks and records the result.
func (d *device) verify() error {
	diffs, err := d.check()
	if err != nil {
		return err
	}
	d.res.Differences = diffs
	d.res.Verified = len(diffs) == 0
	d.res.Notes = append(d.res.Notes, verify.UnownedAfter(d.read.want, d.before, d.read.got, d.v.SwitchWidePFC)...)
	if !d.res.Verified {
		return fmt.Errorf("verification failed: %s, first: %s", plural(len(diffs), "difference"), diffs[0])
	}
	return nil
}

// rollback undoes the transaction after cause, over a new connection
// when the old one failed, with a fresh time budget (the device timeout
// or an interruption may be what failed). A transaction that sent
// nothing yet (a pre-check refused the switch, a read failed) is not
// rolled back: the result says that nothing was sent (NothingSent), not
// that a change was undone. A change that was staged but never applied
// (a failure while the EOS configure session or the NVUE revision is
// being written, before Apply) is discarded the same way Rollback
// undoes an applied one, but nothing of it ever took effect: Arista's
// EOS User Manual, "Configure Session", says a session is entered,
// modified and exited "without impacting the currently running system
// configuration" until it is committed, and that `abort` abandons its
// changes; an NVUE revision is detached before `nv config apply`. So
// the result says nothing was sent (NothingSent, with discarded for
// the summary's words), not rolled back: only a change applied
// (AppliedMs) is rolled back.
func (d *device) rollback(ctx context.Context, txn Txn, cause error) error {
	if !txn.Sent() {
		d.res.NothingSent = true
		return cause
	}
	d.step(stepRollback)
	err := errors.New("connection failed")
	if !d.conn.broken {
		err = txn.Rollback(d.conn)
	}
	if err != nil && !refused(err) {
		if cerr := d.fresh(ctx); cerr != nil {
			d.res.RollbackNote = "rollback failed: cannot reconnect: " + cerr.Error()
			return cause
		}
		err = txn.Rollback(d.conn)
	}
	if err != nil {
		d.res.RollbackNote = "rollback failed: " + err.Error()
		if k, ok := txn.(rollbackKeeper); ok && d.locked {
			d.keepLock = true
			d.res.RollbackNote += "; " + k.KeptAfterFailedRollback()
		}
		return cause
	}
	d.cleanup(txn)
	if d.res.AppliedMs == 0 {
		d.res.NothingSent, d.res.discarded = true, true
		return cause
	}
	d.res.RolledBack = true
	d.res.RolledBackMs = d.sinceStart()
	return cause
}

// rollbackKeeper is a Txn whose failed rollback leaves the switch
// changed and unsaved with a checkpoint to return to (Onyx): the device
// lock then stays, so that the next push breaks it as stale, finds the
// checkpoint it names and finishes or undoes the change as its own
// (recover.go) instead of refusing it as unsaved changes no fabricc push
// made.
type rollbackKeeper interface {
	// KeptAfterFailedRollback says what stays on the switch and what to
	// do about it.
	KeptAfterFailedRollback() string
}

// cleaner is a Txn that keeps something on the switch for its rollback
// (Onyx: the checkpoint file) which is not needed once the change is
// saved or undone.
type cleaner interface {
	// Cleanup removes it; the error says what is left and how to remove
	// it by hand.
	Cleanup(c Conn) error
}

// cleanup removes what txn kept for its rollback. The switch is as it
// should be either way, so a failure is a note, not an error.
func (d *device) cleanup(txn Txn) {
	if c, ok := txn.(cleaner); ok {
		if err := c.Cleanup(d.conn); err != nil {
			d.res.Notes = append(d.res.Notes, err.Error())
		}
	}
}

// rollbackBudget is the time a rollback over a new connection gets: one
// connect and eight command timeouts.
func rollbackBudget(dev *inventory.Device) time.Duration {
	return dev.ConnectTimeout + 8*dev.CommandTimeout
}

// want is the switch's intended state, made once per device: the warnings
// before a push and every check after it compare with the same state.
func (d *device) want() *verify.State {
	if d.wanted == nil {
		d.wanted = verify.Expect(d.o.Fabric, d.t.Switch)
	}
	return d.wanted
}
