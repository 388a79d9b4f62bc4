package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// eosHand types cmds into the simulated EOS switch's configuration mode,
// as an operator would, and fails the test on a refusal.
func (l *lab) eosHand(t *testing.T, cmds ...string) {
	t.Helper()
	c := l.dial(t, model.PlatformEOS)
	defer c.Close()
	for _, cmd := range append([]string{"configure terminal"}, cmds...) {
		if out, err := c.Send(cmd); err != nil || strings.Contains(out, "%") {
			t.Fatalf("%s: %v %q", cmd, err, out)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
}

// TestEOSLAGMemberRefused is review reos #8: a fabric port that the
// EOS switch holds in a Port-Channel (`channel-group N mode active` in
// its interface block) refuses the push before a configure session is
// opened, naming the Port-Channel and the way out; once the port leaves
// the Port-Channel the push goes through.
func TestEOSLAGMemberRefused(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("spine1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	l.eosHand(t, "interface Ethernet1/1", "channel-group 10 mode active", "exit",
		"interface Ethernet2/1", "channel-group 20 mode on", "exit",
		"interface Ethernet30/1", "channel-group 30 mode active", "end", "write memory")
	before := l.sim.Running()
	if !strings.Contains(before, "interface Ethernet1/1\n   channel-group 10 mode active\n") {
		t.Fatalf("the simulator did not record the membership:\n%s", before)
	}

	r := l.run(t, ActionPush, f, sw, cfg)
	refusal := "fabric ports are Port-Channel members on the switch: " +
		"Ethernet1/1 is a member of Port-Channel10 (`interface Ethernet1/1` then `no channel-group` takes it out); " +
		"Ethernet2/1 is a member of Port-Channel20 (`interface Ethernet2/1` then `no channel-group` takes it out); " +
		"a member takes its switchport mode, VLANs and MTU from its Port-Channel, which fabricc does not manage, so fabricc cannot configure the port: " +
		"take it out of the Port-Channel or leave the port out of the fabric, and push again; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, refusal) {
		t.Errorf("push onto Port-Channel members: %s %q\nwant the refusal %q", r.Status, r.Error, refusal)
	}
	for _, c := range r.Commands {
		if strings.HasPrefix(c, "configure session ") && !strings.HasSuffix(c, " abort") {
			t.Errorf("the refused push opened a session: %q", r.Commands)
			break
		}
	}
	if l.sim.Running() != before {
		t.Errorf("the refused push changed the switch")
	}

	l.eosHand(t, "interface Ethernet1/1", "no channel-group", "exit", "interface Ethernet2/1", "no channel-group", "end", "write memory")
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Errorf("push after the ports left their Port-Channels: %s %q %v", r.Status, r.Error, r.Differences)
	}
}
