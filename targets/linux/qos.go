package linux

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/model"
)

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
	def := q.DefaultClassPriority()
	skb := model.SkbPriority(r.TOS)
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

// egressComment is the script's comment on a VLAN NIC's egress map,
// true for every ToS: the skb priority RDMA-CM's ToS gets may be 0, that
// of every socket that sets no ToS or priority (TCP, ARP, ICMP), and then
// the map cannot tag RoCE with its PCP without tagging all of them so too
// (the kernel takes a RoCE QP's PCP on a VLAN only from the map entry of
// rt_tos2priority(ToS): iboe_tos_to_sl, include/rdma/ib_addr.h).
func egressComment(q *model.QoS, vlan int, r *model.RoCE) string {
	def, skb := q.DefaultClassPriority(), model.SkbPriority(r.TOS)
	var b strings.Builder
	fmt.Fprintf(&b, "\t# VLAN %d carries the priority in its PCP. RDMA-CM gives ToS %d skb priority %d\n", vlan, r.TOS, skb)
	fmt.Fprintf(&b, "\t# (kernel ip_tos2prio), and the egress map turns that, and skb priority %d\n", r.Priority)
	fmt.Fprintf(&b, "\t# (SO_PRIORITY), into PCP %d; every other skb priority goes to the default\n", r.Priority)
	fmt.Fprintf(&b, "\t# class (PCP %d).", def)
	switch {
	case r.Priority == def:
		fmt.Fprintf(&b, " RoCE's PCP is the default class's, so all traffic shares PCP %d.\n", def)
	case skb == 0:
		b.WriteString(" Skb priority 0 is also that of every socket that sets no\n")
		fmt.Fprintf(&b, "\t# ToS or priority (TCP, ARP, ICMP): on this VLAN they all leave with PCP %d too,\n", r.Priority)
		b.WriteString("\t# RoCE's priority; a RoCE DSCP of 2, 3, 6 or 7 modulo 8 gets a non-zero skb\n")
		b.WriteString("\t# priority and keeps them off it.\n")
	default:
		b.WriteString(" So TCP/ARP (skb priority 0) stay off RoCE's priority;\n")
		fmt.Fprintf(&b, "\t# only sockets whose ToS also gives skb priority %d (IP_TOS) share it.\n", skb)
	}
	b.WriteString("\t# (The Demartek RoCE Deployment Guide maps all 16 to the RoCE priority instead.)\n")
	return b.String()
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
