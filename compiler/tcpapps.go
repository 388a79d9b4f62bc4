package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// checkTCPApps warns about a NIC that lists storage over TCP (nvme-tcp,
// iscsi) while its class is lossless: the host scripts tag that TCP with
// the NIC's class, so it shares the RoCE queue and its PFC. A paused TCP
// flow loses nothing, so its loss-based congestion control never backs
// off: its bursts hold the lossless queue at the PFC threshold and pause
// the RoCE that shares it, on this hop and upstream. The RoCE vendors
// keep TCP off the lossless priority ("Direct ALL TCP/UDP traffic to a
// lossy priority", Mellanox WinOF User Manual 5.50 §7.4), while iSCSI
// over DCB deliberately makes its class lossless: a warning the design
// can accept, not an error.
func (l *lowering) checkTCPApps(h *dsl.Host, out *model.Host) {
	for i := range h.NICs {
		n := &h.NICs[i]
		m := findNIC(out, n.Name)
		if m == nil {
			continue
		}
		var tcp []string
		for _, a := range m.Applications {
			if a.OverTCP() {
				tcp = append(tcp, a.Kind)
			}
		}
		if len(tcp) == 0 || !slices.Contains(m.RoCE.PFCPriorities, m.RoCE.Priority) {
			continue
		}
		l.warnf(n.ApplicationsRange.Or(n.DefRange), "TCP application in a lossless class",
			"nic %q of host %q lists %s, storage over TCP, whose port the host tags with the NIC's class%s, priority %d, which is lossless (PFC on priority %d). PFC pauses that TCP instead of dropping it, so TCP never sees the loss it slows down for: its bursts fill the lossless queue and pause the RoCE that shares it. The RoCE vendors direct all TCP to a lossy priority (Mellanox WinOF User Manual 5.50 §7.4). Accept this warning where the fabric is designed with TCP storage in the lossless class (iSCSI over DCB), or remove %s from applications so that its TCP rides the default class.",
			n.Name, h.Name, strings.Join(quoteAll(tcp), " and "), l.classText(m.RoCE.Priority), m.RoCE.Priority, m.RoCE.Priority, strings.Join(quoteAll(tcp), " and "))
	}
}

// classText is ` "NAME"`, the class that holds priority p, or "" when no
// class does (a NIC whose priority is written outside the classes).
func (l *lowering) classText(p int) string {
	if c := l.f.QoS.ClassOfPriority(p); c != nil {
		return fmt.Sprintf(" %q", c.Name)
	}
	return ""
}

// quoteAll quotes each string.
func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
