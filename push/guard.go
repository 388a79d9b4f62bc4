package push

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// What the engine does around a device's transaction: the device lock
// (lock.go) and what interrupted runs left (recover.go), and the
// read-only verify, which reports both.

// lock takes the device lock, waiting up to LockTimeout for another
// holder. A stale lock (and, with BreakLock, one lock of any holder) is
// taken over (takeover): the new lock inherits the transaction of the
// broken one, so that a push interrupted between breaking it and
// recovering what it left still leaves a lock that names it.
func (d *device) lock(ctx context.Context) error {
	if d.v.Lock == nil {
		return nil
	}
	d.step(stepLock)
	deadline := time.Now().Add(d.o.LockTimeout)
	for {
		d.locked = true // a failed attempt may have taken it: unlock checks
		other, err := d.v.Lock.acquire(d.conn, d.me)
		if err != nil {
			return fmt.Errorf("taking the device lock: %w", err)
		}
		if other == nil {
			return nil
		}
		d.locked = false
		for other != nil {
			stale, ok := d.mayBreak(*other)
			if !ok {
				break
			}
			old := *other
			// Before the takeover: if it fails half-way, unlock hands
			// the lock back to old rather than releasing it.
			d.locked = true
			d.inherit(heir(d.me, old), old)
			if other, err = d.v.Lock.takeover(d.conn, d.me, old); err != nil {
				return fmt.Errorf("breaking the lock of %s: %w", old, err)
			}
			d.lockBroken(old, stale)
			if other == nil {
				return nil
			}
			d.locked, d.inherited = false, false
		}
		// A lock no longer worth waiting for: another switch of the
		// push failed, so this one will not apply anything.
		if err := d.othersFailed(); err != nil {
			return err
		}
		if !time.Now().Before(deadline) {
			d.res.Status, d.res.Lock = StatusLocked, other.String()
			return d.lockedError(*other)
		}
		d.step("waiting for the lock of " + other.String())
		if err := sleep(ctx, lockPoll()); err != nil {
			return fmt.Errorf("waiting for the lock of %s: %w", other, ended(ctx))
		}
	}
}

// mayBreak reports whether this run takes h's lock over (ok): a stale
// lock, or the lock of the transaction BreakLock names, that it has not
// inherited yet (up to maxInherits of them); stale says which.
func (d *device) mayBreak(h Holder) (stale, ok bool) {
	if slices.Contains(d.me.Inherits, h.ID) || len(d.me.Inherits) >= maxInherits {
		return false, false
	}
	stale = d.isStale(h)
	return stale, stale || d.named(h)
}

// named reports whether h is the lock --break-lock names.
func (d *device) named(h Holder) bool {
	return d.o.BreakLock != "" && h.raw == "" && h.ID == d.o.BreakLock
}

// lockedError is the refusal of a switch whose lock h holds: how to wait
// for it, and the exact --break-lock for it, or why a --break-lock given
// did not break it.
func (d *device) lockedError(h Holder) error {
	way := "if it is gone for good, run again with --break-lock=" + h.ID
	switch {
	case h.raw != "":
		way = "if it is gone for good, remove it on the switch (" + d.v.Lock.where() + ")"
	case d.o.BreakLock != "":
		way = "--break-lock=" + d.o.BreakLock + " names another transaction, so this lock was kept; " + way
	}
	return fmt.Errorf("%s is locked by %s; nothing was changed. Wait for that push (--lock-timeout 5m waits up to 5 minutes), or, %s", d.t.Switch.Name, h, way)
}

// lockBroken records that old's lock was broken (taken over).
func (d *device) lockBroken(old Holder, stale bool) {
	why := "its fabricc process on this host has ended"
	if !stale {
		why = "--break-lock=" + old.ID
	}
	d.recovered("the device lock of "+old.String()+" ("+why+")", RecoveryLockBroken)
}

// inherit makes this run heirMe, the holder taking old's lock over:
// d.stale stands for old and every other transaction heirMe inherits,
// whose leftovers the recovery looks for. Until the recovery has
// resolved them (d.inherited), unlock hands the lock back.
func (d *device) inherit(heirMe, old Holder) {
	d.me = heirMe
	st := old
	st.Inherits = nil
	for _, id := range heirMe.Inherits {
		if id != old.ID {
			st.Inherits = append(st.Inherits, id)
		}
	}
	d.stale, d.inherited = &st, true
}

// isStale asks Options.Stale (default localStale).
func (d *device) isStale(h Holder) bool {
	if d.o.Stale != nil {
		return d.o.Stale(h)
	}
	return localStale(h)
}

