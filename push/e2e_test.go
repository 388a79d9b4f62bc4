package push

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/channel"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/sim"
)

const testPassword = "pw-Zq8!never-printed"

// demo builds examples/multivendor-clos with the real pipeline.
func demo(t *testing.T) (*model.Fabric, *artifacts.Set) {
	t.Helper()
	return buildExample(t, "../examples/multivendor-clos")
}

// buildExample builds the fabric at path with the real pipeline.
func buildExample(t *testing.T, path string) (*model.Fabric, *artifacts.Set) {
	t.Helper()
	return buildExampleVars(t, path, nil)
}

// buildExampleVars builds the fabric at path with -var settings.
func buildExampleVars(t *testing.T, path string, vars map[string]string) (*model.Fabric, *artifacts.Set) {
	t.Helper()
	cfg, _, diags := dsl.Load(path, dsl.Options{Vars: vars})
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

// config returns the rendered file push sends for sw.
func config(t *testing.T, set *artifacts.Set, sw *model.Switch) []byte {
	t.Helper()
	v, err := VendorFor(sw.Platform)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range set.Devices {
		for _, f := range d.Files {
			if d.Name == sw.Name && f.Name == sw.Name+v.Artifact {
				return f.Data
			}
		}
	}
	t.Fatalf("no %s%s in the build", sw.Name, v.Artifact)
	return nil
}

// lab is one simulated switch with its inventory entry.
type lab struct {
	sim *sim.Device
	dev *inventory.Device
	kh  string
}

func startLab(t *testing.T, sw *model.Switch, faults sim.Faults) *lab {
	t.Helper()
	return startLabEnable(t, sw, faults, "")
}

func startLabEnable(t *testing.T, sw *model.Switch, faults sim.Faults, enable string) *lab {
	t.Helper()
	return startLabWith(t, sw, func(o *sim.Options) { o.Faults, o.EnablePassword = faults, enable })
}

// startLabWith simulates sw with its options changed by adjust.
func startLabWith(t *testing.T, sw *model.Switch, adjust func(*sim.Options)) *lab {
	t.Helper()
	opts := sim.SwitchOptions(sw)
	opts.Users = map[string]string{"admin": testPassword}
	adjust(&opts)
	enable := opts.EnablePassword
	d, err := sim.Start(context.Background(), opts)
	if err != nil {
		if strings.Contains(err.Error(), "is not simulated") {
			t.Skipf("simulator: %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	dir := t.TempDir()
	kh := filepath.Join(dir, "known_hosts")
	line := d.KnownHostsLine()
	if err := os.WriteFile(kh, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte(testPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var enableFile string
	if enable != "" {
		enableFile = filepath.Join(dir, "enable")
		if err := os.WriteFile(enableFile, []byte(enable+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	host, port, _ := strings.Cut(d.Addr(), ":")
	dev := &inventory.Device{Name: sw.Name, Address: host, Port: atoi(port), Platform: sw.Platform, Username: "admin",
		Auth:           inventory.AuthSource{Kind: inventory.AuthPasswordFile, Ref: pw, EnableFile: enableFile},
		ConnectTimeout: 5 * time.Second, CommandTimeout: 5 * time.Second, DeviceTimeout: 60 * time.Second}
	return &lab{sim: d, dev: dev, kh: kh}
}

func (l *lab) run(t *testing.T, action string, f *model.Fabric, sw *model.Switch, cfg []byte) *DeviceResult {
	t.Helper()
	return l.runWith(t, Options{Action: action, Fabric: f}, sw, cfg)
}

// runWith runs o (ID t1 unless set) against the lab switch.
func (l *lab) runWith(t *testing.T, o Options, sw *model.Switch, cfg []byte) *DeviceResult {
	t.Helper()
	hk, err := transport.HostKeyCallback(l.kh, false)
	if err != nil {
		t.Fatal(err)
	}
	if o.ID == "" {
		o.ID = "t1"
	}
	o.Targets, o.Dial = []Target{{Switch: sw, Config: cfg, Device: l.dev}}, SSHDialer(hk)
	rep := Run(context.Background(), o)
	js, _ := rep.JSON()
	if strings.Contains(string(js), testPassword) {
		t.Fatalf("report contains the password")
	}
	return rep.Devices[0]
}

func platformsUnderTest(f *model.Fabric) []*model.Switch {
	seen := map[model.Platform]bool{}
	var out []*model.Switch
	for i := range f.Switches {
		sw := &f.Switches[i]
		if !seen[sw.Platform] {
			seen[sw.Platform] = true
			out = append(out, sw)
		}
	}
	return out
}

func TestPushVerifyIdempotentDryRun(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			before := l.sim.Running()

			dry := l.run(t, ActionDiff, f, sw, cfg)
			if dry.Status != StatusDryRun || dry.Diff == "" || dry.Error != "" {
				t.Fatalf("dry run: %+v", dry)
			}
			if l.sim.Running() != before {
				t.Fatal("dry run changed the device")
			}
			first := l.run(t, ActionPush, f, sw, cfg)
			if first.Status != StatusChanged || !first.Verified {
				t.Fatalf("first push: status %s error %q differences %v", first.Status, first.Error, first.Differences)
			}
			after := l.sim.Running()
			if after == before {
				t.Fatal("push changed nothing on the device")
			}
			// Confirmed means saved: a reload keeps the change (EOS does
			// not save on commit, NVUE not without auto-save).
			if l.sim.Saved() != after {
				t.Fatal("the pushed change is not saved; a reload would lose it")
			}
			second := l.run(t, ActionPush, f, sw, cfg)
			if second.Status != StatusUnchanged || !second.Verified || second.Diff != "" {
				t.Fatalf("second push: %s %q diff %q", second.Status, second.Error, second.Diff)
			}
			if l.sim.Running() != after {
				t.Fatal("second push changed the device")
			}
			ver := l.run(t, ActionVerify, f, sw, cfg)
			if ver.Status != StatusVerified {
				t.Fatalf("verify: %+v", ver)
			}
		})
	}
}

// applyStep is the command that starts making a change effective, and
// openLines the lines scrapligo sends on open before push's first command
// (EOS: enable, terminal width, terminal length; Onyx: enable, no cli
// session paging enable; Cumulus: the nv function that keeps NVUE's pager
// off), which the simulator counts for DropAfter.
var (
	applyStep = map[model.Platform]string{model.PlatformEOS: "commit timer", model.PlatformOnyx: "configuration write to", model.PlatformCumulus: "nv config apply --confirm"}
	openLines = map[model.Platform]int{model.PlatformEOS: 3, model.PlatformOnyx: 2, model.PlatformCumulus: 1}
	// rejected is a command line each platform's push sends while
	// applying (Cumulus carries the config in one base64 line).
	rejected = map[model.Platform]*regexp.Regexp{model.PlatformEOS: regexp.MustCompile(`^\s*mtu `),
		model.PlatformOnyx: regexp.MustCompile(` mtu `), model.PlatformCumulus: regexp.MustCompile(`^nv config apply`)}
)

// dropPoint is the DropAfter that cuts the connection two commands after
// the apply step began: mid-apply for Onyx, at verification for EOS and
// NVUE, where the change is already effective and must be undone.
func dropPoint(t *testing.T, f *model.Fabric, set *artifacts.Set, sw *model.Switch) int {
	t.Helper()
	l := startLab(t, sw, sim.Faults{})
	r := l.run(t, ActionPush, f, sw, config(t, set, sw))
	for i, c := range r.Commands {
		if strings.HasPrefix(c, applyStep[sw.Platform]) {
			return openLines[sw.Platform] + i + 3
		}
	}
	t.Fatalf("no %q in a clean push: %q", applyStep[sw.Platform], r.Commands)
	return 0
}

func TestFaultsRollBack(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		drop := dropPoint(t, f, set, sw)
		for _, tc := range []struct {
			name   string
			faults sim.Faults
			cause  string
			// deviceTimeout, when set, bounds the whole push.
			deviceTimeout time.Duration
		}{
			{"drop", sim.Faults{DropAfter: drop}, "", 0},
			{"reject", sim.Faults{Reject: rejected[sw.Platform]}, "refused", 0},
			{"drift", sim.Faults{Drift: true}, "verification failed", 0},
			{"auth", sim.Faults{RejectAuth: true}, "the device refused the login of user", 0},
			{"hostkey", sim.Faults{WrongHostKey: true}, "knownhosts: key mismatch", 0},
			{"timeout", sim.Faults{Latency: 7 * time.Second}, "timeout", 0},
			{"device-timeout", sim.Faults{Latency: 300 * time.Millisecond}, "device timeout reached", 1500 * time.Millisecond},
		} {
			t.Run(string(sw.Platform)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				cfg := config(t, set, sw)
				l := startLab(t, sw, tc.faults)
				if tc.deviceTimeout > 0 {
					l.dev.DeviceTimeout = tc.deviceTimeout
				}
				before := l.sim.Running()
				r := l.run(t, ActionPush, f, sw, cfg)
				if r.Status != StatusFailed {
					t.Fatalf("status %s, want failed (%d commands sent)", r.Status, len(r.Commands))
				}
				if !strings.Contains(r.Error, tc.cause) {
					t.Errorf("error %q does not name the cause %q", r.Error, tc.cause)
				}
				if strings.Contains(r.Error, testPassword) {
					t.Error("error contains the password")
				}
				if got := l.sim.Running(); got != before {
					t.Errorf("device not restored (error %q, rollback note %q):\n%s", r.Error, r.RollbackNote, lineDiff(before, got))
				}
			})
		}
	}
}

// lineDiff lists the lines only in a (-) or only in b (+).
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ia, ib := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !ib[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ia[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

func TestEnablePassword(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		if sw.Platform == model.PlatformCumulus {
			continue // NVUE runs from the login shell; no enable
		}
		t.Run(string(sw.Platform), func(t *testing.T) {
			l := startLabEnable(t, sw, sim.Faults{}, "en-Secret-9")
			r := l.run(t, ActionPush, f, sw, config(t, set, sw))
			if r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push with an enable password: %s %q", r.Status, r.Error)
			}
			for _, c := range r.Commands {
				if strings.Contains(c, "en-Secret-9") {
					t.Fatal("enable password recorded in the commands")
				}
			}
		})
		// A refused enable password fails the push without either
		// password, the one sent or the one the switch wants, in the
		// error, the commands or anywhere in the report.
		t.Run(string(sw.Platform)+"/wrong", func(t *testing.T) {
			l := startLabEnable(t, sw, sim.Faults{}, "en-Secret-9")
			if err := os.WriteFile(l.dev.Auth.EnableFile, []byte("en-Wrong-4\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			r := l.run(t, ActionPush, f, sw, config(t, set, sw))
			if r.Status != StatusFailed || !strings.Contains(r.Error, "failed to acquire target privilege level") {
				t.Fatalf("push with a wrong enable password: %s %q, want failed acquiring the privilege level", r.Status, r.Error)
			}
			js, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, pw := range []string{"en-Secret-9", "en-Wrong-4"} {
				if strings.Contains(string(js), pw) {
					t.Errorf("the report shows the enable password %q: %s", pw, js)
				}
			}
		})
	}
}

// TestEveryExampleSwitch pushes every switch of every example (other
// buffer styles and OS versions than the demo) and checks that a second
// push changes nothing and verify passes.
func TestEveryExampleSwitch(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*")
	for _, dir := range dirs {
		if filepath.Base(dir) == "bad" || filepath.Base(dir) == "multivendor-clos" {
			continue
		}
		f, set := buildExample(t, dir)
		for i := range f.Switches {
			sw := &f.Switches[i]
			t.Run(filepath.Base(dir)+"/"+sw.Name, func(t *testing.T) {
				cfg := config(t, set, sw)
				l := startLab(t, sw, sim.Faults{})
				for _, want := range []string{StatusChanged, StatusUnchanged} {
					if r := l.run(t, ActionPush, f, sw, cfg); r.Status != want || !r.Verified {
						t.Fatalf("push: %s, want %s (%q %v)", r.Status, want, r.Error, r.Differences)
					}
				}
			})
		}
	}
}

// TestOnyxCheckpointRestores does what a push does up to its save, the
// checkpoint, the lines and `configuration write`, checks that the
// checkpoint stayed a separate file (written with no-switch, so the
// save went to the active file), then restores it the way an operator
// would, `configuration switch-to` and the reboot it asks for, and finds
// the configuration from before the change. (A push that finishes then
// deletes the checkpoint: TestOnyxPushesLeaveNoCheckpoint.)
func TestOnyxCheckpointRestores(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformOnyx)
	l := startLab(t, sw, sim.Faults{})
	before := withoutOnyxHeader(l.sim.Running())
	c := l.dial(t, sw.Platform)
	defer c.Close()
	txn := &onyxTxn{checkpoint: "fabricc-pre-t1"}
	if _, err := txn.Stage(c, config(t, set, sw)); err != nil {
		t.Fatal(err)
	}
	if err := txn.Apply(c); err != nil {
		t.Fatal(err)
	}
	if err := txn.Save(c); err != nil {
		t.Fatal(err)
	}
	if withoutOnyxHeader(l.sim.Saved()) == before {
		t.Fatal("the change was not saved")
	}
	files, err := c.Send("show configuration files")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fabricc-pre-t1\n", "initial (active)", "Unsaved changes     : no"} {
		if !strings.Contains(files, want) {
			t.Errorf("after the save, show configuration files lacks %q:\n%s", want, files)
		}
	}
	_, err = c.(*sshConn).d.SendInteractive([]*channel.SendInteractiveEvent{
		{ChannelInput: "configure terminal"},
		{ChannelInput: "configuration switch-to fabricc-pre-t1", ChannelResponse: "to confirm:"},
		{ChannelInput: "yes", ChannelResponse: "Rebooting"},
	})
	if err != nil {
		t.Fatalf("switch-to: %v", err)
	}
	if got := withoutOnyxHeader(l.sim.Running()); got != before {
		t.Errorf("the checkpoint does not hold the configuration from before the push:\n%s", lineDiff(before, got))
	}
}

// TestOnyxPushesLeaveNoCheckpoint: each push deletes its checkpoint once
// its change is saved, or rolled back, so two pushes leave only the
// active file; a push whose rollback fails keeps its checkpoint, which
// holds the configuration to go back to, and its device lock.
func TestOnyxPushesLeaveNoCheckpoint(t *testing.T) {
	f1, set1 := demo(t)
	f2, set2 := buildExample(t, otherClos(t))
	sw1 := switchOf(t, f1, model.PlatformOnyx)
	sw2 := f2.Switch(sw1.Name)
	l := startLab(t, sw1, sim.Faults{})
	for i, b := range []struct {
		f   *model.Fabric
		sw  *model.Switch
		cfg []byte
	}{{f1, sw1, config(t, set1, sw1)}, {f2, sw2, config(t, set2, sw2)}} {
		id := []string{"a1", "b2"}[i]
		r := l.runWith(t, Options{Action: ActionPush, Fabric: b.f, ID: id}, b.sw, b.cfg)
		if r.Status != StatusChanged || !r.Verified || len(r.Notes) != 0 {
			t.Fatalf("push %s: %s %q notes %q", id, r.Status, r.Error, r.Notes)
		}
		if !slices.Contains(r.Commands, "configuration delete fabricc-pre-"+id) {
			t.Errorf("push %s did not delete its checkpoint: %q", id, r.Commands)
		}
	}
	if files := onyxFileNames(t, l); !slices.Equal(files, []string{"initial"}) {
		t.Errorf("configuration files after two pushes: %q, want only initial", files)
	}

	// Drift fails verification and the rollback's `no mtu` lines are
	// refused: the rollback fails.
	bad := startLab(t, sw1, sim.Faults{Drift: true, Reject: regexp.MustCompile(` no mtu force$`)})
	r := bad.run(t, ActionPush, f1, sw1, config(t, set1, sw1))
	if r.Status != StatusFailed || r.RolledBack || !strings.HasPrefix(r.RollbackNote, "rollback failed: ") {
		t.Fatalf("push with a failing rollback: %s rolled back %v note %q", r.Status, r.RolledBack, r.RollbackNote)
	}
	// The device lock stays with the checkpoint, so that the next push
	// takes the change as this push's (review ronyx #1).
	if files := onyxFileNames(t, bad); len(files) != 3 || !strings.HasPrefix(files[0], "fabricc-lock.t1.") || files[1] != "fabricc-pre-t1" || files[2] != "initial" {
		t.Errorf("configuration files after a failed rollback: %q, want the lock and the checkpoint kept", files)
	}
	// A drift the rollback undoes: the checkpoint is not needed.
	undone := startLab(t, sw1, sim.Faults{Drift: true})
	if r := undone.run(t, ActionPush, f1, sw1, config(t, set1, sw1)); r.Status != StatusFailed || !r.RolledBack {
		t.Fatalf("push with drift: %s rolled back %v note %q", r.Status, r.RolledBack, r.RollbackNote)
	}
	if files := onyxFileNames(t, undone); !slices.Equal(files, []string{"initial"}) {
		t.Errorf("configuration files after a rollback: %q, want only initial", files)
	}
}

// withoutOnyxHeader drops the "##" header lines that name the running
// database and its time.
func withoutOnyxHeader(run string) string {
	var out []string
	for _, l := range strings.Split(run, "\n") {
		if !strings.HasPrefix(l, "## Generated at ") && !strings.HasPrefix(l, "## Running database ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
