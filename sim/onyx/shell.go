package onyx

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

// Device is one simulated Onyx switch.
type Device struct {
	mu   sync.Mutex
	opts cli.Options
	run  *State
	// files are the saved configuration files (`configuration write
	// [to NAME]`); active is the one the switch boots from and
	// `configuration write` writes to.
	files  map[string]*State
	active string
	booted time.Time
	// newAPI is true from MLNX-OS 3.6.6000 on: the JSON of several show
	// commands is wrapped in lists (mellanox.onyx BaseOnyxModule
	// ONYX_API_VERSION and the modules that test it).
	newAPI  bool
	drifted bool // the drift fault has been applied
}

// New builds an Onyx device with every port of its model at the defaults.
func New(opts cli.Options) *Device {
	d := &Device{opts: opts, run: newState(opts), files: map[string]*State{}, active: "initial",
		booted: time.Now().UTC().Truncate(time.Second), newAPI: cli.VersionAtLeast(opts.Version, "3.6.6000")}
	d.files["initial"] = d.run.clone()
	d.files["initial"+bakSuffix] = d.run.clone()
	return d
}

// bakSuffix names the copy Onyx keeps of a configuration file's previous
// contents when the file is written again. Cray-HPE docs-csm, "Management
// Network Upgrade" Mellanox steps: after `configuration write to csm1.0`
// (a new file) `show configuration files` lists csm1.0 without a .bak;
// after `write memory` overwrote csm1.2 it lists csm1.2.bak; initial.bak
// is in every listing, from the switch's first save.
const bakSuffix = ".bak"

// Running is `show running-config`.
func (d *Device) Running() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.render(d.run)
}

// Saved is the active configuration file, the one the switch boots
// with.
func (d *Device) Saved() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.render(d.files[d.active])
}

// Close has nothing to stop: Onyx has no timers.
func (d *Device) Close() {}

// NewShell starts a CLI session in exec mode; a session with a terminal
// pages its output until the client turns paging off.
func (d *Device) NewShell(s cli.Session) cli.Shell {
	return &shell{d: d, rows: s.Rows, paging: s.Rows > 0}
}

const (
	privExec = iota
	privEnable
	privConfig
)

type shell struct {
	d    *Device
	priv int
	// ports are the ports of the `interface ethernet` sub-mode; vlan the
	// VLAN of the `vlan N` sub-mode (0: none).
	ports     []string
	portsSpec string
	vlan      int
	// lag is the bundle of the `interface port-channel N` sub-mode
	// ("port-channel 1"; lag.go).
	lag       string
	askSecret bool
	// confirm is the configuration file a switch-to waits for "yes" on.
	confirm string
	changed bool
	paging  bool
	rows    int
}

// Echo is off while `enable` reads its password.
func (s *shell) Echo() bool { return !s.askSecret }

// refuse is Onyx's form of a refusal, one "% Error:" line (its definition's
// failed-when-contains phrase "% Error", and a "%" line, which Ansible's
// Onyx terminal plugin takes as an error).
func refuse(reason string) string { return "% Error: " + reason }

// Refuse is Onyx's form of a refusal (refuse).
func (s *shell) Refuse(reason string) string { return refuse(reason) }

// Reject is Onyx's error for a command it refuses.
func (s *shell) Reject(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return unrecognized("")
	}
	return unrecognized(f[0])
}

// Pager pages at the terminal height until `no cli session paging
// enable` (or `terminal length`) changes it; the pager's text has no
// public sample.
func (s *shell) Pager() (int, string) {
	if !s.paging {
		return 0, ""
	}
	return s.rows, " --More-- "
}

// unrecognized is Onyx's error for a word it does not know: `%
// Unrecognized command "ib".` (MLNX-OS 3.6.8012 sample in a public lab
// note; the "Type "?" for help." line as in a public MLNX-OS CLI test).
func unrecognized(word string) string {
	return fmt.Sprintf("%% Unrecognized command \"%s\".\nType \"?\" for help.", word)
}

