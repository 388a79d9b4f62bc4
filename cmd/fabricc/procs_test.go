package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

// The tests here run the fabricc binary as a separate process, as an
// operator does, so that it can be killed (kill -9, SIGTERM) while it
// works on a simulated switch.

// buildBinary builds cmd/fabricc into a temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to build the binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "fabricc")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// closBuild builds examples/multivendor-clos into a build folder and
// returns the model and the folder.
func closBuild(t *testing.T) (*model.Fabric, *artifacts.Set, string) {
	t.Helper()
	// Built for its folder, so that its manifest names the fabric, which
	// push --artifacts checks the folder against.
	out := filepath.Join(t.TempDir(), "out")
	set, _, diags, _, err := buildSetFor(clos, out, dsl.Options{})
	if diags.HasErrors() || err != nil {
		t.Fatalf("build: %v %v", diags, err)
	}
	f, err := model.Unmarshal(set.Model)
	if err != nil {
		t.Fatal(err)
	}
	if err := artifacts.Write(out, set); err != nil {
		t.Fatal(err)
	}
	return f, set, out
}

// oneSwitch is one simulated switch with an inventory naming only it.
type oneSwitch struct {
	sw  *model.Switch
	sim *sim.Device
	inv string
	dev *inventory.Device
}

// matrixTimeouts keep hung and slow commands short.
const matrixTimeouts = `  connect_timeout = "5s"
  command_timeout = "2s"
  device_timeout  = "90s"
`

// startOne starts a simulator of sw with faults and writes its
// inventory, known_hosts and password file.
func startOne(t *testing.T, sw *model.Switch, faults sim.Faults) *oneSwitch {
	t.Helper()
	one, err := startOneErr(t, sw, faults)
	if err != nil {
		t.Fatal(err)
	}
	return one
}

// startOneErr is startOne for any goroutine: it returns its error.
func startOneErr(t *testing.T, sw *model.Switch, faults sim.Faults) (*oneSwitch, error) {
	opts := sim.SwitchOptions(sw)
	opts.Users, opts.Faults = map[string]string{"admin": "pw-matrix-7"}, faults
	d, err := sim.Start(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = d.Close() })
	dir := t.TempDir()
	host, port, _ := strings.Cut(d.Addr(), ":")
	files := map[string]string{
		"known_hosts": d.KnownHostsLine() + "\n",
		"pw":          "pw-matrix-7\n",
		"inventory.hcl": fmt.Sprintf("known_hosts = \"known_hosts\"\n\ndefaults {\n  username = \"admin\"\n%s}\n\n"+
			"device %q {\n  address = %q\n  port = %s\n  platform = %q\n  password_file = \"pw\"\n}\n",
			matrixTimeouts, sw.Name, host, port, sw.Platform),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			return nil, err
		}
	}
	inv := filepath.Join(dir, "inventory.hcl")
	loaded, _, diags := inventory.Load(inv)
	if diags.HasErrors() {
		return nil, fmt.Errorf("inventory: %v", diags)
	}
	return &oneSwitch{sw: sw, sim: d, inv: inv, dev: loaded.Devices[0]}, nil
}

// fabriccProc is a fabricc process started in the background.
type fabriccProc struct {
	cmd    *exec.Cmd
	report string
	out    lockedBuffer
	done   chan error
}

// startFabricc starts the binary with args and --report; a process that
// cannot start reports its error on done.
func startFabricc(t *testing.T, bin string, args ...string) *fabriccProc {
	p := &fabriccProc{report: filepath.Join(t.TempDir(), "report.json"), done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append(args, "--report", p.report)...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		p.done <- err
		return p
	}
	go func() { p.done <- p.cmd.Wait() }()
	return p
}

// wait waits for the process; it is killed after limit.
func (p *fabriccProc) wait(limit time.Duration) (int, error) {
	select {
	case err := <-p.done:
		return p.cmd.ProcessState.ExitCode(), err
	case <-time.After(limit):
		_ = p.cmd.Process.Kill()
		<-p.done
		return -1, fmt.Errorf("still running after %s; killed", limit)
	}
}

// lockedBuffer is an output buffer the process and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// result reads the report's only device.
func (p *fabriccProc) result() (*push.DeviceResult, error) {
	data, err := os.ReadFile(p.report)
	if err != nil {
		return nil, err
	}
	var rep push.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, err
	}
	if len(rep.Devices) != 1 {
		return nil, fmt.Errorf("%d devices in the report", len(rep.Devices))
	}
	return rep.Devices[0], nil
}

