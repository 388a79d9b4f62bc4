package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/sim/cli"
	"github.com/fabricc/fabricc/sim/serve"
)

// server is the SSH front end of one simulated switch.
type server struct {
	ln     *serve.Listener
	cfg    *ssh.ServerConfig
	dev    cli.Device
	faults Faults
	stage  *stageState
}

func listen(ctx context.Context, opts Options, key ssh.Signer, dev cli.Device) (*server, error) {
	s := &server{dev: dev, faults: opts.Faults}
	if opts.Faults.Stage != nil {
		s.stage = &stageState{f: opts.Faults.Stage}
	}
	s.cfg = s.serverConfig(opts)
	s.cfg.AddHostKey(key)
	ln, err := serve.Listen(ctx, s.serveConn)
	if err != nil {
		return nil, fmt.Errorf("sim: listen on 127.0.0.1: %w", err)
	}
	s.ln = ln
	return s, nil
}

func (s *server) serverConfig(opts Options) *ssh.ServerConfig {
	refused := func(c ssh.ConnMetadata) bool {
		return opts.Faults.RejectAuth || (s.stage != nil && s.stage.refuseLogin(c.SessionID()))
	}
	okPassword := func(c ssh.ConnMetadata, pw []byte) bool {
		want, ok := opts.Users[c.User()]
		return ok && !refused(c) && want == string(pw)
	}
	return &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if okPassword(c, pw) {
				return nil, nil
			}
			return nil, errors.New("permission denied")
		},
		KeyboardInteractiveCallback: func(c ssh.ConnMetadata, ask ssh.KeyboardInteractiveChallenge) (*ssh.Permissions, error) {
			ans, err := ask(c.User(), "", []string{"Password: "}, []bool{false})
			if err == nil && len(ans) == 1 && okPassword(c, []byte(ans[0])) {
				return nil, nil
			}
			return nil, errors.New("permission denied")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			_, known := opts.Users[c.User()]
			if refused(c) || (len(opts.Users) > 0 && !known) {
				return nil, errors.New("permission denied")
			}
			for _, a := range opts.AuthorizedKeys {
				if bytes.Equal(a.Marshal(), k.Marshal()) {
					return nil, nil
				}
			}
			return nil, errors.New("permission denied")
		},
	}
}

func (s *server) addr() string { return s.ln.Addr() }

// rebootDelay is how long the sessions of a rebooting switch live on
// after the reboot message, so that clients read it before the
// connection goes.
const rebootDelay = 200 * time.Millisecond

// reboot ends every session open now (a simulated reboot) once the
// reboot message had time to reach them; the listener stays, and
// sessions opened meanwhile are the rebooted switch's.
func (s *server) reboot() {
	open := s.ln.Open()
	time.AfterFunc(rebootDelay, func() {
		for _, c := range open {
			c.Close()
		}
	})
}

func (s *server) close() error { return s.ln.Close() }

func (s *server) serveConn(c net.Conn) {
	sc, chans, reqs, err := ssh.NewServerConn(c, s.cfg)
	if err != nil {
		return
	}
	defer sc.Close()
	// done closes when the connection ends, which releases a session
	// that holds back an answer (slow and hang faults).
	done := make(chan struct{})
	go func() {
		_ = sc.Wait()
		close(done)
	}()
	s.ln.Sessions(chans, reqs, func(ch ssh.Channel, creqs <-chan *ssh.Request) { s.session(c, done, sc.User(), ch, creqs) })
}

// session answers the channel requests of one session and runs the shell
// (interactive) or a single command (exec).
func (s *server) session(c net.Conn, done <-chan struct{}, user string, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	rows, pty := 0, false
	for req := range reqs {
		switch req.Type {
		case "pty-req":
			rows, pty = ptyRows(req.Payload), true
			_ = req.Reply(true, nil)
		case "env", "window-change":
			_ = req.Reply(true, nil)
		case "shell":
			_ = req.Reply(true, nil)
			go ssh.DiscardRequests(reqs)
			s.repl(c, done, ch, s.dev.NewShell(cli.Session{User: user, Rows: rows}))
			return
		case "exec":
			_ = req.Reply(true, nil)
			go ssh.DiscardRequests(reqs)
			s.exec(ch, user, string(req.Payload[min(4, len(req.Payload)):]), pty)
			return
		default:
			_ = req.Reply(false, nil)
		}
	}
}

// defaultRows is the terminal height when a pty-req gives none.
const defaultRows = 24

// ptyRows reads the terminal height from a pty-req payload (RFC 4254
// 6.2: term, width, height, ...).
func ptyRows(payload []byte) int {
	var p struct {
		Term          string
		Cols, Rows    uint32
		Width, Height uint32
		Modes         string
	}
	if err := ssh.Unmarshal(payload, &p); err != nil || p.Rows == 0 {
		return defaultRows
	}
	return int(p.Rows)
}

