// Package transport is fabricc's own SSH transport for scrapligo: a
// transport.Implementation over golang.org/x/crypto/ssh that supports
// what scrapligo's "standard" transport does not:
// ssh-agent, passphrase-protected keys, and known_hosts checking that is
// strict unless explicitly disabled.
package transport

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	scrapli "github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/inventory"
)

// SSH is one SSH session carrying an interactive shell, plugged into
// scrapligo with options.WithCustomTransport.
type SSH struct {
	// Creds are the login credentials.
	Creds inventory.Credentials
	// HostKey checks the server's key; see HostKeyCallback.
	HostKey ssh.HostKeyCallback

	mu      sync.Mutex
	client  *ssh.Client
	session *ssh.Session
	r       io.Reader
	w       io.WriteCloser
	agentC  net.Conn
}

var _ scrapli.Implementation = (*SSH)(nil)

// HostKeyCallback returns the known_hosts check for path, or, when
// insecure is true, a callback that accepts any key (the caller must warn
// the user loudly).
func HostKeyCallback(path string, insecure bool) (ssh.HostKeyCallback, error) {
	if insecure {
		return ssh.InsecureIgnoreHostKey(), nil //nolint:gosec // explicit --insecure-ignore-host-key
	}
	if path == "" {
		path = inventory.ExpandHome("~/.ssh/known_hosts")
	}
	cb, err := knownhosts.New(path)
	if err != nil {
		return nil, fmt.Errorf("known_hosts %s: %w (add the devices' keys, e.g. with ssh-keyscan, or pass --insecure-ignore-host-key)", path, err)
	}
	return explainHostKey(cb, path), nil
}

// explainHostKey wraps a known_hosts check so that a refused key says
// what it was (its SHA256 fingerprint, as ssh prints it), where the file
// is, and what to check before trusting it; the error keeps knownhosts'
// own words.
func explainHostKey(cb ssh.HostKeyCallback, path string) ssh.HostKeyCallback {
	return func(host string, remote net.Addr, key ssh.PublicKey) error {
		err := cb(host, remote, key)
		var ke *knownhosts.KeyError
		if !errors.As(err, &ke) {
			return err
		}
		fp := ssh.FingerprintSHA256(key)
		if len(ke.Want) == 0 {
			return fmt.Errorf("%w: %s offers host key %s %s, which %s does not list; compare it with the fingerprint on the device's console, then add it: %s",
				err, host, key.Type(), fp, path, keyscan(host, path))
		}
		w := ke.Want[0]
		return fmt.Errorf("%w: %s offers host key %s %s, not the one %s:%d lists; the connection may be intercepted, or the device was reinstalled: check on its console before replacing that line",
			err, host, key.Type(), fp, w.Filename, w.Line)
	}
}

// keyscan is the command that adds host's keys to the known_hosts file
// at path: `ssh-keyscan -p PORT ADDRESS`, which writes the entries as
// [ADDRESS]:PORT for a port other than 22, as known_hosts needs them
// (ssh-keyscan(1); sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT"). Address and
// path are shell-quoted: they come from the inventory.
func keyscan(host, path string) string {
	addr, port, err := net.SplitHostPort(host)
	if err != nil {
		addr, port = host, "22"
	}
	cmd := "ssh-keyscan "
	if port != "22" {
		cmd += "-p " + quote.ShellWord(port) + " "
	}
	return cmd + quote.ShellWord(addr) + " >> " + quote.ShellWord(path)
}

// probeKey is a public key no known_hosts file lists: asking the host
// key check about it returns the keys the file does list.
var probeKey = func() ssh.PublicKey {
	k, err := ssh.NewPublicKey(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public())
	if err != nil {
		panic(err) // cannot fail: 32 zero bytes make a valid ed25519 key
	}
	return k
}()

