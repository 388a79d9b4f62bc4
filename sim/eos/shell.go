package eos

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
	targeteos "github.com/fabricc/fabricc/targets/eos"
)

// Device is one simulated EOS switch.
type Device struct {
	mu   sync.Mutex
	opts cli.Options
	run  *State
	// startup is startup-config: `write memory` (or `copy
	// running-config startup-config`) saves run into it; EOS does not
	// save on commit ("Autosave to startup-config on commit is
	// disabled" in `show configuration sessions detail`).
	startup *State
	// flash holds the files of /mnt/flash that bash commands read and
	// write (the boot-config, fabricc's lock file).
	flash    map[string]string
	sessions map[string]*session
	order    []string // session names in creation order
	booted   time.Time
	drifted  bool // the drift fault has been applied
	// txQueue is the egress-queue sub-mode the model's ASIC family has:
	// "uc-tx-queue" on Trident and Tomahawk, "tx-queue" on Jericho, ""
	// for a model fabricc has no hardware data for (both accepted).
	txQueue string
}

// session is a `configure session NAME`.
type session struct {
	name string
	st   *State
	// state is "pending", "pendingCommitTimer", "completed" or "aborted"
	// (the values of `show configuration sessions | json` up to EOS 4.31;
	// sessionsJSON prints the 4.32 form from these).
	state   string
	prev    *State // running before a timer commit, restored on expiry
	timer   *time.Timer
	expires time.Time
}

// New builds an EOS device with every port of its model at the defaults.
func New(opts cli.Options) *Device {
	d := &Device{opts: opts, run: newState(opts), sessions: map[string]*session{}, booted: time.Now(), txQueue: txQueueKeyword(opts.Model)}
	d.startup = d.run.clone()
	d.flash = map[string]string{"/mnt/flash/boot-config": "SWI=flash:/EOS-" + opts.Version + ".swi\n"}
	return d
}

// txQueueKeyword is the egress-queue sub-mode of the ASIC family of
// hardware model name, as targets/eos writes it (TxQueueKeyword): the
// Strata ASICs (Trident, Tomahawk) split unicast and multicast queues,
// `uc-tx-queue N` and `mc-tx-queue N`, the Sand ASICs (Jericho) have
// `tx-queue N` (Arista EOS User Manual, Quality of Service, the Trident
// and Tomahawk against the Arad and Jericho platform sections). "" for
// a model without hardware data.
func txQueueKeyword(name string) string {
	row, ok := compiler.SwitchModel(name)
	if !ok {
		return ""
	}
	return targeteos.TxQueueKeyword(model.Hardware{ASIC: row.ASIC})
}

// Saved is `show startup-config`.
func (d *Device) Saved() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.render(d.startup)
}

// Running is `show running-config`.
func (d *Device) Running() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.render(d.run)
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

// NewShell starts a CLI session in exec mode; a session with a terminal
// pages its output at the terminal height until `terminal length 0`.
func (d *Device) NewShell(s cli.Session) cli.Shell { return &shell{d: d, rows: s.Rows} }

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
	rows      int
}

// Echo is off while `enable` reads its secret.
func (s *shell) Echo() bool { return !s.askSecret }

// Refuse is EOS's form of a refusal, "% Error: reason" (scrapligo's
// arista_eos failed-when-contains phrase "% Error").
func (s *shell) Refuse(reason string) string { return "% Error: " + reason }

// Reject is EOS's error for input it refuses.
func (s *shell) Reject(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "% Invalid input"
	}
	return fmt.Sprintf("%% Invalid input (at token 0: '%s')", f[0])
}

// Pager pages at `terminal length` lines (the terminal height until the
// client sets it; 0 turns paging off).
func (s *shell) Pager() (int, string) { return s.rows, " --More-- " }

// syntaxText is EOS's error for a line no rule accepts: `% Invalid input
// (at token 1: 'bogus')` as eAPI returns it for "show bogus" (public
// pyeapi/napalm error samples), `% Incomplete command`, `% Ambiguous
// command` (scrapligo's arista_eos failure strings).
func syntaxText(e *cli.SyntaxError) string {
	switch e.Kind {
	case cli.Incomplete:
		return "% Incomplete command"
	case cli.Ambiguous:
		return "% Ambiguous command"
	}
	return fmt.Sprintf("%% Invalid input (at token %d: '%s')", e.Token, e.Word)
}

// Prompt is "Password: " while the enable secret is read, else host>,
// host# or host(config...)#. A session prompt shows the first six
// characters of the session name (`localhost(config-s-exampl)#`, "A look
// at Arista's configuration session"; Arista EOS 4.15.0F release notes).
func (s *shell) Prompt() string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.askSecret {
		return "Password: "
	}
	h := s.state().Hostname
	switch s.priv {
	case privExec:
		return h + ">"
	case privEnable:
		return h + "#"
	}
	mode := "config"
	if s.sess != nil {
		name := s.sess.name
		if len(name) > 6 {
			name = name[:6]
		}
		mode += "-s-" + name
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
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "!") {
		return cli.Result{}
	}
	cmd, filters := cli.Pipe(line)
	e := &cmdEnv{sh: s}
	post, ferr := e.filters(filters)
	if ferr != "" {
		return cli.Result{Out: ferr}
	}
	r, m, serr := s.commands().Match(cmd)
	if serr == nil && r.Do == nil {
		return cli.Result{Out: "% This command is not simulated"}
	}
	if serr == nil {
		if err := r.Do(e, m); err != nil {
			if errors.Is(err, errExit) {
				return cli.Result{Exit: true}
			}
			return cli.Result{Out: errText(cmd, err)}
		}
		return cli.Result{Out: post(e.out.String())}
	}
	if s.priv != privConfig {
		return cli.Result{Out: syntaxText(serr)}
	}
	return cli.Result{Out: s.apply(cmd, serr)}
}

// apply finds the innermost mode whose grammar accepts line (EOS falls
// back to the parent modes, which is how a pasted block works). When no
// mode takes it, the error is the one that got furthest into the line.
func (s *shell) apply(line string, worst *cli.SyntaxError) string {
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := s.stack[i]
		r, m, serr := grammar[f.kind].Match(line)
		if serr != nil {
			if serr.Token > worst.Token {
				worst = serr
			}
			continue
		}
		if r.Do == nil {
			return errNotSimulated.Error()
		}
		s.stack = s.stack[:i+1]
		if err := r.Do(&env{st: s.state(), sh: s, fr: f}, m); err != nil {
			return errText(line, err)
		}
		return ""
	}
	if worst.Unmodelled() {
		// A configuration keyword no mode of the simulator has, such as
		// `transceiver qsfp default-mode 4x10G` of every real
		// running-config (napalm test/eos/mocked_data/test_get_config):
		// not the device's "% Invalid input" (review rsim #7).
		return errNotSimulated.Error()
	}
	return syntaxText(worst)
}

// errText is EOS's text for a refused command: a value out of range is
// invalid input at its token, as EOS reports it.
func errText(line string, err error) string {
	var ve *cli.ValueError
	if errors.As(err, &ve) {
		for i, t := range cli.Tokens(line) {
			if strings.Contains(t.Text, ve.Value) {
				return fmt.Sprintf("%% Invalid input (at token %d: '%s')", i, t.Text)
			}
		}
		return "% Invalid input"
	}
	if strings.HasPrefix(err.Error(), "%") || errors.Is(err, errPendingSessions) {
		return err.Error()
	}
	return "% " + err.Error()
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

// ArmDrift turns the drift fault on (cli.Device).
func (d *Device) ArmDrift() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.opts.Drift = true
}
