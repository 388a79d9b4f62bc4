package linux

import (
	"strconv"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestEgressComment: the comment on a VLAN NIC's egress map says what the
// map does to other traffic for each kind of ToS: skb priority 0 (DSCP
// 24, as 0 and 1 modulo 8) drags every plain socket onto RoCE's PCP;
// another skb priority keeps TCP/ARP off it; RoCE on the default class's
// PCP shares it with everything.
func TestEgressComment(t *testing.T) {
	head := func(tos, skb, pcp int) string {
		return "\t# VLAN 200 carries the priority in its PCP. RDMA-CM gives ToS " + strconv.Itoa(tos) + " skb priority " + strconv.Itoa(skb) + "\n" +
			"\t# (kernel ip_tos2prio), and the egress map turns that, and skb priority " + strconv.Itoa(pcp) + "\n" +
			"\t# (SO_PRIORITY), into PCP " + strconv.Itoa(pcp) + "; every other skb priority goes to the default\n" +
			"\t# class (PCP 0)."
	}
	const tail = "\t# (The Demartek RoCE Deployment Guide maps all 16 to the RoCE priority instead.)\n"
	tests := []struct {
		name          string
		tos, priority int
		want          string
	}{
		{"DSCP 24: skb priority 0", 96, 3, head(96, 0, 3) + " Skb priority 0 is also that of every socket that sets no\n" +
			"\t# ToS or priority (TCP, ARP, ICMP): on this VLAN they all leave with PCP 3 too,\n" +
			"\t# RoCE's priority; a RoCE DSCP of 2, 3, 6 or 7 modulo 8 gets a non-zero skb\n" +
			"\t# priority and keeps them off it.\n" + tail},
		{"DSCP 33: skb priority 0", 132, 3, head(132, 0, 3) + " Skb priority 0 is also that of every socket that sets no\n" +
			"\t# ToS or priority (TCP, ARP, ICMP): on this VLAN they all leave with PCP 3 too,\n" +
			"\t# RoCE's priority; a RoCE DSCP of 2, 3, 6 or 7 modulo 8 gets a non-zero skb\n" +
			"\t# priority and keeps them off it.\n" + tail},
		{"DSCP 26: skb priority 2", 104, 3, head(104, 2, 3) + " So TCP/ARP (skb priority 0) stay off RoCE's priority;\n" +
			"\t# only sockets whose ToS also gives skb priority 2 (IP_TOS) share it.\n" + tail},
		{"DSCP 28: skb priority 6", 112, 3, head(112, 6, 3) + " So TCP/ARP (skb priority 0) stay off RoCE's priority;\n" +
			"\t# only sockets whose ToS also gives skb priority 6 (IP_TOS) share it.\n" + tail},
		{"RoCE on the default PCP", 96, 0, head(96, 0, 0) + " RoCE's PCP is the default class's, so all traffic shares PCP 0.\n" + tail},
	}
	q := &fixture().QoS
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &model.RoCE{TOS: tc.tos, Priority: tc.priority}
			if got := egressComment(q, 200, r); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
