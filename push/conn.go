package push

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/util"
	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/platforms"
	"github.com/fabricc/fabricc/push/transport"
)

// Conn is a CLI session on one switch.
type Conn interface {
	// Send runs cmd and returns its output, and an error when the
	// transport failed or the device refused the command (its error text
	// is in the error).
	Send(cmd string) (string, error)
	// Home returns to the platform's default privilege level (the enable
	// prompt), leaving however many sub-modes the last commands entered
	// (Onyx "vlan 100" enters a vlan sub-mode and has no single "end").
	Home() error
	// Close ends the session.
	Close() error
}

// Dialer opens a Conn to a device.
type Dialer func(dev *inventory.Device, p model.Platform) (Conn, error)

// SSHDialer returns a Dialer over scrapligo with fabricc's own SSH
// transport, checking host keys with hostKey.
func SSHDialer(hostKey ssh.HostKeyCallback) Dialer {
	return func(dev *inventory.Device, p model.Platform) (Conn, error) {
		return dialSSH(dev, p, hostKey)
	}
}

func dialSSH(dev *inventory.Device, p model.Platform, hostKey ssh.HostKeyCallback) (Conn, error) {
	creds, err := dev.Credentials()
	if err != nil {
		return nil, err
	}
	def, err := platforms.Definition(p)
	if err != nil {
		return nil, err
	}
	tr := &transport.SSH{Creds: creds, HostKey: hostKey}
	// No options.WithLogger: scrapligo's debug log prints the events of
	// SendInteractive, the enable password among them.
	opts := []util.Option{
		options.WithPort(dev.Port),
		options.WithAuthUsername(creds.Username),
		options.WithCustomTransport(tr),
		options.WithTimeoutSocket(dev.ConnectTimeout),
		options.WithTimeoutOps(dev.CommandTimeout),
		options.WithTermWidth(511),
	}
	if !creds.Enable.Empty() {
		// Answers the `enable` Password: prompt (scrapligo v1
		// options.WithAuthSecondary).
		opts = append(opts, options.WithAuthSecondary(creds.Enable.Reveal()))
	}
	pl, err := platform.NewPlatform(def, dev.Address, opts...)
	if err != nil {
		return nil, fmt.Errorf("platform %s: %w", p, err)
	}
	d, err := pl.GetNetworkDriver()
	if err != nil {
		return nil, fmt.Errorf("platform %s: %w", p, err)
	}
	if err := d.Open(); err != nil {
		return nil, fmt.Errorf("connect %s (%s): %w", dev.Name, dev.Addr(), openError(err, dev.CommandTimeout))
	}
	return &sshConn{d: d, timeout: dev.CommandTimeout, refusal: refusalOf(p), platform: p}, nil
}

// refusalOf is platform p's Vendor.Refusal (nil for a platform push
// does not know).
func refusalOf(p model.Platform) *regexp.Regexp {
	if v := Vendors[p]; v != nil {
		return v.Refusal
	}
	return nil
}

// sshConn is a Conn over a scrapligo network driver.
type sshConn struct {
	mu      sync.Mutex
	d       *network.Driver
	timeout time.Duration
	closed  bool
	// refusal matches an answer line that is an error (Vendor.Refusal).
	refusal *regexp.Regexp
	// platform is the switch's, whose configuration listings refusal
	// does not read (platforms.ConfigListing).
	platform model.Platform
}

// Send sends one line with the generic driver's SendCommand, which does
// not change privilege level: fabricc manages modes itself (configure
// session, configure terminal) so the engine knows exactly what was sent.
func (c *sshConn) Send(cmd string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", errors.New("connection closed")
	}
	r, err := c.d.Driver.SendCommand(cmd, opoptions.WithTimeoutOps(c.timeout))
	if err != nil {
		return "", sendError(cmd, err, c.timeout)
	}
	if r.Failed != nil {
		return r.Result, &RefusedError{Cmd: cmd, Reason: firstLine(r.Result)}
	}
	if reason := c.refused(cmd, r.Result); reason != "" {
		return r.Result, &RefusedError{Cmd: cmd, Reason: reason}
	}
	return r.Result, nil
}

// refused is the answer line of out that refuses cmd (the platform's
// Vendor.Refusal), "" when there is none or cmd lists a configuration
// (platforms.ConfigListing), whose lines are the switch's content.
func (c *sshConn) refused(cmd, out string) string {
	if c.refusal == nil || platforms.ConfigListing(c.platform, cmd) {
		return ""
	}
	return strings.TrimSpace(c.refusal.FindString(out))
}

