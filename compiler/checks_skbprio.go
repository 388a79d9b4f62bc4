package compiler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// socketPriorities says why an skb priority is not RoCE's alone: 0 is
// every socket that sets no ToS or priority (TCP, ARP, ICMP), 6 every
// socket marked IPTOS_LOWDELAY (telnet, ssh before OpenSSH 7.8).
var socketPriorities = map[int]string{
	0: "the skb priority of every ordinary socket (TCP, ARP, ICMP, any socket that sets no ToS)",
	6: "TC_PRIO_INTERACTIVE, the skb priority of every socket marked IPTOS_LOWDELAY (telnet, ssh before OpenSSH 7.8)",
}

// checkSkbPriority refuses a Linux RoCE NIC that tags a VLAN classified by
// PCP (the NIC or its switch port trusts pcp) whose RoCE ToS Linux gives an
// skb priority ordinary sockets have. On a VLAN RDMA-CM takes the tag's
// PCP from the VLAN's egress-map entry of rt_tos2priority(ToS)
// (include/rdma/ib_addr.h, iboe_tos_to_sl), so the entry that gives RoCE
// its lossless PCP gives it to those sockets too, and PFC pauses the
// VLAN's ordinary traffic with RoCE's. The error names the DSCPs of the
// RoCE class that Linux gives another skb priority.
func (c *checker) checkSkbPriority() {
	def := c.f.QoS.DefaultClassPriority()
	for _, h := range c.f.Hosts {
		if h.OS != model.OSLinux {
			continue
		}
		for _, n := range h.NICs {
			r := n.RoCE
			if n.Transport != model.TransportRoCE || n.VLAN == 0 {
				continue
			}
			why, shared := socketPriorities[model.SkbPriority(r.TOS)]
			if !shared || r.Priority == def || !slices.Contains(r.PFCPriorities, r.Priority) {
				continue
			}
			who := c.pcpClassifier(n)
			if who == "" {
				continue
			}
			c.errorf("RoCE ToS shares its skb priority with ordinary sockets",
				fmt.Sprintf("NIC %s:%s tags VLAN %d, where %s by PCP, and marks RoCE with DSCP %d (ToS %d), which Linux gives skb priority %d (net/ipv4/route.c, ip_tos2prio), %s. "+
					"RDMA-CM takes the VLAN tag's PCP from the egress-map entry of that skb priority (include/rdma/ib_addr.h, iboe_tos_to_sl), so the entry that gives RoCE its lossless priority %d gives it to those sockets too, and PFC pauses them with RoCE. %s",
					h.Name, n.Name, n.VLAN, who, r.DSCP, r.TOS, model.SkbPriority(r.TOS), why, r.Priority, c.skbFix(r)),
				nicPath(h.Name, n.Name, "dscp"))
		}
	}
}

// pcpClassifier names what classifies n's VLAN by PCP, with its verb:
// "the NIC classifies", "its switch port leaf1:swp3 classifies", "the NIC
// and its switch port leaf1:swp3 classify", or "" when neither trusts pcp.
func (c *checker) pcpClassifier(n model.NIC) string {
	var who []string
	if n.RoCE.Trust == model.TrustPCP {
		who = append(who, "the NIC")
	}
	if n.Peer != nil && n.Peer.Kind == "switch" {
		if sw := c.switches[n.Peer.Device]; sw != nil {
			if p := sw.Port(n.Peer.Port); p != nil && p.Trust == model.TrustPCP {
				who = append(who, "its switch port "+sw.Name+":"+p.Name)
			}
		}
	}
	switch len(who) {
	case 0:
		return ""
	case 1:
		return who[0] + " classifies"
	}
	return strings.Join(who, " and ") + " classify"
}

// skbFix names the DSCPs of r's class (the class of its priority) that
// Linux gives an skb priority no ordinary socket has.
func (c *checker) skbFix(r model.RoCE) string {
	var ok []string
	for _, cl := range c.f.QoS.Classes {
		if cl.Priority != r.Priority {
			continue
		}
		for _, d := range cl.DSCP {
			if _, shared := socketPriorities[model.SkbPriority(d<<2)]; !shared {
				ok = append(ok, strconv.Itoa(d))
			}
		}
	}
	trust := "or trust dscp on the NIC and its switch port, where the PCP does not classify RoCE."
	if len(ok) == 0 {
		return "No DSCP of the class avoids them: give the class DSCPs whose value modulo 8 is 2, 3, 6 or 7, " + trust
	}
	return "Write dscp = " + ok[0] + " (the class's DSCPs " + strings.Join(ok, ", ") + " get skb priority 2 or 4), " + trust
}
