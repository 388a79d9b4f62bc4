package push

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// elsewhere is a lock holder on another host.
var elsewhere = Holder{ID: "20250101-120000-abcdef", User: "alice", Host: "opsbox-9f3c", PID: 4242}

// holdLock takes the device lock for h over its own connection, as
// another fabricc would.
func holdLock(t *testing.T, l *lab, p model.Platform, h Holder) {
	t.Helper()
	c := l.dial(t, p)
	defer c.Close()
	if other, err := Vendors[p].Lock.acquire(c, h); err != nil || other != nil {
		t.Fatalf("taking the lock for %s: %v, held by %v", h, err, other)
	}
}

// lockHolder reads the lock as verify does.
func lockHolder(t *testing.T, l *lab, p model.Platform) *Holder {
	t.Helper()
	c := l.dial(t, p)
	defer c.Close()
	h, err := Vendors[p].Lock.holder(c)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// deadPID is the pid of a process of this host that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestLockRefusesWaitsAndBreaks: a switch locked by another push is
// refused at once with the holder named and nothing changed; with a lock
// timeout the push waits for the release; --break-lock removes a lock
// of another host.
func TestLockRefusesWaitsAndBreaks(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			t.Parallel()
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			before := l.sim.Running()
			holdLock(t, l, sw.Platform, elsewhere)

			r := l.runWith(t, Options{Action: ActionPush, Fabric: f}, sw, cfg)
			want := "is locked by user alice on host opsbox-9f3c (fabricc pid 4242, transaction 20250101-120000-abcdef, since 2025-01-01 12:00:00 UTC); nothing was changed"
			if r.Status != StatusLocked || !strings.Contains(r.Error, want) || r.Lock != elsewhere.String() || !r.NothingSent {
				t.Fatalf("locked push: status %s lock %q error %q nothing_sent %v", r.Status, r.Lock, r.Error, r.NothingSent)
			}
			if l.sim.Running() != before {
				t.Fatal("a refused push changed the switch")
			}
			if h := lockHolder(t, l, sw.Platform); h == nil || !h.same(elsewhere) {
				t.Fatalf("the other push's lock is gone: %v", h)
			}
			if v := l.run(t, ActionVerify, f, sw, cfg); v.Status != StatusPending || v.Lock != elsewhere.String() {
				t.Errorf("verify of a locked switch: %s lock %q", v.Status, v.Lock)
			}

			// The holder releases after a second; a push that waits gets in.
			go func() {
				time.Sleep(time.Second)
				c := l.dial(t, sw.Platform)
				defer c.Close()
				_ = Vendors[sw.Platform].Lock.release(c, elsewhere)
			}()
			if r := l.runWith(t, Options{Action: ActionPush, Fabric: f, LockTimeout: 20 * time.Second}, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("waiting push: %s %q", r.Status, r.Error)
			}

			holdLock(t, l, sw.Platform, elsewhere)
			r = l.runWith(t, Options{Action: ActionPush, Fabric: f, BreakLock: elsewhere.ID}, sw, cfg)
			if r.Status != StatusUnchanged || len(r.Recovered) != 1 || r.Recovered[0].Action != RecoveryLockBroken ||
				r.Recovered[0].Found != "the device lock of "+elsewhere.String()+" (--break-lock="+elsewhere.ID+")" {
				t.Fatalf("--break-lock: %s %q %v", r.Status, r.Error, r.Recovered)
			}
			if h := lockHolder(t, l, sw.Platform); h != nil {
				t.Errorf("lock left after the push: %v", h)
			}
		})
	}
}

