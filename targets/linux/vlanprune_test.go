package linux

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// vlanLinks is ip -d -o link show type vlan as iproute2 prints it
// (ip/ipaddress.c print_linkinfo, ip/iplink_vlan.c vlan_print_opt: "vlan
// protocol %s id %u", the alias after the details, each new line a
// backslash under -o), on a host where p4p1 has fabricc's old p4p1.2, the
// fabric's p4p1.3, an operator's p4p1.7 whose alias names another VLAN,
// an 802.1ad one, and p4p10 a VLAN of its own.
const vlanLinks = `8: p4p1.2@p4p1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff promiscuity 0 allmulti 0 minmtu 0 maxmtu 65535 \    vlan protocol 802.1Q id 2 <REORDER_HDR> \      egress-qos-map { 2:3 3:3 } addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 \    alias fabricc-host-settings
9: p4p1.3@p4p1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff promiscuity 0 allmulti 0 minmtu 0 maxmtu 65535 \    vlan protocol 802.1Q id 3 <REORDER_HDR> \      egress-qos-map { 2:3 3:3 } addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 \    alias fabricc-host-settings
10: p4p1.7@p4p1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff promiscuity 0 allmulti 0 minmtu 0 maxmtu 65535 \    vlan protocol 802.1Q id 7 <REORDER_HDR> addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 \    alias backup protocol 802.1Q id 99
11: qinq5@p4p1: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff promiscuity 0 allmulti 0 minmtu 0 maxmtu 65535 \    vlan protocol 802.1ad id 5 <REORDER_HDR> addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 
12: p4p10.2@p4p10: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000\    link/ether 24:8a:07:11:22:34 brd ff:ff:ff:ff:ff:ff promiscuity 0 allmulti 0 minmtu 0 maxmtu 65535 \    vlan protocol 802.1Q id 2 <REORDER_HDR> addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 
`

// fakeVLANIP is an ip that prints vlanLinks for "ip -d -o link show type
// vlan" and logs every other call to $FAKES/ip.calls.
const fakeVLANIP = `#!/bin/sh
if [ "$*" = "-d -o link show type vlan" ]; then
	cat "$FAKES/ip.out"
	exit 0
fi
echo "ip $*" >>"$FAKES/ip.calls"
`

// TestVLANChildren: vlan_children reads the VLAN interfaces of one
// parent only (p4p1, not p4p10), with their protocol and ID, the ID from
// the details and not from an alias that says "protocol ... id".
func TestVLANChildren(t *testing.T) {
	fakes := map[string]string{"ip": fakeVLANIP, "ip.out": vlanLinks}
	want := "p4p1.2 802.1Q 2\np4p1.3 802.1Q 3\np4p1.7 802.1Q 7\nqinq5 802.1ad 5\n"
	if got := readValue(t, fakes, "vlan_children p4p1"); got != want {
		t.Errorf("vlan_children p4p1 = %q, want %q", got, want)
	}
	if got := readValue(t, fakes, "vlan_children p4p10"); got != "p4p10.2 802.1Q 2\n" {
		t.Errorf("vlan_children p4p10 = %q", got)
	}
	if got := readValue(t, map[string]string{"ip": fakeVLANIP, "ip.out": ""}, "vlan_children p4p1"); got != "" {
		t.Errorf("vlan_children without VLANs = %q", got)
	}
}

// TestVLANPrune: after the fabric's VLAN moved 2 -> 3 on p4p1, vlan_prune
// removes p4p1.2, which carries fabricc's mark (/sys/class/net/IF/ifalias),
// and keeps the fabric's p4p1.3; the unmarked p4p1.7 and qinq5 are left,
// each with a warning that gives the command. --check counts p4p1.2 as a
// difference, --dry-run prints the command, a run deletes it and only it.
func TestVLANPrune(t *testing.T) {
	const mark = "fabricc-host-settings"
	files := map[string]string{
		"/sys/class/net/p4p1.2/ifalias": mark,
		"/sys/class/net/p4p1.3/ifalias": mark,
		"/sys/class/net/p4p1.7/ifalias": "backup protocol 802.1Q id 99",
		"/sys/class/net/qinq5/ifalias":  "",
	}
	warn := func(vl, what string) string {
		return "warning: " + vl + ": VLAN interface (" + what + " on p4p1) that the fabric does not name, without fabricc's mark (alias fabricc-host-settings), left as it is; if an earlier fabricc build made it, it keeps that VLAN's addresses and egress map: remove it with ip link del dev " + vl + "\n"
	}
	warnings := warn("p4p1.7", "802.1Q id 7") + warn("qinq5", "802.1ad id 5")
	tests := []struct{ mode, want, calls string }{
		{"--check", "DIFF p4p1.2 vlan: intended absent; actual 802.1Q id 2 on p4p1 (made by fabricc)\n" + warnings + "diffs 1\n", ""},
		{"--dry-run", "would run: ip link del dev p4p1.2\n" + warnings + "diffs 0\n", ""},
		{"", "set p4p1.2 vlan: 802.1Q id 2 on p4p1 (made by fabricc) -> absent\n" + warnings + "diffs 0\n", "ip link del dev p4p1.2\n"},
	}
	for _, tc := range tests {
		t.Run("mode "+tc.mode, func(t *testing.T) {
			bin := fakeBin(t, map[string]string{"ip": fakeVLANIP, "ip.out": vlanLinks})
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: files}
			body := "export FAKES=" + bin + " PATH=" + bin + ":$PATH\nMODE=${1:-apply}; MODE=${MODE#--}\nBOOT_COPY=" + filepath.Join(bin, "no-boot-copy") + "\nvlan_prune p4p1 p4p1.3\necho diffs $DIFFS\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, err := fs.run(t, body, args...)
			if err != nil || out != tc.want {
				t.Errorf("%v; got:\n%s\nwant:\n%s", err, out, tc.want)
			}
			if got := takeCalls(t, filepath.Join(bin, "ip.calls")); got != tc.calls {
				t.Errorf("ip calls %q, want %q", got, tc.calls)
			}
		})
	}
}

