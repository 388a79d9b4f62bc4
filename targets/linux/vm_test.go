package linux

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
)

// vmCase is one host script TestVM runs inside the VM, on a veth pair
// fab0/fab1 in a namespace of its own.
type vmCase struct {
	name   string // directory and namespace name: letters, digits, dashes
	driver string
	vlan   int
	skips  []string // the driver-only steps a veth must report skipped
}

// vmPause is skipped on both: the VM has no ethtool, and veth has no
// pause settings either.
const vmPause = "skipped: fab0: pause settings (ethtool -a) (virtual device; only a real NIC's driver offers it)"

var vmCases = []vmCase{
	{"ofed-vlan2", "mlnx_ofed", 2, []string{
		vmPause,
		"skipped: fab0: mlnx_qos (MLNX_OFED DCB) (virtual device; only a real NIC's driver offers it)",
		"skipped: fab0: RDMA device (virtual device; only a real NIC's driver offers it)",
		"skipped: fab0: DCQCN sysfs (ecn/roce_np, ecn/roce_rp) (virtual device; only a real NIC's driver offers it)",
	}},
	// The VM has iproute2's dcb: the dcbnl probe really runs on the veth.
	{"inbox-vlan100", "inbox", 100, []string{
		vmPause,
		"skipped: fab0: DCB (dcbnl) (virtual device; only a real NIC's driver offers it)",
		"skipped: fab0: RDMA device (virtual device; only a real NIC's driver offers it)",
	}},
}

// vmEgress is the VLAN egress map the nvidia-roce contract gives (the
// entries TestNetns and the render tests expect): skb priority 2 (RDMA-CM
// ToS 104) and 3 to PCP 3. /proc/net/vlan lists all 16 entries.
const (
	vmEgressLink = "egress-qos-map { 2:3 3:3 }"
	vmEgressProc = " EGRESS priority mappings: 0:0 1:0 2:3 3:3 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 "
)

