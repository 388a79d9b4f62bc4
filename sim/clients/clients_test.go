//go:build !race

// Package clients proves the simulators with third-party clients that
// were written against real switches: netmiko (connect, enable,
// send_command, send_config_set) and the Ansible collections arista.eos
// and mellanox.onyx, unmodified, as Debian packages them. The test starts
// a lab on an example fabric, pushes it with fabricc, then drives every
// simulated switch with the clients in check mode (every call must say
// changed: false), and finally changes one thing per switch with the
// clients and checks that `fabricc diff` shows exactly that and `fabricc
// push` repairs it. It is left out of the race pass: it tests the
// simulators' answers, not concurrency, and takes a minute.
package clients

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

// clientTools are the client programs found on the machine.
type clientTools struct {
	playbook string // ansible-playbook
	python   string // a python3 that imports netmiko
}

// findClients finds ansible-playbook (with the arista.eos and
// mellanox.onyx collections) and a python3 with netmiko. Without them the
// test is skipped, unless FABRICC_CLIENTS=required (.ci/run sets it),
// which makes a missing client a failure.
func findClients(t *testing.T) clientTools {
	t.Helper()
	var c clientTools
	var missing []string
	if p, err := exec.LookPath("ansible-playbook"); err == nil {
		c.playbook = p
	} else {
		missing = append(missing, "ansible-playbook (Debian package ansible)")
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import netmiko").Run() == nil {
			c.python = py
			break
		}
	}
	if c.python == "" {
		missing = append(missing, "netmiko for python3 (Debian package python3-netmiko)")
	}
	if len(missing) == 0 {
		return c
	}
	msg := "third-party clients not installed: " + strings.Join(missing, ", ") + "; .ci/run installs them (apt-get install --no-install-recommends ansible python3-netmiko)"
	if os.Getenv("FABRICC_CLIENTS") == "required" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return c
}

// newRelease is the Onyx release a lab reports for one switch whose
// fabric release the mellanox.onyx modules misread (onyxVersionBug), so
// that the modules' list-shape path runs against the simulator too.
const newRelease = "3.9.3202"

func TestThirdPartyClients(t *testing.T) {
	tools := findClients(t)
	for _, tc := range []struct {
		example  string
		negative bool
	}{
		{"multivendor-clos", true},
		{"demartek-lab", false},
	} {
		t.Run(tc.example, func(t *testing.T) {
			// The labs share nothing; netmiko's waits overlap the other
			// lab's Ansible run.
			t.Parallel()
			l := startLab(t, tc.example)
			l.pushAll(t)
			l.checkAnsible(t, tools)
			l.checkNetmiko(t, tools)
			// The clients changed nothing: fabricc sees no difference.
			l.expect(t, push.ActionDiff, nil)
			if tc.negative {
				l.negativeControl(t, tools)
			}
		})
	}
}

// lab is a started lab with what the clients need.
type lab struct {
	*sim.Lab
	f     *model.Fabric
	set   *artifacts.Set
	dir   string
	home  string            // HOME for the clients: .ssh/known_hosts of the lab
	pw    map[string]string // switch -> password, from the lab's secret files
	build *push.Build
	n     int // push transactions run
}

