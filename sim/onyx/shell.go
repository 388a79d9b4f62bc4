package onyx

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/fabricc/fabricc/sim/cli"
)

// Device is one simulated Onyx switch.
type Device struct {
	mu   sync.Mutex
	opts cli.Options
	run  *State
	// files are the saved configuration files (`configuration write to`),
	// as running-config text; active is the one `configuration write`
	// writes to.
	files   map[string]string
	active  string
	drifted bool // the drift fault has been applied
}

// New builds an Onyx device.
func New(opts cli.Options) *Device {
	d := &Device{opts: opts, run: newState(opts.Name), files: map[string]string{}, active: "initial"}
	d.files["initial"] = render(d.run)
	return d
}

// Running is `show running-config`.
func (d *Device) Running() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return render(d.run)
}

// Close has nothing to stop: Onyx has no timers.
func (d *Device) Close() {}

// NewShell starts a CLI session in exec mode.
func (d *Device) NewShell(user string) cli.Shell { return &shell{d: d} }

const (
	privExec = iota
	privEnable
	privConfig
)

type shell struct {
	d    *Device
	priv int
	// sub is the configuration sub-mode ("interface ethernet 1/1",
	// "vlan 10") or "".
	sub       string
	ports     []string
	askSecret bool
	// confirm holds a command waiting for "yes" (configuration switch-to).
	confirm string
	changed bool
}

// Echo is off while `enable` reads its password.
func (s *shell) Echo() bool { return !s.askSecret }

// Reject is Onyx's error for an unknown command.
func (s *shell) Reject(line string) string { return unrecognized(line) }

// unrecognized is Onyx's error for a command it does not know.
func unrecognized(line string) string {
	return fmt.Sprintf("%% Unrecognized command \"%s\".\nType \"?\" for help.", cli.Normalize(line))
}

// Prompt is the password or reboot-confirmation prompt, else
// "<host> [standalone: master] " with >, # or the config mode.
func (s *shell) Prompt() string {
	switch {
	case s.askSecret:
		return "Password: "
	case s.confirm != "":
		return "This requires a reboot. Type 'yes' to confirm: "
	}
	h := s.d.opts.Name + " [standalone: master] "
	switch s.priv {
	case privExec:
		return h + "> "
	case privEnable:
		return h + "# "
	}
	if s.sub != "" {
		return h + "(config " + s.sub + ") # "
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
		name := s.confirm
		s.confirm = ""
		if strings.TrimSpace(raw) != "yes" {
			return cli.Result{Out: "Switch-to cancelled."}
		}
		return cli.Result{Out: "% Error: cannot switch to " + name + ": the simulator does not reboot; nothing was changed"}
	}
	line := cli.Normalize(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return cli.Result{}
	}
	if strings.HasPrefix(line, "show ") {
		return cli.Result{Out: s.show(line)}
	}
	if line == "no cli session paging enable" || strings.HasPrefix(line, "terminal ") {
		return cli.Result{}
	}
	if out, ok := s.fileCommand(line); ok {
		return cli.Result{Out: out}
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
	case "exit", "quit":
		return cli.Result{Exit: true}
	}
	return cli.Result{Out: unrecognized(line)}
}

func (s *shell) enableMode(line string) cli.Result {
	switch line {
	case "disable":
		s.priv = privExec
		return cli.Result{}
	case "exit", "quit":
		return cli.Result{Exit: true}
	case "configure terminal", "config terminal", "conf t":
		s.priv = privConfig
		return cli.Result{}
	}
	return cli.Result{Out: unrecognized(line)}
}

var (
	ifEnter = regexp.MustCompile(`^interface ethernet (\d+/\d+(?:/\d+)?(?:-\d+/\d+)?)$`)
	ifFlat  = regexp.MustCompile(`^interface ethernet (\d+/\d+(?:/\d+)?(?:-\d+/\d+)?) (.+)$`)
)

