package linux

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeSys is a stand-in for the parts of /sys a NIC step reads: tmpfs
// mounts over the given directories, in a mount namespace of the test's
// own (unshare), then files with their content and symbolic links.
type fakeSys struct {
	mounts []string          // directories to cover with an empty tmpfs
	files  map[string]string // path -> content ("" and a trailing / make a directory)
	links  map[string]string // path -> target
}

// run runs the prelude and body with bash inside the fake /sys, as the
// script would with args; it returns the combined output and error.
func (fs fakeSys) run(t *testing.T, body string, args ...string) (string, error) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: the mount namespace needs root")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare (util-linux) not installed")
	}
	var setup []string
	for _, m := range fs.mounts {
		setup = append(setup, "mkdir -p "+m+" && mount -t tmpfs none "+m)
	}
	for _, p := range slices.Sorted(maps.Keys(fs.files)) {
		if strings.HasSuffix(p, "/") {
			setup = append(setup, "mkdir -p "+p)
			continue
		}
		setup = append(setup, "mkdir -p "+filepath.Dir(p)+" && printf '%s' '"+fs.files[p]+"' >"+p)
	}
	for _, p := range slices.Sorted(maps.Keys(fs.links)) {
		setup = append(setup, "mkdir -p "+filepath.Dir(p)+" && ln -s "+fs.links[p]+" "+p)
	}
	file := filepath.Join(t.TempDir(), "steps.sh")
	if err := os.WriteFile(file, []byte("set -euo pipefail\n"+allPrelude()+"\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := strings.Join(append(setup, `exec bash "$0" "$@"`), " && ")
	argv := append([]string{"--mount", "--propagation", "private", "bash", "-c", cmd, file}, args...)
	out, err := exec.Command("unshare", argv...).CombinedOutput()
	return string(out), err
}

// fakePCI stands for /sys/devices/pci...: inside the tmpfs on
// /sys/class/net, so nothing is left behind.
const fakePCI = "/sys/class/net/.pci"

// nic is a real NIC fab0 at PCI 0000:3b:00.0 under /sys/class/net (tmpfs),
// with the given extra files.
func nic(extra map[string]string) map[string]string {
	f := map[string]string{fakePCI + "/0000:3b:00.0/": ""}
	for k, v := range extra {
		f[k] = v
	}
	return f
}

// nicLink makes /sys/class/net/fab0/device the NIC's PCI device.
var nicLink = map[string]string{"/sys/class/net/fab0/device": fakePCI + "/0000:3b:00.0"}

// TestLinkCheck: --check reads carrier and negotiated speed (Mb/s) on a
// real NIC against the model's 100000 and reports a difference a run
// cannot repair, with what to check; a run and --dry-run read neither; a
// virtual device says the step was skipped.
func TestLinkCheck(t *testing.T) {
	const cable = "check the cable or transceiver, the switch port's speed and breakout, and autonegotiation (ethtool fab0)"
	tests := []struct {
		name    string
		carrier string // "" no file
		speed   string
		virtual bool
		mode    string
		want    string
	}{
		{"100G up", "1\n", "100000\n", false, "--check", ""},
		{"came up at 25G", "1\n", "25000\n", false, "--check",
			"DIFF fab0 speed (Mb/s): intended 100000; actual 25000\nmanual: fab0: the link came up at 25000 Mb/s, which a run cannot fix: " + cable + "\n"},
		{"no carrier", "0\n", "", false, "--check",
			"DIFF fab0 carrier: intended up; actual down\nmanual: fab0: no link, which a run cannot fix: check the cable or transceiver, the switch port (enabled, speed, breakout) and autonegotiation (ethtool fab0)\n"},
		{"run reads neither", "0\n", "", false, "", ""},
		{"dry run reads neither", "0\n", "", false, "--dry-run", ""},
		{"virtual device", "0\n", "", true, "--check", "skipped: fab0: carrier and speed (virtual device; only a real NIC negotiates a speed)\n"},
		// A NIC whose speed the model does not know: carrier only.
		{"no model speed", "1\n", "25000\n", false, "--check", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			extra := map[string]string{}
			if tc.carrier != "" {
				extra["/sys/class/net/fab0/carrier"] = tc.carrier
			}
			if tc.speed != "" {
				extra["/sys/class/net/fab0/speed"] = tc.speed
			}
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: nic(extra), links: nicLink}
			if tc.virtual {
				fs.links = nil
			}
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nlink_check fab0 100000\n"
			if tc.name == "no model speed" {
				body = "link_check fab0\n"
			}
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, err := fs.run(t, body, args...)
			if err != nil || out != tc.want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}

// TestNICGuard: a bond, team or bridge member (/sys/class/net/IF/master)
// and an SR-IOV virtual function (device/physfn) stop that NIC's steps:
// --check reports the difference, --dry-run notes that a run would stop,
// a run stops with the reason and what to do.
func TestNICGuard(t *testing.T) {
	const bond = "fabricc does not configure bonds, teams or bridges (README, Scope): configure bond0 by hand, or take fab0 out of it or out of the fabric"
	master := func(ports string) string {
		return "fabricc does not configure bonds, teams, bridges or RoCE LAG (README, Scope; MLNX_OFED user manual, RoCE LAG): fab0 has no PFC, trust or ETS of its own, its ports' count, and lossless traffic would run with PFC off: set PFC, trust and ETS on " + ports + " by hand, or leave fab0 out of the fabric"
	}
	teamLinks := map[string]string{"/sys/class/net/fab0/lower_p0": "../p0", "/sys/class/net/fab0/lower_p1": "../p1",
		"/sys/class/net/p0/master": "../fab0", "/sys/class/net/p1/master": "../fab0"}
	const vf = "a VF has no DCB of its own (PFC, ETS and trust are the physical function's): name the physical function's interface in the fabric, or leave the VF out"
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string
		mode  string
		want  string
	}{
		{"port of its own", nic(nil), nicLink, "--check", "next\n"},
		{"bond member, check", nic(map[string]string{"/sys/class/net/bond0/": ""}),
			map[string]string{"/sys/class/net/fab0/device": fakePCI + "/0000:3b:00.0", "/sys/class/net/fab0/master": "../bond0"},
			"--check", "DIFF fab0 port role: intended a port of its own; actual a member of bond0\n"},
		{"bond member, dry run", nic(map[string]string{"/sys/class/net/bond0/": ""}),
			map[string]string{"/sys/class/net/fab0/device": fakePCI + "/0000:3b:00.0", "/sys/class/net/fab0/master": "../bond0"},
			"--dry-run", "note: fab0 port role is a member of bond0, not a port of its own: a run would stop here; " + bond + "\n"},
		{"bond member, run", nic(map[string]string{"/sys/class/net/bond0/": ""}),
			map[string]string{"/sys/class/net/fab0/device": fakePCI + "/0000:3b:00.0", "/sys/class/net/fab0/master": "../bond0"},
			"", "fabricc: error: fab0 port role is a member of bond0, not a port of its own: " + bond + "\n"},
		{"virtual function, check", nic(map[string]string{fakePCI + "/0000:3b:00.0/physfn/": ""}), nicLink,
			"--check", "DIFF fab0 port role: intended a physical function; actual an SR-IOV virtual function\n"},
		{"virtual function, run", nic(map[string]string{fakePCI + "/0000:3b:00.0/physfn/": ""}), nicLink,
			"", "fabricc: error: fab0 port role is an SR-IOV virtual function, not a physical function: " + vf + "\n"},
		// RoCE LAG's bond0 named as the NIC: the bond's slaves file names
		// its ports; a run stops (counted as a failed NIC), --check differs.
		{"bond master, check", map[string]string{"/sys/class/net/fab0/bonding/slaves": "ens1f0np0 ens1f1np1\n"}, nil,
			"--check", "DIFF fab0 port role: intended a port of its own; actual a bond over ens1f0np0 ens1f1np1\n"},
		{"bond master, dry run", map[string]string{"/sys/class/net/fab0/bonding/slaves": "ens1f0np0 ens1f1np1\n"}, nil,
			"--dry-run", "note: fab0 port role is a bond over ens1f0np0 ens1f1np1, not a port of its own: a run would stop here; " + master("ens1f0np0 ens1f1np1") + "\n"},
		{"bond master, run", map[string]string{"/sys/class/net/fab0/bonding/slaves": "ens1f0np0 ens1f1np1\n"}, nil,
			"", "fabricc: error: fab0 port role is a bond over ens1f0np0 ens1f1np1, not a port of its own: " + master("ens1f0np0 ens1f1np1") + "\n"},
		{"bond master without slaves", map[string]string{"/sys/class/net/fab0/bonding/slaves": "\n"}, nil,
			"--check", "DIFF fab0 port role: intended a port of its own; actual a bond over no ports\n"},
		// A team has no sysfs directory of its own: its ports' master
		// links point back at it through its lower_PORT links.
		{"team master, run", map[string]string{"/sys/class/net/p0/": "", "/sys/class/net/p1/": ""}, teamLinks,
			"", "fabricc: error: fab0 port role is a team over p0 p1, not a port of its own: " + master("p0 p1") + "\n"},
		{"bridge master, check", map[string]string{"/sys/class/net/p0/": "", "/sys/class/net/p1/": "", "/sys/class/net/fab0/bridge/": ""}, teamLinks,
			"--check", "DIFF fab0 port role: intended a port of its own; actual a bridge over p0 p1\n"},
		// A VLAN device on p0 has a lower_p0 link too, but p0 has no master.
		{"vlan on a port", map[string]string{"/sys/class/net/p0/": ""}, map[string]string{"/sys/class/net/fab0/lower_p0": "../p0"},
			"--check", "next\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: tc.files, links: tc.links}
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nnic_guard fab0 || exit 0\necho next\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, _ := fs.run(t, body, args...)
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}

// TestRDMAFix: a real NIC without an RDMA device stops the RDMA-CM step
// with what is wrong: the RDMA driver is not loaded (no
// /sys/module/mlx5_ib), or it is and this port has no device yet.
func TestRDMAFix(t *testing.T) {
	tests := []struct {
		name   string
		loaded bool
		want   string
	}{
		{"driver not loaded", false, "fabricc: error: fab0 RDMA device is unsupported, not supported: the RDMA driver is not loaded: modprobe mlx5_ib (with MLNX_OFED: systemctl start openibd), then run again\n"},
		{"no device yet", true, "fabricc: error: fab0 RDMA device is unsupported, not supported: mlx5_ib is loaded, but there is no RDMA device for this port yet: wait until rdma link show lists fab0, then run again\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := nic(nil)
			if tc.loaded {
				files["/sys/module/mlx5_ib/"] = ""
			}
			fs := fakeSys{mounts: []string{"/sys/class/net", "/sys/module"}, files: files, links: nicLink}
			out, _ := fs.run(t, "roce_cm fab0 'RoCE v2' 104 mlx5_ib\n")
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}

// cnpFiles is an inbox mlx5_ib debugfs for fab0's device with the CNP
// marking dscp, prio (np_cnp_prio_mode 0: in use), and a lockdown file.
func cnpFiles(dscp, prio, lockdown string) map[string]string {
	d := "/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/"
	return nic(map[string]string{d + "np_cnp_dscp": dscp, d + "np_cnp_prio": prio, d + "np_cnp_prio_mode": "0\n",
		"/sys/kernel/security/lockdown": lockdown})
}

// TestInboxCNP runs the inbox CNP steps as writeCNP writes them. Where the
// fabric's CNP class is the firmware default (48/6), the marking is read
// from mlx5_ib's debugfs and a difference (firmware set otherwise with
// mlxconfig) is a DIFF; where debugfs cannot be read (kernel lockdown) the
// step is skipped, not stated as fact. A CNP class of the fabric's own
// that lockdown keeps from being set stops with the reason and the
// mlxconfig way. debugfs is mounted when it is not.
func TestInboxCNP(t *testing.T) {
	const def = "debugfs_mount \"$ifc\"\nif cnp_readable \"$ifc\" 48 6; then\n\tcnp_debugfs \"$ifc\" 48 6\nfi\n"
	const own = "debugfs_mount \"$ifc\"\nif capable \"$ifc\" \"CNP marking (mlx5 debugfs cc_params)\" \"$(cnp_fix \"$ifc\" 46 6)\" cc_params_ready \"$ifc\"; then\n\tcnp_debugfs \"$ifc\" 46 6\nfi\n"
	const mlxconfig = "or set it in firmware: mlxconfig -d 0000:3b:00.0 set CNP_DSCP_P1=%s CNP_802P_PRIO_P1=6, then mlxfwreset or a reboot"
	debug := []string{"/sys/class/net", "/sys/kernel/debug", "/sys/kernel/security"}
	tests := []struct {
		name   string
		mounts []string
		files  map[string]string
		steps  string
		mode   string
		want   string
	}{
		{"default class, firmware marks 46", debug, cnpFiles("46\n", "6\n", "[none] integrity confidentiality\n"), def, "--check",
			"DIFF fab0 CNP DSCP: intended 48; actual 46\nend\n"},
		{"default class, as the firmware default", debug, cnpFiles("48\n", "6\n", "[none] integrity confidentiality\n"), def, "--check", "end\n"},
		{"default class, lockdown", debug, cnpFiles("48\n", "6\n", "none [integrity] confidentiality\n"), def, "--check",
			"skipped: fab0: CNP marking, wanted DSCP 48 priority 6, the firmware default, not read: kernel lockdown (integrity, as UEFI Secure Boot sets it) refuses debugfs (kernel_lockdown(7)); " + strings.Replace(mlxconfig, "%s", "48", 1) + "\nend\n"},
		{"own class, lockdown, run", debug, cnpFiles("48\n", "6\n", "none integrity [confidentiality]\n"), own, "",
			"fabricc: error: fab0 CNP marking (mlx5 debugfs cc_params) is unsupported, not supported: kernel lockdown (confidentiality, as UEFI Secure Boot sets it) refuses debugfs (kernel_lockdown(7)); " + strings.Replace(mlxconfig, "%s", "46", 1) + "\n"},
		{"own class, debugfs not mounted", []string{"/sys/class/net", "/sys/kernel"}, nic(map[string]string{"/sys/kernel/debug/": ""}), own, "--dry-run",
			"would run: mount -t debugfs none /sys/kernel/debug\nnote: fab0 CNP marking (mlx5 debugfs cc_params) is unsupported, not supported: a run would stop here; debugfs is not mounted (mount -t debugfs none /sys/kernel/debug); " + strings.Replace(mlxconfig, "%s", "46", 1) + "\nend\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeSys{mounts: tc.mounts, files: tc.files, links: nicLink}
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nifc=fab0\n" + tc.steps + "echo end\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, _ := fs.run(t, body, args...)
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}

// fakeIPVRF is an ip(8) that knows two masters: vrf-blue, a VRF with
// table 10, printed as Linux Documentation/networking/vrf.rst ("List
// VRFs") shows ip -d link show, and bond0, a bond; any other device does
// not exist.
const fakeIPVRF = `#!/bin/bash
case "$*" in
"-d link show dev vrf-blue")
	printf '%s\n' '16: vrf-blue: <NOARP,MASTER,UP,LOWER_UP> mtu 65536 qdisc noqueue state UP mode DEFAULT group default qlen 1000' \
		'    link/ether 9e:9c:8e:7b:32:a4 brd ff:ff:ff:ff:ff:ff promiscuity 0' \
		'    vrf table 10 addrgenmode eui64' ;;
"-d link show dev bond0")
	printf '%s\n' '7: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000' \
		'    link/ether 9e:9c:8e:7b:32:a5 brd ff:ff:ff:ff:ff:ff promiscuity 0' \
		'    bond mode 802.3ad miimon 100 updelay 0 downdelay 0 addrgenmode eui64' ;;
*)
	echo "Device \"${*: -1}\" does not exist." >&2
	exit 1 ;;
esac
`

// TestNICGuardVRF: a NIC enslaved to a VRF stops its steps with what is
// true of a VRF (its routes are the VRF table's, the script's go to the
// main table and the NIC's own), not the bond message; a bond member
// keeps the bond message.
func TestNICGuardVRF(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "ip"), []byte(fakeIPVRF), 0o755); err != nil {
		t.Fatal(err)
	}
	const fix = "take fab0 out of the VRF (ip link set dev fab0 nomaster) or leave this NIC out of the fabric"
	const enslaved = "enslaved to VRF vrf-blue (ip -d link show vrf-blue: a vrf device, table 10)"
	vrf := map[string]string{"/sys/class/net/fab0/device": fakePCI + "/0000:3b:00.0", "/sys/class/net/fab0/master": "../vrf-blue"}
	bond := map[string]string{"/sys/class/net/fab0/device": fakePCI + "/0000:3b:00.0", "/sys/class/net/fab0/master": "../bond0"}
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string
		table string
		mode  string
		want  string
	}{
		{"routed NIC in a VRF, check", nic(map[string]string{"/sys/class/net/vrf-blue/": ""}), vrf, "1001", "--check",
			"DIFF fab0 port role: intended a port of its own; actual " + enslaved + "\n"},
		{"routed NIC in a VRF, run", nic(map[string]string{"/sys/class/net/vrf-blue/": ""}), vrf, "1001", "",
			"fabricc: error: fab0 port role is " + enslaved + ", not a port of its own: the script's routes go to the main table and table 1001, not the VRF's (table 10); " + fix + "\n"},
		{"NIC without a route in a VRF, run", nic(map[string]string{"/sys/class/net/vrf-blue/": ""}), vrf, "", "",
			"fabricc: error: fab0 port role is " + enslaved + ", not a port of its own: fabricc configures fab0 for the main routing table, not a VRF's; " + fix + "\n"},
		{"bond member, run", nic(map[string]string{"/sys/class/net/bond0/": ""}), bond, "1001", "",
			"fabricc: error: fab0 port role is a member of bond0, not a port of its own: fabricc does not configure bonds, teams or bridges (README, Scope): configure bond0 by hand, or take fab0 out of it or out of the fabric\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: tc.files, links: tc.links}
			body := "PATH=" + bin + ":$PATH\nMODE=${1:-apply}; MODE=${MODE#--}\nnic_guard fab0 " + tc.table + " || exit 0\necho next\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, _ := fs.run(t, body, args...)
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}
