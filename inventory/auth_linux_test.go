//go:build linux

package inventory

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// roSecretEnv hands TestLooseSecretAdvice's child the read-only folder.
const roSecretEnv = "FABRICC_TEST_RO_SECRET"

// TestLooseSecretAdvice: a secret file readable by others is refused
// with advice that works where it is: chmod for a file this process may
// change; for a file on a read-only mount (a Kubernetes Secret volume is
// a read-only tmpfs with defaultMode 0644), the pod spec's defaultMode
// or an environment variable instead.
func TestLooseSecretAdvice(t *testing.T) {
	if dir := os.Getenv(roSecretEnv); dir != "" {
		_, err := (&Device{Name: "leaf2", Auth: AuthSource{Kind: AuthPasswordFile, Ref: filepath.Join(dir, "leaf2")}}).Credentials()
		os.Stdout.WriteString("roerr: " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n")
		return
	}
	dir := t.TempDir()
	own := filepath.Join(dir, "leaf2")
	if err := os.WriteFile(own, []byte("s3cret\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	_, err := (&Device{Name: "leaf2", Auth: AuthSource{Kind: AuthPasswordFile, Ref: own}}).Credentials()
	want := "device leaf2: password file: " + own + " is readable by its group or others (mode 0640); run chmod 600 " + own
	if err == nil || err.Error() != want {
		t.Errorf("own file: %v\nwant %s", err, want)
	}

	ro := filepath.Join(dir, "secret-volume")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	// What the kubelet does for a Secret volume, in a mount namespace of
	// its own so that nothing outside sees the mount.
	script := `mount -t tmpfs fabricc-test "$D" && printf 's3cret\n' > "$D/leaf2" && chmod 0644 "$D/leaf2" && mount -o remount,ro "$D" && exec "$0" -test.run='^TestLooseSecretAdvice$'`
	cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), "D="+ro, roSecretEnv+"="+ro)
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "unshare") {
		t.Skipf("cannot mount a read-only tmpfs here (unshare -m needs root): %v %s", err, out)
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "s3cret") {
		t.Fatal("the message holds the secret")
	}
	f := filepath.Join(ro, "leaf2")
	want = "roerr: device leaf2: password file: " + f + " is readable by its group or others (mode 0644) and chmod cannot change that here: it is on a read-only file system. " +
		"If it is a mounted secret, mount it with mode 0400 or 0600 (Kubernetes: defaultMode: 0400 on the secret volume); " +
		"or give the secret in an environment variable instead (password_env, passphrase_env, enable_password_env)"
	if !strings.Contains(string(out), want+"\n") {
		t.Errorf("file on a read-only mount:\n%s\nwant\n%s", out, want)
	}
}