// startLab builds examples/<example>, starts its lab and writes the
// clients' HOME (known_hosts, so host keys are checked).
func startLab(t *testing.T, example string) *lab {
	t.Helper()
	f, set := buildExample(t, filepath.Join("..", "..", "examples", example))
	misread := ""
	for _, sw := range f.Switches {
		if sw.Platform == model.PlatformOnyx && onyxVersionBug(sw.OSVersion) {
			misread = sw.Name
		}
	}
	dir := t.TempDir()
	sl, err := sim.StartLab(context.Background(), f, dir, func(o *sim.Options) {
		if o.Name == misread {
			o.OSVersion = newRelease
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sl.Close)
	l := &lab{Lab: sl, f: f, set: set, dir: dir, home: filepath.Join(dir, "home"), pw: map[string]string{}, build: push.FromSet(f, set)}
	kh, err := os.ReadFile(sl.KnownHosts())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(l.home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.home, ".ssh", "known_hosts"), kh, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range sl.Devices {
		b, err := os.ReadFile(d.SecretFile)
		if err != nil {
			t.Fatal(err)
		}
		l.pw[d.Switch.Name] = strings.TrimSpace(string(b))
	}
	return l
}

func buildExample(t *testing.T, path string) (*model.Fabric, *artifacts.Set) {
	t.Helper()
	cfg, _, diags := dsl.Load(path, dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("compile: %s", diags.Error())
	}
	set, err := artifacts.Render(f)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return f, set
}

// run runs fabricc's push engine (push, diff or verify) on every switch.
func (l *lab) run(t *testing.T, action string) *push.Report {
	t.Helper()
	return l.runWith(t, push.Options{Action: action})
}

// runWith runs the push engine with o (its action and flags) on every
// switch.
func (l *lab) runWith(t *testing.T, o push.Options) *push.Report {
	t.Helper()
	inv, _, diags := inventory.Load(l.Inventory())
	if diags.HasErrors() {
		t.Fatalf("lab inventory: %s", diags.Error())
	}
	targets, err := l.build.Targets(inv.Devices)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := transport.HostKeyCallback(l.KnownHosts(), false)
	if err != nil {
		t.Fatal(err)
	}
	l.n++
	o.Fabric, o.ID, o.Targets, o.Dial = l.f, fmt.Sprintf("c%d", l.n), targets, push.SSHDialer(hk)
	return push.Run(context.Background(), o)
}

// expect runs action and checks every switch: the ones in changed must
// have a change (diff: exactly those changed lines; push: changed and
// verified), every other switch none.
func (l *lab) expect(t *testing.T, action string, changed map[string][]string) {
	t.Helper()
	rep := l.run(t, action)
	for _, d := range rep.Devices {
		want, isChanged := changed[d.Device]
		switch {
		case d.Error != "" && !l.refusedDiff(action, d, isChanged):
			t.Errorf("%s %s: %s", action, d.Device, d.Error)
		case action == push.ActionDiff && !slices.Equal(changedLines(d.Diff), want):
			t.Errorf("fabricc diff %s: changed lines %q, want %q\nfull diff:\n%s", d.Device, changedLines(d.Diff), want, d.Diff)
		case action == push.ActionPush && isChanged != (d.Status == push.StatusChanged) || action == push.ActionPush && !d.Verified:
			t.Errorf("fabricc push %s: status %s verified %v, want changed %v", d.Device, d.Status, d.Verified, isChanged)
		}
	}
}

// refusedDiff is whether d is a diff of a switch the clients changed
// without saving, which `fabricc diff` shows and then fails as the push
// would be refused (push's refusal checks run in diff too): the exact
// refusal for unsaved changes of others.
func (l *lab) refusedDiff(action string, d *push.DeviceResult, changed bool) bool {
	p := l.f.Switch(d.Device).Platform
	return action == push.ActionDiff && changed && d.Error == "push would be refused: "+unsavedFound[p]+unsavedRefusal[p]
}

// pushAll is the first push: every switch changes and verifies.
func (l *lab) pushAll(t *testing.T) {
	t.Helper()
	for _, d := range l.run(t, push.ActionPush).Devices {
		if d.Status != push.StatusChanged || !d.Verified {
			t.Fatalf("fabricc push %s: %s %q %v", d.Device, d.Status, d.Error, d.Differences)
		}
	}
}

// changedLines are the "+" and "-" lines of a diff, headers dropped and
// blanks collapsed (indentation is the OS's layout, not the change). An
// NVUE diff (`- set:` / `- unset:` YAML; Cumulus Linux user guide, NVUE
// CLI, "View Differences Between Configurations") gives "+" for each
// value it sets and "-" for each path it unsets.
func changedLines(diff string) []string {
	if strings.HasPrefix(diff, "- set:") || strings.HasPrefix(diff, "- unset:") {
		return nvueChangedLines(diff)
	}
	var out []string
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			out = append(out, l[:1]+" "+strings.Join(strings.Fields(l[1:]), " "))
		}
	}
	return out
}

// nvueChangedLines reads an NVUE diff: under `- set:` the lines with a
// value, under `- unset:` the last key of each path.
func nvueChangedLines(diff string) []string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	var out []string
	sign := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "- set:":
			sign = "+"
		case t == "- unset:":
			sign = "-"
		case sign == "+" && !strings.HasSuffix(t, ":"):
			out = append(out, "+ "+t)
		case sign == "-" && (i+1 == len(lines) || indent(lines[i+1]) <= indent(l)):
			out = append(out, "- "+t)
		}
	}
	return out
}

// env is the clients' environment: HOME with the lab's known_hosts, the
// lab passwords (FABRICC_LAB_PASSWORD_<switch>), Ansible's JSON output.
func (l *lab) env() []string {
	env := append(os.Environ(), "HOME="+l.home, "ANSIBLE_STDOUT_CALLBACK=json", "ANSIBLE_NOCOLOR=1",
		"ANSIBLE_RETRY_FILES_ENABLED=False", "ANSIBLE_DEPRECATION_WARNINGS=False", "ANSIBLE_LOCAL_TEMP="+filepath.Join(l.home, "tmp"),
		"ANSIBLE_PERSISTENT_COMMAND_TIMEOUT=60", "ANSIBLE_PERSISTENT_CONNECT_TIMEOUT=60")
	for name, pw := range l.pw {
		env = append(env, passwordEnv(name)+"="+pw)
	}
	return env
}

var notAlnum = regexp.MustCompile(`[^A-Za-z0-9]`)

// passwordEnv is the environment variable holding a switch's password.
func passwordEnv(name string) string {
	return "FABRICC_LAB_PASSWORD_" + notAlnum.ReplaceAllString(name, "_")
}

// mustNotLeak fails the test when a lab password appears in out.
func (l *lab) mustNotLeak(t *testing.T, what, out string) {
	t.Helper()
	for name, pw := range l.pw {
		if strings.Contains(out, pw) {
			t.Fatalf("%s shows the password of %s", what, name)
		}
	}
}

func (l *lab) device(name string) *sim.LabDevice {
	for _, d := range l.Devices {
		if d.Switch.Name == name {
			return d
		}
	}
	return nil
}

// config is the rendered configuration push sends to sw.
func (l *lab) config(sw *model.Switch) string {
	for _, d := range l.set.Devices {
		for _, f := range d.Files {
			if d.Name == sw.Name && strings.HasSuffix(f.Name, map[model.Platform]string{model.PlatformEOS: ".eos.cfg", model.PlatformOnyx: ".onyx.cli", model.PlatformCumulus: ".nvue.yaml"}[sw.Platform]) {
				return string(f.Data)
			}
		}
	}
	return ""
}

// command runs a client program and returns its standard output.
func (l *lab) command(t *testing.T, what string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = l.env(), "."
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	l.mustNotLeak(t, what, string(out)+stderr.String())
	t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
	if err != nil && len(out) == 0 {
		t.Fatalf("%s: %v\n%s", what, err, stderr.String())
	}
	return string(out)
}
