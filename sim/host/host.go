// Package host simulates a Linux or FreeBSD host of a fabric for tests of
// `fabricc verify`: an SSH server on 127.0.0.1 that takes exactly the
// command lines verify sends, `bash -s -- --check` or `sh -s -- --check`,
// each perhaps after `sudo -n`, runs that shell on the script it reads
// from the session's standard input inside a network namespace the test
// made (`ip netns exec`, which also mounts the namespace's own /sys:
// ip-netns(8)), and returns what it printed, standard output and error
// apart, and its exit status. Any other request (a shell, a terminal,
// another command) is refused. The namespace's links, MTUs and addresses
// are what the test set, so the script reads real ones; a veth has no
// DCB, which the scripts report as skipped.
package host

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/sim/serve"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Options configure one simulated host.
type Options struct {
	// Netns is the network namespace (`ip netns add`) the script runs in.
	Netns string
	// Users maps user name to password. User "root" runs the command as
	// root; any other user as nobody (uid and gid 65534, through
	// util-linux setpriv), unless through sudo.
	Users map[string]string
	// AuthorizedKeys are the public keys accepted for any user in Users.
	AuthorizedKeys []ssh.PublicKey
	// Sudoers are the users whose `sudo -n` runs the command as root.
	// For anyone else but root it prints sudo's "sudo: a password is
	// required" and exits 1, as sudo -n does when it would have to ask
	// (sudo(8), -n; the wording is the sudoers plugin's, logging.c, for a
	// non-interactive run that needs a password).
	Sudoers []string
	// Missing are the programs this host lacks ("bash", "sudo"): a
	// command line that starts with one fails as a login shell dash
	// (Debian's /bin/sh) says it, "sh: 1: bash: not found", exit 127.
	Missing []string
	// Path, when set, comes first in the PATH the command runs with
	// (folders of a test's stand-ins for tools the host has).
	Path string
	// Hostname, when set, is the host's name (uname -n) the command sees:
	// it runs in a UTS namespace of its own with that name, as a real
	// host has its own (the Linux script compares it with its host's).
	Hostname string
	// HostKey is the server key; an ed25519 key is made when nil.
	HostKey ssh.Signer
}

// Host is one running simulated host.
type Host struct {
	opts Options
	ln   *serve.Listener
	cfg  *ssh.ServerConfig
	mu   sync.Mutex
	cmds []string
}

// nobody is the uid and gid a non-root login runs as.
const nobody = "65534"

// Start listens on 127.0.0.1:<ephemeral> until ctx ends or Close.
func Start(ctx context.Context, opts Options) (*Host, error) {
	if opts.Netns == "" {
		return nil, errors.New("sim/host: Options.Netns names no network namespace")
	}
	for _, tool := range []string{"ip", "setpriv"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("sim/host: %s not found: %w", tool, err)
		}
	}
	if opts.HostKey == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		if opts.HostKey, err = ssh.NewSignerFromKey(priv); err != nil {
			return nil, err
		}
	}
	h := &Host{opts: opts}
	h.cfg = h.serverConfig()
	h.cfg.AddHostKey(opts.HostKey)
	ln, err := serve.Listen(ctx, h.serveConn)
	if err != nil {
		return nil, fmt.Errorf("sim/host: listen on 127.0.0.1: %w", err)
	}
	h.ln = ln
	return h, nil
}

// Addr is the "127.0.0.1:port" the host listens on.
func (h *Host) Addr() string { return h.ln.Addr() }

// HostKey is the server's public key.
func (h *Host) HostKey() ssh.PublicKey { return h.opts.HostKey.PublicKey() }

// KnownHostsLine is the known_hosts line (without its newline) that
// names the host's address and key.
func (h *Host) KnownHostsLine() string {
	return knownhosts.Line([]string{knownhosts.Normalize(h.Addr())}, h.HostKey())
}

// Commands are the command lines of every exec request received, in
// order, refused ones too.
func (h *Host) Commands() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.cmds)
}

// Close stops the server and ends every session.
func (h *Host) Close() error { return h.ln.Close() }