// notSimulated refuses a configuration command whose first word the
// simulator's tables do not have: Onyx may have it (`license install`,
// `lacp`, `ip routing` of real running-configs, mellanox.onyx fixture
// onyx_config_config.cfg), so the answer says the simulator does not
// model it instead of Onyx's `% Unrecognized command` for a command that
// does not exist (review rsim #7). errText words it "% Error: WORD: this
// command is not simulated", the form of the table's rows without an
// action.
func notSimulated(word string) error { return fmt.Errorf("%s: %w", word, cli.ErrUnsupported) }

// syntaxText is the Onyx error for a line no rule accepts.
func syntaxText(e *cli.SyntaxError) string {
	switch e.Kind {
	case cli.Incomplete:
		return "% Incomplete command.\nType \"?\" for help."
	case cli.Ambiguous:
		return fmt.Sprintf("%% Ambiguous command \"%s\".\nType \"?\" for help.", e.Word)
	}
	return unrecognized(e.Word)
}

// errText puts a refused command's reason in the "% Error: ..." form.
// Onyx errors start with "%" (ansible's onyx terminal plugin treats such
// a line as an error); the wording of value errors has no public sample.
func errText(err error) string {
	var v verbatim
	if errors.As(err, &v) {
		return string(v)
	}
	msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "% "), "Error: ")
	return refuse(msg)
}

// Prompt is the password or reboot-confirmation prompt, else
// "<host> [standalone: master] " with >, # or the configuration mode
// (CSM documentation prompt sample `sw-spine01 [standalone: master] >`).
func (s *shell) Prompt() string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	switch {
	case s.askSecret:
		return "Password: "
	case s.confirm != "":
		return "This requires a reboot. Type 'yes' to confirm: "
	}
	h := s.d.run.Hostname + " [standalone: master] "
	switch {
	case s.priv == privExec:
		return h + "> "
	case s.priv == privEnable:
		return h + "# "
	case s.ports != nil:
		return h + "(config interface ethernet " + s.portsSpec + ") # "
	case s.vlan != 0:
		return fmt.Sprintf("%s(config vlan %d) # ", h, s.vlan)
	case s.lag != "":
		return h + "(config interface " + s.lag + ") # "
	}
	return h + "(config) # "
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
	if s.confirm != "" {
		return s.switchTo(raw)
	}
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return cli.Result{}
	}
	cmd, filters := cli.Pipe(line)
	e := &env{sh: s, st: s.d.run}
	post, ferr := e.filters(filters)
	if ferr != "" {
		return cli.Result{Out: ferr}
	}
	r, m, serr := s.grammar().Match(cmd)
	switch {
	case serr != nil && s.priv == privConfig && serr.Unmodelled():
		return cli.Result{Out: errText(notSimulated(serr.Word))}
	case serr != nil:
		return cli.Result{Out: syntaxText(serr)}
	case r.Do == nil:
		return cli.Result{Out: errText(notSimulated(m[0]))}
	}
	if err := r.Do(e, m); err != nil {
		var exit exitSession
		if errors.As(err, &exit) {
			return cli.Result{Exit: true}
		}
		var se *cli.SyntaxError
		if errors.As(err, &se) {
			return cli.Result{Out: syntaxText(se)}
		}
		return cli.Result{Out: errText(err)}
	}
	return cli.Result{Out: post(e.out.String())}
}

// exitSession is what `exit` from exec or enable mode returns.
type exitSession struct{}

func (exitSession) Error() string { return "exit" }

// grammar is the command set of the current mode.
func (s *shell) grammar() *cli.Grammar[*env] {
	switch {
	case s.priv == privExec:
		return execGrammar
	case s.priv == privEnable:
		return enableGrammar
	case s.ports != nil:
		return interfaceGrammar
	case s.vlan != 0:
		return vlanGrammar
	case s.lag != "":
		return lagGrammar
	}
	return configGrammar
}