// exec runs one command of an exec request. Its output ends lines as
// the switch's Linux does: "\r\n" when the client asked for a pty (the
// tty's ONLCR, "map NL to CR-NL on output", termios(3)), a bare "\n"
// without one, where no tty sits between the command and the channel
// (a real Linux host over a PTY-less exec channel: cowrie pull request
// #40169, "send bare LF on PTY-less exec channels"; mscdex/ssh2 issue
// #517: "lol\n" without a pty, "lol\r\n" with one).
func (s *server) exec(ch ssh.Channel, user, cmd string, pty bool) {
	sh := s.dev.NewShell(cli.Session{User: user})
	res := s.run(sh, cmd)
	out := res.Out
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n" // the last line ends too, as in the interactive shell (enter)
	}
	if pty {
		out = crlf(out)
	}
	_, _ = io.WriteString(ch, out)
	status := ssh.Marshal(struct{ Status uint32 }{uint32(res.Status)})
	_, _ = ch.SendRequest("exit-status", false, status)
}

// run applies the per-command faults, then the shell. A panic in a
// dialect is a simulator bug; it is reported as a device error instead of
// killing every other simulated switch in the process.
func (s *server) run(sh cli.Shell, line string) (res cli.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = cli.Result{Out: sh.Refuse(fmt.Sprintf("simulator bug on %q: %v", line, r))}
		}
	}()
	if s.faults.Latency > 0 {
		time.Sleep(s.faults.Latency)
	}
	if re := s.faults.Reject; re != nil && strings.TrimSpace(line) != "" && re.MatchString(line) {
		return cli.Result{Out: sh.Reject(line)}
	}
	return sh.Exec(line)
}

// repl reads lines with echo, runs them and prints the prompt; output
// longer than the shell's page waits at the pager after each screen.
func (s *server) repl(c net.Conn, done <-chan struct{}, ch ssh.Channel, sh cli.Shell) {
	if !s.loginFault(c, done) {
		return
	}
	w := &lineWriter{w: ch}
	w.write(sh.Prompt())
	w.flush()
	var line []byte
	var pg *pager
	halted := false
	buf := make([]byte, 1024)
	lastCR, count := false, 0
	for {
		w.flush()
		n, err := ch.Read(buf)
		if err != nil {
			return
		}
		for _, b := range buf[:n] {
			if b == '\n' && lastCR {
				lastCR = false
				continue
			}
			lastCR = b == '\r'
			if pg != nil {
				pg = pg.key(w, b, sh)
				continue
			}
			if b != '\r' && b != '\n' {
				line = editLine(w, sh, line, b)
				continue
			}
			cmd := string(line)
			line = line[:0]
			if strings.TrimSpace(cmd) != "" {
				count++
			}
			if halted {
				continue // rebooting: the switch reads nothing more
			}
			var ok bool
			if pg, ok, halted = s.enter(c, done, w, sh, cmd, count); !ok {
				return
			}
		}
	}
}

// enter ends the typed line, runs it as the count-th non-blank command
// and writes its output and the next prompt, or the first screen and the
// pager. ok is false when the session ends: the shell exits or the drop
// fault closes the connection before the command runs. halted is true
// when the command rebooted the switch: the session stays open, silent,
// until the reboot closes it, as a real switch's would.
func (s *server) enter(c net.Conn, done <-chan struct{}, w *lineWriter, sh cli.Shell, cmd string, count int) (pg *pager, ok, halted bool) {
	w.write("\r\n")
	w.flush()
	if strings.TrimSpace(cmd) != "" && s.faults.DropAfter > 0 && count >= s.faults.DropAfter {
		c.Close()
		return nil, false, false
	}
	res, ok := s.runLine(c, done, sh, cmd)
	if !ok {
		return nil, false, false
	}
	if res.Exit || res.Reboot {
		if res.Out != "" {
			w.write(crlf(strings.TrimRight(res.Out, "\n") + "\n"))
		}
		w.flush()
		if res.Reboot {
			s.reboot()
		}
		return nil, res.Reboot, res.Reboot
	}
	if res.Out == "" {
		w.write(sh.Prompt())
		return nil, true, false
	}
	lines := strings.Split(strings.TrimRight(res.Out, "\n"), "\n")
	per, more := sh.Pager()
	pg = &pager{lines: lines, per: max(per-1, 1), more: more}
	if per <= 0 {
		pg.per = len(lines)
	}
	return pg.show(w, pg.per, sh), true, false
}

// pager holds output that waits for a key (" --More-- "): space shows
// the next screen, Enter the next line, q ends the output.
type pager struct {
	lines []string
	per   int
	more  string
}

