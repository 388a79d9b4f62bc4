package push

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// gate makes a push all or nothing across its switches. RoCE works only
// when every hop agrees on priority, trust and PFC, so a change that
// lands on some switches and not on others can stall the fabric: every
// switch that applied a change waits at the gate after its own
// verification, and confirms only once every switch of the push has
// verified or had nothing to change. The first switch that fails instead
// (staging, applying, verification, a lock, a lost connection) makes
// every waiting switch roll back.
//
// The confirmations themselves are not one step: a switch whose
// confirmation fails after the gate opened rolls back alone (its report
// says so). Options.PerDevice drops the gate.
type gate struct {
	// size is the number of switches.
	size int
	mu   sync.Mutex
	// open counts the switches that have not yet passed or failed.
	open int
	// failure is the first failure, naming its switch.
	failure error
	// decided is closed when every switch passed or one failed.
	decided chan struct{}
}

// newGate is a gate for n switches.
func newGate(n int) *gate {
	g := &gate{size: n, open: n, decided: make(chan struct{})}
	if n == 0 {
		close(g.decided)
	}
	return g
}

// pass records a switch that verified its change, or had none.
func (g *gate) pass() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open--
	if g.open == 0 && g.failure == nil {
		close(g.decided)
	}
}

// fail records a switch that failed before it could confirm, or that
// another push's lock kept out (locked); why, when not empty, is said
// after its name on the other switches' rows (the next step for a
// switch push could not reach).
func (g *gate) fail(device, why string, locked bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open--
	if g.failure == nil {
		// The cause is on the failed switch's own line of the report; the
		// others name the switch only, not to repeat it on every line.
		g.failure = &gateFailure{device: device, why: why, locked: locked}
		close(g.decided)
	}
}

// abandon records that a switch which had passed stopped waiting (its
// confirm window was about to end, or the push was interrupted) and rolls
// back: no other switch may confirm either. It returns err, the switch's
// own reason, when that is what decides the gate. When the gate was
// decided while the switch gave up (the last switch passed, or another
// failed, at that moment), that decision stands for this switch too and
// is returned instead: nil, confirm like every other switch, or the
// first failure.
//
// interrupt is the cause of the push's context when the push was
// interrupted (Ctrl-C, SIGTERM), nil otherwise: the other switches then
// roll back because of the interrupt, not because this switch gave up.
func (g *gate) abandon(device string, err, interrupt error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.decided:
		return g.failure
	default:
	}
	g.failure = fmt.Errorf("%s gave up waiting", device)
	if interrupt != nil {
		g.failure = pushInterrupted{interrupt}
	}
	close(g.decided)
	return err
}

// gateFailure is the gate's failure when a switch failed: its name and
// why, which the other switches' errors carry whole (the --report file)
// and the summary says once below its table (DeviceResult.shared).
// locked: the switch did not fail, another push holds it: the other
// rows say so, for a pipeline to retry later (or queue with
// --lock-timeout) rather than investigate a broken switch.
type gateFailure struct {
	device, why string
	locked      bool
}

func (f *gateFailure) Error() string { return f.short() + f.why }

// short is the failure without why: "leaf3 failed", or "spine2 is
// locked by another push".
func (f *gateFailure) short() string {
	if f.locked {
		return f.device + " is locked by another push"
	}
	return f.device + " failed"
}

// pushInterrupted is the gate's failure when the push was interrupted.
type pushInterrupted struct{ cause error }

func (i pushInterrupted) Error() string { return "the push was " + i.cause.Error() }
func (i pushInterrupted) Unwrap() error { return i.cause }

// decidedBy reports whether err is the gate's own failure, that is
// another switch's, rather than the waiter's reason to stop waiting.
func (g *gate) decidedBy(err error) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failure != nil && err == g.failure
}

// failed is the first failure when one has happened, without waiting.
func (g *gate) failed() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failure
}

// wait blocks until the gate is decided and returns nil when every
// switch passed, else the first failure. It gives up with an error when
// ctx ends or, where the switch rolls back on its own when a change is
// not confirmed in time (EOS commit timer, NVUE apply --confirm), at
// deadline: confirming after it would be too late.
func (g *gate) wait(ctx context.Context, deadline time.Time) error {
	var expired <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-g.decided:
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.failure
	case <-ctx.Done():
		return fmt.Errorf("%w while waiting for the other switches to verify", ended(ctx))
	case <-expired:
		return fmt.Errorf("the other switches had not all verified before this switch's confirm window was about to end")
	}
}

// confirmMargin is how long before the end of the confirm window a
// switch stops waiting at the gate: the time its confirmation needs.
func confirmMargin(window time.Duration) time.Duration {
	return min(30*time.Second, window/4)
}

// lockTurns make the switches of an all-or-nothing push that waits for
// locks (--lock-timeout) take them one after another, in the targets'
// order (by switch name): a switch holding its lock waits at the gate
// for the others, so two such pushes taking locks in different orders
// would each hold what the other waits for until the timeout. In one
// order, the push that has the first contested switch goes on and the
// other waits for it, holding nothing after it. A push that does not
// wait for locks fails at once on a held lock and rolls back, and needs
// no order.
type lockTurns []chan struct{}

// newLockTurns is the turns of n switches.
func newLockTurns(n int) lockTurns {
	t := make(lockTurns, n)
	for i := range t {
		t[i] = make(chan struct{})
	}
	return t
}

// turn is switch i's place in t: before is closed when the switch
// before it has tried its lock (nil for the first), done closes i's own.
type turn struct {
	before <-chan struct{}
	mine   chan struct{}
	once   sync.Once
}

// of returns switch i's turn, or nil when t is nil (no order).
func (t lockTurns) of(i int) *turn {
	if t == nil {
		return nil
	}
	tn := &turn{mine: t[i]}
	if i > 0 {
		tn.before = t[i-1]
	}
	return tn
}

// wait blocks until the switch before has tried its lock, ctx ends, or
// stop is closed (the gate decided, which before this switch passed
// means that another switch failed: it will not take its lock at all).
func (tn *turn) wait(ctx context.Context, stop <-chan struct{}) error {
	if tn == nil || tn.before == nil {
		return nil
	}
	select {
	case <-tn.before:
		return nil
	case <-stop:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w while the switches before this one took their locks", ended(ctx))
	}
}

// done lets the next switch take its lock; it may be called more than
// once.
func (tn *turn) done() {
	if tn != nil {
		tn.once.Do(func() { close(tn.mine) })
	}
}
