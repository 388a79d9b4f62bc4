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
	mu   sync.Mutex
	// open counts the switches that have not staged or ended yet.
	open   int
	staged []Staged
	// ok is the answer, read once decided is closed.
	ok      bool
	decided chan struct{}
}

// newApproval is the approval of n switches; nil when ask is nil (no
// question: --yes, a pipe, a dry run).
func newApproval(n int, ask func([]Staged) bool, g *gate) *approval {
	if ask == nil {
		return nil
	}
	return &approval{ask: ask, gate: g, open: n, decided: make(chan struct{})}
}

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
	d.giveSlot(stepApproval)
	err := d.approval.wait(ctx)
	d.retake(ctx)
	return err
}
