package push

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
)

// onyxFabricAt is the tutorial fabric on Onyx, declared as release.
func onyxFabricAt(t *testing.T, release string) (*model.Fabric, *model.Switch, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(tutorialOn(t, model.PlatformOnyx, 3), "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(strings.Replace(string(data), `os_version = "3.6.4006"`, `os_version = "`+release+`"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	f, set := buildExample(t, dir)
	sw := f.Switch("leaf1")
	return f, sw, config(t, set, sw)
}

// TestOnyxLLDPOffByHand: on a release that runs LLDP by default (NVIDIA
// Onyx User Manual, Link Layer Discovery Protocol (LLDP): from
// 3.8.2000), an operator's `no lldp`, `no lldp transmit` or `no lldp
// receive` (the commands of mellanox.onyx onyx_lldp.py and
// onyx_lldp_interface.py) is read back by verify from `show lldp local`
// and `show lldp interfaces` as one difference of class cabling, whose
// impact says what it does there (no NIC of the tutorial takes its
// PFC by DCBX, so it speaks of the cabling check, not of DCBX); a push
// of the fabric's configuration turns LLDP back on, sending exactly the
// commands that do, and verify is clean after. A port outside the
// fabric keeps its `no lldp transmit`.
func TestOnyxLLDPOffByHand(t *testing.T) {
	f, sw, cfg := onyxFabricAt(t, "3.10.4206")
	for _, tc := range []struct {
		name   string
		hand   []string
		want   string
		impact string
		sent   []string
	}{
		{"global", []string{"no lldp"}, "leaf1 (switch-wide) lldp: intended on, actual off",
			"the switch learns no LLDP neighbor: the cabling goes unchecked (no NIC here takes its PFC by DCBX)", []string{"lldp"}},
		{"transmit", []string{"interface ethernet 1/1 no lldp transmit", "interface ethernet 1/5 no lldp transmit"}, "leaf1 1/1 lldp: intended on, actual transmit off",
			"the switch sends no LLDP on this port: its host sees no neighbor; RoCE is unaffected, the NIC does not take its PFC by DCBX", []string{"interface ethernet 1/1 lldp transmit"}},
		{"receive", []string{"interface ethernet 1/2 no lldp receive"}, "leaf1 1/2 lldp: intended on, actual receive off",
			"the switch learns no LLDP neighbor on this port: its cabling goes unchecked", []string{"interface ethernet 1/2 lldp receive"}},
		{"both", []string{"interface ethernet 1/2 no lldp receive", "interface ethernet 1/2 no lldp transmit"}, "leaf1 1/2 lldp: intended on, actual off",
			"the switch learns no LLDP neighbor: the cabling goes unchecked (no NIC here takes its PFC by DCBX)",
			[]string{"interface ethernet 1/2 lldp receive", "interface ethernet 1/2 lldp transmit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := startLab(t, sw, sim.Faults{})
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
			}
			l.type_(t, model.PlatformOnyx, append(append([]string{"configure terminal"}, tc.hand...), "configuration write", "exit"))
			r := l.run(t, ActionVerify, f, sw, cfg)
			if got := diffLines(r); r.Status != StatusMismatch || !slices.Equal(got, []string{tc.want}) {
				t.Fatalf("verify after %q: %s %q\nwant the one difference %q", tc.hand, r.Status, got, tc.want)
			}
			if got := verify.ImpactOf(r.Differences[0]); got != (verify.Impact{Class: verify.ImpactCabling, Text: tc.impact}) {
				t.Errorf("impact %+v, want cabling %q", got, tc.impact)
			}
			p := l.run(t, ActionPush, f, sw, cfg)
			if p.Status != StatusChanged || !p.Verified {
				t.Fatalf("push over %q: %s %q %v", tc.hand, p.Status, p.Error, p.Differences)
			}
			for _, c := range tc.sent {
				if count(p.Commands, c) != 1 {
					t.Errorf("the push did not send %q once: %q", c, p.Commands)
				}
			}
			if slices.ContainsFunc(p.Commands, func(c string) bool { return strings.Contains(c, "1/5") }) {
				t.Errorf("the push touched port 1/5, outside the fabric: %q", p.Commands)
			}
			if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified || len(r.Differences) != 0 {
				t.Errorf("verify after the push: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}

// TestOnyxLLDPOffByDefaultNotCompared: on a release before 3.8.2000,
// where LLDP is off by default and the fabric (no port whose NIC takes
// its PFC by DCBX) writes no `lldp`, LLDP off is no difference.
func TestOnyxLLDPOffByDefaultNotCompared(t *testing.T) {
	f, sw, cfg := onyxFabricAt(t, "3.6.4006")
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Errorf("verify: %s %q %v", r.Status, r.Error, r.Differences)
	}
}

// TestOnyxLLDPOffNotOursNotRestored: before 3.8.2000, on a fabric with no
// port whose NIC takes its PFC by DCBX, LLDP is not the fabric's (off by
// default: NVIDIA Onyx User Manual, Link Layer Discovery Protocol
// (LLDP)), so verify does not compare it. An operator's `no lldp
// transmit` on a fabric port is then left alone: verify is clean and a
// push sends no lldp line and reports unchanged, as verify promised.
func TestOnyxLLDPOffNotOursNotRestored(t *testing.T) {
	f, sw, cfg := onyxFabricAt(t, "3.6.4006")
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.type_(t, model.PlatformOnyx, []string{"configure terminal", "interface ethernet 1/1 no lldp transmit", "configuration write", "exit"})
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Fatalf("verify after the hand `no lldp transmit`: %s %q %v", r.Status, r.Error, r.Differences)
	}
	p := l.run(t, ActionPush, f, sw, cfg)
	if p.Status != StatusUnchanged || !p.Verified {
		t.Errorf("push over the hand `no lldp transmit`: %s %q, want unchanged and verified", p.Status, p.Error)
	}
	if slices.ContainsFunc(p.Commands, func(c string) bool { return strings.Contains(c, "lldp") && !strings.HasPrefix(c, "show ") }) {
		t.Errorf("the push sent an lldp line the fabric does not own: %q", p.Commands)
	}
	if !strings.Contains(l.sim.Running(), "interface ethernet 1/1 no lldp transmit") {
		t.Errorf("the operator's `no lldp transmit` is gone from the running configuration:\n%s", l.sim.Running())
	}
}
