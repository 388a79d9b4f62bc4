package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxForeignLosslessPool is review rsw #10: after a push, the
// operator adds NVIDIA's own example pool (mellanox.onyx
// onyx_buffer_pool: `traffic pool roce type lossless`, `... map
// switch-priority 3`) next to fabricc's, which takes priority 3 out of
// fabricc's pool. verify reports both lossless pools; push refuses,
// naming the fix, and changes nothing; once the pool is gone, push puts
// priority 3 back and verifies.
func TestOnyxForeignLosslessPool(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.onyxHand(t, "traffic pool roce type lossless", "traffic pool roce memory percent 1.40",
		"traffic pool roce map switch-priority 3", "configuration write")

	r := l.run(t, ActionVerify, f, sw, cfg)
	var got []string
	for _, d := range r.Differences {
		got = append(got, d.String())
	}
	want := []string{
		"leaf4 pool lossless priorities: intended 3, actual none",
		"leaf4 lossless traffic pools: intended one, the fabric's (remove the other with no traffic pool NAME), actual roce 1.40% priorities 3, roce-lossless 55.00% priorities none",
	}
	if r.Status != StatusMismatch || !slices.Equal(got, want) {
		t.Errorf("verify: %s %q\n%s\nwant\n%s", r.Status, r.Error, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	before := l.sim.Running()
	r = l.run(t, ActionPush, f, sw, cfg)
	refusal := "the switch has a lossless traffic pool roce (1.40 % of the buffer, switch priorities 3) that fabricc does not own: " +
		"a switch priority belongs to one pool, and the fabric's lossless priorities belong in its own (roce-lossless); " +
		"remove it with `no traffic pool roce` (configuration mode) and push again right away, in a maintenance window: " +
		"Onyx applies the removal at once, so switch priorities 3 have no lossless pool until the push puts them in roce-lossless; nothing was changed"
	if r.Status != StatusFailed || r.Error != "staging: "+refusal {
		t.Errorf("push onto the foreign pool: %s %q, want the refusal %q", r.Status, r.Error, refusal)
	}
	if l.sim.Running() != before {
		t.Error("the refused push changed the switch")
	}

	l.onyxHand(t, "no traffic pool roce", "configuration write")
	r = l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push after `no traffic pool roce`: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if got, want := onyxApplied(r.Commands), []string{"traffic pool roce-lossless map switch-priority 3"}; !slices.Equal(got, want) {
		t.Errorf("push applied %q, want %q", got, want)
	}
}

// TestOnyxPoolsTotal: pools fabricc does not own that leave too little
// of the buffer for the fabric's shares refuse the push before anything
// is sent (the simulator, like the switch, refuses a total above 100 %,
// which would otherwise fail the push half-way); verify reports a
// total above 100 %.
func TestOnyxPoolsTotal(t *testing.T) {
	running := onyxLines("traffic pool lossy-default type lossy\ntraffic pool lossy-default memory percent 43.60\n" +
		"traffic pool mc type lossy-mc\ntraffic pool mc memory percent 10.00\n")
	want := []string{"traffic pool lossy-default type lossy", "traffic pool lossy-default memory percent 43.60",
		"traffic pool roce-lossless type lossless", "traffic pool roce-lossless memory percent 55.00"}
	err := onyxForeignPools(verify.OnyxPoolsOf(want), verify.OnyxPoolsOf(running))
	msg := "the fabric's traffic pools and the switch's other pools (mc 10.00 %) would use 108.60 % of the buffer, more than 100 %; " +
		"shrink or remove those pools (`no traffic pool NAME`) and push again; nothing was changed"
	if err == nil || err.Error() != msg {
		t.Errorf("refusal %v, want %q", err, msg)
	}
	if err := onyxForeignPools(verify.OnyxPoolsOf(want), verify.OnyxPoolsOf(running[:2])); err != nil {
		t.Errorf("fabricc's own pools: %v", err)
	}
}

// TestOnyxPoolShrinksFirst: a pool that shrinks is sent before one that
// grows, so the shares never pass 100 % on the way.
func TestOnyxPoolShrinksFirst(t *testing.T) {
	running := onyxLines("traffic pool lossy-default memory percent 40.00\ntraffic pool roce-lossless memory percent 59.00\n")
	send := []string{"vlan 101", "traffic pool lossy-default memory percent 43.60", "traffic pool roce-lossless memory percent 55.00", "vlan 102"}
	got := onyxPoolShrinksFirst(send, verify.OnyxPoolsOf(running))
	want := []string{"vlan 101", "traffic pool roce-lossless memory percent 55.00", "traffic pool lossy-default memory percent 43.60", "vlan 102"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q\nwant %q", got, want)
	}
}

// TestOnyxRoCEModeRefused is review rsw #1's Onyx part: a switch in
// Onyx's own RoCE mode (`roce`, NVIDIA Onyx User Manual 3.10, RoCE
// Commands) is refused by push, naming `no roce`, and reported by
// verify; after `no roce` the push goes through.
func TestOnyxRoCEModeRefused(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.onyxHand(t, "roce", "configuration write")
	r := l.run(t, ActionVerify, f, sw, cfg)
	var got []string
	for _, d := range r.Differences {
		got = append(got, d.String())
	}
	if want := []string{"leaf4 RoCE mode: intended off (turn it off with no roce), actual lossless"}; r.Status != StatusMismatch || !slices.Equal(got, want) {
		t.Errorf("verify: %s %q %q, want %q", r.Status, r.Error, got, want)
	}
	before := l.sim.Running()
	r = l.run(t, ActionPush, f, sw, cfg)
	refusal := "the switch is in RoCE mode (show roce: RoCE mode lossless), which sets trust, ETS, ECN, PFC and buffer pools of its own, " +
		"the settings fabricc configures; turn it off with `no roce` (configuration mode; NVIDIA notes that changing the RoCE mode " +
		"may toggle interfaces) and push again; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, refusal) {
		t.Errorf("push onto RoCE mode: %s %q, want %q", r.Status, r.Error, refusal)
	}
	if l.sim.Running() != before || slices.ContainsFunc(r.Commands, func(c string) bool { return strings.HasPrefix(c, "configuration write to fabricc-pre-") }) {
		t.Errorf("the refused push changed the switch: %q", r.Commands)
	}
	l.onyxHand(t, "no roce", "configuration write")
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusUnchanged || !r.Verified {
		t.Errorf("push after `no roce`: %s %q %v", r.Status, r.Error, r.Differences)
	}
}

// TestOnyxBeforeRoCEMode: a release before 3.8.2000 (here 3.6.4006)
// refuses `show roce`; push takes that as "no RoCE mode" and goes on,
// and verify reads the switch without it.
func TestOnyxBeforeRoCEMode(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformOnyx, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push to %s: %s %q %v", sw.OSVersion, r.Status, r.Error, r.Differences)
	}
	if n := slices.Index(r.Commands, "show roce"); n < 0 || slices.Index(r.Commands[n:], "configuration write to fabricc-pre-t1 no-switch") < 0 {
		t.Errorf("push did not read show roce before applying: %q", r.Commands)
	}
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified {
		t.Errorf("verify of %s: %s %q %v", sw.OSVersion, r.Status, r.Error, r.Differences)
	}
}
