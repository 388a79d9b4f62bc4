package push

import (
	"errors"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestEOSRefusalsThroughConn is review rsim #2: every refusal text of
// the EOS simulator, sent through push's own connection, is a
// RefusedError naming it, not only scrapligo's six arista_eos phrases.
// Among them are the "%" lines outside those phrases and the refusal of
// a sixth pending session, worded as Ansible's arista.eos terminal plugin
// matches it (plugins/terminal/eos.py), without "%". The commands that
// EOS takes get no error.
func TestEOSRefusalsThroughConn(t *testing.T) {
	f, _ := demo(t)
	l := startLab(t, f.Switch("spine1"), sim.Faults{})
	c := l.dial(t, model.PlatformEOS)
	defer c.Close()
	steps := []struct{ cmd, refusal string }{
		{"show interfaces Ethernet99/1", "% Interface does not exist"},
		{"configure session nosuch commit", "% Session nosuch does not exist"},
		{"configure terminal", ""},
		{"commit", "% Not in a configuration session"},
		{"end", ""},
		{"configure session rsim1", ""},
		{"platform trident mmu queue profile nosuch apply", "% MMU queue profile nosuch does not exist"},
		{"interface Ethernet1/1", ""},
		{"service-profile nosuch", "% QoS profile nosuch does not exist"},
		{"uc-tx-queue 3", ""},
		{"random-detect ecn minimum-threshold 10 kbytes maximum-threshold 1000 bytes", "% Minimum and maximum threshold units must match"},
		{"random-detect ecn minimum-threshold 100 kbytes maximum-threshold 10 kbytes", "% Maximum threshold must not be less than the minimum threshold"},
		{"commit timer 00:05:00", ""},
		{"configure session rsim1", "% Cannot enter session rsim1 (commit timer pending)"},
		{"configure session rsim1 commit", ""},
		{"configure session rsim1 abort", "% Error: session rsim1 is completed and cannot be aborted"},
		{"configure session p1", ""}, {"end", ""},
		{"configure session p1 abort", ""},
		{"configure session p1 commit", "% Cannot commit session p1: it is aborted"},
		{"configure session p2", ""}, {"end", ""},
		{"configure session p3", ""}, {"end", ""},
		{"configure session p4", ""}, {"end", ""},
		{"configure session p5", ""}, {"end", ""},
		{"configure session p6", ""}, {"end", ""},
		{"configure session p7", "Maximum number of pending sessions has been reached"},
	}
	for _, s := range steps {
		out, err := c.Send(s.cmd)
		var re *RefusedError
		switch {
		case s.refusal == "" && err != nil:
			t.Errorf("%s: %v", s.cmd, err)
		case s.refusal == "":
		case !errors.As(err, &re):
			t.Errorf("%s: answered %q, err %v; want the refusal %q", s.cmd, out, err, s.refusal)
		case re.Reason != s.refusal || re.Cmd != s.cmd:
			t.Errorf("%s: refused %q for %q; want %q", s.cmd, re.Reason, re.Cmd, s.refusal)
		}
	}
}

// TestConfigListingNotRefused (review mrr 8): a "%" line in the answer
// of a configuration listing (an EOS banner's text in `show
// running-config`) is the switch's content, not a refusal, on the
// platforms whose definitions list the command (platforms.ConfigListing);
// the same line answering any other command is the refusal.
func TestConfigListingNotRefused(t *testing.T) {
	const banner = "hostname leaf1\nbanner motd\n% Authorized use only\nEOF\n"
	for _, tc := range []struct {
		p        model.Platform
		cmd, out string
		want     string
	}{
		{model.PlatformEOS, "show running-config", banner, ""},
		{model.PlatformEOS, "show startup-config", banner, ""},
		{model.PlatformOnyx, "show running-config", banner, ""},
		{model.PlatformEOS, "show running-config all", banner, "% Authorized use only"},
		{model.PlatformEOS, "interface Ethernet99/1", "% Invalid input\n", "% Invalid input"},
		{model.PlatformOnyx, "interface ethernet 1/5 switchport mode trunk", "% Interface 1/5 is a member of port-channel 1\n", "% Interface 1/5 is a member of port-channel 1"},
	} {
		c := &sshConn{refusal: refusalOf(tc.p), platform: tc.p}
		if got := c.refused(tc.cmd, tc.out); got != tc.want {
			t.Errorf("%s %q: refused %q, want %q", tc.p, tc.cmd, got, tc.want)
		}
	}
}