// TestVLANMark: vlan_mark gives the fabric's VLAN interface fabricc's mark
// where it lacks it (a VLAN an earlier build made, or an operator's the
// fabric now names); --check reports the missing mark, and nothing for a
// VLAN interface that is not there yet or is another device (vlan_ensure
// reports those).
func TestVLANMark(t *testing.T) {
	files := map[string]string{"/sys/class/net/p4p1.3/ifalias": ""}
	// ip -d -o link show dev p4p1.3 (vlanLinks's), or of a device that
	// does not exist (nothing).
	ip := "#!/bin/sh\ncase \"$*\" in\n*' dev p4p1.3') cat \"$FAKES/ip.out\" ;;\nesac\n"
	p4p13 := strings.SplitAfter(vlanLinks, "\n")[1]
	tests := []struct{ mode, call, want string }{
		{"--check", "p4p1 3 p4p1.3", "DIFF p4p1.3 alias (fabricc's mark): intended fabricc-host-settings; actual none\n"},
		{"--check", "p4p1 4 p4p1.4", ""},
		{"--check", "p4p1 5 p4p1.3", ""},
		{"--dry-run", "p4p1 4 p4p1.4", "would run: ip link set dev p4p1.4 alias fabricc-host-settings\n"},
		{"--dry-run", "p4p2 3 p4p1.3", ""},
		{"", "p4p1 3 p4p1.3", "set p4p1.3 alias (fabricc's mark): none -> fabricc-host-settings\n"},
	}
	for _, tc := range tests {
		t.Run(tc.mode+" "+tc.call, func(t *testing.T) {
			bin := fakeBin(t, map[string]string{"ip": ip, "ip.out": p4p13})
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: files}
			body := "export FAKES=" + bin + " PATH=" + bin + ":$PATH\nMODE=${1:-apply}; MODE=${MODE#--}\nvlan_mark " + tc.call + "\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			if out, err := fs.run(t, body, args...); err != nil || out != tc.want {
				t.Errorf("%v; got:\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}

// TestVLANPruneLines: each NIC's steps remove the VLAN interfaces fabricc
// made on its interface that the fabric no longer names, before
// vlan_ensure (the kernel refuses a second VLAN interface with one ID on
// one parent), and mark the one it names after it; an untagged NIC keeps
// none.
func TestVLANPruneLines(t *testing.T) {
	f := fixture()
	tagged := render(t, f, 1)
	want := "\tlink_check \"$ifc\" 100000\n" +
		"\t# The VLAN interfaces fabricc made on it that the fabric no longer names go.\n" +
		"\tvlan_prune \"$ifc\" p4p1.2\n" +
		"\t# VLAN 2 carries"
	if !strings.Contains(tagged, want) {
		t.Errorf("iser-initiator lacks %q", want)
	}
	mark := "vlan_ensure \"$ifc\" 2 p4p1.2 '2:3 3:3' 0:0 1:0 2:3 3:3 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0\n\tvlan_mark \"$ifc\" 2 p4p1.2\n"
	if !strings.Contains(tagged, mark) {
		t.Errorf("iser-initiator lacks %q", mark)
	}
	if untagged := render(t, f, 2); !strings.Contains(untagged, "\tvlan_prune \"$ifc\"\n") || strings.Contains(untagged, "vlan_mark") {
		t.Errorf("stor1 (untagged) lacks vlan_prune \"$ifc\" or has vlan_mark")
	}
}

// TestNetnsVLANMove runs the script for real after the NIC's VLAN moves
// 2 -> 3 with the same subnet: the first build's fab0.2 is gone after the
// second build's run, fab0.3 carries the address, an operator's fab0.7
// stays with a warning, and --check then passes. It needs the kernel's
// 8021q (the VM test's kernel has it).
func TestNetnsVLANMove(t *testing.T) {
	ns := newNetns(t)
	if out, err := exec.Command("ip", "-n", ns, "link", "add", "link", "fab0", "name", "fab0.7", "type", "vlan", "id", "7").CombinedOutput(); err != nil {
		t.Skipf("this kernel cannot create VLAN interfaces (8021q): %s", strings.TrimSpace(string(out)))
	}
	script := func(vlan int) string {
		f := fixture()
		n := fixtureNIC("roce0", "fab0", "ConnectX-5", "mellanox", "inbox", vlan, "192.0.2.1/24")
		f.Hosts[2].NICs = []model.NIC{n}
		f.Hosts[2].Tuning = false
		return render(t, f, 2)
	}
	if out, err := runScript(t, script(2), ns); err != nil {
		t.Fatalf("VLAN 2 run: %v\n%s", err, out)
	}
	s3 := script(3)
	out, err := runScript(t, s3, ns, "--check")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(out, "DIFF fab0.2 vlan: intended absent; actual 802.1Q id 2 on fab0 (made by fabricc)\n") {
		t.Errorf("--check after the move: %v\n%s", err, out)
	}
	out, err = runScript(t, s3, ns)
	mustHave(t, "VLAN 3 run", out, "set fab0.2 vlan: 802.1Q id 2 on fab0 (made by fabricc) -> absent\n",
		"set fab0.3 vlan: absent -> 802.1Q id 3 on fab0\n", "warning: fab0.7: VLAN interface (802.1Q id 7 on fab0)")
	if err != nil {
		t.Fatalf("VLAN 3 run: %v\n%s", err, out)
	}
	dump := linkDump(t, ns)
	if strings.Contains(dump, "fab0.2@") || !strings.Contains(dump, "fab0.3@fab0") || !strings.Contains(dump, "fab0.7@fab0") {
		t.Errorf("after the VLAN 3 run, want fab0.3 and fab0.7 and no fab0.2:\n%s", dump)
	}
	if out, err := runScript(t, s3, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after the VLAN 3 run: %v\n%s", err, out)
	}
}

// TestVLANPruneBootCopy: a VLAN interface without the mark, which a build
// from before the mark made, is fabricc's when the boot copy --install
// left (of that build) makes it on that parent, as the demartek-lab
// iser-initiator's script made p4p1.2; the same name made on another
// parent in the copy, or no copy, leaves it with the warning.
func TestVLANPruneBootCopy(t *testing.T) {
	const oldNIC = "nic_1() {\n\tlocal ifc=%s\n\tif ! link_exists \"$ifc\"; then\n\t\tmissing_link \"$ifc\" || return 0\n\tfi\n" +
		"\tvlan_ensure \"$ifc\" 2 p4p1.2 '2:3 3:3' 0:0 1:0 2:3 3:3 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0\n}\n"
	const helper = "vlan_ensure() {\n\tlocal parent=$1 id=$2 vl=$3 want=$4 info\n}\n"
	const gone = "set p4p1.2 vlan: 802.1Q id 2 on p4p1 (made by fabricc) -> absent\n"
	const left = "warning: p4p1.2: VLAN interface (802.1Q id 2 on p4p1) that the fabric does not name, without fabricc's mark (alias fabricc-host-settings), left as it is; if an earlier fabricc build made it, it keeps that VLAN's addresses and egress map: remove it with ip link del dev p4p1.2\n"
	links := strings.SplitAfter(vlanLinks, "\n")[0]
	links = strings.Replace(links, "\\    alias fabricc-host-settings", "", 1)
	tests := []struct{ name, copy, want string }{
		{"copy makes it on p4p1", helper + strings.Replace(oldNIC, "%s", "p4p1", 1), gone},
		{"copy makes it on p4p2", helper + strings.Replace(oldNIC, "%s", "p4p2", 1), left},
		{"no copy", "", left},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bin := fakeBin(t, map[string]string{"ip": fakeVLANIP, "ip.out": links})
			copyPath := filepath.Join(t.TempDir(), "fabricc-host-settings")
			if tc.copy != "" {
				writeTools(t, filepath.Dir(copyPath), map[string]string{filepath.Base(copyPath): tc.copy})
			}
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: map[string]string{"/sys/class/net/p4p1.2/ifalias": ""}}
			body := "export FAKES=" + bin + " PATH=" + bin + ":$PATH\nMODE=apply\nBOOT_COPY=" + copyPath + "\nvlan_prune p4p1 p4p1.3\n"
			if out, err := fs.run(t, body); err != nil || out != tc.want {
				t.Errorf("%v; got:\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}
