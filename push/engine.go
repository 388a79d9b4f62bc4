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
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
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
}

// Progress is told what each device is doing.
type Progress interface {
	Step(device, step string)
	Done(r *DeviceResult)
}

// DefaultParallel bounds the devices worked on at once.
const DefaultParallel = 8

// Run works on every target, at most Parallel at a time, and returns
// the report. Devices are independent: one failing does not stop others;
// ctx cancellation (Ctrl-C) stops them all, each rolling back.
func Run(ctx context.Context, o Options) *Report {
	rep := &Report{ID: o.ID, Action: o.Action, Fabric: o.Fabric.Name, Devices: make([]*DeviceResult, len(o.Targets))}
	n := o.Parallel
	if n <= 0 {
		n = DefaultParallel
	}
	// errgroup bounds the workers; runDevice reports failures in the
	// result, so no goroutine returns an error and one device failing
	// stops none of the others.
	var g errgroup.Group
	g.SetLimit(n)
	for i, t := range o.Targets {
		g.Go(func() error {
			r := runDevice(ctx, o, t)
			rep.Devices[i] = r
			if o.Progress != nil {
				o.Progress.Done(r)
			}
			return nil
		})
	}
	_ = g.Wait()
	return rep
}

// device is the state of one device's run.
type device struct {
	o    Options
	t    Target
	v    *Vendor
	res  *DeviceResult
	conn Conn
}

func runDevice(ctx context.Context, o Options, t Target) *DeviceResult {
	start := time.Now()
	res := &DeviceResult{Device: t.Switch.Name, Platform: string(t.Switch.Platform), Address: t.Device.Addr(), Commands: []string{}}
	d := &device{o: o, t: t, res: res}
	err := d.run(ctx)
	if err != nil {
		res.Status = StatusFailed
		res.Error = err.Error()
	}
	res.DurationMs = time.Since(start).Milliseconds()
	return res
}

func (d *device) step(s string) {
	if d.o.Progress != nil {
		d.o.Progress.Step(d.t.Switch.Name, s)
	}
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
		return err
	}
	defer func() { _ = d.conn.Close() }()
	if d.o.Action == ActionVerify {
		return d.verifyOnly()
	}
	return d.push(ctx)
}

// connect dials and arranges for the connection to be cut when ctx ends,
// which makes a command blocked on a silent device return.
func (d *device) connect(ctx context.Context) error {
	c, err := d.o.Dial(d.t.Device, d.t.Switch.Platform)
	if err != nil {
		return err
	}
	stop := func() bool { return false }
	if a, ok := c.(interface{ abort() }); ok {
		stop = context.AfterFunc(ctx, a.abort)
	}
	d.conn = closer{Conn: recorder{Conn: c, sent: &d.res.Commands}, stop: stop, ctx: ctx}
	return nil
}

// closer cancels the cut-on-timeout of connect on Close and reports a
// cut connection as the device timeout it was.
type closer struct {
	Conn
	stop func() bool // context.AfterFunc's stop
	ctx  context.Context
}

func (c closer) Send(cmd string) (string, error) {
	out, err := c.Conn.Send(cmd)
	if err != nil && errors.Is(c.ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("device timeout reached during %q: %w", cmd, err)
	}
	return out, err
}

func (c closer) Close() error {
	c.stop()
	return c.Conn.Close()
}

func (d *device) push(ctx context.Context) error {
	txn := d.v.NewTxn(d.o.ID)
	d.step(stepStage)
	diff, err := txn.Stage(d.conn, d.t.Config)
	d.res.Diff = diff
	if err != nil {
		return d.rollback(ctx, txn, fmt.Errorf("staging: %w", err))
	}
	if d.o.Action == ActionDiff || diff == "" {
		if err := txn.Discard(d.conn); err != nil {
			return d.rollback(ctx, txn, fmt.Errorf("discarding the staged change: %w", err))
		}
		if d.o.Action == ActionDiff {
			d.res.Status = StatusDryRun
			return nil
		}
		d.res.Status = StatusUnchanged
		return d.verify()
	}
	d.step(stepApply)
	if err := txn.Apply(d.conn); err != nil {
		return d.rollback(ctx, txn, fmt.Errorf("applying: %w", err))
	}
	d.step(stepVerify)
	if err := d.verify(); err != nil {
		return d.rollback(ctx, txn, err)
	}
	d.step(stepConfirm)
	if err := txn.Confirm(d.conn); err != nil {
		return d.rollback(ctx, txn, fmt.Errorf("confirming: %w", err))
	}
	d.res.Status = StatusChanged
	return nil
}

// verify reads the switch back and compares it with the model.
func (d *device) verify() error {
	outs := make([]string, len(d.v.ReadBack))
	for i, cmd := range d.v.ReadBack {
		out, err := d.conn.Send(cmd)
		if err != nil {
			return fmt.Errorf("reading back: %w", err)
		}
		outs[i] = out
	}
	got, err := d.v.Parse(outs)
	if err != nil {
		return fmt.Errorf("reading back: %w", err)
	}
	d.res.Differences = verify.Compare(d.t.Switch.Name, verify.Expect(d.o.Fabric, d.t.Switch), got)
	d.res.Verified = len(d.res.Differences) == 0
	if !d.res.Verified {
		return fmt.Errorf("verification failed: %d differences, first: %s", len(d.res.Differences), d.res.Differences[0])
	}
	return nil
}

// verifyOnly is the verify action: a difference is a mismatch, not a
// failure.
func (d *device) verifyOnly() error {
	d.step(stepVerify)
	err := d.verify()
	switch {
	case err == nil:
		d.res.Status = StatusVerified
	case len(d.res.Differences) > 0:
		d.res.Status = StatusMismatch
	default:
		return err
	}
	return nil
}

// rollback undoes the transaction after cause, over a new connection when
// the old one is gone, with a fresh time budget (the device timeout may be
// what failed).
func (d *device) rollback(ctx context.Context, txn Txn, cause error) error {
	d.step(stepRollback)
	err := txn.Rollback(d.conn)
	if err != nil {
		_ = d.conn.Close()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackBudget(d.t.Device))
		defer cancel()
		if cerr := d.connect(rctx); cerr != nil {
			d.res.RollbackNote = "rollback failed: cannot reconnect: " + cerr.Error()
			return cause
		}
		err = txn.Rollback(d.conn)
	}
	if err != nil {
		d.res.RollbackNote = "rollback failed: " + err.Error()
		return cause
	}
	d.res.RolledBack = true
	return cause
}

// rollbackBudget is the time a rollback over a new connection gets: one
// connect and eight command timeouts.
func rollbackBudget(dev *inventory.Device) time.Duration {
	return dev.ConnectTimeout + 8*dev.CommandTimeout
}
