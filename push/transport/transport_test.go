package transport

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// keyPair returns a signer and its PEM, encrypted when passphrase is set.
func keyPair(t *testing.T, passphrase string) (ssh.Signer, []byte) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var blk *pem.Block
	if passphrase == "" {
		blk, err = ssh.MarshalPrivateKey(priv, "")
	} else {
		blk, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	agentKeys[string(s.PublicKey().Marshal())] = priv
	return s, pem.EncodeToMemory(blk)
}

// open logs in to sim d through SSH and runs `show version`.
func open(t *testing.T, d *sim.Device, tr *SSH) error {
	t.Helper()
	host, port, _ := net.SplitHostPort(d.Addr())
	p, _ := strconv.Atoi(port)
	pl, err := platform.NewPlatform("arista_eos", host, options.WithPort(p), options.WithAuthUsername(tr.Creds.Username),
		options.WithCustomTransport(tr), options.WithTimeoutOps(5*time.Second), options.WithTimeoutSocket(5*time.Second))
	if err != nil {
		return err
	}
	drv, err := pl.GetNetworkDriver()
	if err != nil {
		return err
	}
	if err := drv.Open(); err != nil {
		return err
	}
	defer func() { _ = drv.Close() }()
	r, err := drv.SendCommand("show version")
	if err == nil && !strings.Contains(r.Result, "Arista") {
		t.Errorf("show version = %q", r.Result)
	}
	return err
}

func knownHosts(t *testing.T, d *sim.Device) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "known_hosts")
	line := d.KnownHostsLine()
	if err := os.WriteFile(p, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAuthMethods(t *testing.T) {
	plainKey, plainPEM := keyPair(t, "")
	lockedKey, lockedPEM := keyPair(t, "correct horse")
	agentKey, _ := keyPair(t, "")
	d, err := sim.Start(context.Background(), sim.Options{Name: "sw1", Platform: model.PlatformEOS,
		Users:          map[string]string{"admin": "pw1"},
		AuthorizedKeys: []ssh.PublicKey{plainKey.PublicKey(), lockedKey.PublicKey(), agentKey.PublicKey()}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	hk, err := HostKeyCallback(knownHosts(t, d), false)
	if err != nil {
		t.Fatal(err)
	}

	// An ssh-agent holding agentKey, on a socket in a temp folder.
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	kr := agent.NewKeyring()
	if err := kr.Add(agent.AddedKey{PrivateKey: agentPriv(t, agentKey)}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _ = agent.ServeAgent(kr, c) }()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)

	for _, tc := range []struct {
		name    string
		creds   inventory.Credentials
		wantErr string
	}{
		{"password", inventory.Credentials{Username: "admin", Password: inventory.NewSecret("pw1")}, ""},
		{"wrong password", inventory.Credentials{Username: "admin", Password: inventory.NewSecret("nope")}, `the device refused the login of user "admin" with the password from the inventory; check the secret`},
		{"key", inventory.Credentials{Username: "admin", KeyPEM: inventory.NewSecret(string(plainPEM))}, ""},
		{"passphrase key", inventory.Credentials{Username: "admin", KeyPEM: inventory.NewSecret(string(lockedPEM)), Passphrase: inventory.NewSecret("correct horse")}, ""},
		{"passphrase missing", inventory.Credentials{Username: "admin", KeyPEM: inventory.NewSecret(string(lockedPEM))}, "passphrase"},
		{"wrong passphrase", inventory.Credentials{Username: "admin", KeyPEM: inventory.NewSecret(string(lockedPEM)), Passphrase: inventory.NewSecret("wrong battery")}, "private key: x509: decryption password incorrect"},
		{"agent", inventory.Credentials{Username: "admin", Agent: true}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := open(t, d, &SSH{Creds: tc.creds, HostKey: hk})
			if tc.wantErr == "" && err != nil {
				t.Fatalf("open: %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if err != nil && (strings.Contains(err.Error(), "nope") || strings.Contains(err.Error(), "correct horse") || strings.Contains(err.Error(), "wrong battery")) {
				t.Fatalf("error shows a secret: %v", err)
			}
		})
	}
}

// agentPriv recovers the raw key behind a signer made by keyPair.
func agentPriv(t *testing.T, s ssh.Signer) any {
	t.Helper()
	k, ok := agentKeys[string(s.PublicKey().Marshal())]
	if !ok {
		t.Fatal("unknown key")
	}
	return k
}

// agentKeys maps a public key to the raw private key keyPair made, for
// loading into the test agent.
var agentKeys = map[string]ed25519.PrivateKey{}

func TestHostKeyChecking(t *testing.T) {
	d, err := sim.Start(context.Background(), sim.Options{Name: "sw1", Platform: model.PlatformEOS,
		Users: map[string]string{"admin": "pw1"}, Faults: sim.Faults{WrongHostKey: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	creds := inventory.Credentials{Username: "admin", Password: inventory.NewSecret("pw1")}
	kh := knownHosts(t, d)
	hk, _ := HostKeyCallback(kh, false)
	err = open(t, d, &SSH{Creds: creds, HostKey: hk})
	if err == nil || !strings.Contains(err.Error(), "knownhosts: key mismatch: ") || !strings.Contains(err.Error(), " offers host key ssh-") ||
		!strings.Contains(err.Error(), " SHA256:") || !strings.Contains(err.Error(), ", not the one "+kh+":1 lists; the connection may be intercepted, or the device was reinstalled") {
		t.Errorf("strict check: err = %v, want key mismatch with the offered key's fingerprint and the known_hosts line", err)
	}
	// A host known_hosts does not list: the offered key and what to do.
	other := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(other, []byte("[192.0.2.1]:22 "+strings.SplitN(d.KnownHostsLine(), " ", 2)[1]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hk, _ = HostKeyCallback(other, false)
	err = open(t, d, &SSH{Creds: creds, HostKey: hk})
	// The exact ssh-keyscan, with the port (review rsre 14d): for a port
	// other than 22 the entry must read [ADDRESS]:PORT, which
	// `ssh-keyscan -p PORT` writes.
	host, port, _ := net.SplitHostPort(d.Addr())
	scan := "then add it: ssh-keyscan -p " + port + " " + host + " >> " + other
	if err == nil || !strings.Contains(err.Error(), "knownhosts: key is unknown: ") || !strings.Contains(err.Error(), "which "+other+" does not list; compare it with the fingerprint on the device's console, "+scan) {
		t.Errorf("unknown host: err = %v\nwant %q", err, scan)
	}
	insecure, _ := HostKeyCallback("", true)
	if err := open(t, d, &SSH{Creds: creds, HostKey: insecure}); err != nil {
		t.Errorf("insecure: %v", err)
	}
	if _, err := HostKeyCallback(filepath.Join(t.TempDir(), "missing"), false); err == nil || !strings.Contains(err.Error(), "--insecure-ignore-host-key") {
		t.Errorf("missing known_hosts: %v", err)
	}
}
