package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestSkbPriorityOf follows Linux ip_tos2prio: DSCP modulo 8 of 0-1 gives
// skb priority 0, 2-3 gives 2, 4-5 gives 6, 6-7 gives 4.
func TestSkbPriorityOf(t *testing.T) {
	for dscp, want := range map[int]int{24: 0, 25: 0, 26: 2, 27: 2, 28: 6, 29: 6, 30: 4, 31: 4, 46: 4, 48: 0} {
		if got := model.SkbPriority(dscp << 2); got != want {
			t.Errorf("DSCP %d: skb priority %d, want %d", dscp, got, want)
		}
	}
}

// TestSkbPriorityCheck: a Linux NIC on a VLAN classified by PCP whose
// RoCE ToS gets skb priority 0 or 6 is an error naming the class's DSCPs
// that work; DSCP 26, DSCP trust on both ends, an untagged NIC and a
// Windows host are not.
func TestSkbPriorityCheck(t *testing.T) {
	const fix = " Write dscp = 26 (the class's DSCPs 26, 27, 30, 31 get skb priority 2 or 4), or trust dscp on the NIC and its switch port, where the PCP does not classify RoCE."
	tests := []struct {
		name      string
		dscp      int
		nicTrust  model.Trust
		portTrust model.Trust
		vlan      int
		os        model.OS
		want      string
	}{
		{"DSCP 24, both trust pcp", 24, model.TrustPCP, model.TrustPCP, 100, model.OSLinux,
			"NIC h1:roce0 tags VLAN 100, where the NIC and its switch port leaf1:1/1 classify by PCP, and marks RoCE with DSCP 24 (ToS 96), which Linux gives skb priority 0 (net/ipv4/route.c, ip_tos2prio), " +
				"the skb priority of every ordinary socket (TCP, ARP, ICMP, any socket that sets no ToS). RDMA-CM takes the VLAN tag's PCP from the egress-map entry of that skb priority (include/rdma/ib_addr.h, iboe_tos_to_sl), " +
				"so the entry that gives RoCE its lossless priority 3 gives it to those sockets too, and PFC pauses them with RoCE." + fix},
		{"DSCP 28, port trusts pcp", 28, model.TrustDSCP, model.TrustPCP, 100, model.OSLinux,
			"NIC h1:roce0 tags VLAN 100, where its switch port leaf1:1/1 classifies by PCP, and marks RoCE with DSCP 28 (ToS 112), which Linux gives skb priority 6 (net/ipv4/route.c, ip_tos2prio), " +
				"TC_PRIO_INTERACTIVE, the skb priority of every socket marked IPTOS_LOWDELAY (telnet, ssh before OpenSSH 7.8). RDMA-CM takes the VLAN tag's PCP from the egress-map entry of that skb priority (include/rdma/ib_addr.h, iboe_tos_to_sl), " +
				"so the entry that gives RoCE its lossless priority 3 gives it to those sockets too, and PFC pauses them with RoCE." + fix},
		{"DSCP 26", 26, model.TrustPCP, model.TrustPCP, 100, model.OSLinux, ""},
		{"DSCP trust", 24, model.TrustDSCP, model.TrustDSCP, 100, model.OSLinux, ""},
		{"untagged", 24, model.TrustPCP, model.TrustPCP, 0, model.OSLinux, ""},
		{"windows", 24, model.TrustPCP, model.TrustPCP, 100, model.OSWindows, ""},
	}
	for _, tc := range tests {
		f := testFabric()
		f.QoS.Classes[roceClassIndex(t, f)].DSCP = []int{24, 25, 26, 27, 28, 29, 30, 31}
		n := &f.Hosts[0].NICs[0]
		n.VLAN, n.RoCE.Trust, n.RoCE.DSCP, n.RoCE.TOS = tc.vlan, tc.nicTrust, tc.dscp, tc.dscp<<2
		f.Hosts[0].OS = tc.os
		f.Switches[0].Ports[0].Trust = tc.portTrust
		c := newChecker(f, testSources(f))
		c.checkSkbPriority()
		got := ""
		for _, d := range c.diags {
			got += d.Detail
		}
		if got != tc.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

// roceClassIndex is the index of testFabric's class of priority 3.
func roceClassIndex(t *testing.T, f *model.Fabric) int {
	t.Helper()
	for i, c := range f.QoS.Classes {
		if c.Priority == 3 {
			return i
		}
	}
	t.Fatal("testFabric has no class of priority 3")
	return -1
}
