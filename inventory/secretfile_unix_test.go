//go:build unix

package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSecretFileRefusals: a private key readable by others draws the same
// refusal as a password file, and neither may be a FIFO, a device or an
// oversized file (each would hang or exhaust memory).
func TestSecretFileRefusals(t *testing.T) {
	dir := t.TempDir()
	looseKey := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(looseKey, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, maxSecretBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		auth AuthSource
		want string
	}{
		{AuthSource{Kind: AuthPrivateKey, Ref: looseKey}, "device leaf1: private key: " + looseKey + " is readable by its group or others (mode 0644); run chmod 600 " + looseKey},
		{AuthSource{Kind: AuthPasswordFile, Ref: fifo}, "device leaf1: password file: " + fifo + " is not a regular file (p---------); give the file that holds the secret"},
		{AuthSource{Kind: AuthPrivateKey, Ref: "/dev/zero"}, "device leaf1: private key: /dev/zero is not a regular file (Dc---------); give the file that holds the secret"},
		{AuthSource{Kind: AuthPasswordFile, Ref: big}, fmt.Sprintf("device leaf1: password file: %s is %d bytes; a secret file holds at most %d", big, maxSecretBytes+1, maxSecretBytes)},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := (&Device{Name: "leaf1", Auth: tc.auth}).Credentials()
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: err %v, want %q", tc.auth.Ref, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading the secret blocked", tc.auth.Ref)
		}
	}
}

// TestLoadRegularFileOnly: an inventory path that is a device or a FIFO is
// refused at once instead of blocking or filling memory.
func TestLoadRegularFileOnly(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "inv.hcl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", fifo} {
		done := make(chan string, 1)
		go func() {
			_, _, diags := Load(p)
			done <- diags.Error()
		}()
		select {
		case got := <-done:
			if !strings.Contains(got, "Not a regular file") {
				t.Errorf("Load(%s) = %s, want a refusal", p, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) blocked", p)
		}
	}
}
