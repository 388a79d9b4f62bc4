package compiler

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// checkRoCEPathMTU warns about a RoCE NIC whose MTU is 4096-4191: RoCE
// takes 96 B of headers off the MTU before picking the path MTU
// (iboe_get_mtu), so such a NIC runs RoCE at 2048 B, where an MTU of
// 4192 or more gives 4096 B; an MTU of 4096 is the usual slip ("RoCE MTU
// is 4096" names the path MTU, not the interface's).
func (c *checker) checkRoCEPathMTU() {
	least := model.MaxRoCEPathMTU + model.RoCEHeaderBytes
	for _, h := range c.f.Hosts {
		for _, n := range h.NICs {
			if n.Transport != model.TransportRoCE || n.MTU < model.MaxRoCEPathMTU || n.MTU >= least {
				continue
			}
			c.warnf("NIC MTU gives RoCE path MTU 2048",
				fmt.Sprintf("NIC %s:%s has MTU %d, which gives a RoCE path MTU of %s B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less %d B of RoCE headers), so RoCE sends half-size packets. Write mtu = %d or more (4200 is usual; the switch port's MTU must be at least as large) for a RoCE path MTU of %s B, or accept this warning where %s B is meant.",
					h.Name, n.Name, n.MTU, thousands(model.RoCEPathMTU(n.MTU)), model.RoCEHeaderBytes, least, thousands(model.MaxRoCEPathMTU), thousands(model.RoCEPathMTU(n.MTU))),
				nicPath(h.Name, n.Name, "mtu"))
		}
	}
}

// checkLosslessMTU warns when a lossless switch port faces a RoCE NIC
// whose MTU makes it send RoCE frames larger than the headroom policy's
// lossless_mtu: the headroom's "lossless MTU" term, the frame that may
// still be arriving when PAUSE takes effect, is then too small by the
// difference on every lossless priority group of those ports. One
// warning per RoCE MTU, naming the NICs and ports.
//
// Only a written lossless_mtu warns: without one each port takes its
// NICs' RoCE path MTU (losslessMTUs).
func (c *checker) checkLosslessMTU() {
	if c.f.QoS.Headroom.LosslessMTUFromNICs {
		return
	}
	lossless := c.f.QoS.Headroom.LosslessMTUBytes
	type finding struct {
		nics, ports []string
		firstNIC    []string
	}
	byMTU := map[int]*finding{}
	var order []int
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		for j := range sw.Ports {
			p := &sw.Ports[j]
			if p.Peer == nil || p.Shutdown || !anyLosslessPG(p) {
				continue
			}
			h := c.hosts[p.Peer.Device]
			if h == nil {
				continue
			}
			n := h.NIC(p.Peer.Port)
			if n == nil || n.Transport != model.TransportRoCE {
				continue
			}
			m := model.RoCEPathMTU(n.MTU)
			if m <= lossless {
				continue
			}
			fd := byMTU[m]
			if fd == nil {
				fd = &finding{firstNIC: nicPath(h.Name, n.Name, "mtu")}
				byMTU[m] = fd
				order = append(order, m)
			}
			fd.nics = append(fd.nics, fmt.Sprintf("%s:%s (MTU %d)", h.Name, n.Name, n.MTU))
			fd.ports = append(fd.ports, sw.Name+":"+p.Name)
		}
	}
	for _, m := range order {
		fd := byMTU[m]
		who, them := "NIC "+fd.nics[0]+" runs", "it"
		if len(fd.nics) > 1 {
			who, them = "NICs "+listText(fd.nics)+" run", "them"
		}
		c.warnf("Lossless MTU below the RoCE MTU",
			fmt.Sprintf("%s RoCE at a path MTU of %d B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less %d B of RoCE headers), above the headroom policy's lossless_mtu of %d B, so the PFC headroom of the lossless switch ports facing %s (%s) is computed for a last frame %s B shorter than RoCE sends. Write qos { headroom { lossless_mtu = %d } } (or more, for the frame's Ethernet, IP and UDP headers), or lower the NIC's MTU.",
				who, m, model.RoCEHeaderBytes, lossless, them, listText(fd.ports), thousands(m-lossless), m),
			fd.firstNIC, rel("the headroom policy", "qos", "headroom"))
	}
}

// anyLosslessPG reports whether p has a lossless priority group.
func anyLosslessPG(p *model.Port) bool {
	for _, pg := range p.PriorityGroups {
		if pg.Lossless {
			return true
		}
	}
	return false
}

// thousands is n with thousands separators: 3,072.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
