package sim_test

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestEOSGrammar types at an EOS prompt as an engineer would:
// abbreviations, the error texts, a session's truncated prompt.
func TestEOSGrammar(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	s := rawShell(t, d, 0)
	s.expect(`leaf1>$`)
	for _, tc := range []struct{ line, want string }{
		{"sh ver", "Software image version: 4.32.2F\n"},
		{"show bogus", "% Invalid input (at token 1: 'bogus')\n"},
		{"show", "% Incomplete command\n"},
		{"en", ""},
		{"c", "% Ambiguous command\n"},
		{"sh hostname", "Hostname: leaf1\nFQDN:     leaf1\n"},
		{"conf t", ""},
		{"int et1/1", ""},
		{"mtu 9000", ""},
		{"mtu 99999", "% Invalid input (at token 1: '99999')\n"},
		{"end", ""},
		{"sh run | sec ^interface Ethernet1/1$", "interface Ethernet1/1\n   mtu 9000\n"},
		{"configure session fabricc-t1", ""},
		{"interface Ethernet33", ""},
		{"abort", ""},
	} {
		s.send(tc.line)
		got := s.expect(`\n[\w.\-()/]+[>#]$`)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q lacks %q", tc.line, got, tc.want)
		}
		if tc.line == "interface Ethernet33" && !strings.HasSuffix(got, "leaf1(config-s-fabric-if-Et33)#") {
			t.Errorf("session prompt: %q, want the session name cut to six characters", got)
		}
	}
}

// TestPagingUntilTurnedOff checks that a terminal session pages long
// output until the client turns paging off, as EOS and Onyx do.
func TestPagingUntilTurnedOff(t *testing.T) {
	for _, tc := range []struct {
		p        model.Platform
		prompt   string
		off      string
		enable   string
		pageText string
	}{
		{model.PlatformEOS, `leaf1#$`, "terminal length 0", "enable", " --More-- "},
		{model.PlatformOnyx, `leaf1 \[standalone: master\] # $`, "no cli session paging enable", "enable", "--More--"},
	} {
		t.Run(string(tc.p), func(t *testing.T) {
			d := start(t, tc.p, sim.Faults{})
			s := rawShell(t, d, 10)
			s.expect(`[>] ?$`)
			s.send(tc.enable)
			s.expect(tc.prompt)
			s.send("show running-config")
			first := s.expect(tc.pageText)
			if n := strings.Count(first, "\n"); n != 10 {
				t.Errorf("first screen has %d lines, want 10 (the prompt line, 9 of output):\n%s", n, first)
			}
			s.key(" ")
			s.expect(tc.pageText)
			s.key("q")
			s.expect(tc.prompt)
			s.send(tc.off)
			s.expect(tc.prompt)
			s.send("show running-config")
			if all := s.expect(tc.prompt); strings.Contains(all, tc.pageText) {
				t.Errorf("paged after %q:\n%s", tc.off, all)
			}
		})
	}
}

// TestCumulusSudoAndExitStatus checks that sudo wants the login password
// and that commands return bash's exit status, in a terminal ($?) and on
// an exec channel.
func TestCumulusSudoAndExitStatus(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	s := rawShell(t, d, 0)
	s.expect(`\$ $`)
	s.send("sudo su")
	for range 2 {
		s.expect(`\[sudo\] password for admin: $`)
		s.send("wrong")
	}
	s.expect(`\[sudo\] password for admin: $`)
	s.send("also-wrong")
	if got := s.expect(`\$ $`); !strings.Contains(got, "sudo: 3 incorrect password attempts") {
		t.Errorf("three wrong passwords: %q", got)
	}
	for _, tc := range []struct{ line, want string }{
		{"echo $?", "\n1\n"},
		{"bogus", "-bash: bogus: command not found"},
		{"echo $?", "\n127\n"},
		{"nv show interface swp99", "Error: The requested item does not exist."},
		{"echo $?", "\n1\n"},
		{"nv show interface swp32 link -o json", `"mtu": 9216`},
		{"echo $?", "\n0\n"},
	} {
		s.send(tc.line)
		if got := s.expect(`\$ $`); !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q lacks %q", tc.line, got, tc.want)
		}
	}
	s.send("sudo -i")
	s.expect(`password for admin: $`)
	s.send(testPass)
	s.expect(`root@leaf1:mgmt:/home/admin# $`)

	c, err := ssh.Dial("tcp", d.Addr(), &ssh.ClientConfig{User: testUser, Auth: []ssh.AuthMethod{ssh.Password(testPass)}, HostKeyCallback: ssh.FixedHostKey(d.HostKey())})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		cmd    string
		status int
	}{{"nv show system -o json", 0}, {"nv set interface swp1 link mtu 100", 1}, {"bogus", 127}} {
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		err = sess.Run(tc.cmd)
		var exit *ssh.ExitError
		switch {
		case tc.status == 0 && err != nil, tc.status != 0 && (!errors.As(err, &exit) || exit.ExitStatus() != tc.status):
			t.Errorf("exec %q: %v, want status %d", tc.cmd, err, tc.status)
		}
	}
}
