package transport

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/inventory"
)

// execServer serves exec requests on 127.0.0.1 with answer, which gets
// the command and the channel and returns the exit status to send (or
// -1 for none); it returns the address and the server's host key check.
func execServer(t *testing.T, answer func(cmd string, ch ssh.Channel) int) (string, ssh.HostKeyCallback) {
	t.Helper()
	signer, _ := keyPair(t, "")
	cfg := &ssh.ServerConfig{PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		if c.User() == "ops" && string(pw) == "pw" {
			return nil, nil
		}
		return nil, errors.New("denied")
	}}
	cfg.AddHostKey(signer)
	addr := serveSSH(t, cfg, func(chans <-chan ssh.NewChannel) {
		for nc := range chans {
			ch, creqs, _ := nc.Accept()
			go func() {
				defer ch.Close()
				for req := range creqs {
					var p struct{ Command string }
					if req.Type != "exec" || ssh.Unmarshal(req.Payload, &p) != nil {
						_ = req.Reply(false, nil)
						continue
					}
					_ = req.Reply(true, nil)
					if status := answer(p.Command, ch); status >= 0 {
						_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
					}
					return
				}
			}()
		}
	})
	return addr, ssh.FixedHostKey(signer.PublicKey())
}

// serveSSH serves cfg on 127.0.0.1 until the test ends, giving each
// logged-in connection's channels to handle; it returns the address.
func serveSSH(t *testing.T, cfg *ssh.ServerConfig, handle func(<-chan ssh.NewChannel)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, chans, reqs, err := ssh.NewServerConn(c, cfg)
				if err != nil {
					return
				}
				go ssh.DiscardRequests(reqs)
				handle(chans)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestRun: one command over an exec session: standard input in,
// standard output and error apart, the exit status; a command that
// prints too much, runs too long or ends without a status is an error,
// and a wrong password fails the login without showing it.
func TestRun(t *testing.T) {
	addr, hk := execServer(t, func(cmd string, ch ssh.Channel) int {
		switch cmd {
		case "cat":
			in, _ := io.ReadAll(ch)
			_, _ = ch.Write(in)
			_, _ = io.WriteString(ch.Stderr(), "to stderr\n")
			return 3
		case "flood":
			chunk := strings.Repeat("x", 64<<10)
			for i := 0; i < MaxOutput/len(chunk)+2; i++ {
				if _, err := io.WriteString(ch, chunk); err != nil {
					return -1
				}
			}
			return 0
		case "hang":
			time.Sleep(5 * time.Second)
			return 0
		}
		return -1
	})
	tr := func(pw string) *SSH {
		return &SSH{Creds: inventory.Credentials{Username: "ops", Password: inventory.NewSecret(pw)}, HostKey: hk}
	}
	out, err := tr("pw").Run(context.Background(), addr, 5*time.Second, 5*time.Second, "cat", []byte("the script\n"))
	if err != nil || string(out.Stdout) != "the script\n" || string(out.Stderr) != "to stderr\n" || out.Status != 3 {
		t.Errorf("cat: %+v %v", out, err)
	}
	if _, err := tr("pw").Run(context.Background(), addr, 5*time.Second, 5*time.Second, "flood", nil); err == nil || !strings.Contains(err.Error(), `"flood" printed more than 4194304 bytes`) {
		t.Errorf("flood: %v", err)
	}
	if _, err := tr("pw").Run(context.Background(), addr, 5*time.Second, 200*time.Millisecond, "hang", nil); err == nil || err.Error() != `"hang" ran longer than the command timeout (200ms)` {
		t.Errorf("hang: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := tr("pw").Run(ctx, addr, 5*time.Second, 5*time.Second, "hang", nil); err == nil || err.Error() != `context canceled during "hang"` {
		t.Errorf("hang, cancelled: %v", err)
	}
	if _, err := tr("pw").Run(context.Background(), addr, 5*time.Second, 5*time.Second, "no status", nil); err == nil || !strings.Contains(err.Error(), "ended without an exit status") {
		t.Errorf("no status: %v", err)
	}
	if _, err := tr("hunter2").Run(context.Background(), addr, 5*time.Second, 5*time.Second, "cat", nil); err == nil || !strings.Contains(err.Error(), `the device refused the login of user "ops" with the password from the inventory`) || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("wrong password: %v", err)
	}
}

// stallingServer logs in and then never answers: not the session's
// channel open (atOpen), or not its exec request.
func stallingServer(t *testing.T, atOpen bool) (string, ssh.HostKeyCallback) {
	t.Helper()
	signer, _ := keyPair(t, "")
	cfg := &ssh.ServerConfig{PasswordCallback: func(ssh.ConnMetadata, []byte) (*ssh.Permissions, error) { return nil, nil }}
	cfg.AddHostKey(signer)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	addr := serveSSH(t, cfg, func(chans <-chan ssh.NewChannel) {
		for nc := range chans {
			if atOpen {
				<-stop // never accepted
				return
			}
			_, creqs, _ := nc.Accept()
			go func() {
				for range creqs { // never replied to
				}
			}()
		}
	})
	return addr, ssh.FixedHostKey(signer.PublicKey())
}

// TestRunCutsAStalledServer: a server that logs in and then answers
// neither the session's channel open nor its exec request does not
// hold Run: the command timeout, or ctx, closes the connection and Run
// says which.
func TestRunCutsAStalledServer(t *testing.T) {
	for _, atOpen := range []bool{true, false} {
		addr, hk := stallingServer(t, atOpen)
		tr := &SSH{Creds: inventory.Credentials{Username: "ops", Password: inventory.NewSecret("pw")}, HostKey: hk}
		start := time.Now()
		_, err := tr.Run(context.Background(), addr, 5*time.Second, 300*time.Millisecond, "bash -s -- --check", nil)
		if err == nil || err.Error() != `"bash -s -- --check" ran longer than the command timeout (300ms)` || time.Since(start) > 3*time.Second {
			t.Errorf("atOpen=%v, timeout: %v after %v", atOpen, err, time.Since(start))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		_, err = tr.Run(ctx, addr, 5*time.Second, time.Minute, "bash -s -- --check", nil)
		cancel()
		if err == nil || err.Error() != `context deadline exceeded during "bash -s -- --check"` {
			t.Errorf("atOpen=%v, ctx: %v", atOpen, err)
		}
	}
}
