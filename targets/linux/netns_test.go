package linux

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// runScript runs a generated script with bash, inside network namespace ns
// when ns is not empty, and returns its combined output.
func runScript(t *testing.T, script, ns string, args ...string) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "host.linux.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{"bash", path}, args...)
	if ns != "" {
		argv = append([]string{"ip", "netns", "exec", ns}, argv...)
	}
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	return string(out), err
}

// newNetns creates a namespace with a veth pair fab0/fab1, removed when the
// test ends; it skips the test when that is impossible here.
func newNetns(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: network namespace tests need root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("ip (iproute2) not installed")
	}
	ns := fmt.Sprintf("fabricc-linux-%d", os.Getpid())
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("ip netns not available: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	if out, err := exec.Command("ip", "-n", ns, "link", "add", "fab0", "type", "veth", "peer", "name", "fab1").CombinedOutput(); err != nil {
		t.Fatalf("veth: %v: %s", err, out)
	}
	return ns
}

// linkDump is what the script may change: links with details, addresses.
func linkDump(t *testing.T, ns string) string {
	t.Helper()
	a, err := exec.Command("ip", "-n", ns, "-d", "link", "show").CombinedOutput()
	if err != nil {
		t.Fatalf("ip link show: %v: %s", err, a)
	}
	b, err := exec.Command("ip", "-n", ns, "addr", "show").CombinedOutput()
	if err != nil {
		t.Fatalf("ip addr show: %v: %s", err, b)
	}
	return string(a) + string(b)
}

// TestNetns runs the script for real on a veth pair: link, VLAN, egress
// map, MTU and address apply; --check then passes; a second run changes
// nothing. The driver-only steps must report themselves skipped.
func TestNetns(t *testing.T) {
	tests := []struct {
		name   string
		vlan   int
		driver string
		checks []string
	}{
		{"untagged, inbox dcb", 0, "inbox", []string{
			"set fab0 mtu: 1500 -> 9000\n",
			"set fab0 address 192.0.2.1/24: absent -> present\n",
			"skipped: fab0: DCB (dcbnl)",
			"skipped: fab0: RDMA device",
		}},
		{"VLAN 2, MLNX_OFED", 2, "mlnx_ofed", []string{
			"set fab0.2 vlan: absent -> 802.1Q id 2 on fab0\n",
			"set fab0.2 address 192.0.2.1/24: absent -> present\n",
			"skipped: fab0: mlnx_qos (MLNX_OFED DCB)",
			"skipped: fab0: DCQCN sysfs",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ns := newNetns(t)
			if tc.vlan != 0 {
				out, err := exec.Command("ip", "-n", ns, "link", "add", "link", "fab0", "name", "probe.9", "type", "vlan", "id", "9").CombinedOutput()
				if err != nil {
					t.Skipf("this kernel cannot create VLAN interfaces (8021q): %s", strings.TrimSpace(string(out)))
				}
				_ = exec.Command("ip", "-n", ns, "link", "del", "probe.9").Run()
			}
			f := fixture()
			n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", tc.driver, tc.vlan, "192.0.2.1/24")
			n.MTU = 9000
			f.Hosts[2].NICs = []model.NIC{n}
			f.Hosts[2].Tuning = false
			s := render(t, f, 2)

			out, err := runScript(t, s, ns, "--check")
			if err == nil || !strings.Contains(out, "DIFF fab0 mtu: intended 9000; actual 1500\n") {
				t.Fatalf("--check before apply: err %v, want exit 1 and the MTU difference:\n%s", err, out)
			}
			out, err = runScript(t, s, ns)
			if err != nil {
				t.Fatalf("apply: %v\n%s", err, out)
			}
			for _, w := range tc.checks {
				if !strings.Contains(out, w) {
					t.Errorf("apply output lacks %q:\n%s", w, out)
				}
			}
			dump := linkDump(t, ns)
			for _, w := range []string{"mtu 9000", "inet 192.0.2.1/24"} {
				if !strings.Contains(dump, w) {
					t.Errorf("namespace lacks %q after apply:\n%s", w, dump)
				}
			}
			if tc.vlan != 0 && !strings.Contains(dump, "egress-qos-map { 2:3 3:3 }") {
				t.Errorf("VLAN egress map not applied:\n%s", dump)
			}
			if out, err = runScript(t, s, ns, "--check"); err != nil || !strings.Contains(out, "fabricc: host matches the model\n") {
				t.Fatalf("--check after apply: %v\n%s", err, out)
			}
			out, err = runScript(t, s, ns)
			if err != nil || !strings.Contains(out, "fabricc: nothing to do; the host already matches\n") || strings.Contains(out, "\nset ") {
				t.Fatalf("second run changed something: %v\n%s", err, out)
			}
			if again := linkDump(t, ns); again != dump {
				t.Errorf("second run changed the namespace:\nbefore:\n%s\nafter:\n%s", dump, again)
			}
			if out, err = runScript(t, s, ns, "--dry-run"); err != nil || !strings.Contains(out, "fabricc: nothing to do\n") {
				t.Errorf("dry run after apply: %v\n%s", err, out)
			}
		})
	}
}