// lockPoll is the wait between two tries of a held lock: 0.5 to 1 s, so
// two waiting pushes do not keep meeting.
func lockPoll() time.Duration {
	return 500*time.Millisecond + time.Duration(rand.Int64N(int64(500*time.Millisecond)))
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unlock releases the lock, over a new connection when the current one
// failed; a lock it cannot release is reported, never left silently.
func (d *device) unlock(ctx context.Context) {
	if !d.locked || d.keepLock {
		return
	}
	d.step(stepUnlock)
	var err, first error
	if d.conn.broken {
		err = errors.New("connection failed")
	} else {
		_ = d.conn.Home() // release runs at the enable prompt
		if err = d.release(); err != nil {
			first = err
		}
	}
	if err != nil {
		cerr := d.fresh(ctx)
		err = cerr
		if cerr == nil {
			err = d.release()
		}
	}
	switch {
	case err == nil && d.inherited:
		d.res.Notes = append(d.res.Notes, "the device lock of "+d.stale.String()+" is back on the switch: this run did not resolve what that push left, the next push does")
	case err != nil:
		d.res.Notes = append(d.res.Notes, "the device lock could not be released ("+err.Error()+"); the next push from this host breaks it once this process has ended, another host needs --break-lock")
	case first != nil:
		d.res.Notes = append(d.res.Notes, "releasing the device lock failed once ("+first.Error()+"); released over a new connection")
	}
}

// release drops this run's lock, or, when it took a stale lock over and
// did not resolve what that push left, hands it back, so that the lock
// still names that push's transaction.
func (d *device) release() error {
	if d.inherited {
		return d.v.Lock.handBack(d.conn, d.me, *d.stale)
	}
	return d.v.Lock.release(d.conn, d.me)
}

// recover resolves what interrupted runs left on the device (recover.go)
// before anything is staged; a dry run only reports it. Whatever makes
// the push refuse is found before any of it is resolved, so a refused
// push changes nothing.
func (d *device) recover() error {
	if d.v.Leftovers == nil {
		return nil
	}
	d.step(stepRecover)
	found, err := d.v.Leftovers(d.conn, d.stale)
	if err != nil {
		return fmt.Errorf("looking for what interrupted runs left: %w", err)
	}
	for _, lo := range found {
		if err := d.refusal(lo); err != nil && d.o.Action == ActionDiff {
			// A dry run answers for the push: it still stages and shows
			// the diff, then fails with the refusal (dryRunRefused).
			d.refused = append(d.refused, err)
		} else if err != nil {
			return err
		}
	}
	for _, lo := range found {
		if err := d.resolve(lo); err != nil {
			return err
		}
	}
	// A dry run resolves nothing: what the stale lock's push left stays
	// its own.
	d.inherited = d.inherited && d.o.Action == ActionDiff && slices.ContainsFunc(found, func(lo leftover) bool { return lo.ours })
	return nil
}

// refusal is why a push must not go ahead because of lo, or nil: a
// change of someone else's under a timer (fabricc would confirm or
// revert it), or unsaved changes no fabricc push made (the push's save
// would save them too) unless Options.SaveUnsaved. A dry run checks the
// same, so that it fails where the push would (dryRunRefused).
func (d *device) refusal(lo leftover) error {
	if d.o.Action == ActionVerify || lo.ours {
		return nil
	}
	switch {
	case lo.kind == leftTimed:
		return fmt.Errorf("%s, and it is not fabricc's: confirm or abort it on the switch first; nothing was changed", lo.what)
	case lo.kind == leftUnsaved && !d.o.SaveUnsaved:
		return d.v.Unsaved.refusal(lo.what)
	}
	return nil
}

// resolve finishes, rolls back, discards or keeps for the push's save
// one leftover that refusal let through.
func (d *device) resolve(lo leftover) error {
	switch {
	case d.o.Action == ActionDiff:
		if lo.kind != leftStaged {
			d.res.Pending = append(d.res.Pending, lo.pending())
		}
		return nil
	case !lo.ours && lo.kind == leftUnsaved:
		// --save-unsaved: the push's save saves them (settleUnsaved).
		d.othersUnsaved = append(d.othersUnsaved, lo)
		return nil
	case !lo.ours:
		d.recovered(lo.what, RecoveryLeft)
		return nil
	case lo.kind == leftStaged:
		return d.apply(lo, lo.undo, RecoveryDiscarded)
	case d.undoBeforeGate(lo):
		return d.apply(leftover{what: lo.what + heldForGate}, lo.undo, RecoveryRolledBack)
	}
	if diffs, err := d.check(); err != nil {
		return fmt.Errorf("reading back what %s holds: %w", lo.what, err)
	} else if len(diffs) == 0 {
		d.completed = true
		return d.apply(lo, lo.finish, RecoveryCompleted)
	}
	if lo.undo == nil {
		d.recovered(lo.what+" (it does not verify as this fabric; this push replaces it)", RecoveryLeft)
		return nil
	}
	return d.apply(lo, lo.undo, RecoveryRolledBack)
}

// saveUnsaved is the save of a push that has nothing of its own to
// apply but went ahead, with --save-unsaved, over unsaved changes no
// fabricc push made: it saves them as a push's change would have, which
// makes the device changed (failed when the save fails).
func (d *device) saveUnsaved() error {
	if len(d.othersUnsaved) == 0 {
		return nil
	}
	d.step(stepSave)
	for _, lo := range d.othersUnsaved {
		if err := lo.finish(d.conn); err != nil {
			d.res.Status = StatusFailed
			return fmt.Errorf("saving %s (--save-unsaved): %w", lo.what, err)
		}
	}
	d.res.Status = StatusChanged
	d.settleUnsaved(true)
	return nil
}

// settleUnsaved records what became of the unsaved changes no fabricc
// push made that --save-unsaved let this push go ahead over: saved with
// its change, or, when it did not get to its save, left as they were.
func (d *device) settleUnsaved(saved bool) {
	for _, lo := range d.othersUnsaved {
		if saved {
			d.recovered(lo.what, RecoverySaved)
		} else {
			d.recovered(lo.what+" (not saved: this push did not get to its save)", RecoveryLeft)
		}
	}
	d.othersUnsaved = nil
}

// apply runs one recovery step and records it.
func (d *device) apply(lo leftover, step func(Conn) error, action string) error {
	if err := step(d.conn); err != nil {
		return fmt.Errorf("%s: %s failed: %w", lo.what, action, err)
	}
	d.recovered(lo.what, action)
	return nil
}

func (d *device) recovered(what, action string) {
	d.res.Recovered = append(d.res.Recovered, Recovery{Found: what, Action: action})
}

// verifyOnly is the verify action: it changes nothing. A difference is a
// mismatch, not a failure; a change waiting for a timer, a confirmation
// or a save, or a lock held, makes the device pending even when it
// matches.
func (d *device) verifyOnly() error {
	d.step(stepVerify)
	if err := d.pendingWork(); err != nil {
		return err
	}
	if err := d.verify(); err != nil && len(d.res.Differences) == 0 {
		return err
	}
	d.res.Differences = append(d.res.Differences, d.modelDifference()...)
	if d.o.peers != nil {
		d.cabling()
	}
	d.res.Verified = len(d.res.Differences) == 0
	d.res.Status = verifyStatus(d.res, d.inFlight)
	return nil
}

// verifyStatus is verify's verdict on a switch read back. A difference
// makes it a mismatch unless a push is in flight (inFlight: a device
// lock held, or fabricc's own unfinished change), whatever else is
// pending beside it (Pending keeps that): a hand change that is not
// saved yet is drift, not a push in flight, and a drift monitor keys
// on mismatch. A switch in flight, or that matches with work pending,
// is pending; else verified.
func verifyStatus(r *DeviceResult, inFlight bool) string {
	switch {
	case !r.Verified && !inFlight:
		return StatusMismatch
	case len(r.Pending) > 0:
		return StatusPending
	}
	return StatusVerified
}

// lockUnknown notes, for verify, a device lock it could not read: a
// monitoring account may be refused the command the lock needs (EOS
// keeps it in flash, read with `bash`, which a read-only role such as
// EOS's network-operator may lack), and the lock is advice to verify,
// not what it checks. The configuration is still compared; the lock
// shows as unknown, with why.
func (d *device) lockUnknown(err error) {
	d.res.Lock = "unknown"
	d.res.Notes = append(d.res.Notes, "the device lock is unknown: reading it failed ("+err.Error()+"; the login may lack the command it needs, "+
		"on EOS bash); the configuration was verified without it, so a push in flight would show as differences")
}

// heldLock is verify's pending text for a lock h holds: what the next
// push does about it, by the rule lock follows (a stale lock of this
// host is broken; any other is refused unless --break-lock names it).
func (d *device) heldLock(h Holder) string {
	switch {
	case d.isStale(h):
		return "the device lock is held by " + h.String() + ", whose fabricc process on this host has ended: the next push from this host breaks it and recovers what that push left"
	case h.raw != "":
		return "the device lock is held by " + h.String() + ": the next push refuses it; remove it on the switch (" + d.v.Lock.where() + ") if no push is running"
	}
	return "the device lock is held by " + h.String() + ": a push is running, or one that is gone left it, which the next push refuses; if that push is gone for good, push with --break-lock=" + h.ID
}

// pendingWork lists, for verify, a lock held and every leftover that is
// effective but not final.
func (d *device) pendingWork() error {
	var holder *Holder
	if d.v.Lock != nil {
		h, err := d.v.Lock.holder(d.conn)
		if err != nil {
			d.lockUnknown(err)
		}
		if err == nil && h != nil {
			holder, d.inFlight = h, true
			d.res.Lock = h.String()
			d.res.Pending = append(d.res.Pending, d.heldLock(*h))
		}
	}
	if d.v.Leftovers == nil {
		return nil
	}
	found, err := d.v.Leftovers(d.conn, holder)
	if err != nil {
		return fmt.Errorf("looking for unfinished changes: %w", err)
	}
	for _, lo := range found {
		if lo.kind != leftStaged {
			d.res.Pending = append(d.res.Pending, lo.pending())
			d.inFlight = d.inFlight || lo.ours
		}
	}
	return nil
}

// recoverAborted is the way out of a switch that another switch's
// failure stops before it took its lock (abort, the gate's reason). The
// switch applies nothing, but what an interrupted push left on it must
// not stay: Onyx has no commit timer, so a killed push's change stays
// on it, unsaved, while the EOS and NVUE switches revert theirs, a mixed
// fabric until a push succeeds. So it still takes its lock (breaking a
// stale one, never waiting) and runs the rollback half of the recovery
// (rollbackLeftovers); it never completes a change, since this push
// confirms nothing. Rolling back is the safe choice over only reporting:
// it returns the switch to what the others return to. An interrupted
// push, whose connections are cut, leaves everything to the next push.
func (d *device) recoverAborted(ctx context.Context, abort error) error {
	if d.v.Lock == nil || d.v.Leftovers == nil || ctx.Err() != nil {
		return abort
	}
	err := d.lock(ctx)
	d.turn.done()
	defer d.unlock(ctx)
	if err != nil {
		d.res.Status = StatusAborted
		return abort // held by a live push, or unreadable: nothing of ours
	}
	d.step(stepRecover)
	found, err := d.v.Leftovers(d.conn, d.stale)
	if err == nil {
		err = d.rollbackLeftovers(found)
	}
	if err == nil {
		d.inherited = d.inherited && slices.ContainsFunc(found, func(lo leftover) bool { return lo.ours && lo.undo == nil })
	}
	if err != nil {
		d.res.Status = StatusFailed
		return fmt.Errorf("%w; undoing what an interrupted push left: %v", abort, err)
	}
	d.res.Status = StatusAborted
	return abort
}

// rollbackLeftovers undoes each of fabricc's leftovers that can be
// undone (discards what is staged, rolls back what is effective) and
// records the others as left as they are.
func (d *device) rollbackLeftovers(found []leftover) error {
	for _, lo := range found {
		switch {
		case !lo.ours:
			d.res.Pending = append(d.res.Pending, lo.what)
		case lo.undo == nil:
			d.recovered(lo.what+" (this push applies nothing, so it cannot be finished here; the next push finishes or replaces it)", RecoveryLeft)
		case lo.kind == leftStaged:
			if err := d.apply(lo, lo.undo, RecoveryDiscarded); err != nil {
				return err
			}
		default:
			if err := d.apply(lo, lo.undo, RecoveryRolledBack); err != nil {
				return err
			}
		}
	}
	return nil
}

// undoBeforeGate reports whether lo, an interrupted push's change that
// is effective but neither confirmed nor saved, is rolled back rather
// than completed: in an all-or-nothing push of several switches,
// completing it (confirming, saving) before the gate would make it
// permanent on this switch even when another switch then fails, a
// mixed fabric nothing reverts. Rolled back, the switch is as before;
// this push stages the fabric again and applies it under its own
// rollback, at the gate with the others. A change that cannot be undone
// is resolved as before.
func (d *device) undoBeforeGate(lo leftover) bool {
	return d.gate != nil && d.gate.size > 1 && lo.undo != nil
}

// heldForGate is said after a leftover undoBeforeGate rolled back.
const heldForGate = " (all or nothing: not completed before every switch has verified; this push applies the fabric again, at the gate with the other switches)"

// dryRunRefused fails a dry run whose switch the push would refuse
// (refusal): a dry run that reported it as a change pending (exit 2)
// let a pipeline that gates push on diff go ahead into a push that
// fails. The diff stays in the result; the error says why the push
// would be refused and how to go on.
func (d *device) dryRunRefused() error {
	if len(d.refused) == 0 || d.res.Status != StatusDryRun {
		return nil
	}
	d.res.Status = StatusFailed
	var msgs []string
	for _, err := range d.refused {
		msgs = append(msgs, err.Error())
	}
	return fmt.Errorf("push would be refused: %s", strings.Join(msgs, "; "))
}