// knownAlgorithms are the host key algorithms of the keys the known_hosts
// check lists for addr, to ask the server for those first, or nil (Go's
// default order) when it lists none or accepts any key. Without them Go
// asks for ECDSA before ed25519, and a switch that has both, whose
// ed25519 key is the one known, was refused as possibly intercepted;
// OpenSSH prefers "the algorithms" of the host keys it knows
// (ssh_config(5), HostKeyAlgorithms; golang/go#49631). The check is
// asked about a key it cannot list, and its error names the ones it
// does, as github.com/skeema/knownhosts asks it.
func knownAlgorithms(check ssh.HostKeyCallback, addr string, remote net.Addr) []string {
	var ke *knownhosts.KeyError
	if !errors.As(check(addr, remote, probeKey), &ke) {
		return nil
	}
	var algos []string
	for _, k := range ke.Want {
		for _, a := range keyAlgorithms(k.Key.Type()) {
			if !slices.Contains(algos, a) {
				algos = append(algos, a)
			}
		}
	}
	return algos
}

// keyAlgorithms are the signature algorithms a host key of type typ
// signs with: an RSA key with SHA-2 first (RFC 8332), ssh-rsa last.
func keyAlgorithms(typ string) []string {
	if typ == ssh.KeyAlgoRSA {
		return []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
	}
	return []string{typ}
}

// Open dials a.Host:a.Port, authenticates, requests a PTY and a shell.
func (t *SSH) Open(a *scrapli.Args) error {
	addr := net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
	client, err := t.Dial(context.Background(), addr, a.TimeoutSocket)
	if err != nil {
		return err
	}
	if err := t.shell(client, a); err != nil {
		_ = client.Close()
		t.closeAgent()
		return fmt.Errorf("ssh %s: %w", addr, err)
	}
	return nil
}

// Dial connects to addr ("host:port") and logs in with t.Creds, checking
// the server's key with t.HostKey. timeout bounds the TCP connect and the
// SSH handshake with the login, as the inventory's connect_timeout says;
// ctx ending closes the connection. Open dials with it before it asks for
// a shell, Run before it runs a command. The caller closes the client,
// then t (which holds the ssh-agent connection).
func (t *SSH) Dial(ctx context.Context, addr string, timeout time.Duration) (*ssh.Client, error) {
	auth, err := t.authMethods()
	if err != nil {
		return nil, err
	}
	if t.HostKey == nil {
		t.closeAgent()
		return nil, errors.New("no host key check configured; set a known_hosts file or --insecure-ignore-host-key")
	}
	cfg := &ssh.ClientConfig{User: t.Creds.Username, Auth: auth, HostKeyCallback: t.HostKey, Timeout: timeout}
	fail := func(err error) (*ssh.Client, error) {
		t.closeAgent()
		return nil, fmt.Errorf("ssh %s@%s: %w", t.Creds.Username, addr, err)
	}
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fail(err)
	}
	cfg.HostKeyAlgorithms = knownAlgorithms(t.HostKey, addr, conn.RemoteAddr())
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	if timeout > 0 {
		_ = conn.SetDeadline(time.Now().Add(timeout))
	}
	c, chans, reqs, err := ssh.NewClientConn(conn, addr, cfg)
	if err != nil {
		_ = conn.Close()
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		} else if strings.Contains(err.Error(), "ssh: unable to authenticate") {
			t.closeAgent()
			return nil, &LoginRefusedError{User: t.Creds.Username, Addr: addr, With: offered(t.Creds), Err: err}
		}
		return fail(err)
	}
	_ = conn.SetDeadline(time.Time{})
	return ssh.NewClient(c, chans, reqs), nil
}

// LoginRefusedError is a device that refused the login: the user, or
// the secret the inventory gives for it, is not what the device takes.
// It names the user and the kind of secret offered, never the secret.
type LoginRefusedError struct {
	User, Addr string
	// With is what was offered: "the password", "the private key", "the
	// ssh-agent's keys", joined with "or".
	With string
	// Err is x/crypto/ssh's error ("ssh: handshake failed: ssh: unable to
	// authenticate, attempted methods [...]").
	Err error
}

// Error says who was refused and what to check; the callers put the
// device's name and address before it.
func (e *LoginRefusedError) Error() string {
	return fmt.Sprintf("the device refused the login of user %q with %s from the inventory; check the secret the inventory names for it (password_env, password_file, private_key or agent) and the account on the device",
		e.User, e.With)
}

