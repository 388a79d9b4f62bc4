package push

import (
	"context"
	"testing"
	"time"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// stagePanicTxn panics while it stages: a bug met before anything is
// applied.
type stagePanicTxn struct{ fakeTxn }

func (*stagePanicTxn) Stage(Conn, []byte) (string, error) { panic("stage bug") }

// TestPanicSaysWhatTheActionLeft: the error of a panic (a fabricc bug)
// says what the action may have left on the switch, true for that
// action: verify only reads, diff applies nothing (what it staged is not
// in effect), a push may have applied a part of its change. verify's
// error told the user to run fabricc verify, the command that failed.
func TestPanicSaysWhatTheActionLeft(t *testing.T) {
	const bug = "internal error, a fabricc bug (please report it with this text): "
	for _, tc := range []struct {
		action string
		txn    func() Txn
		parse  func([]string) (*verify.State, error)
		want   string
	}{
		{ActionVerify, nil, func([]string) (*verify.State, error) { panic("parse bug") },
			bug + "parse bug; verify changes nothing on the switch"},
		{ActionDiff, func() Txn { return &stagePanicTxn{fakeTxn{calls: new([]string)}} }, nil,
			bug + "stage bug; diff changed no setting in effect; a change it staged may be left on the switch, not in effect, and the next push discards it"},
		{ActionPush, func() Txn { return &panicTxn{fakeTxn{calls: new([]string), diff: "+x\n"}} }, nil,
			bug + "index out of range [3] with length 3; the switch may hold a part of the change: run fabricc verify"},
	} {
		t.Run(tc.action, func(t *testing.T) {
			f := &model.Fabric{Name: "t", Switches: []model.Switch{{Name: "sw1", Platform: "fakeleft",
				Ports: []model.Port{{Name: "Ethernet1", MTU: 9214, Mode: model.ModeAccess}}}}}
			v := &Vendor{ReadBack: []string{"show running-config"}, Parse: tc.parse,
				NewTxn: func(string, time.Duration) Txn { return &fakeTxn{calls: new([]string)} }}
			if tc.parse == nil {
				v.Parse = func(o []string) (*verify.State, error) { return verify.ParseEOS(o[0]) }
			}
			if tc.txn != nil {
				v.NewTxn = func(string, time.Duration) Txn { return tc.txn() }
			}
			Vendors["fakeleft"] = v
			defer delete(Vendors, "fakeleft")
			dev := &inventory.Device{Name: "sw1", DeviceTimeout: time.Minute, ConnectTimeout: time.Second, CommandTimeout: time.Second}
			rep := Run(context.Background(), Options{Action: tc.action, Fabric: f, ID: "1", Targets: []Target{{Switch: &f.Switches[0], Device: dev}},
				Dial: func(*inventory.Device, model.Platform) (Conn, error) { return fakeConn{fakeRunning}, nil }})
			if r := rep.Devices[0]; r.Status != StatusFailed || r.Error != tc.want {
				t.Errorf("status %s, error\n%q\nwant failed with\n%q", r.Status, r.Error, tc.want)
			}
		})
	}
}
