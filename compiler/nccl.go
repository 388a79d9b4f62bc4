package compiler

import (
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// checkNCCL reports the nccl application where the host script cannot
// own NCCL_IB_TC for it: on a host that is not Linux (NCCL reads
// /etc/nccl.conf, which only the Linux script writes), on an iWARP NIC
// (NCCL_IB_TC is the traffic class of NCCL's RoCE queue pairs), and on
// NICs of one host that mark two ToS, since NCCL takes one NCCL_IB_TC per
// process and the file holds one for the host (NVIDIA NCCL User Guide,
// Environment Variables: NCCL_IB_TC).
func (l *lowering) checkNCCL(h *dsl.Host, out *model.Host, osOK bool) {
	var first *dsl.NIC
	firstToS := 0
	for i := range h.NICs {
		n := &h.NICs[i]
		m := findNIC(out, n.Name)
		if !slices.Contains(n.Applications, model.AppNCCL) || m == nil {
			continue
		}
		at := n.ApplicationsRange.Or(n.DefRange)
		switch {
		case osOK && out.OS != model.OSLinux:
			l.errorf(at, "NCCL application on a host that is not Linux",
				"nic %q of host %q lists application \"nccl\", which has the Linux host script write NCCL_IB_TC into /etc/nccl.conf; host %q runs %s, whose script writes no NCCL settings. Remove \"nccl\" from applications, and give the jobs NCCL_IB_TC=%d (the RoCE ToS) in their environment.",
				n.Name, h.Name, h.Name, out.OS, m.RoCE.TOS)
		case m.Transport == model.TransportIWARP:
			l.errorf(at, "NCCL application on an iWARP NIC",
				"nic %q of host %q lists application \"nccl\", whose NCCL_IB_TC is the traffic class of RoCE queue pairs, but the NIC runs iWARP, which has no such class. Remove \"nccl\" from its applications.", n.Name, h.Name)
		case first == nil:
			first, firstToS = n, m.RoCE.TOS
		case m.RoCE.TOS != firstToS:
			d := l.errorf(at, "NCCL NICs of one host with two ToS",
				"nic %q (ToS %d) and nic %q (ToS %d) of host %q both list application \"nccl\", but NCCL takes one NCCL_IB_TC per process and /etc/nccl.conf holds one for the host (NVIDIA NCCL User Guide, Environment Variables). Give these NICs one class (or one dscp), or list \"nccl\" on the NICs of one class only.",
				n.Name, m.RoCE.TOS, first.Name, firstToS, h.Name)
			also(d, fmt.Sprintf("nic %q lists nccl with ToS %d", first.Name, firstToS), first.ApplicationsRange.Or(first.DefRange))
		}
	}
}

// checkLustre reports the lustre application on a host that is not
// Linux: the Lustre client and its LNet o2ib driver are Linux kernel
// modules (Lustre Operations Manual, Installing Lustre), and only the
// Linux host document says how LNet takes the RoCE ToS.
func (l *lowering) checkLustre(h *dsl.Host, out *model.Host, osOK bool) {
	if !osOK || out.OS == model.OSLinux {
		return
	}
	for i := range h.NICs {
		n := &h.NICs[i]
		if slices.Contains(n.Applications, "lustre") {
			l.errorf(n.ApplicationsRange.Or(n.DefRange), "Lustre application on a host that is not Linux",
				"nic %q of host %q lists application \"lustre\", but host %q runs %s and Lustre's LNet o2ib driver runs on Linux only. Remove \"lustre\" from applications.",
				n.Name, h.Name, h.Name, out.OS)
		}
	}
}
