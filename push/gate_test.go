package push

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
)

// TestGate: the gate opens (nil) only when every switch passed; the
// first failure, naming its switch, is every waiter's answer; a waiter
// gives up at its deadline and when its context ends.
func TestGate(t *testing.T) {
	ctx := context.Background()
	g := newGate(3)
	g.pass()
	g.pass()
	select {
	case <-g.decided:
		t.Fatal("decided with one switch still open")
	default:
	}
	g.pass()
	if err := g.wait(ctx, time.Time{}); err != nil {
		t.Errorf("all passed: %v", err)
	}

	g = newGate(3)
	g.pass()
	g.fail("leaf3", "", false)
	g.fail("leaf4", "", false)
	if err := g.wait(ctx, time.Time{}); err == nil || err.Error() != "leaf3 failed" {
		t.Errorf("one failed: %v, want the first failure", err)
	}

	if err := newGate(0).wait(ctx, time.Time{}); err != nil {
		t.Errorf("no switches: %v", err)
	}

	g = newGate(2)
	g.pass()
	err := g.wait(ctx, time.Now().Add(20*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "confirm window was about to end") {
		t.Errorf("deadline: %v", err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	cancel(errors.New("interrupted (SIGTERM)"))
	if err := g.wait(cctx, time.Time{}); err == nil || err.Error() != "interrupted (SIGTERM) while waiting for the other switches to verify" {
		t.Errorf("cancelled: %v", err)
	}
}

// TestConfirmMargin: a switch stops waiting 30 s before a 5-minute
// window closes (the time a confirmation needs), a quarter of a short one.
func TestConfirmMargin(t *testing.T) {
	for window, want := range map[time.Duration]time.Duration{5 * time.Minute: 30 * time.Second, 40 * time.Second: 10 * time.Second} {
		if got := confirmMargin(window); got != want {
			t.Errorf("confirmMargin(%v) = %v, want %v", window, got, want)
		}
	}
}

// TestGateAbandon: a switch that passed and then stops waiting (its
// confirm window about to end) fails the gate for every other switch,
// also for one that passes after it: none may confirm once it rolled
// back.
func TestGateAbandon(t *testing.T) {
	ctx := context.Background()
	g := newGate(3)
	g.pass() // a: EOS, waits with a deadline
	g.pass() // b: Onyx, waits without one
	errA := g.wait(ctx, time.Now().Add(10*time.Millisecond))
	if errA == nil || g.decidedBy(errA) {
		t.Fatalf("a: %v, want its own deadline", errA)
	}
	g.abandon("spine1", errA, nil)
	g.pass() // c: the last switch verifies after a gave up
	errB := g.wait(ctx, time.Time{})
	if errB == nil || !g.decidedBy(errB) || errB.Error() != "spine1 gave up waiting" {
		t.Errorf("b: %v, want spine1's abandonment", errB)
	}
}

// TestByName: switches start and take their lock turns in name order,
// whatever order the caller gives the targets in.
func TestByName(t *testing.T) {
	names := []string{"spine1", "leaf2", "leaf10", "leaf1"}
	var targets []Target
	for _, n := range names {
		targets = append(targets, Target{Switch: &model.Switch{Name: n}})
	}
	var got []string
	for _, i := range byName(targets) {
		got = append(got, targets[i].Switch.Name)
	}
	if want := []string{"leaf1", "leaf10", "leaf2", "spine1"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestGateAbandonOnInterrupt: a switch that stops waiting because the
// push was interrupted decides the gate with the interrupt, not with
// "gave up waiting", and the others' aborted rows do not suggest
// --per-device for what the operator asked.
func TestGateAbandonOnInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	g := newGate(2)
	g.pass()
	cancel(errors.New("interrupted by SIGINT"))
	errA := g.wait(ctx, time.Time{})
	g.abandon("leaf3", errA, InterruptOf(ctx))
	g.pass()
	errB := g.wait(context.Background(), time.Time{})
	if errB == nil || errB.Error() != "the push was interrupted by SIGINT" {
		t.Fatalf("b: %v, want the interrupt", errB)
	}
	if got, want := notConfirmed(errB).Error(), "not confirmed, all or nothing: the push was interrupted by SIGINT; every switch rolls back"; got != want {
		t.Errorf("aborted: %q, want %q", got, want)
	}
	if got := notConfirmed(errors.New("leaf3 failed")).Error(); !strings.HasSuffix(got, "(--per-device lets each switch finish on its own)") {
		t.Errorf("aborted by a failure: %q, want the --per-device hint", got)
	}
}

// TestShortCommand: a command quoted in an error is its first line, at
// most 80 characters, with how much is left out (a Cumulus push sends
// its configuration as one 18 KB line).
func TestShortCommand(t *testing.T) {
	long := "echo " + strings.Repeat("A", 18600) + " | base64 -d > /tmp/x.yaml"
	for _, tc := range []struct{ cmd, want string }{
		{"show running-config", "show running-config"},
		{long, "echo " + strings.Repeat("A", 75) + "...(18551 more characters)"},
		{"line one\nline two", "line one...(9 more characters)"},
	} {
		if got := shortCommand(tc.cmd); got != tc.want {
			t.Errorf("shortCommand(%.30q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
