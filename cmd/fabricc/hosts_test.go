package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim/host"
)

// simHost is one host of a test's inventory: the namespace the test made
// for it, the simulator, and its inventory block's own lines.
type simHost struct {
	name  string
	ifc   string
	mtu   int
	addr  string
	user  string
	block string // more attributes: platform, sudo, groups
	// setup are more `ip -n NS` commands, run after ifc is made.
	setup [][]string
	opts  host.Options
	sim   *host.Host
}

var hostNetnsSeq atomic.Int64

// hostNetns makes a network namespace holding a veth pair, ifc (up,
// with mtu and addr, when addr is set) and peer0, then runs setup's ip
// commands in it; it is removed when the test ends. It skips the test
// where namespaces cannot be made (not root, no ip, no netns).
func hostNetns(t *testing.T, ifc string, mtu int, addr string, setup ...[]string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: the host simulator runs scripts in a network namespace, which needs root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("ip (iproute2) not installed")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("setpriv (util-linux) not installed")
	}
	ns := fmt.Sprintf("fabricc-verify-%d-%d", os.Getpid(), hostNetnsSeq.Add(1))
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("ip netns not available: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	cmds := [][]string{{"link", "add", ifc, "mtu", fmt.Sprint(mtu), "type", "veth", "peer", "name", "peer0"}, {"link", "set", ifc, "up"}}
	if addr != "" {
		cmds = append(cmds, []string{"addr", "add", addr, "dev", ifc})
	}
	for _, args := range append(cmds, setup...) {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput(); err != nil {
			if slices.Contains(args, "vlan") {
				t.Skipf("this kernel cannot make VLAN interfaces (8021q): ip %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
			}
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return ns
}

// hostInventory starts a simulator for each host, in its own namespace,
// and writes dir/inventory.hcl, dir/known_hosts and one 0600 password
// file per host; it returns the inventory's path and the passwords.
func hostInventory(t *testing.T, hosts []*simHost) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var inv, kh strings.Builder
	inv.WriteString("known_hosts = \"known_hosts\"\n\ndefaults {\n  command_timeout = \"30s\"\n}\n")
	var secrets []string
	for i, h := range hosts {
		pw := fmt.Sprintf("pw-%s-%d-%d", h.name, os.Getpid(), i)
		secrets = append(secrets, pw)
		if h.user == "" {
			h.user = "root"
		}
		h.opts.Netns = hostNetns(t, h.ifc, h.mtu, h.addr, h.setup...)
		h.opts.Users = map[string]string{h.user: pw}
		h.opts.Hostname = h.name
		s, err := host.Start(context.Background(), h.opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		h.sim = s
		secret := filepath.Join(dir, "secrets", h.name)
		if err := os.MkdirAll(filepath.Dir(secret), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(secret, []byte(pw+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		addr, port, _ := strings.Cut(s.Addr(), ":")
		fmt.Fprintf(&inv, "\ndevice %q {\n  address       = %q\n  port          = %s\n  username      = %q\n  password_file = %q\n%s}\n",
			h.name, addr, port, h.user, filepath.Join("secrets", h.name), h.block)
		kh.WriteString(s.KnownHostsLine() + "\n")
	}
	p := filepath.Join(dir, "inventory.hcl")
	writeFile(t, p, inv.String())
	writeFile(t, filepath.Join(dir, "known_hosts"), kh.String())
	return p, secrets
}

// lines are the lines of out that start with one of the prefixes.
func lines(out string, prefixes ...string) []string {
	var got []string
	for _, l := range strings.Split(out, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				got = append(got, l)
				break
			}
		}
	}
	return got
}

// TestVerifyHosts: verify checks the inventory's hosts with their own
// scripts' --check in the simulators' namespaces: gpu01's veth is as the
// model says (verified), stor01's MTU is 1500 where the model says 9000
// (the exact DIFF line, exit 1); the hosts are in the summary table, the
// JSON report and --report, with their notes, and no secret is printed.
// --limit picks a host by its group; push and diff leave hosts alone.
func TestVerifyHosts(t *testing.T) {
	gpu01 := &simHost{name: "gpu01", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.11/24", block: "  platform      = \"linux\"\n  groups        = [\"gpus\"]\n"}
	stor01 := &simHost{name: "stor01", ifc: "ens2f0np0", mtu: 1500, addr: "10.0.1.15/24", block: "  groups        = [\"storage\"]\n"}
	inv, secrets := hostInventory(t, []*simHost{gpu01, stor01})
	report := filepath.Join(t.TempDir(), "verify.json")

	code, stdout, stderr := fabricc(t, "verify", clos, "-i", inv, "--report", report)
	if code != 2 {
		t.Errorf("verify: exit %d, want 2\n%s\n%s", code, stdout, stderr)
	}
	want := []string{
		"DIFF stor01 ens2f0np0 mtu: intended 9000, actual 1500",
		"gpu01   linux     verified  yes",
		"stor01  linux     mismatch  no",
		"verify: 2 devices: 1 verified, 1 mismatch",
	}
	got := lines(stdout, "DIFF ", "gpu01 ", "stor01 ", "verify: ")
	for i := range got {
		if i < len(want) && strings.HasPrefix(got[i], want[i]) {
			got[i] = want[i]
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verify printed\n%s\nwant\n%s\nall of it:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout)
	}
	for _, w := range []string{
		"1 difference, first: stor01 ens2f0np0 mtu: intended 9000, actual 1500; 7 notes below\n",
		"host gpu01: skipped: ens1f0np0: mlnx_qos (MLNX_OFED DCB) (virtual device; only a real NIC's driver offers it)\n",
		"host stor01: skipped: ens2f0np0: DCB (dcbnl) (virtual device; only a real NIC's driver offers it)\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("verify's output lacks %q:\n%s", w, stdout)
		}
	}
	// The hosts the inventory does not list are named, without changing
	// the exit status; --require-hosts makes them an error (exit 1).
	if w := "hosts not checked: 22 of 24 hosts of the fabric: not in the inventory: gpu02, gpu03, gpu04, gpu05, gpu06 and 17 more\nverify: 2 devices: "; !strings.Contains(stdout, w) {
		t.Errorf("verify's output lacks %q:\n%s", w, stdout)
	}
	code, _, stderr = fabricc(t, "verify", clos, "-i", inv, "--require-hosts")
	if w := "fabricc: --require-hosts: 22 hosts of the fabric not checked (gpu02, gpu03, gpu04, gpu05, gpu06, ...): add them to the inventory, or widen --limit\n"; code != 1 || !strings.Contains(stderr, w) {
		t.Errorf("verify --require-hosts: exit %d, want 1 and %q:\n%s", code, w, stderr)
	}
	for _, h := range []*simHost{gpu01, stor01} {
		if c := h.sim.Commands(); strings.Join(c, "|") != "bash -s -- --check|bash -s -- --check" {
			t.Errorf("%s received %q", h.name, c)
		}
	}

	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep push.Report
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Devices) != 2 {
		t.Fatalf("report: %v\n%s", err, data)
	}
	g, s := rep.Devices[0], rep.Devices[1]
	if !g.Host || g.Platform != "linux" || g.Status != "verified" || !g.Verified || strings.Join(g.Commands, "|") != "bash -s -- --check" || len(g.Notes) == 0 {
		t.Errorf("gpu01 in the report: %+v", g)
	}
	if d := s.Differences; s.Status != "mismatch" || len(d) != 1 || d[0].Device != "stor01" || d[0].Port != "ens2f0np0" || d[0].Field != "mtu" || d[0].Intended != "9000" || d[0].Actual != "1500" {
		t.Errorf("stor01 in the report: %+v", s)
	}
	for _, pw := range secrets {
		if strings.Contains(stdout+stderr+string(data), pw) {
			t.Errorf("a host's password was printed")
		}
	}

	code, stdout, stderr = fabricc(t, "verify", clos, "-i", inv, "--limit", "gpus", "--json")
	var env struct {
		Diagnostics []struct{ Severity, Summary string } `json:"diagnostics"`
		Result      push.Report                          `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 || len(env.Result.Devices) != 1 || env.Result.Devices[0].Device != "gpu01" {
		t.Errorf("verify --limit gpus --json: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	const left = "23 of 24 hosts of fabric multivendor-clos not checked: not in the inventory: gpu02, gpu03, gpu04, gpu05, gpu06 and 17 more; left out by --limit: stor01"
	if d := env.Diagnostics; len(d) != 1 || d[0].Severity != "warning" || d[0].Summary != left {
		t.Errorf("verify --limit gpus --json: diagnostics %+v, want one warning %q", d, left)
	}
	if h := env.Result.HostsNotChecked; env.Result.FabricHosts != 24 || len(h) != 23 || h[0] != (push.HostNotChecked{Host: "gpu02", Why: "not in the inventory"}) ||
		h[15] != (push.HostNotChecked{Host: "stor01", Why: "--limit"}) || h[22].Host != "stor08" {
		t.Errorf("verify --limit gpus --json: hosts_not_checked %+v", h)
	}
	if c := stor01.sim.Commands(); len(c) != 2 {
		t.Errorf("--limit gpus reached stor01: %q", c)
	}

	for _, cmd := range []string{"push", "diff"} {
		// Hosts alone select no switch: a push to nothing is refused,
		// as a --limit term that matches nothing is.
		code, stdout, stderr = fabricc(t, cmd, clos, "-i", inv)
		if code != 1 || !strings.Contains(stderr, "note: 2 hosts of the inventory (gpu01, stor01) are left alone: "+cmd+" never changes a host; fabricc verify checks them\n") ||
			!strings.Contains(stderr, "the inventory lists no switch of the fabric; "+cmd+" changes switches only (fabricc verify checks hosts)") {
			t.Errorf("%s with hosts only: exit %d\n%s\n%s", cmd, code, stdout, stderr)
		}
		code, _, stderr = fabricc(t, cmd, clos, "-i", inv, "--limit", "gpu01")
		if code != 1 || !strings.Contains(stderr, "note: 1 host of the inventory (gpu01) is left alone: ") ||
			!strings.Contains(stderr, `--limit "gpu01" selects no switch; `+cmd+` changes switches only`) {
			t.Errorf("%s --limit gpu01: exit %d\n%s", cmd, code, stderr)
		}
	}
	if c := gpu01.sim.Commands(); len(c) != 3 {
		t.Errorf("push or diff reached gpu01: %q", c)
	}
}

// TestVerifyHostFailures: a check that cannot run is failed, with the
// error the host printed: sudo -n refused, no bash, a login that is not
// root without sudo. A host without sudo's NOPASSWD runs nothing.
func TestVerifyHostFailures(t *testing.T) {
	hosts := []*simHost{
		{name: "gpu01", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.11/24", user: "ops", block: "  sudo          = true\n"},
		{name: "gpu02", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.12/24", opts: host.Options{Missing: []string{"bash"}}},
		{name: "gpu03", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.13/24", user: "ops"},
		{name: "gpu04", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.14/24", user: "ops", block: "  sudo          = true\n", opts: host.Options{Sudoers: []string{"ops"}}},
	}
	inv, _ := hostInventory(t, hosts)
	code, stdout, stderr := fabricc(t, "verify", clos, "-i", inv)
	if code != 1 {
		t.Errorf("verify: exit %d, want 1\n%s", code, stderr)
	}
	for _, w := range []string{
		"gpu01   linux     failed    no",
		"the check exited with status 1: sudo: a password is required\n",
		"gpu02   linux     failed    no",
		"the check exited with status 127: sh: 1: bash: not found\n",
		"gpu03   linux     failed    no",
		"the check exited with status 1: fabricc: error: run as root (or use --dry-run to only print the commands)\n",
		"gpu04   linux     verified  yes",
		"verify: 4 devices: 1 verified, 3 failed\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("verify's output lacks %q:\n%s", w, stdout)
		}
	}
	for i, want := range []string{"sudo -n bash -s -- --check", "bash -s -- --check", "bash -s -- --check", "sudo -n bash -s -- --check"} {
		if c := hosts[i].sim.Commands(); strings.Join(c, "|") != want {
			t.Errorf("%s received %q, want %q", hosts[i].name, c, want)
		}
	}
}

// TestVerifyHostHostileText: what a host prints reaches the terminal
// escaped. Its ethtool (a stand-in on the PATH of the simulated host)
// answers `ethtool -a` with escape sequences, which the script reads as
// the link pause setting: the DIFF line shows them as \x1b and \a, and
// the JSON report keeps the raw text.
func TestVerifyHostHostileText(t *testing.T) {
	tools := t.TempDir()
	writeFile(t, filepath.Join(tools, "ethtool"), "#!/bin/sh\nprintf 'Pause parameters for %s:\\nAutonegotiate:\\toff\\nRX:\\t\\033]0;owned\\007\\033[2J\\nTX:\\toff\\n' \"$2\"\n")
	if err := os.Chmod(filepath.Join(tools, "ethtool"), 0o755); err != nil {
		t.Fatal(err)
	}
	gpu01 := &simHost{name: "gpu01", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.11/24", opts: host.Options{Path: tools}}
	inv, _ := hostInventory(t, []*simHost{gpu01})
	code, stdout, stderr := fabricc(t, "verify", clos, "-i", inv)
	want := `DIFF gpu01 ens1f0np0 link pause: intended autoneg off rx off tx off, actual autoneg off rx \x1b]0;owned\a\x1b[2J tx off` + "\n"
	if code != 2 || !strings.Contains(stdout, want) {
		t.Errorf("verify: exit %d, want 2 and %q\n%s\n%s", code, want, stdout, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
		t.Errorf("a host's control characters reached the terminal raw:\n%q", stdout)
	}
	code, stdout, _ = fabricc(t, "verify", clos, "-i", inv, "--json")
	var env struct {
		Result push.Report `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 2 || len(env.Result.Devices) != 1 ||
		len(env.Result.Devices[0].Differences) != 1 || env.Result.Devices[0].Differences[0].Actual != "autoneg off rx \x1b]0;owned\x07\x1b[2J tx off" {
		t.Errorf("verify --json: exit %d, %v\n%s", code, err, stdout)
	}
}

// TestVerifyHostArtifacts: from a build folder, verify sends the host the
// script the folder holds; an edited host script is refused, naming the
// file, before any host is reached.
func TestVerifyHostArtifacts(t *testing.T) {
	gpu01 := &simHost{name: "gpu01", ifc: "ens1f0np0", mtu: 9000, addr: "10.0.1.11/24"}
	inv, _ := hostInventory(t, []*simHost{gpu01})
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := fabricc(t, "build", clos, "-o", out); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	if code, stdout, stderr := fabricc(t, "verify", "--artifacts", out, "-i", inv); code != 0 || !strings.Contains(stdout, "verify: 1 device: 1 verified\n") {
		t.Fatalf("verify --artifacts: exit %d\n%s\n%s", code, stdout, stderr)
	}
	script := filepath.Join(out, "gpu01", "gpu01.linux.sh")
	f, err := os.OpenFile(script, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("echo 'fabricc: host matches the model'; exit 0\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr := fabricc(t, "verify", "--artifacts", out, "-i", inv)
	if code != 1 || !strings.Contains(stderr, script+": changed after `fabricc build`") {
		t.Errorf("verify --artifacts of an edited host script: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if c := gpu01.sim.Commands(); len(c) != 1 {
		t.Errorf("the host was reached with the edited script: %q", c)
	}
}

// TestVerifyFreeBSDHost: a FreeBSD host's check is `sh -s -- --check`.
// The simulator runs it with this machine's sh (dash), on Linux, so what
// the script reads here is no FreeBSD host's (no kldstat: the mlx4en
// module reads absent); the test proves the command, the shell and the
// reading of its output, not the FreeBSD readings, which
// targets/freebsd's tests check. A Windows host is refused before any
// host is reached.
func TestVerifyFreeBSDHost(t *testing.T) {
	nas := &simHost{name: "nas", ifc: "mlxen0", mtu: 9000, addr: "10.20.0.1/24", block: "  platform      = \"freebsd\"\n"}
	inv, _ := hostInventory(t, []*simHost{nas})
	const homelab = "../../examples/homelab-40g"
	code, stdout, stderr := fabricc(t, "verify", homelab, "-i", inv)
	if code != 2 || !strings.Contains(stdout, "DIFF nas system module mlx4en: intended loaded, actual absent\n") ||
		!strings.Contains(stdout, "nas     freebsd   mismatch  no") || !strings.Contains(stdout, "host nas: manual: mlxen0: RoCE needs a kernel built with 'options OFED'") {
		t.Errorf("verify of a FreeBSD host: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The Windows host is named with the check to run on it, and does
	// not fail --require-hosts, which cannot check it either.
	if w := "hosts not checked: 1 of 2 hosts of the fabric: Windows, which fabricc cannot check over SSH: workstation (run workstation.windows.ps1 -Check on it)\n"; !strings.Contains(stdout, w) {
		t.Errorf("verify's output lacks %q:\n%s", w, stdout)
	}
	if code, stdout, stderr := fabricc(t, "verify", homelab, "-i", inv, "--require-hosts"); code != 2 {
		t.Errorf("verify --require-hosts with only a Windows host unchecked: exit %d, want 2\n%s\n%s", code, stdout, stderr)
	}
	if c := nas.sim.Commands(); strings.Join(c, "|") != "sh -s -- --check|sh -s -- --check" {
		t.Errorf("nas received %q", c)
	}
	writeFile(t, inv, strings.Replace(readFile(t, inv), "device \"nas\"", "device \"workstation\" {\n  address = \"192.0.2.10\"\n  username = \"x\"\n  agent = true\n}\n\ndevice \"nas\"", 1))
	code, stdout, stderr = fabricc(t, "verify", homelab, "-i", inv)
	if code != 1 || !strings.Contains(stderr, "workstation is a Windows host, and fabricc checks only Linux and FreeBSD hosts over SSH (a Windows host's script is PowerShell); run workstation.windows.ps1 -Check on the host instead") {
		t.Errorf("verify with a Windows host: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if c := nas.sim.Commands(); len(c) != 2 {
		t.Errorf("a refused inventory reached nas: %q", c)
	}
}

// TestVerifyHostVLAN: the Linux script reads the host's VLAN interface
// as the kernel has it. iser-target (examples/demartek-lab) tags RoCE on
// VLAN 2, p9p1.2 on p9p1 with egress map 2:3 3:3: with that VLAN made in
// its namespace it verifies (where the kernel has 8021q; skipped
// otherwise). On a host where p9p1.2 is instead a veth whose peer is
// named with an escape sequence, the script reports what it found, the
// peer's name as the parent, and that name reaches the terminal escaped.
func TestVerifyHostVLAN(t *testing.T) {
	const demartek = "../../examples/demartek-lab"
	t.Run("hostile parent name", func(t *testing.T) {
		h := &simHost{name: "iser-target", ifc: "p9p1", mtu: 1500, setup: [][]string{
			{"link", "add", "p9p1.2", "type", "veth", "peer", "name", "e\x1b[7mX"},
			{"link", "set", "p9p1.2", "up"},
			{"addr", "add", "192.168.2.41/24", "dev", "p9p1.2"},
		}}
		inv, _ := hostInventory(t, []*simHost{h})
		code, stdout, stderr := fabricc(t, "verify", demartek, "-i", inv, "--limit", "iser-target")
		got := lines(stdout, "DIFF ")
		want := []string{`DIFF iser-target p9p1.2 vlan: intended 802.1Q id 2 on p9p1, actual 802.1Q id none on e\x1b[7mX`}
		if code != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("verify: exit %d, DIFF lines\n%s\nwant\n%s\n%s\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"), stdout, stderr)
		}
		if strings.ContainsAny(stdout+stderr, "\x1b") {
			t.Errorf("a host's interface name reached the terminal raw")
		}
	})
	t.Run("VLAN as the model says", func(t *testing.T) {
		h := &simHost{name: "iser-target", ifc: "p9p1", mtu: 1500, setup: [][]string{
			{"link", "add", "link", "p9p1", "name", "p9p1.2", "type", "vlan", "id", "2", "egress-qos-map", "2:3", "3:3"},
			{"link", "set", "p9p1.2", "up"},
			{"addr", "add", "192.168.2.41/24", "dev", "p9p1.2"},
		}}
		inv, _ := hostInventory(t, []*simHost{h})
		if code, stdout, stderr := fabricc(t, "verify", demartek, "-i", inv, "--limit", "iser-target"); code != 0 || !strings.Contains(stdout, "verify: 1 device: 1 verified\n") {
			t.Errorf("verify: exit %d\n%s\n%s", code, stdout, stderr)
		}
	})
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