// show writes n more lines, then the pager text, or the prompt when the
// output is done (nil pager).
func (p *pager) show(w *lineWriter, n int, sh cli.Shell) *pager {
	n = min(n, len(p.lines))
	for _, l := range p.lines[:n] {
		w.write(l + "\r\n")
	}
	p.lines = p.lines[n:]
	if len(p.lines) == 0 {
		w.write(sh.Prompt())
		return nil
	}
	w.write(p.more)
	return p
}

// key handles one key typed at the pager.
func (p *pager) key(w *lineWriter, b byte, sh cli.Shell) *pager {
	w.write("\r" + strings.Repeat(" ", len(p.more)) + "\r")
	switch b {
	case ' ':
		return p.show(w, p.per, sh)
	case '\r', '\n':
		return p.show(w, 1, sh)
	}
	w.write(sh.Prompt())
	return nil
}

// editLine applies one typed byte other than a line end to line:
// backspace, Ctrl-C (drops the line) or a character, echoing as the shell
// wants.
func editLine(w *lineWriter, sh cli.Shell, line []byte, b byte) []byte {
	switch b {
	case 0x7f, 0x08:
		if len(line) > 0 {
			line = line[:len(line)-1]
			if sh.Echo() {
				w.write("\b \b")
			}
		}
		return line
	case 0x03:
		w.write("^C\r\n" + sh.Prompt())
		return line[:0]
	}
	if sh.Echo() {
		w.write(string(b))
	}
	return append(line, b)
}

// lineWriter batches echo and output into few channel writes.
type lineWriter struct {
	w   io.Writer
	buf []byte
}

func (l *lineWriter) write(s string) { l.buf = append(l.buf, s...) }

func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		_, _ = l.w.Write(l.buf)
		l.buf = l.buf[:0]
	}
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// runLine runs one typed line, with the stage fault when it fires on
// it. ok is false when the session ends instead (drop, hang, or the
// client leaving while a slow answer waits).
func (s *server) runLine(c net.Conn, done <-chan struct{}, sh cli.Shell, cmd string) (cli.Result, bool) {
	if s.stage == nil || strings.TrimSpace(cmd) == "" || !s.stage.fireAt(cmd) {
		return s.run(sh, cmd), true
	}
	f := s.stage.f
	var res cli.Result
	if f.Kind == FaultSlow {
		res = s.run(sh, cmd) // done before the client can learn of it
	}
	if f.Reached != nil {
		f.Reached(cmd)
	}
	switch f.Kind {
	case FaultDrop:
		c.Close()
		return cli.Result{}, false
	case FaultReject:
		return cli.Result{Out: sh.Reject(cmd)}, true
	case FaultHang:
		<-done
		return cli.Result{}, false
	}
	return res, wait(done, f.Delay)
}

// loginFault applies a login stage fault before the first prompt of a
// session; false means the session ends.
func (s *server) loginFault(c net.Conn, done <-chan struct{}) bool {
	if s.stage == nil || !s.stage.fireLogin() {
		return true
	}
	f := s.stage.f
	if f.Reached != nil {
		f.Reached("login")
	}
	switch f.Kind {
	case FaultDrop:
		c.Close()
		return false
	case FaultHang:
		<-done
		return false
	}
	return wait(done, f.Delay)
}

// wait sleeps for d; false when the connection ended first.
func wait(done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// stageState fires a StageFault once per switch.
type stageState struct {
	mu    sync.Mutex
	f     *StageFault
	seen  int
	fired bool
	// refused is the SSH session ID whose logins a login Reject refuses.
	refused []byte
}

// fireAt reports whether the fault fires on command line l.
func (st *stageState) fireAt(l string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.fired || st.f.Login || st.f.At == nil || !st.f.At.MatchString(strings.TrimSpace(l)) {
		return false
	}
	st.seen++
	if st.seen < max(st.f.Nth, 1) {
		return false
	}
	st.fired = true
	return true
}

// fireLogin reports whether a login fault other than Reject fires for a
// new session.
func (st *stageState) fireLogin() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.fired || !st.f.Login || st.f.Kind == FaultReject {
		return false
	}
	st.fired = true
	return true
}

// refuseLogin reports whether the login of SSH session id is refused: a
// login Reject fires on the first connection and refuses every attempt
// it makes.
func (st *stageState) refuseLogin(id []byte) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.f.Login || st.f.Kind != FaultReject {
		return false
	}
	if !st.fired {
		st.fired, st.refused = true, append([]byte(nil), id...)
		if st.f.Reached != nil {
			st.f.Reached("login")
		}
	}
	return bytes.Equal(st.refused, id)
}
