package linux

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestDeviceUnit: the device unit of an interface, escaped as
// systemd-escape --path does; checked against systemd-escape itself when
// it is installed.
func TestDeviceUnit(t *testing.T) {
	tests := []struct{ ifc, want string }{
		{"ens1f0np0", "sys-subsystem-net-devices-ens1f0np0.device"},
		{"eth-1", `sys-subsystem-net-devices-eth\x2d1.device`},
		{"x_y-", `sys-subsystem-net-devices-x_y\x2d.device`},
		{"p9p1.2", "sys-subsystem-net-devices-p9p1.2.device"},
		{".hidden", "sys-subsystem-net-devices-.hidden.device"},
		{"br-lan-0", `sys-subsystem-net-devices-br\x2dlan\x2d0.device`},
		// Never from a validated model; escaped all the same.
		{`a\b c%`, `sys-subsystem-net-devices-a\x5cb\x20c\x25.device`},
	}
	esc, _ := exec.LookPath("systemd-escape")
	for _, tc := range tests {
		if got := deviceUnit(tc.ifc); got != tc.want {
			t.Errorf("deviceUnit(%q) = %q, want %q", tc.ifc, got, tc.want)
		}
		if esc == "" {
			continue
		}
		out, err := exec.Command(esc, "--path", "--suffix=device", "/sys/subsystem/net/devices/"+tc.ifc).Output()
		if err != nil || strings.TrimSpace(string(out)) != tc.want {
			t.Errorf("systemd-escape --path for %q: %q (%v), want %q", tc.ifc, out, err, tc.want)
		}
	}
}

// unitHead is the unit up to its device dependencies.
const unitHead = "# Written by the fabricc host script's --install; its --uninstall removes it.\n[Unit]\n"

// unitRDMA orders a unit of RoCE NICs after the RDMA stack.
const unitRDMA = "# After the RDMA stack's kernel services, as rdma-core prescribes for units\n" +
	"# that use RDMA (rdma-core Documentation/udev.md, \"Systemd Ordering\"); udev\n" +
	"# may still load the RDMA driver later, which the script waits for.\n" +
	"After=rdma-hw.target\n"

// unitOFED orders a unit of MLNX_OFED NICs after openibd.
const unitOFED = "# MLNX_OFED loads its RDMA drivers from openibd.service.\nAfter=openibd.service\n"

// unitNet is the unit from its network ordering on: ordered like a
// network manager, before network-online.target and the RDMA-CM
// consumers (Wants=remote-fs-pre.target, as systemd.special(7) has units
// that must run before remote mounts), bounded by TimeoutStartSec=, no
// claim that the managers cannot overwrite the settings, the boot mark,
// and no Restart=.
const unitNet = "# Ordered like a network manager, since it sets the fabric interfaces' MTUs and\n" +
	"# addresses and needs no other host: after the managers, before\n" +
	"# network-online.target (systemd.special(7), network-online.target; systemd.io,\n" +
	"# \"Running Services After the Network Is Up\"). A manager re-applies its own MTU\n" +
	"# and addresses whenever it reconfigures a link it manages, and this unit does\n" +
	"# not run again: leave the interfaces unmanaged, or give the manager the same.\n" +
	"After=NetworkManager.service systemd-networkd.service\nBefore=network-online.target\n" +
	"# Before the RDMA-CM consumers, which take the default ToS when they connect and\n" +
	"# keep it: remote mounts (systemd.special(7), remote-fs-pre.target), nvme-cli's\n" +
	"# NVMe-oF autoconnect, Lustre's LNet, Slurm's slurmd; absent units are ignored.\n" +
	"Wants=remote-fs-pre.target\n" +
	"Before=remote-fs-pre.target nvmf-autoconnect.service lnet.service slurmd.service\n\n" +
	"[Service]\nType=oneshot\nRemainAfterExit=yes\n" +
	"# Bounded, since other units wait for it: the 60 s wait for the RDMA devices\n" +
	"# and the steps (systemd.service(5), TimeoutStartSec=).\n" +
	"TimeoutStartSec=180\n" +
	"# Tells the script it runs at boot (it waits for the RDMA devices then).\n" +
	"Environment=FABRICC_BOOT_UNIT=1\n" +
	"ExecStart=/usr/local/sbin/fabricc-host-settings\n\n" +
	"[Install]\nWantedBy=multi-user.target\n"

