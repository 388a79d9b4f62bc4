package linux

import (
	"errors"
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
	argv := append(append([]string{"env", "PATH=" + fakeBin(t, nil) + ":" + os.Getenv("PATH")}, hostNameEnv(t, script)...), "bash", path)
	argv = append(argv, args...)
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
		vlanIf string // the nic's vlan_interface
		driver string
		checks []string
	}{
		{"untagged, inbox dcb", 0, "", "inbox", []string{
			"set fab0 mtu: 1500 -> 9000\n",
			"set fab0 address 192.0.2.1/24: absent -> present\n",
			"skipped: fab0: DCB (dcbnl)",
			"skipped: fab0: RDMA device",
		}},
		{"VLAN 2, MLNX_OFED", 2, "", "mlnx_ofed", []string{
			"set fab0.2 vlan: absent -> 802.1Q id 2 on fab0\n",
			"set fab0.2 address 192.0.2.1/24: absent -> present\n",
			"skipped: fab0: mlnx_qos (MLNX_OFED DCB)",
			"skipped: fab0: DCQCN sysfs",
		}},
		// vlan_interface names the VLAN device: the script makes, checks
		// and addresses vl2, not fab0.2.
		{"VLAN 2 named vl2, inbox dcb", 2, "vl2", "inbox", []string{
			"set vl2 vlan: absent -> 802.1Q id 2 on fab0\n",
			"set vl2 mtu: 1500 -> 9000\n",
			"set vl2 address 192.0.2.1/24: absent -> present\n",
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
			n.VLANInterface = tc.vlanIf
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
			if vl := n.VLANName(); tc.vlan != 0 && !strings.Contains(dump, " "+vl+"@fab0: ") {
				t.Errorf("no VLAN interface %s on fab0 after apply:\n%s", vl, dump)
			}
			if tc.vlanIf != "" && strings.Contains(dump, "fab0.2") {
				t.Errorf("vlan_interface %s: the default name fab0.2 was made too:\n%s", tc.vlanIf, dump)
			}
			// The skipped steps were not checked, and the summary says so
			// on the line before the one fabricc verify reads.
			// (--check also skips carrier and speed, which a run does not read.)
			out, err = runScript(t, s, ns, "--check")
			skipped := strings.Count("\n"+out, "\nskipped: ")
			partly := fmt.Sprintf("fabricc: %d step(s) skipped (see skipped: lines above); in what could be checked:\nfabricc: host matches the model\n", skipped)
			if err != nil || skipped == 0 || !strings.HasSuffix(out, partly) || !strings.Contains(out, "skipped: fab0: carrier and speed (virtual device; only a real NIC negotiates a speed)\n") {
				t.Fatalf("--check after apply: %v; want it to end %q:\n%s", err, partly, out)
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

// TestNetnsStaleAddresses: global addresses the model does not list on the
// NIC's interface (the model's address with a stale prefix length, another
// IPv4 address, an IPv6 one) are differences, which --dry-run shows as ip
// addr del and a run removes; a link-local address and the addresses of
// an interface the model does not name stay.
func TestNetnsStaleAddresses(t *testing.T) {
	ns := newNetns(t)
	for _, a := range [][]string{
		{"192.0.2.1/16", "fab0"}, {"198.51.100.99/24", "fab0"}, {"2001:db8::5/64", "fab0"},
		{"fe80::1234/64", "fab0"}, {"198.51.100.7/24", "fab1"},
	} {
		if out, err := exec.Command("ip", "-n", ns, "addr", "add", a[0], "dev", a[1], "nodad").CombinedOutput(); err != nil {
			t.Fatalf("ip addr add %s: %v: %s", a[0], err, out)
		}
	}
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.1/24")
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	s := render(t, f, 2)

	stale := []string{"192.0.2.1/16", "198.51.100.99/24", "2001:db8::5/64"}
	out, err := runScript(t, s, ns, "--check")
	for _, a := range stale {
		if w := "DIFF fab0 address " + a + ": intended absent; actual present\n"; !strings.Contains(out, w) {
			t.Errorf("--check lacks %q", w)
		}
	}
	if err == nil || strings.Contains(out, "fe80") || strings.Contains(out, "198.51.100.7") {
		t.Errorf("--check: err %v, want exit 1 and no line for fe80::1234 or fab1's address:\n%s", err, out)
	}
	out, err = runScript(t, s, ns, "--dry-run")
	for _, a := range stale {
		if w := "would run: ip addr del " + a + " dev fab0\n"; err != nil || !strings.Contains(out, w) {
			t.Errorf("--dry-run (err %v) lacks %q:\n%s", err, w, out)
		}
	}
	if out, err = runScript(t, s, ns); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	dump := linkDump(t, ns)
	for _, a := range stale {
		if strings.Contains(dump, " "+a+" ") {
			t.Errorf("apply left %s:\n%s", a, dump)
		}
	}
	for _, w := range []string{"inet 192.0.2.1/24 ", "inet6 fe80::1234/64 ", "inet 198.51.100.7/24 "} {
		if !strings.Contains(dump, w) {
			t.Errorf("namespace lacks %q after apply:\n%s", w, dump)
		}
	}
	if out, err = runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after apply: %v\n%s", err, out)
	}
}

// TestNetnsVLANWithout8021q runs a VLAN host's script where the kernel
// cannot make VLAN interfaces: ip link add fails ("Error: Unknown device
// type.", status 2), and the script must stop with status 1 and a
// fabricc: error line naming the interface, the step and the command.
func TestNetnsVLANWithout8021q(t *testing.T) {
	ns := newNetns(t)
	if out, err := exec.Command("ip", "-n", ns, "link", "add", "link", "fab0", "name", "probe.9", "type", "vlan", "id", "9").CombinedOutput(); err == nil {
		t.Skipf("this kernel has 8021q; TestEnsureFailure covers the failing step with a fake ip: %s", out)
	}
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 2, "192.0.2.1/24")
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	out, err := runScript(t, render(t, f, 2), ns)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("apply: %v, want exit status 1:\n%s", err, out)
	}
	w := "fabricc: error: fab0.2 vlan: ip link add link fab0 name fab0.2 type vlan id 2 egress-qos-map 0:0 1:0 2:3 3:3 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 failed with exit status 2\n"
	if !strings.Contains(out, w) {
		t.Errorf("apply output lacks %q:\n%s", w, out)
	}
}

// TestNetnsDynamicAddresses: an address with a finite lifetime ("dynamic"
// in ip addr, as SLAAC and DHCP clients add them), IPv4 and IPv6, is not
// a --check difference and survives a run; a permanent stale address next
// to it is still a difference and is removed.
func TestNetnsDynamicAddresses(t *testing.T) {
	ns := newNetns(t)
	for _, a := range [][]string{
		{"198.51.100.20/24", "valid_lft", "3600", "preferred_lft", "3600"},
		{"2001:db8::20/64", "valid_lft", "3600", "preferred_lft", "3600"},
		{"198.51.100.99/24"},
	} {
		argv := append([]string{"-n", ns, "addr", "add", a[0], "dev", "fab0", "nodad"}, a[1:]...)
		if out, err := exec.Command("ip", argv...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(argv, " "), err, out)
		}
	}
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.1/24")
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	s := render(t, f, 2)

	out, _ := runScript(t, s, ns, "--check")
	if w := "DIFF fab0 address 198.51.100.99/24: intended absent; actual present\n"; !strings.Contains(out, w) {
		t.Errorf("--check lacks %q:\n%s", w, out)
	}
	for _, a := range []string{"198.51.100.20", "2001:db8::20"} {
		if strings.Contains(out, a) {
			t.Errorf("--check reports the dynamic address %s:\n%s", a, out)
		}
	}
	if out, err := runScript(t, s, ns); err != nil || strings.Contains(out, "198.51.100.20") || strings.Contains(out, "2001:db8::20") {
		t.Fatalf("apply: %v, or it touched a dynamic address:\n%s", err, out)
	}
	dump := linkDump(t, ns)
	for _, w := range []string{"inet 198.51.100.20/24 ", "inet6 2001:db8::20/64 ", "inet 192.0.2.1/24 "} {
		if !strings.Contains(dump, w) {
			t.Errorf("namespace lacks %q after apply:\n%s", w, dump)
		}
	}
	if strings.Contains(dump, "198.51.100.99") {
		t.Errorf("apply left the permanent stale 198.51.100.99/24:\n%s", dump)
	}
	if out, err := runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after apply: %v\n%s", err, out)
	}
}

