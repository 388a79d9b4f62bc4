package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// interruptible returns a context that the first SIGINT (Ctrl-C) or
// SIGTERM (kill, systemd, CI cancel) ends, with "interrupted by SIGTERM"
// as its cause: push then rolls back what is in flight on every switch,
// releases the device locks and reports. Only the first signal is
// caught; a second one ends fabricc at once (the next push recovers what
// that leaves). what says what the first signal starts.
func interruptible(cmd *cobra.Command, what string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(cmd.Context())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			fmt.Fprintf(cmd.ErrOrStderr(), "fabricc: %s: %s; a second signal stops at once\n", signalName(s), what)
			cancel(fmt.Errorf("interrupted by %s", signalName(s)))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
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
