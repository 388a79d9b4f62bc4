package docs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// tcpAppNIC is one NIC that lists an application over TCP (nvme-tcp,
// iscsi), with how its host marks that TCP into the NIC's class.
type tcpAppNIC struct {
	n *model.NIC
	// tos is the ToS byte of the class's DSCP: a TCP socket's ECN bits
	// are the kernel's own, so only the DSCP is given (Linux
	// net/ipv4/ip_sockglue.c, __ip_sock_set_tos keeps a stream socket's
	// ECN bits).
	tos int
}

// tcpAppNICs lists h's NICs that list the application kind, in the
// host's order.
func tcpAppNICs(h *model.Host, kind string) []tcpAppNIC {
	var out []tcpAppNIC
	for i := range h.NICs {
		if n := &h.NICs[i]; n.ListsApp(kind) {
			out = append(out, tcpAppNIC{n: n, tos: n.RoCE.DSCP << 2})
		}
	}
	return out
}

// tcpAppSteps is the "By hand" step of each application over TCP on a
// Linux or FreeBSD host: the host scripts set no marking for a TCP
// connection, which the initiator (and the target) open themselves, so
// the document says how each one marks the NIC's class. The Windows
// script writes a NetQos policy for them instead.
func tcpAppSteps(h *model.Host) []string {
	var out []string
	switch h.OS {
	case model.OSLinux:
		if nics := tcpAppNICs(h, model.AppNVMeTCP); len(nics) > 0 {
			out = append(out, linuxNVMeTCPStep(nics))
		}
		if nics := tcpAppNICs(h, model.AppISCSI); len(nics) > 0 {
			out = append(out, linuxISCSIStep(nics))
		}
	case model.OSFreeBSD:
		if nics := tcpAppNICs(h, model.AppNVMeTCP); len(nics) > 0 {
			out = append(out, freebsdNVMeTCPStep(nics))
		}
		if nics := tcpAppNICs(h, model.AppISCSI); len(nics) > 0 {
			out = append(out, freebsdISCSIStep(nics))
		}
	}
	return out
}

// linuxNVMeTCPStep: nvme connect --tos sets IP_TOS on the socket of
// every queue (Linux drivers/nvme/host/tcp.c, nvme_tcp_alloc_queue: "Set
// socket type of service"; nvme-cli, nvme connect --tos), default -1,
// which leaves ToS 0; a Linux target (nvmet-tcp) gives each queue the ToS
// of the initiator's connection (drivers/nvme/target/tcp.c,
// nvmet_tcp_set_queue_sock: rcv_tos). The ToS also sets the socket's skb
// priority (net/ipv4/ip_sockglue.c: rt_tos2priority), which the VLAN
// egress map of the host script turns into the class's PCP. Discovery
// runs on its own connection, to the discovery controller's port
// (targets.NVMeTCPDiscoveryPort), and nvme discover takes --tos as nvme
// connect does (nvme-cli fabrics.c, the options of discover: "tos").
func linuxNVMeTCPStep(nics []tcpAppNIC) string {
	s := "NVMe/TCP: connect with nvme connect -t tcp ... --tos " + tosList(nics) +
		" (DSCP << 2; nvme connect-all takes it too): the kernel sets that ToS on every queue's socket, and without it the queues send ToS 0, in the default class. " +
		"A Linux target (nvmet-tcp) answers each queue with the ToS of the initiator's connection, so the initiator's --tos marks both directions " +
		"(Linux drivers/nvme/host/tcp.c and drivers/nvme/target/tcp.c, \"Set socket type of service\"). " +
		"Discovery has its own connection, to the discovery controller's TCP port " + strconv.Itoa(targets.NVMeTCPDiscoveryPort) +
		" by default (IANA nvme-disc; libnvme NVME\\_DISC\\_IP\\_PORT): give nvme discover the same --tos, which nvme connect-all passes to it."
	if vlans := vlanParts(nics); len(vlans) > 0 {
		s += " The ToS also gives the socket its skb priority (Linux net/ipv4/ip\\_sockglue.c, rt\\_tos2priority), which the host script's egress map of VLAN device " +
			listWords(vlans) + " sends with the class's priority."
	}
	return s
}

