package push

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// TestIdentityParsers reads each platform's hostname from its command's
// output as the devices print it (EOS: captures in otpjeff/avdsnapshot;
// Onyx: `show hosts`, whose first line mellanox.onyx's cliconf reads;
// Cumulus: hostname(1)).
func TestIdentityParsers(t *testing.T) {
	for _, tc := range []struct {
		id        identity
		out, want string
	}{
		{eosIdentity, "Hostname: leaf-3a\nFQDN:     leaf-3a\n", "leaf-3a"},
		{eosIdentity, "Hostname: arista720.otpjeff.local\nFQDN:     arista720.otpjeff.local\n", "arista720.otpjeff.local"},
		{onyxIdentity, "Hostname: leaf3\n\nName servers:\n  No name servers configured.\n", "leaf3"},
		{cumulusIdentity, "leaf1\n", "leaf1"},
	} {
		got, err := tc.id.Parse(tc.out)
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.id.Command, got, err, tc.want)
		}
	}
	if _, err := eosIdentity.Parse("% Invalid input\n"); err == nil {
		t.Error("EOS: want an error without a Hostname line")
	}
	for _, tc := range []struct {
		host, name string
		same       bool
	}{{"leaf1", "leaf1", true}, {"LEAF1.lab.example.net", "leaf1", true}, {"leaf2", "leaf1", false}, {"leaf10", "leaf1", false}} {
		if SameHost(tc.host, tc.name) != tc.same {
			t.Errorf("SameHost(%q, %q) = %v", tc.host, tc.name, !tc.same)
		}
	}
}

// cmdConn answers each command from a table, the read-back otherwise.
type cmdConn struct {
	answers  map[string]string
	readBack string
}

func (c cmdConn) Send(cmd string) (string, error) {
	if a, ok := c.answers[cmd]; ok {
		return a, nil
	}
	return c.readBack, nil
}
func (cmdConn) Close() error { return nil }
func (cmdConn) Home() error  { return nil }

// TestPushRefusesAnotherSwitch: the switch at the inventory address of
// sw1 calls itself sw2 (swapped inventory entries); push, diff and verify
// refuse it before anything is staged, naming the address, the name it
// answers by and what to do; --renamed accepts a planned rename.
func TestPushRefusesAnotherSwitch(t *testing.T) {
	f := &model.Fabric{Name: "t", VLANs: []model.VLAN{{ID: 100, Name: "rdma"}},
		Switches: []model.Switch{{Name: "sw1", Platform: "fake", Ports: []model.Port{{Name: "Ethernet1", MTU: 9214, Mode: model.ModeAccess}}}, {Name: "sw2", Platform: "fake"}}}
	for _, tc := range []struct {
		name, action, host string
		renamed            map[string]string
		status, calls      string
	}{
		{"push, swapped", ActionPush, "sw2.lab", nil, StatusFailed, ""},
		{"diff, swapped", ActionDiff, "sw2", nil, StatusFailed, ""},
		{"verify, swapped", ActionVerify, "sw2", nil, StatusMismatch, ""},
		{"push, unknown name", ActionPush, "old-sw\x1b[2J", nil, StatusFailed, ""},
		{"push, renamed", ActionPush, "sw2", map[string]string{"sw1": "sw2"}, StatusChanged, "stage apply confirm save"},
		{"push, itself", ActionPush, "SW1", nil, StatusChanged, "stage apply confirm save"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			Vendors["fake"] = &Vendor{NewTxn: func(string, time.Duration) Txn { return &fakeTxn{calls: &calls, diff: "+x\n"} },
				Identity: identity{Command: "show hostname", Parse: fieldParser("Hostname")},
				ReadBack: []string{"show running-config"}, Parse: func(o []string) (*verify.State, error) { return verify.ParseEOS(o[0]) }}
			defer delete(Vendors, "fake")
			dev := &inventory.Device{Name: "sw1", Address: "192.0.2.1", Port: 22, DeviceTimeout: time.Minute, ConnectTimeout: time.Second, CommandTimeout: time.Second}
			conn := cmdConn{answers: map[string]string{"show hostname": "Hostname: " + tc.host + "\nFQDN:     " + tc.host + "\n"}, readBack: fakeRunning}
			rep := Run(context.Background(), Options{Action: tc.action, Fabric: f, ID: "1", Renamed: tc.renamed,
				Targets: []Target{{Switch: &f.Switches[0], Device: dev}},
				Dial:    func(*inventory.Device, model.Platform) (Conn, error) { return conn, nil }})
			r := rep.Devices[0]
			if r.Status != tc.status || strings.Join(calls, " ") != tc.calls {
				t.Fatalf("status %s calls %q (err %q); want %s %q", r.Status, calls, r.Error, tc.status, tc.calls)
			}
			if tc.calls != "" {
				return
			}
			done := "nothing was changed"
			if tc.action == ActionVerify {
				done = "it was not checked further"
			}
			for _, w := range []string{"wrong switch: 192.0.2.1:22", `inventory entry "sw1"`, done, "--renamed sw1="} {
				if !strings.Contains(r.Error, w) {
					t.Errorf("error lacks %q: %s", w, r.Error)
				}
			}
			if strings.HasPrefix(tc.host, "sw2") != strings.Contains(r.Error, "swapped") {
				t.Errorf("swapped entries said or not as they should be: %s", r.Error)
			}
			if strings.Contains(r.Error, "\x1b") || r.Verified || len(r.Differences) > 0 {
				t.Errorf("error %q, verified %v, differences %v", r.Error, r.Verified, r.Differences)
			}
		})
	}
}