// TestNetnsBridgeMember runs the script on a NIC that is a port of a
// bridge (/sys/class/net/fab0/master, as for a bond or team member):
// --check reports it, and a run stops before it touches the NIC.
func TestNetnsBridgeMember(t *testing.T) {
	ns := newNetns(t)
	for _, c := range [][]string{{"link", "add", "br0", "type", "bridge"}, {"link", "set", "fab0", "master", "br0"}} {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, c...)...).CombinedOutput(); err != nil {
			t.Skipf("ip %s: %v: %s", strings.Join(c, " "), err, out)
		}
	}
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.1/24")
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	s := render(t, f, 2)
	out, err := runScript(t, s, ns, "--check")
	if err == nil || !strings.Contains(out, "DIFF fab0 port role: intended a port of its own; actual a member of br0\n") || strings.Contains(out, "DIFF fab0 mtu") {
		t.Errorf("--check: %v\n%s", err, out)
	}
	before := linkDump(t, ns)
	out, err = runScript(t, s, ns)
	const stop = "fabricc: error: fab0 port role is a member of br0, not a port of its own: fabricc does not configure bonds, teams or bridges (README, Scope): configure br0 by hand, or take fab0 out of it or out of the fabric\n"
	if err == nil || !strings.Contains(out, stop) {
		t.Errorf("run: %v, want %q:\n%s", err, stop, out)
	}
	if after := linkDump(t, ns); after != before {
		t.Errorf("the run changed the bridge member:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
