package push

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxLAGMemberRefused is review ronyx #5: a fabric port that the
// switch holds in a port-channel (mellanox.onyx onyx_linkagg's
// `interface ethernet X channel-group N mode active`) refuses the push
// before anything is sent, naming the port-channel and the way out;
// once the port leaves the bundle the push goes through.
func TestOnyxLAGMemberRefused(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	l.onyxHand(t, "interface port-channel 1", "interface ethernet 1/5 channel-group 1 mode active",
		"interface mlag-port-channel 2", "interface ethernet 1/6 mlag-channel-group 2 mode active", "configuration write")
	before := l.sim.Running()

	r := l.run(t, ActionPush, f, sw, cfg)
	refusal := "fabric ports are LAG members on the switch: " +
		"1/5 is a member of port-channel 1 (`interface ethernet 1/5 no channel-group` takes it out); " +
		"a member takes its switchport mode and VLANs from its port-channel, which fabricc does not manage, so fabricc cannot configure the port: " +
		"take it out of the bundle or leave the port out of the fabric; " +
		"fabric ports are part of an MLAG on the switch: 1/6 is a member of mlag-port-channel 2; " +
		"taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, and fabricc does not configure MLAG, " +
		"so leave the port out of the fabric, and push again; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, refusal) {
		t.Errorf("push onto LAG members: %s %q\nwant the refusal %q", r.Status, r.Error, refusal)
	}
	if l.sim.Running() != before || slices.ContainsFunc(r.Commands, func(c string) bool { return strings.HasPrefix(c, "configuration write to fabricc-pre-") }) {
		t.Errorf("the refused push changed the switch: %q", r.Commands)
	}

	l.onyxHand(t, "interface ethernet 1/5 no channel-group", "interface ethernet 1/6 no mlag-channel-group", "configuration write")
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Errorf("push after the ports left their bundles: %s %q %v", r.Status, r.Error, r.Differences)
	}
}

// TestOnyxPercentLineIsRefusal is review ronyx #6: an Onyx answer line
// starting with "%" is a refusal even when it is none of the phrases of
// the platform definition's failed-when-contains (Ansible's Onyx
// terminal plugin: terminal_stderr_re `\A%|\r\n%|\n%`); the reason is
// that line. The simulator words a LAG member's refusal of a switchport
// line so.
func TestOnyxPercentLineIsRefusal(t *testing.T) {
	f, _ := demo(t)
	sw := f.Switch("leaf4")
	l := startLab(t, sw, sim.Faults{})
	l.onyxHand(t, "interface port-channel 1", "interface ethernet 1/5 channel-group 1 mode active")
	c := l.dial(t, model.PlatformOnyx)
	defer c.Close()
	if _, err := c.Send("configure terminal"); err != nil {
		t.Fatal(err)
	}
	_, err := c.Send("interface ethernet 1/5 switchport mode trunk")
	var ref *RefusedError
	want := RefusedError{Cmd: "interface ethernet 1/5 switchport mode trunk", Reason: "% Interface is a member of port-channel 1; configure the port-channel instead"}
	if !errors.As(err, &ref) || *ref != want {
		t.Errorf("refusal %v, want %v", err, &want)
	}
	if out, err := c.Send("interface ethernet 1/4 mtu 9216 force"); err != nil {
		t.Errorf("a line Onyx takes: %q %v", out, err)
	}
	_ = c.Home()
}

// TestOnyxIPLMemberRefused: a fabric port in the
// port-channel that is the MLAG IPL (`interface port-channel 100 ipl 1`)
// is refused before anything is sent as part of an MLAG, without the
// `no channel-group` that would cut the peer link.
func TestOnyxIPLMemberRefused(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	l.onyxHand(t, "interface port-channel 100", "interface ethernet 1/5 channel-group 100 mode active",
		"interface port-channel 100 ipl 1", "configuration write")
	before := l.sim.Running()
	r := l.run(t, ActionPush, f, sw, cfg)
	want := "staging: fabric ports are part of an MLAG on the switch: 1/5 is a member of port-channel 100, the MLAG IPL (peer link); " +
		"taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, and fabricc does not configure MLAG, " +
		"so leave the port out of the fabric, and push again; nothing was changed"
	if r.Status != StatusFailed || !strings.Contains(r.Error, want) || strings.Contains(r.Error, "no channel-group") {
		t.Errorf("push onto an IPL member: %s %q\nwant the refusal %q", r.Status, r.Error, want)
	}
	if l.sim.Running() != before {
		t.Errorf("the refused push changed the switch")
	}
}