// vmDir is where prepare.sh leaves the kernel and the base initramfs, and
// whether the test must run (FABRICC_VM_DIR set explicitly, as in CI).
func vmDir() (string, bool) {
	if d := os.Getenv("FABRICC_VM_DIR"); d != "" {
		return d, true
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(c, "fabricc-vm"), false
}

// vmInputs returns the kernel, the base initramfs and qemu, skipping the
// test (or failing it, when FABRICC_VM_DIR asks for the VM) when one is
// missing.
func vmInputs(t *testing.T) (kernel, base, qemu string) {
	t.Helper()
	dir, required := vmDir()
	stop := t.Skipf
	if required {
		stop = t.Fatalf
	}
	if testing.Short() && !required {
		t.Skip("-short: the VM test boots a kernel under emulation (30 s to a minute)")
	}
	qemu, err := exec.LookPath("qemu-system-x86_64")
	if err != nil {
		stop("qemu-system-x86_64 not installed (apt-get install --no-install-recommends qemu-system-x86)")
	}
	kernel, base = filepath.Join(dir, "vmlinuz"), filepath.Join(dir, "base.cpio.gz")
	for _, f := range []string{kernel, base} {
		if _, err := os.Stat(f); err != nil {
			stop("no VM input %s: run targets/linux/testdata/vm/prepare.sh %s", f, dir)
		}
	}
	return kernel, base, qemu
}

// cpioFile is one entry of a newc cpio archive.
type cpioFile struct {
	name string
	mode uint32 // type and permission bits, as in stat(2)
	data []byte
}

// writeCPIO writes files as a newc ("070701") cpio archive, the format the
// kernel unpacks as an initramfs (Documentation/driver-api/early-userspace/
// buffer-format.rst): a 110-byte hex header, the NUL-terminated name and
// the data, each padded to 4 bytes, ending with TRAILER!!!.
func writeCPIO(w io.Writer, files []cpioFile) error {
	files = append(files, cpioFile{name: "TRAILER!!!"})
	for i, f := range files {
		nlink := 1
		if f.mode&0o040000 != 0 {
			nlink = 2
		}
		hdr := fmt.Sprintf("070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
			1000+i, f.mode, 0, 0, nlink, 0, len(f.data), 0, 0, 0, 0, len(f.name)+1, 0)
		rec := append([]byte(hdr+f.name+"\x00"), make([]byte, pad4(len(hdr)+len(f.name)+1))...)
		rec = append(append(rec, f.data...), make([]byte, pad4(len(f.data)))...)
		if _, err := w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

// pad4 is how many bytes bring n to a multiple of 4.
func pad4(n int) int { return (4 - n%4) % 4 }

// vmScript renders the script of one case: the fixture's storage host with
// a ConnectX-5 on fab0, MTU 9000 (the veth starts at 1500), the case's
// driver and VLAN.
func vmScript(t *testing.T, c vmCase) string {
	t.Helper()
	return vmScriptOn(t, c, c.vlan)
}

// vmScriptOn is c's host script with its NIC on VLAN vlan.
func vmScriptOn(t *testing.T, c vmCase, vlan int) string {
	t.Helper()
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", c.driver, vlan, "192.0.2.1/24")
	n.MTU = 9000
	f.Hosts[2].NICs = []model.NIC{n}
	f.Hosts[2].Tuning = false
	return render(t, f, 2)
}

// vmDrift is what /init changes behind the script's back after the second
// run: PCP 0 for skb priority 2 (the VLAN then keeps only 3:3) and MTU 1500
// on the parent, which the kernel passes down to the VLAN.
func vmDrift(c vmCase) string {
	return fmt.Sprintf("set -e\nip link set dev fab0.%d type vlan egress-qos-map 2:0\nip link set dev fab0 mtu 1500\n", c.vlan)
}

// vmInitrd writes base followed by a second gzip'd cpio with /init and one
// script per case; the kernel unpacks the two in turn.
func vmInitrd(t *testing.T, base string) string {
	t.Helper()
	init, err := os.ReadFile(filepath.Join("testdata", "vm", "init"))
	if err != nil {
		t.Fatal(err)
	}
	files := []cpioFile{{"init", 0o100755, init}, {"fabricc/cases", 0o040755, nil}}
	for _, c := range vmCases {
		files = append(files,
			cpioFile{"fabricc/cases/" + c.name, 0o040755, nil},
			cpioFile{"fabricc/cases/" + c.name + "/host.linux.sh", 0o100755, []byte(vmScript(t, c))},
			cpioFile{"fabricc/cases/" + c.name + "/moved.linux.sh", 0o100755, []byte(vmScriptOn(t, c, c.vlan+1))},
			cpioFile{"fabricc/cases/" + c.name + "/drift.sh", 0o100644, []byte(vmDrift(c))})
	}
	var overlay bytes.Buffer
	zw := gzip.NewWriter(&overlay)
	if err := writeCPIO(zw, files); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "initrd.gz")
	if err := os.WriteFile(path, append(data, overlay.Bytes()...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// vmStep is the output and exit status of one step /init ran.
type vmStep struct {
	out string
	rc  int
}

var (
	vmBegin  = regexp.MustCompile(`^FABRICC-BEGIN (\S+) (\S+)$`)
	vmEnd    = regexp.MustCompile(`^FABRICC-END (\S+) (\S+) rc=(\d+)$`)
	vmKernel = regexp.MustCompile(`^\[ *[0-9]+\.[0-9]+\] `)
)

// parseConsole splits the serial console into steps keyed "case step";
// kernel log lines are dropped. done tells whether /init reached its end.
func parseConsole(console string) (steps map[string]vmStep, done bool) {
	steps = map[string]vmStep{}
	var key string
	var out strings.Builder
	sc := bufio.NewScanner(strings.NewReader(strings.ReplaceAll(console, "\r", "")))
	for sc.Scan() {
		line := sc.Text()
		switch m, e := vmBegin.FindStringSubmatch(line), vmEnd.FindStringSubmatch(line); {
		case m != nil:
			key = m[1] + " " + m[2]
			out.Reset()
		case e != nil && e[1]+" "+e[2] == key:
			rc, _ := strconv.Atoi(e[3])
			steps[key] = vmStep{out.String(), rc}
			key = ""
		case line == "FABRICC-DONE":
			done = true
		case key != "" && !vmKernel.MatchString(line):
			out.WriteString(line + "\n")
		}
	}
	return steps, done
}

// bootVM runs the VM to its power-off and returns the serial console.
func bootVM(t *testing.T, qemu, kernel, initrd string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// TCG: this machine's /dev/kvm accepts the VM and then never runs it.
	cmd := exec.CommandContext(ctx, qemu, "-accel", "tcg", "-m", "512", "-smp", "1",
		"-kernel", kernel, "-initrd", initrd, "-append", "console=ttyS0 panic=-1 quiet",
		"-display", "none", "-nodefaults", "-no-user-config", "-serial", "stdio",
		"-nic", "none", "-no-reboot")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("VM ran %s", time.Since(start).Round(time.Second))
	if err != nil {
		t.Fatalf("qemu: %v (timeout 4m)\n%s", err, out)
	}
	return string(out)
}

// TestVM runs the generated script's VLAN steps for real on a stock Debian
// kernel under qemu (this kernel has no 802.1Q): the VLAN with its id and
// egress map, and the MTU, apply; --check fails before and passes after; a
// second run changes nothing; a third run repairs a changed egress map and
// parent MTU; the driver-only steps report themselves skipped on the veth.
func TestVM(t *testing.T) {
	kernel, base, qemu := vmInputs(t)
	console := bootVM(t, qemu, kernel, vmInitrd(t, base))
	steps, done := parseConsole(console)
	if !done {
		t.Fatalf("/init did not finish:\n%s", console)
	}
	if s, ok := steps["vm modules"]; !ok || s.rc != 0 {
		t.Fatalf("loading 8021q and veth failed:\n%s", console)
	}
	for _, c := range vmCases {
		t.Run(c.name, func(t *testing.T) {
			checkVMCase(t, c, steps)
		})
	}
	if t.Failed() {
		t.Logf("serial console:\n%s", console)
	}
}

// vmWant is one step's expected exit status and lines.
type vmWant struct {
	step    string
	rc      int
	lines   []string // whole lines the output must hold
	notWant []string // substrings it must not hold
}

// checkVMCase asserts every step of one case.
func checkVMCase(t *testing.T, c vmCase, steps map[string]vmStep) {
	vl := fmt.Sprintf("fab0.%d", c.vlan)
	vlan := fmt.Sprintf("802.1Q id %d on fab0", c.vlan)
	applied := append([]string{
		"set fab0 mtu: 1500 -> 9000",
		"set fab0 state: down -> up",
		"set " + vl + " vlan: absent -> " + vlan,
		"set " + vl + " alias (fabricc's mark): none -> fabricc-host-settings",
		"set " + vl + " state: down -> up",
		"set " + vl + " address 192.0.2.1/24: absent -> present",
		"fabricc: 6 change(s) applied",
	}, c.skips...)
	moved := fmt.Sprintf("fab0.%d", c.vlan+1)
	wants := []vmWant{
		{"netns", 0, nil, nil},
		{"check-before", 3, []string{
			"DIFF fab0 mtu: intended 9000; actual 1500",
			"DIFF " + vl + " vlan: intended " + vlan + "; actual absent",
			"DIFF " + vl + " address 192.0.2.1/24: intended present; actual absent",
		}, nil},
		{"run1", 0, applied, nil},
		{"vlans1", 0, []string{"== " + vl, "Device: fab0", vmEgressProc}, nil},
		{"check-after", 0, append([]string{"fabricc: host matches the model"}, c.skips...), []string{"DIFF"}},
		{"run2", 0, append([]string{"fabricc: nothing to do; the host already matches"}, c.skips...), []string{"set "}},
		{"dry-run", 0, []string{"fabricc: nothing to do"}, []string{"would run:"}},
		{"drift", 0, nil, nil},
		{"run3", 0, []string{
			"set fab0 mtu: 1500 -> 9000",
			"set " + vl + " egress-qos-map: 3:3 -> 2:3 3:3",
			"set " + vl + " mtu: 1500 -> 9000",
			"fabricc: 3 change(s) applied",
		}, nil},
		{"check3", 0, []string{"fabricc: host matches the model"}, []string{"DIFF"}},
		{"own-vlan", 0, nil, nil},
		{"move", 0, []string{
			"set " + vl + " vlan: " + vlan + " (made by fabricc) -> absent",
			"set " + moved + " vlan: absent -> " + fmt.Sprintf("802.1Q id %d on fab0", c.vlan+1),
			"set " + moved + " address 192.0.2.1/24: absent -> present",
			"warning: fab0.7: VLAN interface (802.1Q id 7 on fab0) that the fabric does not name, without fabricc's mark (alias fabricc-host-settings), left as it is; " +
				"if an earlier fabricc build made it, it keeps that VLAN's addresses and egress map: remove it with ip link del dev fab0.7",
		}, nil},
		{"links4", 0, []string{"    alias fabricc-host-settings"}, []string{vl + "@fab0"}},
		{"check4", 0, []string{"fabricc: host matches the model"}, []string{"DIFF"}},
	}
	for _, w := range wants {
		s, ok := steps[c.name+" "+w.step]
		if !ok {
			t.Errorf("%s: no output from the VM", w.step)
			continue
		}
		if s.rc != w.rc {
			t.Errorf("%s: exit %d, want %d:\n%s", w.step, s.rc, w.rc, s.out)
		}
		for _, l := range w.lines {
			if !strings.Contains("\n"+s.out, "\n"+l+"\n") {
				t.Errorf("%s lacks the line %q:\n%s", w.step, l, s.out)
			}
		}
		for _, n := range w.notWant {
			if strings.Contains(s.out, n) {
				t.Errorf("%s holds %q:\n%s", w.step, n, s.out)
			}
		}
	}
	checkVMLinks(t, c, steps[c.name+" links1"])
	checkVMMoved(t, c, steps[c.name+" links4"])
	first := steps[c.name+" links1"]
	for _, later := range []string{"links2", "links3"} {
		if s := steps[c.name+" "+later]; s.rc != 0 || s.out != first.out {
			t.Errorf("%s differs from the links after the first run (exit %d):\nfirst:\n%s\n%s:\n%s", later, s.rc, first.out, later, s.out)
		}
	}
}

// checkVMLinks asserts the links after the first run: VLAN id, egress
// map, MTU 9000 on parent and VLAN, both up, the address.
func checkVMLinks(t *testing.T, c vmCase, first vmStep) {
	vl := fmt.Sprintf("fab0.%d", c.vlan)
	for _, re := range []string{
		`: fab0@fab1: <[^>]*\bUP\b[^>]*> mtu 9000 `,
		`: ` + regexp.QuoteMeta(vl) + `@fab0: <[^>]*\bUP\b[^>]*> mtu 9000 `,
		fmt.Sprintf(`\n +vlan protocol 802\.1Q id %d <REORDER_HDR> *\n +%s `, c.vlan, regexp.QuoteMeta(vmEgressLink)),
		`\n +inet 192\.0\.2\.1/24 scope global ` + regexp.QuoteMeta(vl) + `\n`,
	} {
		if !regexp.MustCompile(re).MatchString(first.out) {
			t.Errorf("links after the first run do not match %s:\n%s", re, first.out)
		}
	}
	if first.rc != 0 {
		t.Errorf("ip link/addr show: exit %d:\n%s", first.rc, first.out)
	}
}

// checkVMMoved asserts the links after the NIC moved to the next VLAN:
// the new VLAN interface up with the address, the old one gone, the
// operator's fab0.7 kept.
func checkVMMoved(t *testing.T, c vmCase, links vmStep) {
	moved, old := fmt.Sprintf("fab0.%d", c.vlan+1), fmt.Sprintf("fab0.%d", c.vlan)
	for _, re := range []string{
		`: ` + regexp.QuoteMeta(moved) + `@fab0: <[^>]*\bUP\b[^>]*> mtu 9000 `,
		`: fab0\.7@fab0: `,
		`\n +inet 192\.0\.2\.1/24 scope global ` + regexp.QuoteMeta(moved) + `\n`,
	} {
		if !regexp.MustCompile(re).MatchString(links.out) {
			t.Errorf("links after the move do not match %s:\n%s", re, links.out)
		}
	}
	if strings.Contains(links.out, ": "+old+"@fab0: ") {
		t.Errorf("links after the move still hold %s:\n%s", old, links.out)
	}
}

// TestWriteCPIO pins the newc bytes of one file and the trailer.
func TestWriteCPIO(t *testing.T) {
	var b bytes.Buffer
	if err := writeCPIO(&b, []cpioFile{{"a", 0o100644, []byte("hi\n")}}); err != nil {
		t.Fatal(err)
	}
	want := "070701" + "000003E8" + "000081A4" + "00000000" + "00000000" + "00000001" + "00000000" +
		"00000003" + "00000000" + "00000000" + "00000000" + "00000000" + "00000002" + "00000000" +
		"a\x00" + "hi\n\x00" +
		"070701" + "000003E9" + "00000000" + "00000000" + "00000000" + "00000001" + "00000000" +
		"00000000" + "00000000" + "00000000" + "00000000" + "00000000" + "0000000B" + "00000000" +
		"TRAILER!!!\x00" + "\x00\x00\x00"
	if got := b.String(); got != want {
		t.Errorf("writeCPIO:\n got %q\nwant %q", got, want)
	}
}

// TestParseConsole: CRs and kernel log lines dropped, rc read, an END of
// another step ignored, DONE seen.
func TestParseConsole(t *testing.T) {
	console := "[    0.5] booting\r\nFABRICC-BEGIN c run1\r\nset x\r\n[   12.250000] veth: link up\r\n" +
		"FABRICC-END c other rc=0\r\nmore\r\nFABRICC-END c run1 rc=1\r\nFABRICC-DONE\r\n"
	steps, done := parseConsole(console)
	want := map[string]vmStep{"c run1": {"set x\nFABRICC-END c other rc=0\nmore\n", 1}}
	if !done || len(steps) != 1 || steps["c run1"] != want["c run1"] {
		t.Errorf("parseConsole = %+v, done %v; want %+v, done true", steps, done, want)
	}
	if _, done := parseConsole("FABRICC-BEGIN c run1\n"); done {
		t.Error("parseConsole: done without FABRICC-DONE")
	}
}
