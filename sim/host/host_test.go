package host_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/sim/host"
)

// gpu01 is examples/multivendor-clos's gpu01 script as built: NIC
// ens1f0np0, MTU 9000, address 10.0.1.11/24, no VLAN.
const gpu01 = "../../golden/multivendor-clos/gpu01/gpu01.linux.sh"

var netnsSeq atomic.Int64

// newNetns makes a network namespace holding a veth pair, ifc and
// peer0, ifc up with mtu and addr, removed when the test ends; it skips
// the test where namespaces cannot be made.
func newNetns(t *testing.T, ifc string, mtu int, addr string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: the host simulator runs scripts in a network namespace, which needs root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("ip (iproute2) not installed")
	}
	ns := fmt.Sprintf("fabricc-simhost-%d-%d", os.Getpid(), netnsSeq.Add(1))
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("ip netns not available: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	for _, args := range [][]string{
		{"link", "add", ifc, "mtu", fmt.Sprint(mtu), "type", "veth", "peer", "name", "peer0"},
		{"addr", "add", addr, "dev", ifc},
		{"link", "set", ifc, "up"},
	} {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return ns
}

// keyFile writes a new ed25519 private key for OpenSSH and returns its
// path and public key.
func keyFile(t *testing.T) (string, ssh.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(p, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return p, sp
}

// openssh runs the system's OpenSSH client against h as user with the
// key, the host key checked against a known_hosts file naming h alone,
// and returns its exit status and both outputs.
func openssh(t *testing.T, h *host.Host, key, user, cmd string, stdin []byte) (int, string, string) {
	t.Helper()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(kh, []byte(h.KnownHostsLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr, port, _ := strings.Cut(h.Addr(), ":")
	args := []string{"-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + kh,
		"-o", "GlobalKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-i", key, "-p", port, "-T", user + "@" + addr}
	if cmd != "" {
		args = append(args, cmd)
	}
	c := exec.Command("ssh", args...)
	var out, errb bytes.Buffer
	c.Stdin, c.Stdout, c.Stderr = bytes.NewReader(stdin), &out, &errb
	err := c.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("ssh: %v", err)
	}
	return c.ProcessState.ExitCode(), out.String(), errb.String()
}

// TestOpenSSHClient judges the simulator by the system's OpenSSH
// client: the script sent on standard input of `bash -s -- --check` runs
// in the namespace under the host's name (Options.Hostname), with the
// output and exit status a run of the same command in the namespace
// gives (0 when the veth matches the model, 3 with the DIFF line when its
// MTU differs, or when the host has another name); sudo -n, a login that is not
// root, a missing bash and any other command or a shell answer as the
// simulator's documentation says.
func TestOpenSSHClient(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no OpenSSH client (ssh)")
	}
	ns := newNetns(t, "ens1f0np0", 9000, "10.0.1.11/24")
	script, err := os.ReadFile(gpu01)
	if err != nil {
		t.Fatal(err)
	}
	key, pub := keyFile(t)
	h, err := host.Start(context.Background(), host.Options{Netns: ns, AuthorizedKeys: []ssh.PublicKey{pub},
		Users: map[string]string{"root": "x", "ops": "x", "guest": "x"}, Sudoers: []string{"ops"}, Hostname: "gpu01"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	direct := func() (int, string) {
		c := exec.Command("ip", "netns", "exec", ns, "unshare", "--uts", "sh", "-c",
			`printf gpu01 >/proc/sys/kernel/hostname && exec bash -s -- --check`)
		c.Stdin = bytes.NewReader(script)
		out, _ := c.Output()
		return c.ProcessState.ExitCode(), string(out)
	}
	code, stdout, stderr := openssh(t, h, key, "root", "bash -s -- --check", script)
	wantCode, wantOut := direct()
	if code != 0 || wantCode != 0 || stdout != wantOut || !strings.HasSuffix(stdout, "\nfabricc: host matches the model\n") || stderr != "" {
		t.Errorf("matching veth: exit %d, want 0 (direct run %d)\n%s\nstderr: %s\ndirect:\n%s", code, wantCode, stdout, stderr, wantOut)
	}
	if !strings.Contains(stdout, "skipped: ens1f0np0: mlnx_qos (MLNX_OFED DCB) (virtual device; only a real NIC's driver offers it)\n") {
		t.Errorf("the DCB steps are not reported skipped on a veth:\n%s", stdout)
	}

	if out, err := exec.Command("ip", "-n", ns, "link", "set", "ens1f0np0", "mtu", "1500").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	code, stdout, _ = openssh(t, h, key, "ops", "sudo -n bash -s -- --check", script)
	wantCode, wantOut = direct()
	if code != 3 || wantCode != 3 || stdout != wantOut || !strings.Contains(stdout, "DIFF ens1f0np0 mtu: intended 9000; actual 1500\n") ||
		!strings.HasSuffix(stdout, "\nfabricc: 1 difference(s) from the model\n") {
		t.Errorf("MTU 1500 through sudo: exit %d, want 3 (direct run %d)\n%s\ndirect:\n%s", code, wantCode, stdout, wantOut)
	}

	for _, tc := range []struct {
		user, cmd string
		code      int
		stderr    string
	}{
		{"guest", "sudo -n bash -s -- --check", 1, "sudo: a password is required\n"},
		{"guest", "bash -s -- --check", 1, "fabricc: error: run as root (or use --dry-run to only print the commands)\n"},
		{"root", "uname -a", 127, `sim/host: refused "uname -a": the simulated host runs only ` + "`bash -s -- --check` and `sh -s -- --check`, perhaps after `sudo -n`\n"},
		{"root", "bash -s -- --check; id", 127, `sim/host: refused "bash -s -- --check; id"`},
		{"root", "bash -s -- --dry-run", 127, `sim/host: refused "bash -s -- --dry-run"`},
	} {
		code, stdout, stderr := openssh(t, h, key, tc.user, tc.cmd, script)
		if code != tc.code || !strings.HasPrefix(stderr, tc.stderr) || stdout != "" {
			t.Errorf("%s: %q: exit %d, stderr %q, stdout %q; want exit %d, stderr %q", tc.user, tc.cmd, code, stderr, stdout, tc.code, tc.stderr)
		}
	}
	// A shell (ssh without a command) is refused: the client says so and
	// fails.
	if code, stdout, stderr := openssh(t, h, key, "root", "", nil); code != 255 || stdout != "" || !strings.Contains(stderr, "shell request failed") {
		t.Errorf("a shell: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	nobash, err := host.Start(context.Background(), host.Options{Netns: ns, AuthorizedKeys: []ssh.PublicKey{pub},
		Users: map[string]string{"root": "x"}, Missing: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	defer nobash.Close()
	if code, stdout, stderr := openssh(t, nobash, key, "root", "bash -s -- --check", script); code != 127 || stderr != "sh: 1: bash: not found\n" || stdout != "" {
		t.Errorf("no bash: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	// Another host's name (Options.Hostname): the script reports it.
	gpu02, err := host.Start(context.Background(), host.Options{Netns: ns, AuthorizedKeys: []ssh.PublicKey{pub},
		Users: map[string]string{"root": "x"}, Hostname: "gpu02"})
	if err != nil {
		t.Fatal(err)
	}
	defer gpu02.Close()
	if code, stdout, _ := openssh(t, gpu02, key, "root", "bash -s -- --check", script); code != 3 || !strings.Contains(stdout, "DIFF system host name: intended gpu01; actual gpu02\n") {
		t.Errorf("host named gpu02: exit %d, want 3 and the host name difference:\n%s", code, stdout)
	}
	want := []string{"bash -s -- --check", "sudo -n bash -s -- --check", "sudo -n bash -s -- --check", "bash -s -- --check", "uname -a", "bash -s -- --check; id", "bash -s -- --dry-run"}
	if got := h.Commands(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("commands received %q, want %q", got, want)
	}
}
