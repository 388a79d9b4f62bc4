package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// A build of 130,000 devices takes half a minute: eight seconds of
// loading and checking, then the devices; validate, explain and plan
// (once per revision) take the eight seconds. progressLine says
// which step runs, on one line of a terminal redrawn in place, and
// clears it before the command prints anything else. It shows nothing
// for a step that ends within a second, and nothing at all where
// stderr is not a terminal (a pipe, a CI log, --format json).

// progressDelay is how long a step runs before its line appears, so
// that a small fabric's build prints what it always did.
const progressDelay = time.Second

// progressEvery is how often the line is looked at, and redrawn when
// its text changed.
const progressEvery = 200 * time.Millisecond

// progressLine is the progress line of one step of a command.
type progressLine struct {
	w     io.Writer
	cmd   string        // the command: "build", "validate", "explain", "plan"
	total int64         // the fabric's devices; 0 while loading
	done  *atomic.Int64 // devices written or kept (artifacts.Options.Progress)
	stop  chan struct{}
	ended chan struct{}
	once  sync.Once
	last  string // the text drawn last, by run; read after ended is closed
}

// loadingLine starts the line of cmd loading and checking a fabric on
// w, shown only on a terminal and never with JSON output.
func loadingLine(w io.Writer, cmd string, asJSON bool) *progressLine {
	return startProgress(!asJSON && canRedraw(w), w, cmd, 0, nil, progressDelay)
}

// startProgress starts the line of a step of cmd on w, after delay:
// loading and checking the fabric when total is 0 (done may be nil),
// else writing its total devices, of which done counts those
// finished. It returns nil, and shows nothing, when show is false.
func startProgress(show bool, w io.Writer, cmd string, total int64, done *atomic.Int64, delay time.Duration) *progressLine {
	if !show {
		return nil
	}
	p := &progressLine{w: w, cmd: cmd, total: total, done: done, stop: make(chan struct{}), ended: make(chan struct{})}
	go p.run(delay)
	return p
}

// run draws the line from delay on, looking every progressEvery, until
// stopped.
func (p *progressLine) run(delay time.Duration) {
	defer close(p.ended)
	wait := time.NewTimer(delay)
	defer wait.Stop()
	select {
	case <-p.stop:
		return
	case <-wait.C:
	}
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		var done int64
		if p.done != nil {
			done = p.done.Load()
		}
		// Drawn again only when it says something new.
		if text := progressText(p.cmd, p.total, done); text != p.last {
			fmt.Fprintf(p.w, "\r\x1b[K%s", text)
			p.last = text
		}
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
	}
}

// finish stops the line and clears it, so that what the build prints
// next starts on an empty line. It may be called more than once, and on
// a nil line (no terminal).
func (p *progressLine) finish() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.stop)
		<-p.ended
		if p.last != "" {
			fmt.Fprint(p.w, "\r\x1b[K")
		}
	})
}

// progressText is the line's text: the command, the step, and how far
// the devices are (written, or kept from the build before).
func progressText(cmd string, total, done int64) string {
	if total <= 0 {
		return cmd + ": loading and checking the fabric ..."
	}
	return fmt.Sprintf("%s: %d of %d devices done (%d%%)", cmd, done, total, done*100/total)
}
