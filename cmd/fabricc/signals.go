package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

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

// liveReport passes a run's progress on and keeps each switch's steps
// (with their times) and the results of the switches that ended, so
// that a stop at once can still write a summary and a report. With a
// --report path it also rewrites that file at every step and result
// (written beside and renamed, so the file is always whole): a push
// killed outright (kill -9, the OOM killer, a runner that died), which
// no handler can catch, leaves its last state there.
type liveReport struct {
	push.Progress
	o     push.Options
	mu    sync.Mutex
	steps map[string][]push.Step
	done  map[string]*push.DeviceResult
	// path is the --report file ("" for none); stopped: no more
	// rewrites (the run ended, or stopped at once); started: when it
	// began.
	path    string
	stopped bool
	started time.Time
	// switches are the run's switch targets, the devices the report
	// lists: a host's steps and result are passed on, not kept.
	switches map[string]bool
}

func newLiveReport(o push.Options, path string) *liveReport {
	switches := make(map[string]bool, len(o.Targets))
	for _, t := range o.Targets {
		switches[t.Switch.Name] = true
	}
	return &liveReport{o: o, steps: map[string][]push.Step{}, done: map[string]*push.DeviceResult{}, path: path, started: time.Now(), switches: switches}
}

// Step records a switch's step and passes every step on.
func (l *liveReport) Step(device, step string) {
	if l.switches[device] {
		l.mu.Lock()
		l.steps[device] = push.AddStep(l.steps[device], step, time.Now())
		l.rewrite()
		l.mu.Unlock()
	}
	l.Progress.Step(device, step)
}

// Done records a switch's result and passes every result on.
func (l *liveReport) Done(r *push.DeviceResult) {
	if l.switches[r.Device] {
		l.mu.Lock()
		l.done[r.Device] = r
		l.rewrite()
		l.mu.Unlock()
	}
	l.Progress.Done(r)
}

// stop ends the rewrites: the run's own report follows.
func (l *liveReport) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
}

// rewrite writes the report as it stands to the --report file, each
// switch at work with status running and its steps so far. A failed
// write is not fatal: the run goes on, and its end writes the file
// again (and says so when that fails too).
func (l *liveReport) rewrite() {
	if l.path == "" || l.stopped {
		return
	}
	_ = writeReportFile(l.report(func(res *push.DeviceResult, steps []push.Step) {
		res.Status = push.StatusRunning
	}), l.path)
}

// report is the report as far as it is known: each switch that ended
// with its result, each other one as mark makes it from its steps.
func (l *liveReport) report(mark func(res *push.DeviceResult, steps []push.Step)) *push.Report {
	rep := &push.Report{ID: l.o.ID, Action: l.o.Action, Fabric: l.o.Fabric.Name, Build: l.o.Build, StartedAt: push.Stamp(l.started)}
	for _, t := range l.o.Targets {
		if r, ok := l.done[t.Switch.Name]; ok {
			rep.Devices = append(rep.Devices, r)
			continue
		}
		res := push.NewDeviceResult(t)
		if steps := l.steps[t.Switch.Name]; len(steps) > 0 {
			res.Steps = slices.Clone(steps)
			res.StartedAt = steps[0].StartedAt
		}
		mark(res, l.steps[t.Switch.Name])
		rep.Devices = append(rep.Devices, res)
	}
	rep.Summarize()
	return rep
}

// snapshot is the report as far as it is known when cause stops the
// run at once: each switch that ended with its result, each other one
// failed, naming the step it was in. No rewrite follows it.
func (l *liveReport) snapshot(cause string) *push.Report {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	rep := l.report(func(res *push.DeviceResult, steps []push.Step) {
		why := fmt.Sprintf("stopped at once by %s before it started: nothing was changed", cause)
		if len(steps) > 0 {
			why = fmt.Sprintf("stopped at once by %s in step %q: the switch may hold a part of the change, its lock and a checkpoint or a commit timer; fabricc verify shows what is left, and the next push recovers it", cause, steps[len(steps)-1].Step)
		}
		res.Status, res.Error = push.StatusFailed, why
	})
	rep.FinishedAt = push.Stamp(time.Now())
	return rep
}