// TestStaleLockOfThisHostIsBroken: the lock of a fabricc of this host
// whose process has ended (kill -9) is broken by the next push without
// --break-lock; a live one is not.
func TestStaleLockOfThisHostIsBroken(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			t.Parallel()
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			live := LocalHolder("20250101-120000-live00")
			live.PID = 1 // init: runs, and is not this process
			holdLock(t, l, sw.Platform, live)
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusLocked {
				t.Fatalf("the lock of a running process was broken: %s %q", r.Status, r.Error)
			}
			c := l.dial(t, sw.Platform)
			_ = Vendors[sw.Platform].Lock.release(c, live)
			_ = c.Close()

			dead := LocalHolder("20250101-120000-dead00")
			dead.PID = deadPID(t)
			holdLock(t, l, sw.Platform, dead)
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != StatusChanged || len(r.Recovered) == 0 || r.Recovered[0].Action != RecoveryLockBroken ||
				!strings.Contains(r.Recovered[0].Found, "its fabricc process on this host has ended") {
				t.Fatalf("push after a stale lock: %s %q %v", r.Status, r.Error, r.Recovered)
			}
		})
	}
}

// TestOnyxUnsavedChangesOfAKilledPush: a push killed after its lines
// and before `configuration write` leaves unsaved changes, its
// checkpoint and its lock. The next push finds them: complete (they
// verify) it saves them; partial it brings the switch back to the
// checkpoint, then pushes. A push killed after its save, before it
// deleted its checkpoint, leaves the checkpoint alone, which the next
// push deletes. Either way no checkpoint is left.
func TestOnyxUnsavedChangesOfAKilledPush(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformOnyx)
	cfg := config(t, set, sw)
	for _, tc := range []struct {
		name   string
		lines  func(n int) int // how many of the n lines the killed push sent
		saved  bool            // the killed push got to its save
		action string
		status string // of the next push
	}{
		{"complete", func(n int) int { return n }, false, RecoveryCompleted, StatusChanged},
		{"partial", func(n int) int { return n / 2 }, false, RecoveryRolledBack, StatusChanged},
		{"saved", func(n int) int { return n }, true, RecoveryDiscarded, StatusUnchanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := startLab(t, sw, sim.Faults{})
			saved := l.sim.Saved()
			killed := LocalHolder("20250101-120000-killed")
			killed.PID = deadPID(t)
			holdLock(t, l, sw.Platform, killed)
			c := l.dial(t, sw.Platform)
			txn := &onyxTxn{checkpoint: "fabricc-pre-" + killed.ID}
			if _, err := txn.Stage(c, cfg); err != nil {
				t.Fatal(err)
			}
			txn.send = txn.send[:tc.lines(len(txn.send))]
			if err := txn.Apply(c); err != nil {
				t.Fatal(err)
			}
			if tc.saved {
				if err := txn.Save(c); err != nil {
					t.Fatal(err)
				}
			}
			_ = c.Close()
			if (l.sim.Saved() != saved) != tc.saved {
				t.Fatalf("the killed push saved: %v, want %v", l.sim.Saved() != saved, tc.saved)
			}
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != tc.status || !r.Verified {
				t.Fatalf("re-run: %s %q, want %s", r.Status, r.Error, tc.status)
			}
			var actions []string
			for _, rec := range r.Recovered {
				actions = append(actions, rec.Action)
			}
			if strings.Join(actions, ",") != RecoveryLockBroken+","+tc.action {
				t.Errorf("recovered %v, want the lock broken, then %s", r.Recovered, tc.action)
			}
			if l.sim.Saved() != l.sim.Running() {
				t.Error("the switch is left with unsaved changes")
			}
			if files := onyxFileNames(t, l); !slices.Equal(files, []string{"initial"}) {
				t.Errorf("configuration files after the re-run: %q, want only initial", files)
			}
		})
	}
}

// onyxFileNames lists the configuration files of the lab's Onyx switch
// (`show configuration files`).
func onyxFileNames(t *testing.T, l *lab) []string {
	t.Helper()
	c := l.dial(t, model.PlatformOnyx)
	defer c.Close()
	out, err := c.Send("show configuration files")
	if err != nil {
		t.Fatal(err)
	}
	return onyxFiles(out).names
}

