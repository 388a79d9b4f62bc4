package main

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestProgressText(t *testing.T) {
	for _, c := range []struct {
		cmd         string
		total, done int64
		want        string
	}{
		{"build", 0, 0, "build: loading and checking the fabric ..."},
		{"validate", 0, 0, "validate: loading and checking the fabric ..."},
		{"build", 130944, 0, "build: 0 of 130944 devices done (0%)"},
		{"build", 130944, 52340, "build: 52340 of 130944 devices done (39%)"},
		{"build", 10, 10, "build: 10 of 10 devices done (100%)"},
	} {
		if got := progressText(c.cmd, c.total, c.done); got != c.want {
			t.Errorf("progressText(%q, %d, %d) = %q, want %q", c.cmd, c.total, c.done, got, c.want)
		}
	}
}

// TestProgressLine: the line is drawn in place (carriage return, erase
// line) with the devices done, again only when that changes, and
// cleared by finish.
func TestProgressLine(t *testing.T) {
	var w lockedBuffer
	var done atomic.Int64
	done.Store(3)
	p := startProgress(true, &w, "build", 10, &done, 0)
	const first, second = "\r\x1b[Kbuild: 3 of 10 devices done (30%)", "\r\x1b[Kbuild: 7 of 10 devices done (70%)"
	waitFor(t, &w, first)
	time.Sleep(3 * progressEvery) // unchanged: not drawn again
	done.Store(7)
	waitFor(t, &w, second)
	p.finish()
	p.finish()
	if got, want := w.String(), first+second+"\r\x1b[K"; got != want {
		t.Errorf("want each text drawn once, then erased; got %q, want %q", got, want)
	}
}

// waitFor waits up to 10 s for w to hold text.
func waitFor(t *testing.T, w *lockedBuffer, text string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(w.String(), text); {
		if time.Now().After(deadline) {
			t.Fatalf("no %q after 10 s; got %q", text, w.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestProgressQuiet: nothing is written for a step that ends before the
// delay, nor without a terminal (show false, a nil line).
func TestProgressQuiet(t *testing.T) {
	var w lockedBuffer
	startProgress(true, &w, "validate", 0, nil, time.Hour).finish()
	var none *progressLine = startProgress(false, &w, "build", 10, nil, 0)
	none.finish()
	if none != nil || w.String() != "" {
		t.Errorf("want no line and nothing written; got %v and %q", none, w.String())
	}
}

// TestWaitingLine: the line a build prints once when another build
// holds its output folder.
func TestWaitingLine(t *testing.T) {
	for _, tt := range []struct {
		pid  int
		want string
	}{
		{4242, "build: another fabricc build (process 4242) is writing out; waiting for it to finish"},
		{0, "build: another fabricc build is writing out; waiting for it to finish"},
	} {
		if got := waitingLine("out", tt.pid); got != tt.want {
			t.Errorf("waitingLine(out, %d) = %q, want %q", tt.pid, got, tt.want)
		}
	}
}