// exit leaves the sub-mode, or configuration mode (applying drift after a
// change when the fault is set), or ends the session.
func (s *shell) exit() error {
	switch {
	case s.ports != nil || s.vlan != 0 || s.lag != "":
		s.ports, s.portsSpec, s.vlan, s.lag = nil, "", 0, ""
	case s.priv == privConfig:
		s.priv = privEnable
		if s.changed && s.d.opts.Drift && !s.d.drifted {
			s.d.drifted = true
			s.d.run.drift()
		}
		s.changed = false
	default:
		return exitSession{}
	}
	return nil
}

// applyPorts runs a port rule on copies of the named ports and keeps
// them only when it succeeds on every one: a refused command changes
// nothing.
func (s *shell) applyPorts(names []string, do func(*penv, []string) error, m []string) error {
	copies := make([]*Port, len(names))
	for i, n := range names {
		copies[i] = s.d.run.Ports[n].clone()
		if err := do(&penv{st: s.d.run, p: copies[i]}, m); err != nil {
			return err
		}
	}
	for i, n := range names {
		s.d.run.Ports[n] = copies[i]
	}
	s.changed = true
	return nil
}

// portCommand runs the port command text on the ports spec names.
func (s *shell) portCommand(spec, text string) error {
	names, err := portRange(s.d.run, spec)
	if err != nil {
		return err
	}
	r, m, serr := portGrammar.Match(text)
	switch {
	case serr != nil && serr.Unmodelled():
		return notSimulated(serr.Word)
	case serr != nil:
		return errors.New(strings.TrimPrefix(syntaxText(serr), "% "))
	case r.Do == nil:
		return cli.ErrUnsupported
	}
	return s.applyPorts(names, r.Do, m)
}

// write saves the running configuration to a file; with no-switch the
// active file stays, without it the written file becomes the active one
// (CSM documentation: `configuration write to csm1.0` then lists it as
// active).
func (s *shell) write(name string, noSwitch bool) {
	if name == "" {
		name = s.d.active
	}
	if old, ok := s.d.files[name]; ok {
		s.d.files[name+bakSuffix] = old
	}
	s.d.files[name] = s.d.run.clone()
	if !noSwitch {
		s.d.active = name
	}
}

// switchTo answers the reboot confirmation of `configuration switch-to`:
// "yes" makes the file the active and running configuration and reboots
// the switch (every session ends).
func (s *shell) switchTo(answer string) cli.Result {
	name := s.confirm
	s.confirm = ""
	if strings.TrimSpace(answer) != "yes" {
		return cli.Result{Out: "Switch-to cancelled."}
	}
	s.d.active = name
	s.d.run = s.d.files[name].clone()
	s.d.booted = time.Now().UTC().Truncate(time.Second)
	return cli.Result{Out: "Rebooting...", Reboot: true}
}

// filesText is `show configuration files`: a blank line, each file
// (its .bak beside it), then the active file and whether the running
// configuration has unsaved changes (Cray-HPE docs-csm, "Load Saved
// Switch Configuration", Mellanox: the listing after the prompt line).
func (d *Device) filesText() string {
	var b strings.Builder
	b.WriteString("\n")
	for _, n := range cli.SortedKeys(d.files) {
		if n == d.active {
			fmt.Fprintf(&b, "%s (active)\n", n)
		} else {
			fmt.Fprintf(&b, "%s\n", n)
		}
	}
	unsaved := "no"
	if d.render(d.files[d.active]) != d.render(d.run) {
		unsaved = "yes"
	}
	fmt.Fprintf(&b, "\nActive configuration: %s\nUnsaved changes     : %s\n", d.active, unsaved)
	return b.String()
}

// ArmDrift turns the drift fault on (cli.Device).
func (d *Device) ArmDrift() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.opts.Drift = true
}