func (h *Host) serverConfig() *ssh.ServerConfig {
	return &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if want, ok := h.opts.Users[c.User()]; ok && want == string(pw) {
				return nil, nil
			}
			return nil, errors.New("permission denied")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if _, ok := h.opts.Users[c.User()]; ok {
				for _, a := range h.opts.AuthorizedKeys {
					if bytes.Equal(a.Marshal(), k.Marshal()) {
						return nil, nil
					}
				}
			}
			return nil, errors.New("permission denied")
		},
	}
}

func (h *Host) serveConn(c net.Conn) {
	sc, chans, reqs, err := ssh.NewServerConn(c, h.cfg)
	if err != nil {
		return
	}
	defer sc.Close()
	h.ln.Sessions(chans, reqs, func(ch ssh.Channel, creqs <-chan *ssh.Request) { h.session(sc.User(), ch, creqs) })
}

// session answers one session's requests: an exec request runs its
// command; a terminal, a shell, environment variables or a subsystem are
// refused, as fabricc asks for none of them.
func (h *Host) session(user string, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for req := range reqs {
		if req.Type != "exec" {
			_ = req.Reply(false, nil)
			continue
		}
		var p struct{ Command string }
		if err := ssh.Unmarshal(req.Payload, &p); err != nil {
			_ = req.Reply(false, nil)
			continue
		}
		_ = req.Reply(true, nil)
		go ssh.DiscardRequests(reqs)
		h.mu.Lock()
		h.cmds = append(h.cmds, p.Command)
		h.mu.Unlock()
		status := h.exec(user, p.Command, ch)
		_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
		return
	}
}

// exec runs one command line and returns its exit status.
func (h *Host) exec(user, line string, ch ssh.Channel) int {
	fail := func(status int, format string, a ...any) int {
		fmt.Fprintf(ch.Stderr(), format+"\n", a...)
		return status
	}
	words := strings.Fields(line)
	if len(words) > 0 && slices.Contains(h.opts.Missing, words[0]) {
		return fail(127, "sh: 1: %s: not found", words[0])
	}
	root := user == "root"
	shellLine, sudo := strings.CutPrefix(line, "sudo -n ")
	if sudo {
		if len(strings.Fields(shellLine)) > 0 && slices.Contains(h.opts.Missing, strings.Fields(shellLine)[0]) {
			return fail(1, "sudo: %s: command not found", strings.Fields(shellLine)[0])
		}
		if !root && !slices.Contains(h.opts.Sudoers, user) {
			return fail(1, "sudo: a password is required")
		}
		root = true
	}
	var shell string
	switch shellLine {
	case "bash -s -- --check":
		shell = "bash"
	case "sh -s -- --check":
		shell = "sh"
	default:
		return fail(127, "sim/host: refused %q: the simulated host runs only `bash -s -- --check` and `sh -s -- --check`, perhaps after `sudo -n`", line)
	}
	argv := []string{"ip", "netns", "exec", h.opts.Netns}
	if h.opts.Hostname != "" {
		// A new UTS namespace's name is set by writing it to
		// /proc/sys/kernel/hostname (uts_namespaces(7)).
		argv = append(argv, "unshare", "--uts", "sh", "-c", `printf '%s' "$0" >/proc/sys/kernel/hostname && exec "$@"`, h.opts.Hostname)
	}
	if !root {
		argv = append(argv, "setpriv", "--reuid="+nobody, "--regid="+nobody, "--clear-groups")
	}
	argv = append(argv, shell, "-s", "--", "--check")
	cmd := exec.Command(argv[0], argv[1:]...)
	path := "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	if h.opts.Path != "" {
		path = h.opts.Path + ":" + path
	}
	home := "/nonexistent"
	if root {
		home = "/root"
	}
	// The login's environment, not the test's (which may hold the
	// secrets of other tests).
	cmd.Env = []string{"PATH=" + path, "HOME=" + home, "USER=" + user, "LOGNAME=" + user, "SHELL=/bin/sh"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ch, ch, ch.Stderr()
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	}
	return fail(255, "sim/host: %v", err)
}