// unitTail is the unit after its device dependencies, for RoCE NICs of
// the inbox driver.
const unitTail = unitRDMA + unitNet

// bootUnitCases are hosts and the unit --install writes for them: the
// interfaces (a VLAN NIC's parent, each once, escaped) and a hostile
// fabric name in Description=; the host's name, hostile or not, is not in
// the unit.
var bootUnitCases = []struct {
	name, fabric, host string
	ifcs               []string
	vlan               int
	want               string
	driver             string          // "inbox" when not given
	transport          model.Transport // RoCE when not given
}{
	{"plain", "demartek-lab", "stor1", []string{"ens2f0np0"}, 0, unitHead +
		"Description=fabricc lossless RoCE host settings, fabric \"demartek-lab\"\n" +
		"# The NICs' interfaces (systemd.device(5)).\n" +
		"Wants=sys-subsystem-net-devices-ens2f0np0.device\nAfter=sys-subsystem-net-devices-ens2f0np0.device\n" + unitTail, "", ""},
	{"VLAN parent, dashes, one interface twice", "lab", "h1", []string{"eth-1", "p9p1", "eth-1"}, 2, unitHead +
		"Description=fabricc lossless RoCE host settings, fabric \"lab\"\n" +
		"# The NICs' interfaces (systemd.device(5)).\n" +
		`Wants=sys-subsystem-net-devices-eth\x2d1.device sys-subsystem-net-devices-p9p1.device` + "\n" +
		`After=sys-subsystem-net-devices-eth\x2d1.device sys-subsystem-net-devices-p9p1.device` + "\n" + unitTail, "", ""},
	{"hostile names", "f%i\n[Service]\nExecStart=/bin/sh", "h\"%%\\\r\u202e\x1b", []string{"fab0"}, 0, unitHead +
		"Description=fabricc lossless RoCE host settings, fabric \"f%%i\\n[Service]\\nExecStart=/bin/sh\"\n" +
		"# The NICs' interfaces (systemd.device(5)).\n" +
		"Wants=sys-subsystem-net-devices-fab0.device\nAfter=sys-subsystem-net-devices-fab0.device\n" + unitTail, "", ""},
	{"name ending in a backslash", `f\`, "h", []string{"fab0"}, 0, unitHead +
		"Description=fabricc lossless RoCE host settings, fabric \"f\\\"\n" +
		"# The NICs' interfaces (systemd.device(5)).\n" +
		"Wants=sys-subsystem-net-devices-fab0.device\nAfter=sys-subsystem-net-devices-fab0.device\n" + unitTail, "", ""},
	{name: "MLNX_OFED: after openibd too", fabric: "f", host: "gpu01", ifcs: []string{"ens1np0", "ens2np0"}, driver: "mlnx_ofed", want: unitHead +
		"Description=fabricc lossless RoCE host settings, fabric \"f\"\n" +
		"# The NICs' interfaces (systemd.device(5)).\n" +
		"Wants=sys-subsystem-net-devices-ens1np0.device sys-subsystem-net-devices-ens2np0.device\n" +
		"After=sys-subsystem-net-devices-ens1np0.device sys-subsystem-net-devices-ens2np0.device\n" + unitRDMA + unitOFED + unitNet},
	{name: "iWARP: no RDMA-CM steps, no RDMA ordering", fabric: "f", host: "h1", ifcs: []string{"fab0"}, transport: model.TransportIWARP, want: unitHead +
		"Description=fabricc lossless RoCE host settings, fabric \"f\"\n" +
		"# The NICs' interfaces (systemd.device(5)).\n" +
		"Wants=sys-subsystem-net-devices-fab0.device\nAfter=sys-subsystem-net-devices-fab0.device\n" + unitNet},
}

// bootHost is the fabric and host of a bootUnitCases entry.
func bootHost(fabric, host string, ifcs []string, vlan int, driver string, tr model.Transport) (*model.Fabric, *model.Host) {
	f := fixture()
	f.Name = fabric
	h := &f.Hosts[2]
	h.Name = host
	h.NICs = nil
	if driver == "" {
		driver = "inbox"
	}
	for i, ifc := range ifcs {
		n := fixtureNIC("roce"+string(rune('0'+i)), ifc, "ConnectX-5", "mellanox", driver, vlan, "192.0.2.1/24")
		if tr != "" {
			n.Transport = tr
		}
		h.NICs = append(h.NICs, n)
	}
	return f, h
}

// TestBootUnit: the unit text, exactly, and in the script's
// boot_unit_text.
func TestBootUnit(t *testing.T) {
	for _, tc := range bootUnitCases {
		t.Run(tc.name, func(t *testing.T) {
			f, h := bootHost(tc.fabric, tc.host, tc.ifcs, tc.vlan, tc.driver, tc.transport)
			got := bootUnit(f, h)
			if got != tc.want {
				t.Errorf("unit:\n%s\nwant:\n%s", got, tc.want)
			}
			s := render(t, f, 2)
			if w := "boot_unit_text() {\n\tcat <<'FABRICC_UNIT'\n" + tc.want + "FABRICC_UNIT\n}\n"; !strings.Contains(s, w) {
				t.Errorf("script lacks\n%s", w)
			}
		})
	}
}

// TestBootUnitVerify has systemd judge each unit: systemd-analyze verify,
// in a mount namespace where /usr/local/sbin holds an executable
// fabricc-host-settings (verify checks ExecStart=).
func TestBootUnitVerify(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed (Debian package systemd)")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: the mount namespace needs root")
	}
	for _, tc := range bootUnitCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sbin := filepath.Join(dir, "sbin")
			if err := os.Mkdir(sbin, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sbin, "fabricc-host-settings"), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			unit := filepath.Join(dir, bootUnitName)
			f, h := bootHost(tc.fabric, tc.host, tc.ifcs, tc.vlan, tc.driver, tc.transport)
			if err := os.WriteFile(unit, []byte(bootUnit(f, h)), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c",
				`mount --bind "$1" /usr/local/sbin && exec "$2" verify --man=no "$3"`, "sh", sbin, sa, unit).CombinedOutput()
			if err != nil || len(out) != 0 {
				t.Errorf("systemd-analyze verify: %v\n%s", err, out)
			}
		})
	}
}

// fakeSystemctl records its calls in $FAKE_CALLS and keeps enable state as
// systemctl does, a symlink in multi-user.target.wants.
const fakeSystemctl = `#!/bin/bash
printf '%s\n' "$*" >>"$FAKE_CALLS"
unit=${*: -1}
wants=/etc/systemd/system/multi-user.target.wants
case $1 in
daemon-reload) ;;
enable)
	[[ -f /etc/systemd/system/$unit ]] || { echo "Unit file $unit does not exist." >&2; exit 1; }
	mkdir -p "$wants" && ln -sf "/etc/systemd/system/$unit" "$wants/$unit" ;;