// linuxISCSIStep: the host script sets no marking for iSCSI's TCP, so it
// says how to mark port 3260 in the mangle table: the DSCP target sets
// the DSCP, and on a VLAN NIC the CLASSIFY target sets the skb priority
// that the script's egress map sends with the class's PCP
// (iptables-extensions(8), DSCP and CLASSIFY: "--set-class MAJOR:MINOR",
// the skb->priority, read as hexadecimal).
func linuxISCSIStep(nics []tcpAppNIC) string {
	rules := perNIC(nics, func(t tcpAppNIC) string {
		rule := "iptables -t mangle -A POSTROUTING -p tcp --dport 3260 -j DSCP --set-dscp " + strconv.Itoa(t.n.RoCE.DSCP)
		if t.n.VLAN != 0 {
			rule += "; iptables -t mangle -A POSTROUTING -p tcp --dport 3260 -j CLASSIFY --set-class 0:" + strconv.FormatInt(int64(model.SkbPriority(t.tos)), 16)
		}
		return rule
	}, func(t tcpAppNIC, rule string) string {
		return fmt.Sprintf("for %s (add -o %s) %s", md(t.n.Name), md(l3Interface(t.n)), rule)
	})
	targets, classify := "DSCP", ""
	if vlans := vlanParts(nics); len(vlans) > 0 {
		targets = "DSCP and CLASSIFY"
		classify = " CLASSIFY sets the skb priority that the host script's egress map of VLAN device " + listWords(vlans) + " sends with the class's priority."
	}
	return "iSCSI over TCP: the host script does not mark it, so its connections leave with DSCP 0, in the default class. Mark them in the mangle table: " +
		rules + " (on a target, --sport 3260 instead of --dport; iptables-extensions(8), " + targets + "), and keep the rules with the host's firewall service." + classify
}

// vlanParts names the VLAN devices of the tagged NICs among nics with
// the skb priority their ToS gives and the PCP the egress map sends it
// with.
func vlanParts(nics []tcpAppNIC) []string {
	var parts []string
	for _, t := range nics {
		if t.n.VLAN == 0 {
			continue
		}
		p := fmt.Sprintf("%s (skb priority %d, PCP %d)", md(t.n.VLANName()), model.SkbPriority(t.tos), t.n.RoCE.Priority)
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return parts
}

// freebsdISCSIStep: FreeBSD's initiator and target take a DSCP and a PCP
// per session or portal group (iscsi.conf(5), ctl.conf(5): dscp, pcp).
func freebsdISCSIStep(nics []tcpAppNIC) string {
	sets := perNIC(nics, func(t tcpAppNIC) string {
		s := "dscp = " + strconv.Itoa(t.n.RoCE.DSCP)
		if t.n.VLAN != 0 {
			s += " and pcp = " + strconv.Itoa(t.n.RoCE.Priority)
		}
		return s
	}, func(t tcpAppNIC, s string) string { return "for " + md(t.n.Name) + " " + s })
	return "iSCSI over TCP: the host script does not mark it, so its connections leave with DSCP 0, in the default class; set " + sets +
		" in each session of /etc/iscsi.conf (initiator) and each portal-group of /etc/ctl.conf (target) (iscsi.conf(5), ctl.conf(5): dscp, pcp; a release whose pages lack them cannot mark iSCSI)."
}

// freebsdNVMeTCPStep says what NVMe/TCP's connections must carry: the
// host script marks no TCP connection.
func freebsdNVMeTCPStep(nics []tcpAppNIC) string {
	marks := perNIC(nics, func(t tcpAppNIC) string {
		m := "DSCP " + strconv.Itoa(t.n.RoCE.DSCP)
		if t.n.VLAN != 0 {
			m += " and PCP " + strconv.Itoa(t.n.RoCE.Priority)
		}
		return m
	}, func(t tcpAppNIC, m string) string { return m + " on " + md(t.n.Name) })
	return "NVMe/TCP: the host script does not mark it; its connections to and from port 4420, and those of discovery to and from the discovery controller's port " +
		strconv.Itoa(targets.NVMeTCPDiscoveryPort) + " (IANA nvme-disc), must carry " + marks + ", the NIC's class, or they ride the default class."
}

// tosList is the --tos of the NICs: one value, or each with its NIC.
func tosList(nics []tcpAppNIC) string {
	return perNIC(nics, func(t tcpAppNIC) string { return strconv.Itoa(t.tos) },
		func(t tcpAppNIC, v string) string { return v + " for " + md(t.n.Name) })
}

// perNIC is what(t) of the NICs when it is one text for all of them,
// else each NIC's, labelled by label and joined with "; ".
func perNIC(nics []tcpAppNIC, what func(tcpAppNIC) string, label func(tcpAppNIC, string) string) string {
	var texts []string
	for _, t := range nics {
		if v := what(t); !slices.Contains(texts, v) {
			texts = append(texts, v)
		}
	}
	if len(texts) == 1 {
		return texts[0]
	}
	texts = texts[:0]
	for _, t := range nics {
		texts = append(texts, label(t, what(t)))
	}
	return strings.Join(texts, "; ")
}

// l3Interface is the Linux interface that carries a NIC's addresses: its
// VLAN device when tagged.
func l3Interface(n *model.NIC) string {
	if v := n.VLANName(); v != "" {
		return v
	}
	return n.Interface
}
