package linux

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestVLANPruneKeepsOtherNICsNames: roce0's VLAN moved 2 -> 3 on p4p1,
// and the fabric now names the p4p1.2 that roce0's earlier build made
// (fabricc's mark) as the interface of another NIC, roce1, beside roce2
// on p4p10 VLAN 2. roce0's vlan_prune line keeps, after its own p4p1.3,
// every interface and VLAN interface the host's other NICs name, so a
// run of the line as rendered removes nothing the fabric names: p4p1.2
// stays (before, roce0's steps removed it, before or after roce1's steps
// set it up), and only the unmarked VLAN interfaces get their warnings,
// whose command is quoted for a root shell (op'1).
func TestVLANPruneKeepsOtherNICsNames(t *testing.T) {
	f := fixture()
	h := &f.Hosts[1]
	a := h.NICs[0]
	a.VLAN = 3
	b := fixtureNIC("roce1", "p4p1.2", "QL45212", "qlogic", "qede", 0, "192.168.2.52/24")
	c := fixtureNIC("roce2", "p4p10", "QL45212", "qlogic", "qede", 2, "192.168.3.51/24")
	h.NICs = []model.NIC{a, b, c}
	s := render(t, f, 1)
	want := "\t# The VLAN interfaces fabricc made on it that the fabric no longer names go.\n" +
		"\t# The interfaces and VLAN interfaces the host's other NICs name stay.\n" +
		"\tvlan_prune \"$ifc\" p4p1.3 p4p1.2 p4p10 p4p10.2\n"
	if !strings.Contains(s, want) {
		t.Fatalf("roce0's steps lack\n%s", want)
	}
	// roce2's keeps roce0's and roce1's names, its own first.
	if !strings.Contains(s, "\tvlan_prune \"$ifc\" p4p10.2 p4p1 p4p1.3 p4p1.2\n") {
		t.Errorf("roce2's vlan_prune does not keep the other NICs' names")
	}
	line := regexp.MustCompile(`(?m)^\tvlan_prune "\$ifc" p4p1\.3 .*$`).FindString(s)
	call := strings.Replace(strings.TrimSpace(line), `"$ifc"`, "p4p1", 1)

	odd := "13: op'1@p4p1: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000\\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff promiscuity 0 \\    vlan protocol 802.1Q id 9 <REORDER_HDR> addrgenmode eui64 \n"
	bin := fakeBin(t, map[string]string{"ip": fakeVLANIP, "ip.out": vlanLinks + odd})
	fs := fakeSys{mounts: []string{"/sys/class/net"}, files: map[string]string{
		"/sys/class/net/p4p1.2/ifalias": "fabricc-host-settings",
		"/sys/class/net/p4p1.3/ifalias": "fabricc-host-settings",
		"/sys/class/net/p4p1.7/ifalias": "backup protocol 802.1Q id 99",
		"/sys/class/net/qinq5/ifalias":  "",
	}}
	body := "export FAKES=" + bin + " PATH=" + bin + ":$PATH\nMODE=apply\nBOOT_COPY=" + filepath.Join(bin, "no-boot-copy") + "\n" + call + "\necho changes $CHANGES\n"
	out, err := fs.run(t, body)
	warn := func(vl, what, cmd string) string {
		return "warning: " + vl + ": VLAN interface (" + what + " on p4p1) that the fabric does not name, without fabricc's mark (alias fabricc-host-settings), left as it is; if an earlier fabricc build made it, it keeps that VLAN's addresses and egress map: remove it with " + cmd + "\n"
	}
	wantOut := warn("p4p1.7", "802.1Q id 7", "ip link del dev p4p1.7") + warn("qinq5", "802.1ad id 5", "ip link del dev qinq5") +
		warn("op'1", "802.1Q id 9", `ip link del dev op\'1`) + "changes 0\n"
	if err != nil || out != wantOut {
		t.Errorf("%v; got:\n%s\nwant:\n%s", err, out, wantOut)
	}
	if got := takeCalls(t, filepath.Join(bin, "ip.calls")); got != "" {
		t.Errorf("ip calls %q, want none", got)
	}
}
