package push

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxBufferModeMismatchRefused is review ronyx #3: the fabric's
// buffer style follows os_version (traffic pools from 3.6.5000,
// advanced buffer mode before), and push never turns the other mode
// off. A 3.10 switch running the fabric's traffic pools refuses a push
// of the same fabric declared as 3.6.4006 (which would have switched it
// to advanced mode unannounced), and a switch an operator put in
// advanced mode refuses the traffic-pool fabric; nothing is changed.
func TestOnyxBufferModeMismatchRefused(t *testing.T) {
	oldDir := tutorialOn(t, model.PlatformOnyx, 3)
	data, err := os.ReadFile(filepath.Join(oldDir, "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	newDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(newDir, "fabric.hcl"), []byte(strings.Replace(string(data), `os_version = "3.6.4006"`, `os_version = "3.10.4206"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	fOld, setOld := buildExample(t, oldDir)
	fNew, setNew := buildExample(t, newDir)
	swOld, swNew := fOld.Switch("leaf1"), fNew.Switch("leaf1")
	l := startLab(t, swNew, sim.Faults{})
	if r := l.run(t, ActionPush, fNew, swNew, config(t, setNew, swNew)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the 3.10 fabric: %s %q %v", r.Status, r.Error, r.Differences)
	}

	before := l.sim.Running()
	r := l.run(t, ActionPush, fOld, swOld, config(t, setOld, swOld))
	toAdvanced := "the switch runs release 3.10.4206 (show version) but the fabric declares os_version 3.6.4006, on the other side of 3.6.5000, " +
		"where Onyx's buffer style changes (advanced buffers before, traffic pools from it on): correct os_version, build again and push; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, toAdvanced) {
		t.Errorf("push declared 3.6.4006 onto traffic pools: %s %q\nwant %q", r.Status, r.Error, toAdvanced)
	}
	if l.sim.Running() != before {
		t.Error("the refused push changed the switch")
	}

	l.onyxHand(t, "advanced buffer management force", "pool iPool1 size 1000 type dynamic", "configuration write")
	before = l.sim.Running()
	r = l.run(t, ActionPush, fNew, swNew, config(t, setNew, swNew))
	fromAdvanced := "the switch is in advanced buffer mode (`advanced buffer management force` in its running configuration), " +
		"but the fabric configures traffic pools, the buffer style its os_version implies (3.6.5000 and later); check os_version against `show version`: " +
		"if the switch runs an older release, correct os_version; otherwise leave advanced mode on the switch (`no advanced buffer management force` " +
		"and `no pool NAME`, configuration mode; it reprograms the shared buffer) and push again; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, fromAdvanced) {
		t.Errorf("push of traffic pools onto advanced mode: %s %q\nwant %q", r.Status, r.Error, fromAdvanced)
	}
	if l.sim.Running() != before {
		t.Error("the refused push changed the switch")
	}
	l.onyxHand(t, "no pool iPool1", "no advanced buffer management force", "configuration write")
	if r := l.run(t, ActionPush, fNew, swNew, config(t, setNew, swNew)); r.Status != StatusUnchanged || !r.Verified {
		t.Errorf("push after advanced mode was left: %s %q %v", r.Status, r.Error, r.Differences)
	}
}

// TestOnyxVerifyReportsBothBufferModes: a switch in advanced buffer mode
// that still has the fabric's traffic pools (an earlier push of the
// fabric declared with an older os_version, then the corrected one) no
// longer verifies: the pools verify compares need not be what the
// buffer runs (review ronyx #3).
func TestOnyxVerifyReportsBothBufferModes(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.onyxHand(t, "advanced buffer management force", "pool iPool1 size 1000 type dynamic", "configuration write")
	r := l.run(t, ActionVerify, f, sw, cfg)
	var got []string
	for _, d := range r.Differences {
		got = append(got, d.String())
	}
	want := "leaf4 buffer mode: intended one: traffic pools (3.6.5000 and later) or advanced buffer management (before), " +
		"actual advanced buffer management force and traffic pools lossy-default, roce-lossless"
	if r.Status != StatusMismatch || strings.Join(got, "\n") != want {
		t.Errorf("verify: %s %q\n%s\nwant\n%s", r.Status, r.Error, strings.Join(got, "\n"), want)
	}
}

// TestOnyxBufferModeCheck covers both directions of onyxBufferMode on
// lines, including the one a matching release cannot reach on the
// simulator (traffic pools on a switch the fabric puts in advanced mode).
func TestOnyxBufferModeCheck(t *testing.T) {
	pools := []string{"traffic pool roce-lossless type lossless", "traffic pool roce-lossless memory percent 55.00"}
	advanced := []string{"advanced buffer management force", "pool iPool1 size 1000 type dynamic"}
	for _, c := range []struct {
		name          string
		want, running []string
		refusal       string
	}{
		{"pools onto pools", pools, pools, ""},
		{"advanced onto advanced", advanced, advanced, ""},
		{"advanced onto a fresh switch", advanced, nil, ""},
		{"pools onto a fresh switch", pools, nil, ""},
		{"pools onto advanced", pools, advanced, "the switch is in advanced buffer mode"},
		{"advanced onto pools", advanced, pools, "the switch programs its buffer with traffic pools, but the fabric configures advanced buffer mode"},
	} {
		err := onyxBufferMode(c.want, c.running, len(verify.OnyxPoolsOf(c.want)) > 0, len(verify.OnyxPoolsOf(c.running)) > 0)
		if (err == nil) != (c.refusal == "") || err != nil && !strings.HasPrefix(err.Error(), c.refusal) {
			t.Errorf("%s: %v, want %q", c.name, err, c.refusal)
		}
	}
}
