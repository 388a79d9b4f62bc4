package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxReadBackLineOverTheLimit: the Onyx read-back fails, with the
// parser's words, on a running configuration it cannot read to its end
// (a line of more than 1 MiB), rather than comparing the lines above it
// as the whole switch; the engine reports it as a read-back failure.
func TestOnyxReadBackLineOverTheLimit(t *testing.T) {
	running := "hostname leaf1\nbanner motd " + strings.Repeat("x", 1<<20) + "\ninterface ethernet 1/1 mtu 9216 force\n"
	s, err := Vendors[model.PlatformOnyx].Parse([]string{running, "{}", ""})
	const want = "show running-config: line 2 is 1 MiB or longer, more than fabricc reads of a line, so the configuration from there on cannot be read and nothing was compared"
	if err == nil || err.Error() != want {
		t.Errorf("Onyx read-back: %v, %v; want the error %q", s, err, want)
	}
}

// TestOnyxUnreadableConfigRefusedBeforeStaging: a running configuration
// with a line of 1 MiB or more cannot be read in full, so the read after
// the apply would fail and roll the change back (in an all-or-nothing
// push, every switch's). The push refuses before it stages anything,
// says how to get past it, and leaves the switch as it was.
func TestOnyxUnreadableConfigRefusedBeforeStaging(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf4")
	cfg := config(t, set, sw)
	l := startLabWith(t, sw, func(o *sim.Options) {
		o.Initial = "interface ethernet 1/20 description " + strings.Repeat("x", 1<<20) + "\n"
	})
	before := l.sim.Running()
	r := l.run(t, ActionPush, f, sw, cfg)
	const want = "staging: reading back: show running-config: line "
	const fix = "is 1 MiB or longer, more than fabricc reads of a line, so the configuration from there on cannot be read and nothing was compared; " +
		"fabricc cannot verify a change to a configuration it cannot read in full, so it does not make one: " +
		"shorten that line on the switch (a banner or description), then push again; nothing was changed"
	if r.Status != StatusFailed || !strings.HasPrefix(r.Error, want) || !strings.HasSuffix(r.Error, fix) || !r.NothingSent {
		t.Errorf("push onto an unreadable configuration: %s nothing sent %v %q\nwant %q ... %q", r.Status, r.NothingSent, r.Error, want, fix)
	}
	if l.sim.Running() != before || slices.ContainsFunc(r.Commands, func(c string) bool { return strings.HasPrefix(c, "configuration write to fabricc-pre-") }) {
		t.Errorf("the refused push changed the switch: %q", r.Commands)
	}
}
