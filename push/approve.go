package push

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Staged is one switch's change, staged and not applied, as
// Options.Approve is shown it.
type Staged struct {
	Device   string
	Platform string
	Diff     string
}

// ErrNotApproved is the error of a switch whose staged change was
// dropped because Options.Approve said no: nothing was applied.
var ErrNotApproved = errors.New("not applied: the push was not approved")

// approval holds the switches of a push, each with its change staged,
// until every switch has staged its change or ended (nothing to change,
// a failure), then asks Options.Approve once, with every staged change,
// before any switch applies (as terraform apply asks after its plan).
// A push whose all-or-nothing gate has already failed asks nothing: no
// switch will apply.
type approval struct {
	ask  func([]Staged) bool
	gate *gate
	// step is what a switch waiting for the answer shows: the
	// operator's approval, or, without a question, the other switches.
	step string
	mu   sync.Mutex
	// open counts the switches that have not staged or ended yet.
	open   int
	staged []Staged
	// ok is the answer, read once decided is closed.
	ok      bool
	decided chan struct{}
}

// newApproval is the approval of n switches. Without a question
// (--yes, a pipe, CI) an all-or-nothing push (g not nil) still has its
// barrier, answered yes: no switch applies before every switch has
// connected, locked, recovered and staged, so a switch that cannot be
// reached or staged fails the push before any switch runs the new
// configuration (as terraform apply plans every resource before it
// changes any). nil for a per-device push without a question.
func newApproval(n int, ask func([]Staged) bool, g *gate) *approval {
	step := stepApproval
	switch {
	case ask == nil && g == nil:
		return nil
	case ask == nil:
		ask, step = func([]Staged) bool { return true }, stepStaged
	}
	return &approval{ask: ask, gate: g, step: step, open: n, decided: make(chan struct{})}
}

// stepStaged is the progress step of a switch that staged its change
// and waits, without a question, for the others to stage theirs.
const stepStaged = "wait for the other switches to stage"

// add records one switch: its staged change when s is not nil, else
// that it ended without one. The last switch to arrive has the question
// asked, on its own goroutine so that an interruption still reaches the
// waiting switches while the question is open.
func (a *approval) add(s *Staged) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s != nil {
		a.staged = append(a.staged, *s)
	}
	a.open--
	if a.open > 0 {
		return
	}
	if len(a.staged) == 0 || a.gate != nil && a.gate.failed() != nil {
		a.ok = true // nothing to ask, or nothing will be applied
		close(a.decided)
		return
	}
	staged := append([]Staged(nil), a.staged...)
	sort.Slice(staged, func(i, j int) bool { return staged[i].Device < staged[j].Device })
	go func() {
		ok := a.ask(staged)
		a.mu.Lock()
		a.ok = ok
		a.mu.Unlock()
		close(a.decided)
	}()
}

// wait blocks until the question is answered: nil for yes,
// ErrNotApproved for anything else, or an error when ctx ends first.
func (a *approval) wait(ctx context.Context) error {
	select {
	case <-a.decided:
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.ok {
			return ErrNotApproved
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w while waiting for the push to be approved", ended(ctx))
	}
}

// leaveApproval tells the approval that this switch will apply nothing
// (it ended before staging a change, or had none); it tells it once.
func (d *device) leaveApproval() {
	if d.approval != nil && !d.asked {
		d.asked = true
		d.approval.add(nil)
	}
}

// awaitApproval shows this switch's staged diff to the approval and
// waits, without holding a slot, for the answer: a switch waiting for
// the operator must not keep the switches after it from staging.
func (d *device) awaitApproval(ctx context.Context, diff string) error {
	if d.approval == nil {
		return nil
	}
	d.asked = true
	d.approval.add(&Staged{Device: d.t.Switch.Name, Platform: string(d.t.Switch.Platform), Diff: diff})
	d.giveSlot(d.approval.step)
	err := d.approval.wait(ctx)
	d.retake(ctx)
	return err
}