func (s *shell) configMode(line string) string {
	if line == "exit" {
		s.exit()
		return ""
	}
	if m := ifEnter.FindStringSubmatch(line); m != nil {
		ports, err := portRange(m[1])
		if err != nil {
			return err.Error()
		}
		for _, p := range ports {
			s.d.run.port(p)
		}
		s.sub, s.ports = "interface ethernet "+m[1], ports
		return ""
	}
	if m := ifFlat.FindStringSubmatch(line); m != nil {
		ports, err := portRange(m[1])
		if err != nil {
			return err.Error()
		}
		return s.portCommand(ports, m[2], line)
	}
	if strings.HasPrefix(s.sub, "interface ") {
		if r, _ := portRules.Find(line); r != nil {
			return s.portCommand(s.ports, line, line)
		}
	}
	if strings.HasPrefix(s.sub, "vlan ") {
		if m := vlanName.FindStringSubmatch(line); m != nil {
			line = s.sub + " " + line
		}
	}
	return s.globalCommand(line)
}

var vlanName = regexp.MustCompile(`^(?:no )?name(?: .+)?$`)

// exit leaves the sub-mode, or configuration mode (applying drift after a
// change when the fault is set).
func (s *shell) exit() {
	if s.sub != "" {
		s.sub, s.ports = "", nil
		return
	}
	s.priv = privEnable
	if s.changed && s.d.opts.Drift && !s.d.drifted {
		s.d.drifted = true
		s.d.run.drift()
	}
	s.changed = false
}

func (s *shell) portCommand(ports []string, cmd, line string) string {
	r, m := portRules.Find(cmd)
	if r == nil {
		return unrecognized(line)
	}
	for _, name := range ports {
		if err := r.Do(&penv{st: s.d.run, p: s.d.run.port(name)}, m); err != nil {
			return errText(err)
		}
	}
	s.changed = true
	return ""
}

func (s *shell) globalCommand(line string) string {
	r, m := globalRules.Find(line)
	if r == nil {
		return unrecognized(line)
	}
	if err := r.Do(&genv{st: s.d.run, sh: s}, m); err != nil {
		return errText(err)
	}
	s.changed = true
	return ""
}

var (
	writeTo  = regexp.MustCompile(`^configuration write to ([\w.\-]{1,64})(?: no-switch)?$`)
	switchTo = regexp.MustCompile(`^configuration switch-to ([\w.\-]{1,64})$`)
)

// fileCommand handles configuration files (HPE Cray CSM documentation,
// `configuration write to`, `configuration switch-to`): write, write to
// NAME, switch-to (needs a reboot: asked, then refused).
func (s *shell) fileCommand(line string) (string, bool) {
	if s.priv == privExec {
		return "", false
	}
	switch {
	case line == "configuration write" || line == "write memory":
		s.d.files[s.d.active] = render(s.d.run)
		return "", true
	case writeTo.MatchString(line):
		name := writeTo.FindStringSubmatch(line)[1]
		s.d.files[name] = render(s.d.run)
		if !strings.HasSuffix(line, " no-switch") {
			s.d.active = name
		}
		return "", true
	case switchTo.MatchString(line):
		name := switchTo.FindStringSubmatch(line)[1]
		if _, ok := s.d.files[name]; !ok {
			return "% Error: configuration file " + name + " does not exist", true
		}
		s.confirm = name
		return "", true
	}
	return "", false
}

// filesText is `show configuration files`.
func (d *Device) filesText() string {
	var b strings.Builder
	for _, n := range cli.SortedKeys(d.files) {
		if n == d.active {
			fmt.Fprintf(&b, "%s (active)\n", n)
		} else {
			fmt.Fprintf(&b, "%s\n", n)
		}
	}
	unsaved := "no"
	if d.files[d.active] != render(d.run) {
		unsaved = "yes"
	}
	fmt.Fprintf(&b, "\nActive configuration: %s\nUnsaved changes     : %s\n", d.active, unsaved)
	return b.String()
}

// errText puts a refused command's reason in the "% Error: ..." form the
// platform definition's failed-when-contains catches.
func errText(err error) string {
	msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "% "), "Error: ")
	return "% Error: " + msg
}
