package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// Output is what a command Run ran printed, and its exit status.
type Output struct {
	Stdout, Stderr []byte
	// Status is the exit status the server reported for the command.
	Status int
}

// MaxOutput bounds what Run keeps of a command's standard output, and
// of its standard error: a host script's --check prints a few kilobytes.
const MaxOutput = 4 << 20

// Run logs in as Dial does and runs cmd in one session without a
// terminal (an SSH "exec" request, RFC 4254 6.5), with stdin as its
// standard input, closed once sent. It returns what the command printed
// on its standard output and standard error, kept apart, and its exit
// status (RFC 4254 6.10). It is an error when the command runs longer
// than timeout, ends without an exit status (killed by a signal, the
// connection lost), prints more than MaxOutput on either output, or ctx
// ends first; the connection is closed then.
func (t *SSH) Run(ctx context.Context, addr string, connectTimeout, timeout time.Duration, cmd string, stdin []byte) (Output, error) {
	client, err := t.Dial(ctx, addr, connectTimeout)
	if err != nil {
		return Output{}, err
	}
	defer t.Close()
	t.mu.Lock()
	t.client = client
	t.mu.Unlock()
	// From here on the command timeout and ctx close the connection,
	// whatever step waits: a server that logs in but never opens the
	// session or answers the exec request would otherwise hold Run.
	var end cutoff
	stopCtx := context.AfterFunc(ctx, func() { end.cut(client, fmt.Errorf("%w during %q", context.Cause(ctx), cmd)) })
	defer stopCtx()
	timer := time.AfterFunc(timeout, func() {
		end.cut(client, fmt.Errorf("%q ran longer than the command timeout (%s)", cmd, timeout))
	})
	defer timer.Stop()
	sess, err := client.NewSession()
	if err != nil {
		return Output{}, end.or(fmt.Errorf("ssh %s: %w", addr, err))
	}
	stdout, stderr := &capped{}, &capped{}
	sess.Stdin, sess.Stdout, sess.Stderr = bytes.NewReader(stdin), stdout, stderr
	if err := sess.Start(cmd); err != nil {
		return Output{}, end.or(fmt.Errorf("ssh %s: starting %q: %w", addr, cmd, err))
	}
	err = sess.Wait()
	if cut := end.reason(); cut != nil {
		return Output{}, cut
	}
	out := Output{Stdout: stdout.b.Bytes(), Stderr: stderr.b.Bytes()}
	var exit *ssh.ExitError
	var missing *ssh.ExitMissingError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.Signal() == "":
		out.Status = exit.ExitStatus()
	case errors.As(err, &exit):
		return out, fmt.Errorf("%q was killed by signal %s", cmd, exit.Signal())
	case errors.As(err, &missing):
		return out, fmt.Errorf("%q ended without an exit status (the connection was lost, or the server sent none)", cmd)
	default:
		return out, fmt.Errorf("ssh %s: %q: %w", addr, cmd, err)
	}
	if stdout.over || stderr.over {
		return out, fmt.Errorf("%q printed more than %d bytes", cmd, MaxOutput)
	}
	return out, nil
}

// capped keeps the first MaxOutput bytes written to it and drops the
// rest, noting that it did (an error would stall the session instead).
type capped struct {
	b    bytes.Buffer
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := MaxOutput - c.b.Len(); len(p) > room {
		c.b.Write(p[:max(room, 0)])
		c.over = true
		return len(p), nil
	}
	return c.b.Write(p)
}

// cutoff records why Run closed the connection itself (the command
// timeout, ctx), so that the error a step then gets names that reason.
type cutoff struct {
	mu  sync.Mutex
	err error
}

// cut closes client for why, the first reason only.
func (c *cutoff) cut(client *ssh.Client, why error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = why
	}
	c.mu.Unlock()
	_ = client.Close()
}

// reason is why the connection was cut, or nil.
func (c *cutoff) reason() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// or is the cut's reason when there is one, else err.
func (c *cutoff) or(err error) error {
	if cut := c.reason(); cut != nil {
		return cut
	}
	return err
}
