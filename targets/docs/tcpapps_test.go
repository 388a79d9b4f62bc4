package docs

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// withTCPApps adds iscsi and nvme-tcp to every NIC of host name, in the
// NIC's class (its RoCE priority), as the compiler lowers them.
func withTCPApps(f *model.Fabric, name string) {
	h := f.Host(name)
	for i := range h.NICs {
		p := h.NICs[i].RoCE.Priority
		h.NICs[i].Applications = append(h.NICs[i].Applications,
			model.Application{Kind: model.AppISCSI, Port: 3260, Priority: p}, model.Application{Kind: model.AppNVMeTCP, Port: 4420, Priority: p})
	}
}

// TestLinuxHostTCPApplications: a Linux host whose NICs list storage over
// TCP gets its ports as "3260/tcp", "4420/tcp" in the applications table
// and two steps under "By hand": nvme connect --tos with the class's DSCP
// (and nvme discover's, for the discovery controller's port 8009)
// << 2 (the kernel keeps a TCP socket's ECN bits, so no ECT), and the
// mangle rules that mark iSCSI, which the script does not. On a VLAN NIC
// (cn002's p0, VLAN 200) they name the skb priority (rt_tos2priority of
// ToS 104: 2) that the script's egress map sends with PCP 3, and iSCSI
// gets a CLASSIFY rule setting it; untagged NICs (cn001) get neither.
func TestLinuxHostTCPApplications(t *testing.T) {
	f := compileHPC(t)
	withTCPApps(f, "cn001")
	withTCPApps(f, "cn002")
	nvme := "- NVMe/TCP: connect with nvme connect -t tcp ... --tos 104 (DSCP << 2; nvme connect-all takes it too): the kernel sets that ToS on every queue's socket, and without it the queues send ToS 0, in the default class. " +
		"A Linux target (nvmet-tcp) answers each queue with the ToS of the initiator's connection, so the initiator's --tos marks both directions (Linux drivers/nvme/host/tcp.c and drivers/nvme/target/tcp.c, \"Set socket type of service\"). " +
		"Discovery has its own connection, to the discovery controller's TCP port 8009 by default (IANA nvme-disc; libnvme NVME\\_DISC\\_IP\\_PORT): give nvme discover the same --tos, which nvme connect-all passes to it."
	iscsi := "- iSCSI over TCP: the host script does not mark it, so its connections leave with DSCP 0, in the default class. Mark them in the mangle table: iptables -t mangle -A POSTROUTING -p tcp --dport 3260 -j DSCP --set-dscp 26"
	untagged := nvme + "\n" + iscsi + " (on a target, --sport 3260 instead of --dport; iptables-extensions(8), DSCP), and keep the rules with the host's firewall service.\n"
	doc := hostDoc(t, f, "cn001")
	table := "| p0 | nvme-of | 4420 | 3 |\n| p0 | iscsi | 3260/tcp | 3 |\n| p0 | nvme-tcp | 4420/tcp | 3 |\n"
	if !strings.Contains(doc, table) {
		t.Errorf("cn001.md lacks\n%s\nin\n%s", table, doc)
	}
	if !strings.HasSuffix(doc, untagged) {
		t.Errorf("cn001.md does not end with\n%s\nbut\n%s", untagged, doc[strings.Index(doc, "## By hand"):])
	}
	vlan := " The ToS also gives the socket its skb priority (Linux net/ipv4/ip\\_sockglue.c, rt\\_tos2priority), which the host script's egress map of VLAN device ens2f0np0.200 (skb priority 2, PCP 3) sends with the class's priority.\n" +
		iscsi + "; iptables -t mangle -A POSTROUTING -p tcp --dport 3260 -j CLASSIFY --set-class 0:2 (on a target, --sport 3260 instead of --dport; iptables-extensions(8), DSCP and CLASSIFY), and keep the rules with the host's firewall service. " +
		"CLASSIFY sets the skb priority that the host script's egress map of VLAN device ens2f0np0.200 (skb priority 2, PCP 3) sends with the class's priority.\n"
	if doc := hostDoc(t, f, "cn002"); !strings.HasSuffix(doc, nvme+vlan) {
		t.Errorf("cn002.md does not end with\n%s\nbut\n%s", nvme+vlan, doc[strings.Index(doc, "## By hand"):])
	}
}

// TestLinuxHostTCPApplicationsPerNIC: NICs of one host in two classes
// get each its own --tos and mangle rule, the latter with its interface.
func TestLinuxHostTCPApplicationsPerNIC(t *testing.T) {
	f := compileHPC(t)
	withTCPApps(f, "cn001")
	f.Host("cn001").NICs[1].RoCE.DSCP = 24
	doc := hostDoc(t, f, "cn001")
	for _, want := range []string{
		"--tos 104 for p0; 96 for p1 (DSCP << 2;",
		"Mark them in the mangle table: for p0 (add -o ens1f0np0) iptables -t mangle -A POSTROUTING -p tcp --dport 3260 -j DSCP --set-dscp 26; for p1 (add -o ens1f1np1) iptables -t mangle -A POSTROUTING -p tcp --dport 3260 -j DSCP --set-dscp 24 (on a target,",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("cn001.md lacks\n%s\nin\n%s", want, doc[strings.Index(doc, "## By hand"):])
		}
	}
}

// TestFreeBSDHostTCPApplications: a FreeBSD host's document gives iSCSI
// the dscp and pcp of iscsi.conf(5) and ctl.conf(5), and says what
// NVMe/TCP's connections, discovery's to port 8009 among them, must carry;
// the Windows host's document has no
// such step, since its script writes NetQos policies for them.
func TestFreeBSDHostTCPApplications(t *testing.T) {
	f := compileExample(t, "homelab-40g")
	withTCPApps(f, "nas")
	withTCPApps(f, "workstation")
	steps := "- NVMe/TCP: the host script does not mark it; its connections to and from port 4420, and those of discovery to and from the discovery controller's port 8009 (IANA nvme-disc), must carry DSCP 26 and PCP 3, the NIC's class, or they ride the default class.\n" +
		"- iSCSI over TCP: the host script does not mark it, so its connections leave with DSCP 0, in the default class; set dscp = 26 and pcp = 3 in each session of /etc/iscsi.conf (initiator) and each portal-group of /etc/ctl.conf (target) " +
		"(iscsi.conf(5), ctl.conf(5): dscp, pcp; a release whose pages lack them cannot mark iSCSI).\n"
	if doc := hostDoc(t, f, "nas"); !strings.HasSuffix(doc, steps) {
		t.Errorf("nas.md does not end with\n%s\nbut\n%s", steps, doc[strings.Index(doc, "## By hand"):])
	}
	doc := hostDoc(t, f, "workstation")
	if !strings.Contains(doc, "| qsfp1 | nvme-tcp | 4420/tcp | 3 |\n") {
		t.Errorf("workstation.md's applications table lacks nvme-tcp 4420/tcp:\n%s", doc)
	}
	if strings.Contains(doc, "iSCSI over TCP") || strings.Contains(doc, "NVMe/TCP:") {
		t.Errorf("workstation.md (Windows: the script sets the policies) has a by-hand step for them:\n%s", doc)
	}
}
