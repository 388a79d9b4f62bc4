package push

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

func TestBlockCommands(t *testing.T) {
	in := "! header\nvlan 100\n   name rdma\n!\nqos profile ROCE\n   qos trust dscp\n   tx-queue 3\n      no priority\n   priority-flow-control on\ninterface Ethernet1\n   mtu 9214\n"
	want := []string{"vlan 100", "name rdma", "exit", "qos profile ROCE", "qos trust dscp", "tx-queue 3", "no priority", "exit",
		"priority-flow-control on", "exit", "interface Ethernet1", "mtu 9214", "exit"}
	if got := blockCommands(in); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("blockCommands:\n got %q\nwant %q", got, want)
	}
}

func TestEOSDiff(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"--- system:/running-config\n+++ session:/fabricc-1-session-config\n", ""},
		{"", ""},
		{"--- system:/running-config\n+++ session:/x\n@@ -1,3 +1,3 @@\n interface Ethernet1\n-   mtu 1500\n+   mtu 9214\n",
			"@@ -1,3 +1,3 @@\n interface Ethernet1\n-   mtu 1500\n+   mtu 9214\n"},
		// Context lines come from the running-config: its credentials
		// never reach the terminal or the report.
		{"--- system:/running-config\n+++ session:/x\n@@ -1,6 +1,6 @@\n username admin privilege 15 role network-admin secret sha512 $6$abc\n snmp-server community s3cret ro\n tacacs-server key 7 070C285F4D06\n interface Ethernet1\n-   mtu 1500\n+   mtu 9214\n",
			"@@ -1,6 +1,6 @@\n username admin privilege 15 role network-admin secret <redacted>\n snmp-server community <redacted>\n tacacs-server key <redacted>\n interface Ethernet1\n-   mtu 1500\n+   mtu 9214\n"},
	} {
		if got := eosDiff(tc.in); got != tc.want {
			t.Errorf("eosDiff(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOnyxUndo(t *testing.T) {
	before := []string{"vlan 10", "interface ethernet 1/1 mtu 1500 force", "interface ethernet 1/1 qos trust L2"}
	now := []string{"vlan 10", "vlan 100", "vlan 100 name rdma", "interface ethernet 1/1 mtu 9216 force",
		"interface ethernet 1/1 qos trust L3", "interface ethernet 1/1 dcb priority-flow-control mode on force",
		"interface ethernet 1/1 switchport trunk allowed-vlan 100", "interface ethernet 1/1 switchport trunk allowed-vlan 200",
		"traffic pool roce type lossless", "traffic pool roce memory percent 50.00", "interface ethernet 1/1 flowcontrol send off force"}
	want := []string{
		"interface ethernet 1/1 no flowcontrol send force",
		"no traffic pool roce",
		"interface ethernet 1/1 no switchport trunk allowed-vlan",
		"interface ethernet 1/1 no dcb priority-flow-control mode force",
		"vlan 100 no name",
		"no vlan 100",
	}
	if got := onyxUndo(now, before); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("onyxUndo:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := onyxMissing(before, now); strings.Join(got, "|") != "interface ethernet 1/1 mtu 1500 force|interface ethernet 1/1 qos trust L2" {
		t.Errorf("restore round = %q", got)
	}
	send := onyxMissing([]string{"vlan 10", "interface ethernet 1/1 mtu 9216 force", "interface ethernet 1/1 switchport mode access"}, before)
	if d := onyxDiff(before, send); d != "- interface ethernet 1/1 mtu 1500 force\n+ interface ethernet 1/1 mtu 9216 force\n" {
		t.Errorf("onyxDiff = %q", d)
	}
}

func TestAppliedRevision(t *testing.T) {
	out := `{"1": {"state": "applied_and_saved"}, "2": {"state": "applied"}, "3": {"state": "pending"}, "changeset/x": {"state": "applied"}}`
	if got, err := appliedRevision(out); err != nil || got != "2" {
		t.Errorf("appliedRevision = %q, %v; want 2", got, err)
	}
	if got, err := appliedRevision("{}"); err != nil || got != "" {
		t.Errorf("no revisions: %q %v", got, err)
	}
	if _, err := appliedRevision("garbage"); err == nil {
		t.Error("want an error for non-JSON")
	}
}

// fakeTxn records the engine's calls and fails where told; unsent:
// it sends nothing of its change until Apply (as Onyx's Stage only
// reads), else from Stage on (an EOS session, an NVUE revision).
type fakeTxn struct {
	calls   *[]string
	diff    string
	failAt  string
	rollErr error
	unsent  bool
	applied bool
}

func (f *fakeTxn) do(name string) error {
	*f.calls = append(*f.calls, name)
	if name == f.failAt {
		return errors.New(name + " broke")
	}
	return nil
}
func (f *fakeTxn) Stage(Conn, []byte) (string, error) { return f.diff, f.do("stage") }
func (f *fakeTxn) Discard(Conn) error                 { return f.do("discard") }
func (f *fakeTxn) Apply(Conn) error                   { f.applied = true; return f.do("apply") }
func (f *fakeTxn) Sent() bool                         { return !f.unsent || f.applied }
func (f *fakeTxn) Confirm(Conn) error                 { return f.do("confirm") }
func (f *fakeTxn) Confirmed(Conn) (bool, error)       { return false, nil }
func (f *fakeTxn) Save(Conn) error                    { return f.do("save") }
func (f *fakeTxn) Rollback(Conn) error                { *f.calls = append(*f.calls, "rollback"); return f.rollErr }

type fakeConn struct{ readBack string }

func (c fakeConn) Send(string) (string, error) { return c.readBack, nil }
func (fakeConn) Close() error                  { return nil }
func (fakeConn) Home() error                   { return nil }

const fakeRunning = "vlan 100\n   name rdma\ninterface Ethernet1\n   mtu 9214\n"

func TestEngineFlow(t *testing.T) {
	f := &model.Fabric{Name: "t", VLANs: []model.VLAN{{ID: 100, Name: "rdma"}},
		Switches: []model.Switch{{Name: "sw1", Platform: "fake", Ports: []model.Port{{Name: "Ethernet1", MTU: 9214, Mode: model.ModeAccess}}}}}
	for _, tc := range []struct {
		name, action, diff, failAt, readBack string
		// unsent: the Txn sends nothing until Apply (fakeTxn).
		unsent       bool
		want, status string
	}{
		{"push", ActionPush, "+x\n", "", fakeRunning, false, "stage apply confirm save", StatusChanged},
		{"nothing to do", ActionPush, "", "", fakeRunning, false, "stage discard", StatusUnchanged},
		{"dry run", ActionDiff, "+x\n", "", fakeRunning, false, "stage discard", StatusDryRun},
		{"stage fails", ActionPush, "+x\n", "stage", fakeRunning, false, "stage rollback", StatusFailed},
		// A stage that refuses before sending anything (an Onyx
		// pre-check) has nothing to roll back.
		{"stage refuses", ActionPush, "+x\n", "stage", fakeRunning, true, "stage", StatusFailed},
		{"apply fails", ActionPush, "+x\n", "apply", fakeRunning, false, "stage apply rollback", StatusFailed},
		{"apply fails, staged unsent", ActionPush, "+x\n", "apply", fakeRunning, true, "stage apply rollback", StatusFailed},
		{"drift", ActionPush, "+x\n", "", strings.Replace(fakeRunning, "9214", "9114", 1), false, "stage apply rollback", StatusFailed},
		{"confirm fails", ActionPush, "+x\n", "confirm", fakeRunning, false, "stage apply confirm rollback", StatusFailed},
		{"save fails twice", ActionPush, "+x\n", "save", fakeRunning, false, "stage apply confirm save save rollback", StatusFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			Vendors["fake"] = &Vendor{NewTxn: func(string, time.Duration) Txn {
				return &fakeTxn{calls: &calls, diff: tc.diff, failAt: tc.failAt, unsent: tc.unsent}
			},
				ReadBack: []string{"show running-config"}, Parse: func(o []string) (*verify.State, error) { return verify.ParseEOS(o[0]) }}
			defer delete(Vendors, "fake")
			dev := &inventory.Device{Name: "sw1", DeviceTimeout: time.Minute, ConnectTimeout: time.Second, CommandTimeout: time.Second}
			rep := Run(context.Background(), Options{Action: tc.action, Fabric: f, ID: "1",
				Targets: []Target{{Switch: &f.Switches[0], Device: dev}},
				Dial:    func(*inventory.Device, model.Platform) (Conn, error) { return fakeConn{tc.readBack}, nil }})
			r := rep.Devices[0]
			if got := strings.Join(calls, " "); got != tc.want || r.Status != tc.status {
				t.Errorf("calls %q status %s (err %q); want %q %s", got, r.Status, r.Error, tc.want, tc.status)
			}
			// A stage that fails is never applied: what it staged is
			// thrown away (Rollback, for EOS the session's abort), and
			// nothing took effect, so nothing was rolled back.
			sentNothing := tc.failAt == "stage"
			if tc.status == StatusFailed && (r.RolledBack == sentNothing || r.NothingSent != sentNothing || r.Error == "" || !rep.Failed()) {
				t.Errorf("failure reported as rolled back %v, nothing sent %v; want %v, %v: %+v", r.RolledBack, r.NothingSent, !sentNothing, sentNothing, r)
			}
			if tc.name == "drift" && (len(r.Differences) != 1 || r.Differences[0].Field != "MTU") {
				t.Errorf("drift differences = %v", r.Differences)
			}
		})
	}
}

// TestOnyxLinesRealRunningConfig reads the shape of a real `show
// running-config` (indented lines, "##" headers, port ranges; intel
// mfd-switchmanagement's Onyx test data).
func TestOnyxLinesRealRunningConfig(t *testing.T) {
	real := `
##
## Running database "initial"
## Generated at 2005/11/10 12:37:16 +0000
## Hostname: switch-c6b558
##

##
## Running-config temporary prefix mode setting
##
no cli default prefix-modes enable

##
## Interface Ethernet configuration
##
   interface ethernet 1/1 speed 1G force
   interface ethernet 1/2-1/4 speed 10G force
   interface ethernet 1/1 switchport mode trunk
   interface ethernet 1/4 shutdown
`
	want := []string{"interface ethernet 1/1 speed 1G force", "interface ethernet 1/2 speed 10G force",
		"interface ethernet 1/3 speed 10G force", "interface ethernet 1/4 speed 10G force",
		"interface ethernet 1/1 switchport mode trunk", "interface ethernet 1/4 shutdown"}
	got := onyxLines(real)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("onyxLines:\n%q\nwant\n%q", got, want)
	}
	if send := onyxMissing([]string{"interface ethernet 1/3 speed 10G force", "interface ethernet 1/2 no shutdown", "interface ethernet 1/4 no shutdown"}, got); strings.Join(send, "|") != "interface ethernet 1/4 no shutdown" {
		t.Errorf("missing = %q", send)
	}
}

