package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// signalAfterReads is a stderr that, once the progress lines say every
// one of n switches was read (verified or mismatch), sends SIGTERM to
// this process and waits until fabricc has said it caught it, so that
// the signal arrives after every read and before the summary.
type signalAfterReads struct {
	t    *testing.T
	n    int
	mu   sync.Mutex
	buf  bytes.Buffer
	read int
}

var readLine = regexp.MustCompile(`(?m)^\[[a-z0-9]+\] (verified|mismatch)`)

func (s *signalAfterReads) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.buf.Write(p)
	s.read += len(readLine.FindAll(p, -1))
	last := s.read == s.n && readLine.Match(p)
	s.mu.Unlock()
	if last {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
			s.t.Error(err)
		}
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(s.String(), "fabricc: SIGTERM: ") && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // the handler cancels right after it says so
	}
	return len(p), nil
}

func (s *signalAfterReads) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// TestInterruptedVerifyExitsOne: SIGTERM
// (a CronJob's deadline) after verify read every switch, all of them
// differing, exits 1 with the interruption's error diagnostic, never 2,
// which means only "the devices differ". Not parallel: the signal goes
// to the whole test process, and no other test may be listening then.
func TestInterruptedVerifyExitsOne(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	var stdout bytes.Buffer
	stderr := &signalAfterReads{t: t, n: 6}
	code := run([]string{"verify", clos, "-i", inv, "--json"}, &stdout, stderr)
	env := decodeHead(t, stdout.String())
	if !strings.Contains(stderr.String(), "fabricc: SIGTERM: ") || !strings.Contains(stderr.String(), "verify: 6 devices: 6 mismatch") {
		t.Fatalf("the signal did not come after every read:\n%s", stderr)
	}
	if code != 1 || env.OK || env.Errors != 1 || len(env.Diagnostics) == 0 || env.Diagnostics[len(env.Diagnostics)-1].Summary != "verify interrupted by SIGTERM" {
		t.Errorf("exit %d, envelope %+v; want exit 1 and the interruption's error\n%s", code, env, stderr)
	}
}
