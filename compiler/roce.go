package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// nicRoCE resolves the host side of the lossless contract from the NIC's
// RoCE class and the fabric QoS; written values override the class's.
func (l *lowering) nicRoCE(host string, n *dsl.NIC, transport model.Transport) model.RoCE {
	who := fmt.Sprintf("nic %q of host %q", n.Name, host)
	r := model.RoCE{Mode: "v2", UDPPort: roceV2UDPPort, Trust: model.TrustDSCP}
	if n.RoCEMode != nil {
		r.Mode = *n.RoCEMode
		switch r.Mode {
		case "v2":
		case "v1":
			// RoCEv1 is plain Ethernet (no UDP); only PCP marks it.
			r.UDPPort, r.Trust = 0, model.TrustPCP
		default:
			l.errorf(n.RoCEModeRange.Or(n.DefRange), "Invalid RoCE mode", "%s has roce_mode %q; write \"v1\" or \"v2\".", who, r.Mode)
		}
	}
	q := &l.f.QoS
	class := l.classes[q.RoCEClass]
	if n.Class != nil {
		class = l.namedClass(*n.Class, n.ClassRange.Or(n.DefRange), who, "rides class")
	}
	if class != nil {
		r.Priority, r.DSCP = class.Priority, class.MarkDSCP
	}
	// Without a CNP class the NIC keeps its firmware's CNP marking, not
	// the RoCE class's: CNPs in the lossless queue would wait behind the
	// paused data whose rate they are meant to cut (checkNoCNPClass says
	// where the switches put them).
	r.CNPPriority, r.CNPDSCP = model.FirmwareCNPPriority, model.FirmwareCNPDSCP
	if cnp := l.classes[q.CNPClass]; cnp != nil {
		r.CNPPriority, r.CNPDSCP = cnp.Priority, cnp.MarkDSCP
	}
	l.nicOverride(n.Priority, &r.Priority, 7, n.PriorityRange, n.DefRange, who, "priority")
	l.nicOverride(n.DSCP, &r.DSCP, 63, n.DSCPRange, n.DefRange, who, "dscp")
	l.nicOverride(n.CNPPriority, &r.CNPPriority, 7, n.CNPPriorityRange, n.DefRange, who, "cnp_priority")
	l.nicOverride(n.CNPDSCP, &r.CNPDSCP, 63, n.CNPDSCPRange, n.DefRange, who, "cnp_dscp")
	r.TOS = r.DSCP << 2
	if transport == model.TransportRoCE && r.Mode == "v2" {
		// RoCE v2 packets must be ECN-capable for DCQCN's marks: a switch
		// marks CE only on ECT packets and drops the others where it would
		// mark them (RFC 3168, section 5), so every ToS fabricc sets or
		// advises keeps ECT(0), as UCX's RoCE v2 default 106 does. iWARP
		// runs TCP, which negotiates ECN itself.
		r.TOS |= model.ECTZero
	}
	r.PFCPriorities = append([]int{}, q.PFCPriorities...)
	if n.PFCPriorities != nil {
		for _, p := range n.PFCPriorities {
			if p < 0 || p > 7 {
				l.errorf(n.PFCPrioritiesRange.Or(n.DefRange), "Invalid priority", "%s lists PFC priority %d; 802.1p priorities are 0-7.", who, p)
			}
		}
		r.PFCPriorities = sortedUnique(n.PFCPriorities)
	}
	if n.Trust != nil {
		t, ok := trustModes[*n.Trust]
		if !ok {
			l.errorf(n.TrustRange.Or(n.DefRange), "Invalid trust", "%s has trust %q; write \"dscp\", \"pcp\" or \"both\".", who, *n.Trust)
		}
		r.Trust = t
	}
	// DCQCN (ECN reaction and notification point) runs on every
	// priority, as ConnectX firmware ships it (mlxconfig ROCE_CC_PRIO_MASK,
	// all priorities). It acts only on RoCE that a switch marked CE, so
	// it costs other traffic nothing, while RoCE a sender puts on another
	// priority (a verbs application that does not use RDMA-CM, such as
	// NCCL with NCCL_IB_TC unset, sends DSCP 0) stays congestion-
	// controlled on a class the switches mark (MLNX_OFED User Manual,
	// "Explicit Congestion Notification (ECN)": enable is per priority).
	r.ECNPriorities = []int{0, 1, 2, 3, 4, 5, 6, 7}
	r.ETS = nicETS(q.Classes)
	return r
}

// nicOverride applies a written priority or DSCP value, checking 0..hi.
func (l *lowering) nicOverride(v *int, dst *int, hi int, r, block dsl.Range, who, attr string) {
	if v == nil {
		return
	}
	*dst = *v
	if *v < 0 || *v > hi {
		l.errorf(r.Or(block), "Invalid "+attr, "%s has %s %d; write 0-%d.", who, attr, *v, hi)
	}
}

// nicETS returns the 8-entry per-traffic-class ETS table of the classes;
// traffic classes no class uses get WRR 0.
func nicETS(classes []model.Class) []model.ETS {
	ets := make([]model.ETS, 8)
	for i := range ets {
		ets[i] = model.ETS{Mode: model.ETSWRR}
	}
	for _, c := range classes {
		if c.TrafficClass >= 0 && c.TrafficClass < 8 {
			ets[c.TrafficClass] = c.ETS
		}
	}
	return ets
}