disable) rm -f "$wants/$unit" ;;
is-enabled) [[ -L $wants/$unit ]] ;;
*) exit 1 ;;
esac
`

// bootRoot is a host's root for --install: directories that stand for
// /run, /etc/systemd/system and /usr/local/sbin in a mount namespace of
// the script's run, and a fake systemctl on PATH.
type bootRoot struct {
	dir, unit, sbin, calls string
	bin                    string // the fake systemctl (fakeBin)
}

// newBootRoot makes the directories; systemd says whether /run/systemd/
// system exists (systemd is running).
func newBootRoot(t *testing.T, systemd bool) *bootRoot {
	t.Helper()
	d := t.TempDir()
	r := &bootRoot{dir: d, unit: filepath.Join(d, "unit"), sbin: filepath.Join(d, "sbin"), calls: filepath.Join(d, "calls")}
	dirs := []string{r.unit, r.sbin, filepath.Join(d, "run")}
	if systemd {
		dirs = append(dirs, filepath.Join(d, "run", "systemd", "system"))
	}
	for _, p := range dirs {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.bin = fakeBin(t, map[string]string{"systemctl": fakeSystemctl})
	if err := os.WriteFile(r.calls, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// run runs script (a file, or -c CMD FILE) with args in network namespace ns and a mount
// namespace where r's directories are /run, /etc/systemd/system and
// /usr/local/sbin; it returns the output and the exit status.
func (r *bootRoot) run(t *testing.T, ns, script string, args ...string) (string, int) {
	t.Helper()
	file := script // the script's file: bash -c CMD FILE runs it from CMD
	if script == "-c" && len(args) > 1 {
		file = args[1]
	}
	argv := append([]string{"netns", "exec", ns, "unshare", "--mount", "--propagation", "private", "bash", "-c",
		`mount --bind "$1"/run /run && mount --bind "$1"/unit /etc/systemd/system && mount --bind "$1"/sbin /usr/local/sbin && shift && exec "$@"`,
		"bash", r.dir, "env", "PATH=" + r.bin + ":" + os.Getenv("PATH"), "FAKE_CALLS=" + r.calls}, hostNameEnv(t, file)...)
	argv = append(append(argv, "bash", script), args...)
	out, err := exec.Command("ip", argv...).CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("ip netns exec: %v\n%s", err, out)
	}
	return string(out), 0
}

// listing is "name mode" for each entry of dir, symlinks as "name -> target".
func listing(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			to, _ := os.Readlink(p)
			b.WriteString(e.Name() + " -> " + to + "\n")
			continue
		}
		b.WriteString(e.Name() + " " + fi.Mode().String() + "\n")
	}
	return b.String()
}

// writeScript writes a script to a file of its own and returns the path.
func writeScript(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "host.linux.sh")
	if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// bootFixture is the host TestNetns applies on fab0 with MTU 9000.
func bootFixture(name string) (*model.Fabric, string) {
	f := fixture()
	f.Name = name
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.1/24")
	n.MTU = 9000
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	return f, "fab0"
}

// mustHave fails the test for each of want that out lacks.
func mustHave(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

// TestNetnsBootInstall runs --install, --check, --install again, --check
// of another build, --dry-run --uninstall and --uninstall (twice) for real
// on a veth pair, with the unit directory, /usr/local/sbin and /run in a
// mount namespace and a fake systemctl: the files written, their modes
// and contents, the systemctl calls, idempotence, and that the settings
// stay after --uninstall.
func TestNetnsBootInstall(t *testing.T) {
	ns := newNetns(t)
	r := newBootRoot(t, true)
	f, _ := bootFixture("demartek-lab")
	s := render(t, f, 2)
	path := writeScript(t, s)
	unitPath, copyPath := filepath.Join(r.unit, bootUnitName), filepath.Join(r.sbin, "fabricc-host-settings")
	wants := filepath.Join(r.unit, "multi-user.target.wants")

	out, rc := r.run(t, ns, path, "--dry-run", "--install")
	mustHave(t, "--dry-run --install", out,
		"would run: ip link set dev fab0 mtu 9000\n",
		"would write: /usr/local/sbin/fabricc-host-settings (mode 0755): a copy of this script (now: absent)\n",
		"would write: /etc/systemd/system/fabricc-host-settings.service (mode 0644) (now: absent):\n    # Written by the fabricc host script's --install; its --uninstall removes it.\n    [Unit]\n",
		"    WantedBy=multi-user.target\nwould run: systemctl daemon-reload\nwould run: systemctl enable fabricc-host-settings.service\n")
	if rc != 0 || listing(t, r.unit)+listing(t, r.sbin) != "" || takeCalls(t, r.calls) != "" {
		t.Fatalf("--dry-run --install: status %d, or it wrote or ran something:\n%s", rc, out)
	}

	out, rc = r.run(t, ns, path, "--install")
	mustHave(t, "--install", out,
		"set fab0 mtu: 1500 -> 9000\n",
		"boot: wrote /usr/local/sbin/fabricc-host-settings (mode 0755): a copy of this script (was: absent)\n"+
			"boot: wrote /etc/systemd/system/fabricc-host-settings.service (mode 0644) (was: absent)\n"+
			"boot: ran systemctl daemon-reload\n"+
			"boot: ran systemctl enable fabricc-host-settings.service\n"+
			"boot: installed: systemd runs /usr/local/sbin/fabricc-host-settings at every boot (fabricc-host-settings.service); --uninstall removes it\n")
	if rc != 0 {
		t.Fatalf("--install: status %d\n%s", rc, out)
	}
	if got, want := takeCalls(t, r.calls), "daemon-reload\nenable fabricc-host-settings.service\n"; got != want {
		t.Errorf("systemctl calls %q, want %q", got, want)
	}
	if got, want := listing(t, r.sbin), "fabricc-host-settings -rwxr-xr-x\n"; got != want {
		t.Errorf("/usr/local/sbin: %q, want %q", got, want)
	}
	if got, want := listing(t, r.unit), "fabricc-host-settings.service -rw-r--r--\nmulti-user.target.wants drwxr-xr-x\n"; got != want {
		t.Errorf("/etc/systemd/system: %q, want %q", got, want)
	}
	if got, want := listing(t, wants), "fabricc-host-settings.service -> /etc/systemd/system/fabricc-host-settings.service\n"; got != want {
		t.Errorf("multi-user.target.wants: %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(copyPath); string(b) != s {
		t.Errorf("the installed copy is not the script")
	}
	if b, _ := os.ReadFile(unitPath); string(b) != bootUnit(f, &f.Hosts[2]) {
		t.Errorf("the unit file is not bootUnit's:\n%s", b)
	}
	before := inodes(t, copyPath, unitPath)

	out, rc = r.run(t, ns, path, "--check")
	if rc != 0 || strings.Contains(out, "DIFF") || strings.Contains(out, "note: boot") || !strings.HasSuffix(out, "fabricc: host matches the model\n") {
		t.Errorf("--check after --install: status %d\n%s", rc, out)
	}
	takeCalls(t, r.calls)

	out, rc = r.run(t, ns, path, "--install")
	mustHave(t, "second --install", out,
		"boot: /usr/local/sbin/fabricc-host-settings is already this script\n"+
			"boot: /etc/systemd/system/fabricc-host-settings.service is already this unit\n"+
			"boot: fabricc-host-settings.service is already enabled\n",
		"fabricc: nothing to do; the host already matches\n")
	if rc != 0 || strings.Contains(out, "\nset ") || strings.Contains(out, "wrote") {
		t.Errorf("second --install: status %d, or it changed something:\n%s", rc, out)
	}
	if got, want := takeCalls(t, r.calls), "is-enabled --quiet fabricc-host-settings.service\n"; got != want {
		t.Errorf("second --install: systemctl calls %q, want %q", got, want)
	}
	if after := inodes(t, copyPath, unitPath); after != before {
		t.Errorf("second --install rewrote the files: inodes %v, then %v", before, after)
	}

	// Another build (another fabric name: the same settings, another
	// script and unit Description) finds the boot unit stale.
	f2, _ := bootFixture("demartek-lab-2")
	out, rc = r.run(t, ns, writeScript(t, render(t, f2, 2)), "--check")
	mustHave(t, "--check of another build", out,
		"DIFF system boot copy /usr/local/sbin/fabricc-host-settings: intended this build; actual another build (run --install)\n"+
			"DIFF system boot unit /etc/systemd/system/fabricc-host-settings.service: intended this build; actual another build (run --install)\n",
		"fabricc: 2 difference(s) from the model\n")
	if rc != 3 {
		t.Errorf("--check of another build: status %d, want 3", rc)
	}

	// A plain run of that other build (no --install) updates what
	// --install wrote, as --install would, and says so: left alone, the
	// next boot would apply the first build's settings. --dry-run shows
	// it first; the unit's enablement is left as it is.
	script2 := writeScript(t, render(t, f2, 2))
	takeCalls(t, r.calls)
	out, rc = r.run(t, ns, script2, "--dry-run")
	mustHave(t, "--dry-run of another build", out,
		"note: boot: fabricc-host-settings.service runs a copy from another build at every boot; this run updates what --install wrote to this build, so the next boot applies these settings (--uninstall removes it)\n"+
			"would write: /usr/local/sbin/fabricc-host-settings (mode 0755): a copy of this script (now: another build)\n"+
			"would write: /etc/systemd/system/fabricc-host-settings.service (mode 0644) (now: another build):\n",
		"    WantedBy=multi-user.target\nwould run: systemctl daemon-reload\nfabricc: 2 change(s) would be made\n")
	if b, _ := os.ReadFile(copyPath); rc != 0 || string(b) != s || takeCalls(t, r.calls) != "" {
		t.Fatalf("--dry-run of another build: status %d, or it wrote or ran something:\n%s", rc, out)
	}
	out, rc = r.run(t, ns, script2)
	if want := "note: boot: fabricc-host-settings.service runs a copy from another build at every boot; this run updates what --install wrote to this build, so the next boot applies these settings (--uninstall removes it)\n" +
		"boot: wrote /usr/local/sbin/fabricc-host-settings (mode 0755): a copy of this script (was: another build)\n" +
		"boot: wrote /etc/systemd/system/fabricc-host-settings.service (mode 0644) (was: another build)\n" +
		"boot: ran systemctl daemon-reload\n" +
		"fabricc: 2 change(s) applied\n"; rc != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("plain run of another build: status %d, want 0 and the output ending\n%s\ngot:\n%s", rc, want, out)
	}
	if got, want := takeCalls(t, r.calls), "daemon-reload\n"; got != want {
		t.Errorf("plain run of another build: systemctl calls %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(copyPath); string(b) != render(t, f2, 2) {
		t.Errorf("the plain run did not install its own copy")
	}
	if got, want := listing(t, r.sbin), "fabricc-host-settings -rwxr-xr-x\n"; got != want {
		t.Errorf("/usr/local/sbin after the plain run: %q, want %q", got, want)
	}
	if out, rc = r.run(t, ns, script2, "--check"); rc != 0 || strings.Contains(out, "DIFF") {
		t.Errorf("--check of the build a plain run updated the boot copy to: status %d\n%s", rc, out)
	}
	if out, rc = r.run(t, ns, script2); rc != 0 || strings.Contains(out, "boot") || !strings.HasSuffix(out, "fabricc: nothing to do; the host already matches\n") {
		t.Errorf("second plain run: status %d, want nothing to do and no boot line:\n%s", rc, out)
	}
	// Read from standard input, the first build cannot copy itself: a
	// warning, and exit status 1 after applying.
	out, rc = r.run(t, ns, "-c", `bash -s <"$0"`, path)
	if want := "warning: boot: /usr/local/sbin/fabricc-host-settings (another build) and /etc/systemd/system/fabricc-host-settings.service (another build) are what --install left; from another build, the next boot applies that build's settings, and this run cannot update them (it is not running from the unedited file fabricc wrote): run bash FILE --install with that file\n" +
		"fabricc: nothing to do; the host already matches\n" +
		"fabricc: the boot copy is from another build (see warning: above)\n"; rc != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("plain run from standard input: status %d, want 1 and the output ending\n%s\ngot:\n%s", rc, want, out)
	}
	if b, _ := os.ReadFile(copyPath); string(b) != render(t, f2, 2) {
		t.Errorf("the run from standard input changed the boot copy")
	}
	// Back to the first build's boot files, for what follows.
	if out, rc = r.run(t, ns, path, "--install"); rc != 0 {
		t.Fatalf("--install of the first build again: status %d\n%s", rc, out)
	}

	// Disabled behind the script's back: a note, not a difference.
	if err := os.Remove(filepath.Join(wants, bootUnitName)); err != nil {
		t.Fatal(err)
	}
	out, rc = r.run(t, ns, path, "--check")
	mustHave(t, "--check, unit disabled", out,
		"note: boot: fabricc-host-settings.service is installed but not enabled, so it does not run at boot (--install enables it)\n")
	if rc != 0 {
		t.Errorf("--check, unit disabled: status %d, want 0\n%s", rc, out)
	}
	takeCalls(t, r.calls)
	out, rc = r.run(t, ns, path, "--install")
	if got, want := takeCalls(t, r.calls), "is-enabled --quiet fabricc-host-settings.service\nenable fabricc-host-settings.service\n"; rc != 0 || got != want {
		t.Errorf("--install of a disabled unit: status %d, calls %q, want %q\n%s", rc, got, want, out)
	}

	out, rc = r.run(t, ns, path, "--dry-run", "--uninstall")
	if want := "would run: systemctl disable fabricc-host-settings.service\n" +
		"would remove: /etc/systemd/system/fabricc-host-settings.service\n" +
		"would run: systemctl daemon-reload\n" +
		"would remove: /usr/local/sbin/fabricc-host-settings\n"; rc != 0 || out != want || takeCalls(t, r.calls) != "" {
		t.Errorf("--dry-run --uninstall: status %d, output\n%s\nwant\n%s", rc, out, want)
	}

	out, rc = r.run(t, ns, path, "--uninstall")
	if want := "boot: ran systemctl disable fabricc-host-settings.service\n" +
		"boot: removed /etc/systemd/system/fabricc-host-settings.service\n" +
		"boot: ran systemctl daemon-reload\n" +
		"boot: removed /usr/local/sbin/fabricc-host-settings\n" +
		"boot: uninstalled: nothing applies these settings at the next boot\n" +
		"fabricc: the settings in force stay as they are\n"; rc != 0 || out != want {
		t.Errorf("--uninstall: status %d, output\n%s\nwant\n%s", rc, out, want)
	}
	if got, want := takeCalls(t, r.calls), "disable fabricc-host-settings.service\ndaemon-reload\n"; got != want {
		t.Errorf("--uninstall: systemctl calls %q, want %q", got, want)
	}
	if got := listing(t, r.sbin) + listing(t, r.unit) + listing(t, wants); got != "multi-user.target.wants drwxr-xr-x\n" {
		t.Errorf("--uninstall left %q", got)
	}
	mustHave(t, "the namespace after --uninstall", linkDump(t, ns), "mtu 9000", "inet 192.0.2.1/24")

	out, rc = r.run(t, ns, path, "--uninstall")
	if want := "boot: /etc/systemd/system/fabricc-host-settings.service and /usr/local/sbin/fabricc-host-settings are not installed; nothing to remove\n" +
		"fabricc: the settings in force stay as they are\n"; rc != 0 || out != want || takeCalls(t, r.calls) != "" {
		t.Errorf("second --uninstall: status %d, output\n%s\nwant\n%s", rc, out, want)
	}
	out, rc = r.run(t, ns, path, "--check")
	mustHave(t, "--check after --uninstall", out,
		"note: boot: fabricc-host-settings.service is not installed: these settings are gone after a reboot unless this script runs at every boot (--install makes systemd run it)\n")
	if rc != 0 {
		t.Errorf("--check after --uninstall: status %d, want 0 (a note only)\n%s", rc, out)
	}
}

// inodes returns the inode numbers of files, to tell a rewrite.
func inodes(t *testing.T, files ...string) [2]uint64 {
	t.Helper()
	var n [2]uint64
	for i, f := range files[:2] {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n[i] = fi.Sys().(*syscall.Stat_t).Ino
	}
	return n
}

// TestNetnsBootInstallRefused: --install writes and runs nothing when it
// cannot install (no systemd: a clear error saying how to run the script
// at boot instead, before anything is applied; the script read from
// standard input, so there is no file to copy) or when the apply fails
// (a missing interface).
func TestNetnsBootInstallRefused(t *testing.T) {
	ns := newNetns(t)
	f, _ := bootFixture("demartek-lab")
	missing, _ := bootFixture("demartek-lab")
	missing.Hosts[2].NICs[0].Interface = "fab9"
	tests := []struct {
		name    string
		systemd bool
		f       *model.Fabric
		stdin   bool
		want    string
	}{
		{"no systemd", false, f, false, "fabricc: error: --install needs systemd (systemctl and /run/systemd/system), which this host does not run; make the settings survive a reboot by running this script as root at every boot from your init system's boot scripts (for example /etc/rc.local), after the network is up\n"},
		{"script on standard input", true, f, true, "fabricc: error: --install copies this script, but it is not running from the unedited file fabricc wrote; run bash FILE --install with that file\n"},
		{"failed apply", true, missing, false, "fabricc: error: interface fab9 not found: load its driver, or fix the nic's interface attribute in the fabric\n" +
			"fabricc: error: --install installs nothing after a failed run; fix the errors above and run --install again\n" +
			"fabricc: 0 change(s) applied; 1 NIC(s) failed, their steps stopped on an error: fab9\n" +
			"fabricc: error: the steps of 1 NIC(s) stopped on an error (see fabricc: error: above; the other NICs' steps ran): fab9\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newBootRoot(t, tc.systemd)
			path := writeScript(t, render(t, tc.f, 2))
			var out string
			var rc int
			if tc.stdin {
				out, rc = r.run(t, ns, "-c", `bash -s -- --install <"$0"`, path)
			} else {
				out, rc = r.run(t, ns, path, "--install")
			}
			if rc != 1 || !strings.HasSuffix(out, tc.want) {
				t.Errorf("status %d, want 1 and the output ending %q:\n%s", rc, tc.want, out)
			}
			if got := listing(t, r.sbin) + listing(t, r.unit) + takeCalls(t, r.calls); got != "" {
				t.Errorf("it installed something: %q", got)
			}
			if strings.Contains(linkDump(t, ns), "mtu 9000") {
				t.Errorf("it applied the MTU before refusing")
			}
		})
	}
}

// TestBootOptions: --install and --uninstall exclude each other and
// --check (exit status 2, before anything runs), and --help names them.
func TestBootOptions(t *testing.T) {
	f, _ := bootFixture("demartek-lab")
	s := render(t, f, 2)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--install", "--uninstall"}, "fabricc: use only one of --install and --uninstall\n"},
		{[]string{"--check", "--install"}, "fabricc: --check reads only; use --install alone or with --dry-run\n"},
		{[]string{"--uninstall", "--check"}, "fabricc: --check reads only; use --uninstall alone or with --dry-run\n"},
	}
	for _, tc := range tests {
		out, err := runScript(t, s, "", tc.args...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || out != tc.want {
			t.Errorf("%v: %v, output %q, want status 2 and %q", tc.args, err, out, tc.want)
		}
	}
	out, err := runScript(t, s, "", "--help")
	mustHave(t, "--help", out,
		"Usage: ", " [--check | --dry-run] [--tuning] [--install | --uninstall]\n       [--any-host] [--changed-exit N] [--print-unit] [--help]\n",
		"  --install    apply as a plain run does; if that succeeds, make it survive\n"+
			"               a reboot: copy this script to /usr/local/sbin/fabricc-host-settings\n",
		"enable the systemd unit fabricc-host-settings.service,\n")
	if err != nil {
		t.Errorf("--help: %v", err)
	}
}

// TestBootTimeoutCoversRDMAWait: the unit's TimeoutStartSec= is the one
// the Go side states, the prelude waits the RDMA_WAIT the unit's comment
// names, and the timeout leaves the steps room after that wait.
func TestBootTimeoutCoversRDMAWait(t *testing.T) {
	f, h := bootHost("f", "h1", []string{"fab0"}, 0, "", "")
	unit := bootUnit(f, h)
	if !strings.Contains(unit, "\nTimeoutStartSec=180\n") {
		t.Errorf("unit lacks TimeoutStartSec=180:\n%s", unit)
	}
	s := render(t, f, 2)
	if !strings.Contains(s, "\nRDMA_WAIT=60\n") || rdmaWaitSec != 60 {
		t.Errorf("script's RDMA_WAIT is not rdmaWaitSec (%d)", rdmaWaitSec)
	}
	if bootTimeoutSec < 2*rdmaWaitSec {
		t.Errorf("TimeoutStartSec=%d leaves the steps less than the RDMA wait (%d s)", bootTimeoutSec, rdmaWaitSec)
	}
}

// TestBootUnitSameForEveryHost: two hosts with the same NICs get the same
// unit, byte for byte, so a shared node image can hold it; --print-unit
// prints it and exits 0 on a host of another name, changing nothing
// (before need_root and host_guard, so an image builder needs neither).
func TestBootUnitSameForEveryHost(t *testing.T) {
	f1, h1 := bootHost("hpc", "cn001", []string{"ens1f0np0"}, 0, "", "")
	f2, h2 := bootHost("hpc", "cn002", []string{"ens1f0np0"}, 0, "", "")
	u1, u2 := bootUnit(f1, h1), bootUnit(f2, h2)
	if u1 != u2 {
		t.Errorf("cn001's unit:\n%s\ncn002's:\n%s", u1, u2)
	}
	if strings.Contains(u1, "cn001") {
		t.Errorf("the unit names its host:\n%s", u1)
	}
	path := writeScript(t, render(t, f1, 2))
	cmd := exec.Command("env", "PATH="+fakeBin(t, nil)+":"+os.Getenv("PATH"), "FAKE_HOSTNAME=cn002", "bash", path, "--print-unit")
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != u1 {
		t.Errorf("--print-unit on cn002: %v\n%s\nwant:\n%s", err, out, u1)
	}
}
