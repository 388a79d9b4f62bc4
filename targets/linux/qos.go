package linux

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// tos2prio is the kernel's ip_tos2prio table (net/ipv4/route.c): the skb
// priority rt_tos2priority gives a ToS, indexed by (ToS & 0x1E) >> 1.
// RDMA-CM marks a RoCE connection's skb priority this way, and on a VLAN
// device the egress map turns it into the PCP (iboe_tos_to_sl in
// include/rdma/ib_addr.h). The tc_wrap.py output in the Demartek RoCE
// Deployment Guide ("Linux: Deploying iSER over RoCE", step 5) shows the same
// pairs: ToS 8 -> skprio 2, ToS 24 -> 4, ToS 16 -> 6.
var tos2prio = [16]int{0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4}

// skbPriority returns the skb priority RDMA-CM gives traffic with tos.
func skbPriority(tos int) int {
	return tos2prio[(tos&0x1e)>>1]
}

// defaultPriority is the PCP of the class that holds priority 0, where
// untagged-by-policy traffic lands.
func defaultPriority(q *model.QoS) int {
	for _, c := range q.Classes {
		for _, p := range c.Priorities {
			if p == 0 {
				return c.Priority
			}
		}
	}
	return 0
}

// egressMap returns the VLAN egress-qos-map of all 16 skb priorities
// (absolute, so stale entries are overwritten) and its non-zero entries as
// the kernel reports them.
//
// The Demartek RoCE Deployment Guide maps every skb priority 0-15 to the
// RoCE priority. That also
// puts ARP, SSH and iSCSI/TCP on the lossless priority, against the rule
// that lossy traffic stays off it, and it is not needed: RDMA-CM derives
// the RoCE PCP from the egress map entry of the ToS's skb priority. So
// only that skb priority (and the RoCE priority itself, for applications
// that set SO_PRIORITY) map to the RoCE priority; everything else goes to
// the default class. CNPs are built by the NIC with their own priority and
// do not pass through the map.
func egressMap(q *model.QoS, r *model.RoCE) (all []string, nonzero string) {
	def := defaultPriority(q)
	skb := skbPriority(r.TOS)
	var nz []string
	for s := 0; s < 16; s++ {
		v := def
		if s == skb || s == r.Priority {
			v = r.Priority
		}
		all = append(all, fmt.Sprintf("%d:%d", s, v))
		if v != 0 {
			nz = append(nz, fmt.Sprintf("%d:%d", s, v))
		}
	}
	if len(nz) == 0 {
		return all, "none"
	}
	return all, strings.Join(nz, " ")
}

// pfcMap returns "0:off ... 3:on ..." (dcb) and "0,0,0,1,..." (mlnx_qos).
func pfcMap(prios []int) (dcb, mlnx string) {
	on := [8]bool{}
	for _, p := range prios {
		on[p] = true
	}
	d, m := make([]string, 8), make([]string, 8)
	for i := range on {
		d[i], m[i] = fmt.Sprintf("%d:off", i), "0"
		if on[i] {
			d[i], m[i] = fmt.Sprintf("%d:on", i), "1"
		}
	}
	return strings.Join(d, " "), strings.Join(m, ",")
}

// etsMaps returns the per-TC algorithm and bandwidth: strict classes get
// strict and 0 %, WRR classes ets and their share.
func etsMaps(ets []model.ETS) (tsa, bw []string) {
	for _, e := range ets {
		if e.Mode == model.ETSStrict {
			tsa, bw = append(tsa, "strict"), append(bw, "0")
			continue
		}
		tsa, bw = append(tsa, "ets"), append(bw, fmt.Sprint(e.BandwidthPercent))
	}
	return tsa, bw
}

// indexed returns "0:v0 1:v1 ..." (dcb's mapping syntax).
func indexed[T any](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprintf("%d:%v", i, x)
	}
	return out
}