// Unwrap returns x/crypto/ssh's error.
func (e *LoginRefusedError) Unwrap() error { return e.Err }

// offered says what a login with c offers: "the password", "the private
// key or the ssh-agent's keys".
func offered(c inventory.Credentials) string {
	var with []string
	if !c.KeyPEM.Empty() {
		with = append(with, "the private key")
	}
	if c.Agent {
		with = append(with, "the ssh-agent's keys")
	}
	if !c.Password.Empty() {
		with = append(with, "the password")
	}
	if len(with) == 0 {
		return "no secret"
	}
	return strings.Join(with, " or ")
}

func (t *SSH) shell(client *ssh.Client, a *scrapli.Args) error {
	sess, err := client.NewSession()
	if err != nil {
		return err
	}
	w, err := sess.StdinPipe()
	if err != nil {
		return err
	}
	r, err := sess.StdoutPipe()
	if err != nil {
		return err
	}
	modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: 115200, ssh.TTY_OP_OSPEED: 115200}
	if err := sess.RequestPty("xterm", a.TermHeight, a.TermWidth, modes); err != nil {
		return err
	}
	if err := sess.Shell(); err != nil {
		return err
	}
	t.mu.Lock()
	t.client, t.session, t.r, t.w = client, sess, r, w
	t.mu.Unlock()
	return nil
}

// authMethods turns the credentials into ssh auth methods.
func (t *SSH) authMethods() ([]ssh.AuthMethod, error) {
	c := t.Creds
	var out []ssh.AuthMethod
	if !c.KeyPEM.Empty() {
		var signer ssh.Signer
		var err error
		if c.Passphrase.Empty() {
			signer, err = ssh.ParsePrivateKey([]byte(c.KeyPEM.Reveal()))
		} else {
			signer, err = ssh.ParsePrivateKeyWithPassphrase([]byte(c.KeyPEM.Reveal()), []byte(c.Passphrase.Reveal()))
		}
		if err != nil {
			// x/crypto's messages never include the key or passphrase.
			return nil, fmt.Errorf("private key: %w (set passphrase_env or passphrase_file for a protected key)", err)
		}
		out = append(out, ssh.PublicKeys(signer))
	}
	if c.Agent {
		conn, err := dialAgent(inventory.AgentSocket(), 10*time.Second)
		if err != nil {
			return nil, fmt.Errorf("ssh-agent: %w", err)
		}
		t.agentC = conn
		out = append(out, ssh.PublicKeysCallback(agent.NewClient(conn).Signers))
	}
	if !c.Password.Empty() {
		pw := c.Password.Reveal()
		out = append(out, ssh.Password(pw), ssh.KeyboardInteractive(
			func(_, _ string, qs []string, _ []bool) ([]string, error) {
				ans := make([]string, len(qs))
				for i := range ans {
					ans[i] = pw
				}
				return ans, nil
			}))
	}
	if len(out) == 0 {
		return nil, errors.New("no credentials to log in with")
	}
	return out, nil
}

func (t *SSH) closeAgent() {
	if t.agentC != nil {
		_ = t.agentC.Close()
		t.agentC = nil
	}
}

// Close ends the session and the connection.
func (t *SSH) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var err error
	if t.session != nil {
		_ = t.session.Close()
		t.session = nil
	}
	if t.client != nil {
		err = t.client.Close()
		t.client = nil
	}
	t.closeAgent()
	if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// IsAlive reports whether the session is open.
func (t *SSH) IsAlive() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.session != nil
}

// Read reads up to n bytes of shell output.
func (t *SSH) Read(n int) ([]byte, error) {
	t.mu.Lock()
	r := t.r
	t.mu.Unlock()
	if r == nil {
		return nil, io.EOF
	}
	b := make([]byte, n)
	k, err := r.Read(b)
	if err != nil {
		return nil, err
	}
	return b[:k], nil
}

// Write sends b to the shell.
func (t *SSH) Write(b []byte) error {
	t.mu.Lock()
	w := t.w
	t.mu.Unlock()
	if w == nil {
		return io.EOF
	}
	_, err := w.Write(b)
	return err
}
