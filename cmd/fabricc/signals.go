package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/fabricc/fabricc/push"
)

// interruptible returns a context that the first SIGINT (Ctrl-C) or
// SIGTERM (kill, systemd, CI cancel) ends, with "interrupted by SIGTERM"
// as its cause: push then rolls back what is in flight on every switch,
// releases the device locks and reports. what says what the first
// signal starts. See signals for what later signals do.
func interruptible(cmd *cobra.Command, what string) (context.Context, func()) {
	ctx, stop, _ := listenSignals(cmd, what)
	return ctx, stop
}

// signals is the signal handling of one command: after the first
// signal, a SIGTERM is the same request again and is ignored (GitHub
// Actions cancels a step with SIGINT, then SIGTERM 7.5 s later, then
// kills it: docs.github.com, "Workflow cancellation reference"), and
// only a SIGINT, a repeated Ctrl-C, stops at once, after forced (when
// set) has written what is known so far.
type signals struct {
	mu     sync.Mutex
	forced func(cause string)
}

// onForced sets what a stop at once runs before fabricc exits: the
// summary and the --report file of what is known so far.
func (s *signals) onForced(f func(cause string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forced = f
}

// force runs forced, once, and exits with 130 (128 + SIGINT, the
// shell's status of a command Ctrl-C ended).
func (s *signals) force(cause string) {
	s.mu.Lock()
	f := s.forced
	s.forced = nil
	s.mu.Unlock()
	if f != nil {
		f(cause)
	}
	os.Exit(130)
}

// listenSignals is interruptible with its signals, whose onForced push
// sets once it has a report to write.
func listenSignals(cmd *cobra.Command, what string) (context.Context, func(), *signals) {
	ctx, cancel := context.WithCancelCause(cmd.Context())
	// Room for a burst: a signal that finds the channel full is lost.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	s := &signals{}
	errw := cmd.ErrOrStderr()
	go func() {
		var first os.Signal
		for {
			select {
			case sig := <-sigs:
				switch {
				case first == nil:
					first = sig
					fmt.Fprintf(errw, "fabricc: %s: %s; a second Ctrl-C (SIGINT) stops at once, a SIGTERM does not\n", signalName(sig), what)
					cancel(fmt.Errorf("interrupted by %s", signalName(sig)))
				case sig == os.Interrupt:
					fmt.Fprintf(errw, "fabricc: a second SIGINT: stopping at once; what is in flight stays as it is (the next push recovers it)\n")
					s.force("a second SIGINT")
				default:
					fmt.Fprintf(errw, "fabricc: %s after %s: the same request, still %s (only a second Ctrl-C, SIGINT, stops at once)\n", signalName(sig), signalName(first), what)
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}, s
}

// signalName is the signal's conventional name.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// liveReport passes a run's progress on and keeps each switch's last
// step and the results of the switches that ended, so that a stop at
// once can still write a summary and a report.
type liveReport struct {
	push.Progress
	o     push.Options
	mu    sync.Mutex
	steps map[string]string
	done  map[string]*push.DeviceResult
}

func newLiveReport(o push.Options) *liveReport {
	return &liveReport{o: o, steps: map[string]string{}, done: map[string]*push.DeviceResult{}}
}

// Step records device's step and passes it on.
func (l *liveReport) Step(device, step string) {
	l.mu.Lock()
	l.steps[device] = step
	l.mu.Unlock()
	l.Progress.Step(device, step)
}

// Done records r and passes it on.
func (l *liveReport) Done(r *push.DeviceResult) {
	l.mu.Lock()
	l.done[r.Device] = r
	l.mu.Unlock()
	l.Progress.Done(r)
}

// snapshot is the report as far as it is known when cause stops the
// run at once: each switch that ended with its result, each other one
// failed, naming the step it was in.
func (l *liveReport) snapshot(cause string) *push.Report {
	l.mu.Lock()
	defer l.mu.Unlock()
	rep := &push.Report{ID: l.o.ID, Action: l.o.Action, Fabric: l.o.Fabric.Name}
	for _, t := range l.o.Targets {
		name := t.Switch.Name
		if r, ok := l.done[name]; ok {
			rep.Devices = append(rep.Devices, r)
			continue
		}
		why := fmt.Sprintf("stopped at once by %s before it started: nothing was changed", cause)
		if step, ok := l.steps[name]; ok {
			why = fmt.Sprintf("stopped at once by %s in step %q: the switch may hold a part of the change, its lock and a checkpoint or a commit timer; fabricc verify shows what is left, and the next push recovers it", cause, step)
		}
		res := push.NewDeviceResult(t)
		res.Status, res.Error = push.StatusFailed, why
		rep.Devices = append(rep.Devices, res)
	}
	return rep
}
