package sim_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/util"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

const testUser, testPass = "admin", "s3cret-pw"

// start runs a simulated switch of the platform's default model for the
// test.
func start(t *testing.T, p model.Platform, f sim.Faults) *sim.Device {
	t.Helper()
	return startWith(t, sim.Options{Platform: p, Faults: f})
}

// startWith runs a simulated switch "leaf1" with opts (users filled in).
func startWith(t *testing.T, opts sim.Options) *sim.Device {
	t.Helper()
	opts.Name, opts.Users = "leaf1", map[string]string{testUser: testPass}
	d, err := sim.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// open connects scrapligo's network driver to d with the given platform
// (bundled name or definition bytes).
func open(t *testing.T, d *sim.Device, def any, extra ...util.Option) (*network.Driver, error) {
	t.Helper()
	return openWith(t, d, def, append([]util.Option{options.WithAuthNoStrictKey()}, extra...)...)
}

// openWith is open without the default of ignoring host keys.
func openWith(t *testing.T, d *sim.Device, def any, extra ...util.Option) (*network.Driver, error) {
	t.Helper()
	host, port, _ := net.SplitHostPort(d.Addr())
	n, _ := strconv.Atoi(port)
	opts := append([]util.Option{
		options.WithPort(n), options.WithAuthUsername(testUser), options.WithAuthPassword(testPass),
		options.WithTransportType("standard"),
		options.WithTimeoutOps(5 * time.Second), options.WithTimeoutSocket(5 * time.Second),
	}, extra...)
	p, err := platform.NewPlatform(def, host, opts...)
	if err != nil {
		return nil, err
	}
	drv, err := p.GetNetworkDriver()
	if err != nil {
		return nil, err
	}
	if err := drv.Open(); err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = drv.Close() })
	return drv, nil
}

func mustOpen(t *testing.T, d *sim.Device, def any) *network.Driver {
	t.Helper()
	drv, err := open(t, d, def)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return drv
}

// cmd sends one command and fails the test on a transport error or a
// device error.
func cmd(t *testing.T, drv *network.Driver, c string) string {
	t.Helper()
	r, err := drv.SendCommand(c)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	if r.Failed != nil {
		t.Fatalf("%s: device error: %s", c, r.Result)
	}
	return r.Result
}

// configs sends config lines and fails on any error.
func configs(t *testing.T, drv *network.Driver, lines ...string) {
	t.Helper()
	mr, err := drv.SendConfigs(lines)
	if err != nil {
		t.Fatal(err)
	}
	if mr.Failed != nil {
		t.Fatalf("configs failed: %v\n%s", mr.Failed, mr.JoinedResult())
	}
}

// jsonOf decodes a show command's JSON output.
func jsonOf(t *testing.T, drv *network.Driver, c string) any {
	t.Helper()
	var v any
	out := cmd(t, drv, c)
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", c, err, out)
	}
	return v
}

// path walks nested JSON objects by keys (list indexes as "0", "1").
func path(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, _ := strconv.Atoi(k)
			if i >= len(x) {
				t.Fatalf("index %s out of range in %v", k, keys)
			}
			v = x[i]
		default:
			t.Fatalf("no key %q in %v (at %v)", k, keys, v)
		}
	}
	return v
}

// shellConn is a raw interactive SSH session (a terminal of rows lines),
// for what a CLI driver hides: prompts, paging, passwords.
type shellConn struct {
	t    *testing.T
	in   io.Writer
	mu   sync.Mutex
	buf  strings.Builder
	sess *ssh.Session
}

// rawShell opens an interactive session on d with a terminal of rows lines.
func rawShell(t *testing.T, d *sim.Device, rows int) *shellConn {
	t.Helper()
	c, err := ssh.Dial("tcp", d.Addr(), &ssh.ClientConfig{User: testUser, Auth: []ssh.AuthMethod{ssh.Password(testPass)},
		HostKeyCallback: ssh.FixedHostKey(d.HostKey()), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm", rows, 200, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	s := &shellConn{t: t, in: in, sess: sess}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := out.Read(b)
			s.mu.Lock()
			s.buf.Write(b[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return s
}

// expect waits until the output since the last expect matches re and
// returns that output with its "\r\n" line ends as "\n".
func (s *shellConn) expect(re string) string {
	s.t.Helper()
	return strings.ReplaceAll(s.expectRaw(re), "\r\n", "\n")
}

// expectRaw is expect with the output as the switch sent it.
func (s *shellConn) expectRaw(re string) string {
	s.t.Helper()
	r := regexp.MustCompile(re)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		got := s.buf.String()
		if loc := r.FindStringIndex(got); loc != nil {
			rest := got[loc[1]:]
			s.buf.Reset()
			s.buf.WriteString(rest)
			s.mu.Unlock()
			return got[:loc[1]]
		}
		s.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t.Fatalf("no %q in the output:\n%q", re, s.buf.String())
	return ""
}

// send types a line (or keys, with raw).
func (s *shellConn) send(line string) { _, _ = io.WriteString(s.in, line+"\r") }

// key types keys without a line end.
func (s *shellConn) key(k string) { _, _ = io.WriteString(s.in, k) }
