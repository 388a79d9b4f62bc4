package sim_test

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestExecLineEnds: an SSH exec request answers with the line ends of the
// switch's Linux: a bare "\n" without a pty, where no tty sits between
// the command and the channel (a real Linux host: cowrie pull request
// #40169, "Over a PTY-less SSH exec channel (`ssh host 'cmd'`, no
// `pty-req`) ... a real Linux host sends bare `\n`"; mscdex/ssh2 issue
// #517: "echo lol" gives 'lol\n' without a pty and 'lol\r\n' with one),
// and "\r\n" with a pty (termios(3) ONLCR). The last line ends too.
func TestExecLineEnds(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		cmd      string
	}{
		{model.PlatformEOS, "show version"},
		{model.PlatformOnyx, "show version"},
		{model.PlatformCumulus, "nv show system -o json"},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: tc.platform})
			bare := execOut(t, d, tc.cmd, false)
			if strings.Contains(bare, "\r") || strings.Count(bare, "\n") < 2 || !strings.HasSuffix(bare, "\n") {
				t.Errorf("exec %q without a pty: %q, want lines ended by a bare \"\\n\", the last one too", tc.cmd, bare)
			}
			tty := execOut(t, d, tc.cmd, true)
			if strings.Count(tty, "\r\n") != strings.Count(bare, "\n") || strings.Count(tty, "\n") != strings.Count(tty, "\r\n") {
				t.Errorf("exec %q with a pty: %q, want the same lines ended by \"\\r\\n\"", tc.cmd, tty)
			}
		})
	}
}

// TestShellLineEnds: the interactive shell (a pty, as every CLI client
// asks for one) ends the echo and every line of output with "\r\n", as
// the EOS session recorded in scrapligo's test fixture
// cli/fixtures/send-input-simple does:
//
//	eos1#show version | i Kern\r\nKernel version: 6.10.14-linuxkit\r\neos1#
//
// and as a tty's ONLCR does for the Linux shells of Onyx and Cumulus.
func TestShellLineEnds(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		cmd      string
		prompt   string
	}{
		{model.PlatformEOS, "show version", `leaf1>$`},
		{model.PlatformOnyx, "show version", `leaf1 \[standalone: master\] >\s*$`},
		{model.PlatformCumulus, "nv show system -o json", `\$ $`},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: tc.platform})
			s := rawShell(t, d, 0)
			s.expect(tc.prompt)
			s.send(tc.cmd)
			got := s.expectRaw(tc.prompt)
			if !strings.HasPrefix(got, tc.cmd+"\r\n") || strings.Count(got, "\r\n") < 3 || strings.Count(got, "\n") != strings.Count(got, "\r\n") {
				t.Errorf("%s in a shell: %q, want the echo and every line ended by \"\\r\\n\"", tc.cmd, got)
			}
		})
	}
}

// execOut runs cmd as an SSH exec request on d, with a pty or without.
func execOut(t *testing.T, d *sim.Device, cmd string, pty bool) string {
	t.Helper()
	c, err := ssh.Dial("tcp", d.Addr(), &ssh.ClientConfig{User: testUser, Auth: []ssh.AuthMethod{ssh.Password(testPass)},
		HostKeyCallback: ssh.FixedHostKey(d.HostKey()), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if pty {
		if err := sess.RequestPty("xterm", 24, 200, ssh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := sess.Output(cmd)
	if err != nil {
		t.Fatalf("exec %q: %v", cmd, err)
	}
	return string(out)
}
