package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// losslessMTUs picks the lossless MTU of each port of a fabric: the
// written lossless_mtu, or, when it is not written, the largest RoCE path
// MTU of the NICs the port receives lossless traffic from. Either is at
// most the port's largest frame.
type losslessMTUs struct {
	policy model.HeadroomPolicy
	// nics are the fabric's RoCE NICs by "host:nic".
	nics map[string]*model.NIC
	// widest is the RoCE NIC with the largest RoCE path MTU ("" without
	// one), roce its path MTU: an inter-switch port may receive from any.
	widest string
	roce   int
	// widestFrom says where a switch-facing port's MTU came from: the
	// same sentence for every such port, written once.
	widestFrom string
}

// noRoCENICKnown is where the MTU of a port that faces no RoCE NIC and
// no switch came from.
const noRoCENICKnown = "not written, no RoCE NIC known on this port: 4096 B, the largest RoCE path MTU"

// newLosslessMTUs indexes f's RoCE NICs for losslessMTUs.forPort.
func newLosslessMTUs(f *model.Fabric) *losslessMTUs {
	m := &losslessMTUs{policy: headroomPolicy(f.QoS.Headroom), nics: map[string]*model.NIC{}}
	if !m.policy.LosslessMTUFromNICs {
		return m
	}
	for i := range f.Hosts {
		h := &f.Hosts[i]
		for j := range h.NICs {
			n := &h.NICs[j]
			if n.Transport != model.TransportRoCE {
				continue
			}
			key := h.Name + ":" + n.Name
			m.nics[key] = n
			if r := model.RoCEPathMTU(n.MTU); r > m.roce {
				m.widest, m.roce = key, r
			}
		}
	}
	if m.roce > 0 {
		m.widestFrom = fmt.Sprintf("not written: the largest RoCE path MTU of the fabric's NICs, %s (MTU %d)", m.widest, m.nics[m.widest].MTU)
	}
	return m
}

// forPort returns the lossless MTU of port p of sw and where it came
// from ("" for the written value as is).
func (m *losslessMTUs) forPort(sw *model.Switch, p *model.Port) (int, string) {
	mtu, from := m.policy.LosslessMTUBytes, ""
	if m.policy.LosslessMTUFromNICs {
		mtu, from = m.fromNICs(p)
	}
	// The last frame of the formula is one the port can carry: its MTU
	// plus the Ethernet header the model counts (model.MTUMeaning).
	if most := sw.Platform.PortMTU().FrameBytes(p.MTU); p.MTU > 0 && mtu > most {
		if from == "" {
			from = fmt.Sprintf("lossless_mtu %d B", mtu)
		}
		from += fmt.Sprintf(", clamped to the port's largest frame, MTU %d + %d B Ethernet header = %d B", p.MTU, most-p.MTU, most)
		mtu = most
	}
	return mtu, from
}

// fromNICs is the lossless MTU of a port when lossless_mtu is not
// written: the RoCE path MTU of the NIC it faces, the largest of the
// fabric's RoCE NICs on a port facing a switch, 4096 B otherwise.
func (m *losslessMTUs) fromNICs(p *model.Port) (int, string) {
	if p.Peer != nil && p.Peer.Kind == "host" {
		key := p.Peer.Device + ":" + p.Peer.Port
		if n := m.nics[key]; n != nil && model.RoCEPathMTU(n.MTU) > 0 {
			return model.RoCEPathMTU(n.MTU), fmt.Sprintf("not written: the RoCE path MTU of %s (MTU %d)", key, n.MTU)
		}
	}
	if p.Peer != nil && p.Peer.Kind == "switch" && m.roce > 0 {
		return m.roce, m.widestFrom
	}
	return model.MaxRoCEPathMTU, noRoCENICKnown
}