// TestNVUENoDiff: an `nv config diff` that lists no change, in any of
// the empty forms, stages nothing and is no unsaved change; the
// documented form of a change (Cumulus Linux user guide, NVUE CLI, "View
// Differences Between Configurations") is one.
func TestNVUENoDiff(t *testing.T) {
	for out, want := range map[string]bool{
		"":                                  true,
		"\n":                                true,
		"[]\n":                              true,
		"{}\n":                              true,
		"- unset:\n    qos:\n      roce:\n": false,
		"- set:\n    interface:\n      swp1:\n        link:\n          mtu: 9216\n": false,
	} {
		if got := nvueNoDiff(out); got != want {
			t.Errorf("nvueNoDiff(%q) = %v, want %v", out, got, want)
		}
	}
}

// panicTxn stages a change and panics when it is applied: a bug in a
// platform's transaction.
type panicTxn struct{ fakeTxn }

func (*panicTxn) Apply(Conn) error { panic("index out of range [3] with length 3") }

// TestPanicFailsTheSwitch: a panic in one switch's run (a fabricc bug)
// fails that switch with the panic's text instead of ending the process,
// and the other switch of the all-or-nothing push rolls back what it
// applied: the run returns a report for both.
func TestPanicFailsTheSwitch(t *testing.T) {
	f := &model.Fabric{Name: "t", VLANs: []model.VLAN{{ID: 100, Name: "rdma"}}, Switches: []model.Switch{
		{Name: "sw1", Platform: "fake", Ports: []model.Port{{Name: "Ethernet1", MTU: 9214, Mode: model.ModeAccess}}},
		{Name: "sw2", Platform: "fakepanic", Ports: []model.Port{{Name: "Ethernet1", MTU: 9214, Mode: model.ModeAccess}}},
	}}
	var calls []string
	parse := func(o []string) (*verify.State, error) { return verify.ParseEOS(o[0]) }
	Vendors["fake"] = &Vendor{NewTxn: func(string, time.Duration) Txn { return &fakeTxn{calls: &calls, diff: "+x\n"} },
		ReadBack: []string{"show running-config"}, Parse: parse}
	Vendors["fakepanic"] = &Vendor{NewTxn: func(string, time.Duration) Txn { return &panicTxn{fakeTxn{calls: new([]string), diff: "+x\n"}} },
		ReadBack: []string{"show running-config"}, Parse: parse}
	defer delete(Vendors, "fake")
	defer delete(Vendors, "fakepanic")
	var targets []Target
	for i := range f.Switches {
		dev := &inventory.Device{Name: f.Switches[i].Name, DeviceTimeout: time.Minute, ConnectTimeout: time.Second, CommandTimeout: time.Second}
		targets = append(targets, Target{Switch: &f.Switches[i], Device: dev})
	}
	rep := Run(context.Background(), Options{Action: ActionPush, Fabric: f, ID: "1", Targets: targets,
		Dial: func(*inventory.Device, model.Platform) (Conn, error) { return fakeConn{fakeRunning}, nil }})
	sw1, sw2 := rep.Devices[0], rep.Devices[1]
	if sw2.Status != StatusFailed || !strings.HasPrefix(sw2.Error, "internal error, a fabricc bug (please report it with this text): index out of range [3] with length 3;") {
		t.Errorf("sw2: status %s, error %q; want failed with the panic", sw2.Status, sw2.Error)
	}
	// sw1 either had applied and rolls back, or had not yet and
	// applies nothing.
	if c := strings.Join(calls, " "); sw1.Status != StatusAborted || c != "" && c != "stage rollback" && c != "stage apply rollback" {
		t.Errorf("sw1: status %s, calls %q; want aborted, and nothing left applied", sw1.Status, c)
	}
}