// sendError says what a failed Send means, in words: scrapligo's
// errors read "errConnectionError" (the session ended under the command:
// the switch closed it, or the network lost it) and "errTimeoutError:
// channel timeout sending input to device" (no prompt came back within
// the inventory's command_timeout). The error still wraps err.
func sendError(cmd string, err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, util.ErrConnectionError), errors.Is(err, io.EOF):
		return &wordedError{fmt.Sprintf("the connection closed while running %q", cmd), err}
	case errors.Is(err, util.ErrTimeoutError):
		return &wordedError{fmt.Sprintf("no answer to %q within the command timeout (%s; command_timeout in the inventory)", cmd, timeout), err}
	}
	return fmt.Errorf("%q: %w", cmd, err)
}

// openError says what a failed login means, in words. fabricc's own SSH
// transport logs in (its errors are already worded: refused, host key,
// authentication); after that scrapligo waits for the first prompt and
// runs the platform's on-open commands, where its errors are the two
// sendError words: the session ended, or no prompt came back within the
// inventory's command_timeout.
func openError(err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, util.ErrConnectionError), errors.Is(err, io.EOF):
		return &wordedError{"logged in, but the connection closed before the first prompt", err}
	case errors.Is(err, util.ErrTimeoutError):
		return &wordedError{fmt.Sprintf("logged in, but no prompt within the command timeout (%s; command_timeout in the inventory)", timeout), err}
	}
	return err
}

// homeError says what a failed return to the enable prompt means.
func homeError(err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, util.ErrConnectionError), errors.Is(err, io.EOF):
		return &wordedError{"the connection closed", err}
	case errors.Is(err, util.ErrTimeoutError):
		return &wordedError{fmt.Sprintf("no prompt within the command timeout (%s; command_timeout in the inventory)", timeout), err}
	}
	return err
}

// answered reports whether err, a failed connect, came after the switch
// answered SSH (a login that then hung or closed): its row then says
// "no answer", not "no connection".
func answered(err error) bool {
	var w *wordedError
	return errors.As(err, &w) && strings.HasPrefix(w.words, "logged in, but ")
}

// wordedError is err said in other words.
type wordedError struct {
	words string
	err   error
}

// Error returns the words.
func (e *wordedError) Error() string { return e.words }

// Unwrap returns the error the words stand for.
func (e *wordedError) Unwrap() error { return e.err }

// RefusedError is a command the device answered with an error: the
// session is intact and in step, unlike after a transport error or a
// timeout.
type RefusedError struct {
	Cmd, Reason string
}

// Error names the refused command and the device's reason.
func (e *RefusedError) Error() string { return fmt.Sprintf("device refused %q: %s", e.Cmd, e.Reason) }

// refused reports whether err is the device's answer rather than a
// failure of the session.
func refused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// Home uses scrapligo's acquire-priv, which reads the prompt and sends
// the platform's deescalate command ("exit") until it is back.
func (c *sshConn) Home() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return errors.New("connection closed")
	}
	c.d.CurrentPriv = "" // the generic SendCommand does not track modes
	if err := c.d.AcquirePriv(c.d.DefaultDesiredPriv); err != nil {
		return fmt.Errorf("returning to the %s prompt: %w", c.d.DefaultDesiredPriv, homeError(err, c.timeout))
	}
	return nil
}

// Close ends the session; EOF from a server that hung up is not an error
// (scrapligo's standard transport returns io.EOF when the server closes
// the channel after `exit`).
func (c *sshConn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	err := c.d.Close()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// abort closes the transport under a running command (device timeout).
func (c *sshConn) abort() { _ = c.d.Transport.Close(true) }

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return strings.TrimSpace(s)
}

// recorder records every command sent through a Conn, for the report.
type recorder struct {
	Conn
	sent *[]string
}

func (r recorder) Home() error {
	*r.sent = append(*r.sent, "(exit to the enable prompt)")
	return r.Conn.Home()
}

func (r recorder) Send(cmd string) (string, error) {
	*r.sent = append(*r.sent, recordable(cmd))
	return r.Conn.Send(cmd)
}

// maxWord is the longest word of a command the report keeps whole
// unless it is a base64 payload (recordable).
const maxWord = 160

// recordable is cmd as the report keeps it: whole (a configuration line,
// however long, is what a post-mortem reads), but for a base64 payload
// (the NVUE YAML a push writes to the switch with `echo ... | base64
// -d`), which becomes "<base64 of N bytes, sha256 HEX>": N and the
// SHA-256 of the decoded file, which `sha256sum` of the build's file
// matches.
func recordable(cmd string) string {
	if len(cmd) <= maxWord {
		return cmd
	}
	words := strings.Split(cmd, " ")
	for i, w := range words {
		if len(w) <= maxWord {
			continue
		}
		if data, err := base64.StdEncoding.DecodeString(w); err == nil {
			sum := sha256.Sum256(data)
			words[i] = fmt.Sprintf("<base64 of %d bytes, sha256 %s>", len(data), hex.EncodeToString(sum[:]))
		}
	}
	return strings.Join(words, " ")
}