// TestOnyxSavesOnlyVerifiedConfigurations: a push that fails
// verification is rolled back and never saved; the active file keeps
// what it held.
func TestOnyxSavesOnlyVerifiedConfigurations(t *testing.T) {
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformOnyx)
	l := startLab(t, sw, sim.Faults{Drift: true})
	saved, running := l.sim.Saved(), l.sim.Running()
	r := l.run(t, ActionPush, f, sw, config(t, set, sw))
	if r.Status != StatusFailed || !r.RolledBack {
		t.Fatalf("push with drift: %s rolled back %v", r.Status, r.RolledBack)
	}
	for _, c := range r.Commands {
		if c == "configuration write" {
			t.Errorf("a failed push sent %q", c)
		}
	}
	if l.sim.Saved() != saved || l.sim.Running() != running {
		t.Error("the failed push left the running or the saved configuration changed")
	}
}

// TestLockOfAnotherNamespaceIsKept: a lock of this host name whose pid
// is dead here is still not broken when it was written in another PID
// namespace (another container sharing the host name), another boot, or
// by a fabricc that did not record its namespace: the push is refused,
// naming the holder, and the lock stays.
func TestLockOfAnotherNamespaceIsKept(t *testing.T) {
	mine := localNamespace()
	if mine == "" {
		t.Skip("no /proc/self/ns/pid or boot_id: this is not Linux")
	}
	inode, boot, _ := strings.Cut(mine, "-")
	f, set := demo(t)
	sw := switchOf(t, f, model.PlatformEOS)
	cfg := config(t, set, sw)
	for _, tc := range []struct{ name, ns, shown string }{
		{"another PID namespace", "4026599999-" + boot, " in namespace 4026599999-" + boot},
		{"another boot", inode + "-000000000000", " in namespace " + inode + "-000000000000"},
		{"an older fabricc", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := startLab(t, sw, sim.Faults{})
			before := l.sim.Running()
			h := LocalHolder("20250101-120000-contnr")
			h.PID, h.Namespace = deadPID(t), tc.ns
			holdLock(t, l, sw.Platform, h)
			r := l.run(t, ActionPush, f, sw, cfg)
			want := sw.Name + " is locked by user " + h.User + " on host " + h.Host + " (fabricc pid " + strconv.Itoa(h.PID) + tc.shown +
				", transaction 20250101-120000-contnr, since 2025-01-01 12:00:00 UTC); nothing was changed. Wait for that push" +
				" (--lock-timeout 5m waits up to 5 minutes), or, if it is gone for good, run again with --break-lock=20250101-120000-contnr"
			if r.Status != StatusLocked || r.Error != want || len(r.Recovered) != 0 {
				t.Fatalf("push: status %s recovered %v\nerror %q\nwant  %q", r.Status, r.Recovered, r.Error, want)
			}
			if got := lockHolder(t, l, sw.Platform); got == nil || !got.same(h) {
				t.Fatalf("the lock is now %v, want %v", got, h)
			}
			if l.sim.Running() != before {
				t.Fatal("a refused push changed the switch")
			}
		})
	}
}