// normal drops what an Onyx running configuration shows of when and
// from which file it was read.
func normal(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "## Generated at ") && !strings.HasPrefix(l, "## Running database ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// state is a switch's running and saved configuration.
func (o *oneSwitch) state() string {
	return normal(o.sim.Running()) + "\n--- saved ---\n" + normal(o.sim.Saved())
}

// TestSIGTERMRollsBack: SIGTERM in the middle of applying an Onyx
// change (every command is effective at once there) rolls the switch back
// to its state before the push, releases the lock and reports the
// interruption, as Ctrl-C does.
func TestSIGTERMRollsBack(t *testing.T) {
	bin := buildBinary(t)
	f, _, out := closBuild(t)
	sw := f.Switch("leaf3")
	reached := make(chan string, 1)
	one := startOne(t, sw, sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(`^interface ethernet 1/7 `), Kind: sim.FaultSlow,
		Delay: time.Minute, Reached: func(l string) { reached <- l }}})
	before := one.state()
	p := startFabricc(t, bin, "push", "--yes", "--artifacts", out, "-i", one.inv, "--partial")
	select {
	case <-reached:
	case <-time.After(60 * time.Second):
		t.Fatalf("the push never reached the port 1/7 lines:\n%s", p.out.String())
	}
	if one.state() == before {
		t.Fatal("nothing was applied before the signal")
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, _ := p.wait(60 * time.Second)
	if code != 1 {
		t.Errorf("exit status %d after SIGTERM, want 1\n%s", code, p.out.String())
	}
	if got := one.state(); got != before {
		t.Fatalf("SIGTERM left the switch half-configured:\n%s", p.out.String())
	}
	r, err := p.result()
	if err != nil {
		t.Fatalf("no report after SIGTERM: %v\n%s", err, p.out.String())
	}
	if r.Status != push.StatusAborted || !r.RolledBack || !strings.Contains(r.Error, "interrupted by SIGTERM during \"interface ethernet 1/7 ") {
		t.Errorf("report: status %s rolled back %v error %q", r.Status, r.RolledBack, r.Error)
	}
	if !strings.Contains(p.out.String(), "fabricc: SIGTERM: rolling back what is in flight") {
		t.Errorf("no word of the signal on stderr:\n%s", p.out.String())
	}
	ver := push.Run(context.Background(), push.Options{Action: push.ActionVerify, Fabric: f, ID: "v",
		Targets: []push.Target{{Switch: sw, Device: one.dev}}, Dial: dialer(t, one)})
	if v := ver.Devices[0]; v.Lock != "" {
		t.Errorf("the lock stayed after SIGTERM: %s", v.Lock)
	}
}

// TestTwoOperatorsPushAtOnce runs two fabricc processes, pushing two
// different fabrics to the same lab at once: the device lock makes one
// wait for the other on every switch, both succeed, and every switch
// ends in the state of one fabric, verified.
func TestTwoOperatorsPushAtOnce(t *testing.T) {
	bin := buildBinary(t)
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	other := t.TempDir()
	for _, name := range []string{"fabric.hcl", "hosts.hcl", "links.hcl", "switches.hcl"} {
		data, err := os.ReadFile(filepath.Join(clos, name))
		if err != nil {
			t.Fatal(err)
		}
		data = []byte(strings.ReplaceAll(string(data), "= 9214", "= 9100"))
		if err := os.WriteFile(filepath.Join(other, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := startFabricc(t, bin, "push", "--yes", clos, "-i", inv, "--lock-timeout", "2m")
	b := startFabricc(t, bin, "push", "--yes", other, "-i", inv, "--lock-timeout", "2m", "-var", "hosts_per_leaf=4")
	for name, p := range map[string]*fabriccProc{"first": a, "second": b} {
		if code, err := p.wait(3 * time.Minute); code != 0 {
			t.Errorf("%s push: exit %d %v\n%s", name, code, err, p.out.String())
		}
	}
	verified := map[string]int{}
	for _, path := range []string{clos, other} {
		args := []string{"verify", path, "-i", inv, "--json"}
		if path == other {
			args = append(args, "-var", "hosts_per_leaf=4")
		}
		_, stdout, _ := fabricc(t, args...)
		var env struct {
			Result push.Report `json:"result"`
		}
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Fatalf("verify --json: %v\n%s", err, stdout)
		}
		for _, d := range env.Result.Devices {
			if d.Status == push.StatusVerified {
				verified[d.Device]++
			}
			if d.Status == push.StatusPending {
				t.Errorf("%s: pending after both pushes: %v", d.Device, d.Pending)
			}
		}
	}
	for _, sw := range []string{"leaf1", "leaf2", "leaf3", "leaf4", "spine1", "spine2"} {
		if verified[sw] != 1 {
			t.Errorf("%s verifies as %d of the two fabrics, want exactly one", sw, verified[sw])
		}
	}
}

// dialer dials the switch of one, checking its host key.
func dialer(_ *testing.T, one *oneSwitch) push.Dialer {
	hk, err := transport.HostKeyCallback(filepath.Join(filepath.Dir(one.inv), "known_hosts"), false)
	if err != nil {
		return func(*inventory.Device, model.Platform) (push.Conn, error) { return nil, err }
	}
	return push.SSHDialer(hk)
}
