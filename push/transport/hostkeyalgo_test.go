package transport

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricc/fabricc/inventory"
)

// TestKnownKeyOfEitherType: a server with an ed25519 and an ECDSA host
// key (as Debian's sshd on Cumulus Linux has) is accepted whichever of
// the two known_hosts lists, as OpenSSH accepts it; a key the file does
// not list is still refused as possibly intercepted.
func TestKnownKeyOfEitherType(t *testing.T) {
	edSigner, _ := keyPair(t, "")
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecSigner, err := ssh.NewSignerFromKey(ecKey)
	if err != nil {
		t.Fatal(err)
	}
	otherSigner, _ := keyPair(t, "")
	cfg := &ssh.ServerConfig{PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		return nil, nil
	}}
	cfg.AddHostKey(edSigner)
	cfg.AddHostKey(ecSigner)
	addr := serveSSH(t, cfg, func(chans <-chan ssh.NewChannel) {
		for nc := range chans {
			_ = nc.Reject(ssh.Prohibited, "no sessions")
		}
	})
	dial := func(known ssh.PublicKey) error {
		t.Helper()
		path := filepath.Join(t.TempDir(), "known_hosts")
		line := knownhosts.Line([]string{knownhosts.Normalize(addr)}, known) + "\n"
		if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		hk, err := HostKeyCallback(path, false)
		if err != nil {
			t.Fatal(err)
		}
		tr := &SSH{Creds: inventory.Credentials{Username: "ops", Password: inventory.NewSecret("pw")}, HostKey: hk}
		c, err := tr.Dial(context.Background(), addr, 5*time.Second)
		if err == nil {
			c.Close()
		}
		return err
	}
	for name, key := range map[string]ssh.PublicKey{"ed25519": edSigner.PublicKey(), "ECDSA": ecSigner.PublicKey()} {
		if err := dial(key); err != nil {
			t.Errorf("known_hosts lists the %s key: %v", name, err)
		}
	}
	if err := dial(otherSigner.PublicKey()); err == nil || !strings.Contains(err.Error(), "the connection may be intercepted") {
		t.Errorf("known_hosts lists another key: %v, want the interception warning", err)
	}
}
