package eos

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

// Device is one simulated EOS switch.
type Device struct {
	mu       sync.Mutex
	opts     cli.Options
	run      *State
	sessions map[string]*session
	order    []string // session names in creation order
	drifted  bool     // the drift fault has been applied
}

// session is a `configure session NAME`.
type session struct {
	name string
	st   *State
	// state is "pending", "pendingCommitTimer", "completed" or "aborted"
	// (the values of `show configuration sessions | json`).
	state   string
	prev    *State // running before a timer commit, restored on expiry
	timer   *time.Timer
	expires time.Time
}

// New builds an EOS device.
func New(opts cli.Options) *Device {
	return &Device{opts: opts, run: newState(opts.Name), sessions: map[string]*session{}}
}

// Running is `show running-config`.
func (d *Device) Running() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return render(d.run)
}

// Close stops every commit timer.
func (d *Device) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range d.sessions {
		if s.timer != nil {
			s.timer.Stop()
		}
	}
}

// NewShell starts a CLI session in exec mode.
func (d *Device) NewShell(user string) cli.Shell { return &shell{d: d} }

const (
	privExec = iota
	privEnable
	privConfig
)

type shell struct {
	d         *Device
	priv      int
	sess      *session
	stack     []*frame
	askSecret bool
}

// Echo is off while `enable` reads its secret.
func (s *shell) Echo() bool { return !s.askSecret }

// Reject is EOS's error for input it refuses.
func (s *shell) Reject(line string) string { return invalid(line) }

// invalid is EOS's "% Invalid input" naming the first token.
func invalid(line string) string {
	tok := strings.Fields(line)
	if len(tok) == 0 {
		return "% Invalid input"
	}
	return fmt.Sprintf("%% Invalid input (at token 0: '%s')", tok[0])
}

// Prompt is "Password: " while the enable secret is read, else host>,
// host# or host(config...)# for the privilege and mode.
func (s *shell) Prompt() string {
	if s.askSecret {
		return "Password: "
	}
	h := s.d.opts.Name
	switch s.priv {
	case privExec:
		return h + ">"
	case privEnable:
		return h + "#"
	}
	mode := "config"
	if s.sess != nil {
		mode += "-s-" + s.sess.name
	}
	return h + "(" + mode + s.frameTag() + ")#"
}

func (s *shell) frameTag() string {
	tag := ""
	for _, f := range s.stack[1:] {
		switch f.kind {
		case kIf:
			tag = "-if-Et" + strings.TrimPrefix(f.key, "Ethernet")
		case kVLAN:
			tag = "-vlan-" + f.key
		case kProfile:
			tag = "-qos-profile-" + f.key
		case kMMU:
			tag = "-pmmu-" + f.key
		case kTxQ:
			kw := "-txq-"
			if f.txq.Keyword == "uc-tx-queue" {
				kw = "-uc-txq-"
			}
			tag += kw + f.key
		}
	}
	return tag
}

func (s *shell) push(f *frame) { s.stack = append(s.stack, f) }

// state is the configuration the shell edits: the session's or running.
func (s *shell) state() *State {
	if s.sess != nil {
		return s.sess.st
	}
	return s.d.run
}

// Exec runs one line.
func (s *shell) Exec(raw string) cli.Result {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.askSecret {
		s.askSecret = false
		if raw == s.d.opts.EnablePassword {
			s.priv = privEnable
			return cli.Result{}
		}
		return cli.Result{Out: "% Access denied"}
	}
	line := cli.Normalize(raw)
	if line == "" || strings.HasPrefix(line, "!") {
		return cli.Result{}
	}
	if strings.HasPrefix(line, "show ") || line == "show" {
		return cli.Result{Out: s.show(line)}
	}
	if strings.HasPrefix(line, "terminal ") {
		return cli.Result{}
	}
	switch s.priv {
	case privExec:
		return s.execMode(line)
	case privEnable:
		return s.enableMode(line)
	}
	return cli.Result{Out: s.configMode(line)}
}

func (s *shell) execMode(line string) cli.Result {
	switch line {
	case "enable":
		if s.d.opts.EnablePassword != "" {
			s.askSecret = true
		} else {
			s.priv = privEnable
		}
		return cli.Result{}
	case "exit", "quit", "logout":
		return cli.Result{Exit: true}
	}
	return cli.Result{Out: invalid(line)}
}

func (s *shell) enableMode(line string) cli.Result {
	switch line {
	case "disable":
		s.priv = privExec
		return cli.Result{}
	case "exit", "quit", "logout":
		return cli.Result{Exit: true}
	case "configure", "configure terminal", "config", "conf t":
		s.enterConfig(nil)
		return cli.Result{}
	case "write memory", "write", "copy running-config startup-config":
		return cli.Result{Out: "Copy completed successfully."}
	}
	return cli.Result{Out: s.sessionCommand(line)}
}

func (s *shell) enterConfig(sess *session) {
	s.priv = privConfig
	s.sess = sess
	s.stack = []*frame{{kind: kGlobal}}
}

func (s *shell) leaveConfig() {
	s.priv = privEnable
	s.sess = nil
	s.stack = nil
}

func (s *shell) configMode(line string) string {
	switch line {
	case "end":
		s.leaveConfig()
		return ""
	case "exit":
		if len(s.stack) > 1 {
			s.stack = s.stack[:len(s.stack)-1]
		} else {
			s.leaveConfig()
		}
		return ""
	}
	if s.sess != nil {
		if out, ok := s.inSession(line); ok {
			return out
		}
	}
	if strings.HasPrefix(line, "configure session ") {
		return s.sessionCommand(line)
	}
	return s.apply(line)
}

// apply finds the innermost mode whose grammar accepts line (EOS falls
// back to the parent modes, which is how a pasted block works).
func (s *shell) apply(line string) string {
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := s.stack[i]
		r, m := grammar[f.kind].Find(line)
		if r == nil {
			continue
		}
		s.stack = s.stack[:i+1]
		if err := r.Do(&env{st: s.state(), sh: s, fr: f}, m); err != nil {
			return errText(line, err)
		}
		return ""
	}
	return invalid(line)
}

func errText(line string, err error) string {
	if strings.HasPrefix(err.Error(), "%") {
		return err.Error()
	}
	return invalid(line) + "\n% " + err.Error()
}