// TestLockTextKeepsTheNamespace: the lock line and the Onyx lock name
// carry the namespace and read back the same; those of older versions
// (no namespace) still read.
func TestLockTextKeepsTheNamespace(t *testing.T) {
	h := Holder{ID: "20250101-120000-abcdef", User: "root", Host: "vm-5bce-3fa2", PID: 9374, Namespace: "4026532178-700838f8763d"}
	if m := h.marker(); m != "fabricc-lock id=20250101-120000-abcdef pid=9374 user=root host=vm-5bce-3fa2 ns=4026532178-700838f8763d" {
		t.Fatalf("marker %q", m)
	}
	if n := onyxLockName(h); n != "fabricc-lock.20250101-120000-abcdef.9374.root.vm-5bce-3fa2.4026532178-700838f8763d" {
		t.Fatalf("onyx name %q", n)
	}
	old := h
	old.Namespace = ""
	for _, tc := range []struct {
		text string
		want Holder
	}{
		{h.marker() + "\n", h},
		{"fabricc-lock id=20250101-120000-abcdef pid=9374 user=root host=vm-5bce-3fa2", old},
	} {
		if got := parseMarker(tc.text); !got.same(tc.want) {
			t.Errorf("parseMarker(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		want Holder
	}{
		{onyxLockName(h), h},
		{"fabricc-lock.20250101-120000-abcdef.9374.root.vm-5bce-3fa2", old},
	} {
		if got, ok := parseOnyxLockName(tc.name); !ok || !got.same(tc.want) {
			t.Errorf("parseOnyxLockName(%q) = %+v %v, want %+v", tc.name, got, ok, tc.want)
		}
	}
}

// TestLockAcrossPIDNamespaces is the reproduction of a push in another
// container of this host: this process holds the lock, and a push run
// in a new PID namespace (`unshare -p -f --mount-proc`, what a container
// runtime does; pid_namespaces(7)), where this pid does not exist, must
// not take it for stale.
func TestLockAcrossPIDNamespaces(t *testing.T) {
	if env := os.Getenv(nsPushEnv); env != "" {
		nsPushHelper(t, env)
		return
	}
	if localNamespace() == "" {
		t.Skip("no PID namespaces here: this is not Linux")
	}
	if out, err := exec.Command("unshare", "-p", "-f", "--mount-proc", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -p -f --mount-proc is not permitted here (needs root or user namespaces): %v %s", err, out)
	}
	f, _ := demo(t)
	sw := switchOf(t, f, model.PlatformEOS)
	l := startLab(t, sw, sim.Faults{})
	me := LocalHolder("20250101-120000-hostns")
	holdLock(t, l, sw.Platform, me)
	before := l.sim.Running()

	pw := l.dev.Auth.Ref
	cmd := exec.Command("unshare", "-p", "-f", "--mount-proc", os.Args[0], "-test.run=^TestLockAcrossPIDNamespaces$", "-test.v")
	cmd.Env = append(os.Environ(), nsPushEnv+"="+strings.Join([]string{l.dev.Address, strconv.Itoa(l.dev.Port), pw, l.kh, sw.Name}, "\n"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the push in a new PID namespace: %v\n%s", err, out)
	}
	var row string
	for _, line := range strings.Split(string(out), "\n") {
		if s, ok := strings.CutPrefix(line, "nsrow: "); ok {
			row = s
		}
	}
	want := "locked: " + sw.Name + " is locked by " + me.String() + "; nothing was changed. Wait for that push" +
		" (--lock-timeout 5m waits up to 5 minutes), or, if it is gone for good, run again with --break-lock=" + me.ID
	if row != want {
		t.Fatalf("row of the push in the new PID namespace:\n%q\nwant\n%q\n%s", row, want, out)
	}
	if got := lockHolder(t, l, sw.Platform); got == nil || !got.same(me) {
		t.Fatalf("the live push's lock is now %v", got)
	}
	if l.sim.Running() != before {
		t.Fatal("the push in the new PID namespace changed the switch")
	}
}

// nsPushEnv hands TestLockAcrossPIDNamespaces's child the lab: address,
// port, password file, known_hosts and switch, one a line.
const nsPushEnv = "FABRICC_TEST_NS_PUSH"

// nsPushHelper is the child: it pushes to the lab and prints its row.
func nsPushHelper(t *testing.T, env string) {
	p := strings.Split(env, "\n")
	if len(p) != 5 {
		t.Fatalf("%s: %q", nsPushEnv, env)
	}
	f, set := demo(t)
	var sw *model.Switch
	for i := range f.Switches {
		if f.Switches[i].Name == p[4] {
			sw = &f.Switches[i]
		}
	}
	if sw == nil {
		t.Fatalf("no switch %s", p[4])
	}
	dev := &inventory.Device{Name: sw.Name, Address: p[0], Port: atoi(p[1]), Platform: sw.Platform, Username: "admin",
		Auth:           inventory.AuthSource{Kind: inventory.AuthPasswordFile, Ref: p[2]},
		ConnectTimeout: 5 * time.Second, CommandTimeout: 5 * time.Second, DeviceTimeout: 60 * time.Second}
	l := &lab{dev: dev, kh: p[3]}
	r := l.run(t, ActionPush, f, sw, config(t, set, sw))
	fmt.Printf("nsrow: %s: %s\n", r.Status, r.Error)
}
