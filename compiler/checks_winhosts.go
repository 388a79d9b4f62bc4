package compiler

import (
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/model"
)

// checkWindows refuses what the Windows host script cannot express,
// where the fabric says it: Windows QoS is host-wide, so every NIC of a
// Windows host must ride the same priorities, and its built-in [Default]
// traffic class stands for the fabric's traffic class 0 (NetQos
// Get-NetQosTrafficClass: "[Default]" holds every priority no other class
// takes and is always ETS). Before this check such a fabric passed
// validation and failed only in build, without a location.
func (c *checker) checkWindows() {
	var windows []*model.Host
	for i := range c.f.Hosts {
		if h := &c.f.Hosts[i]; h.OS == model.OSWindows && len(h.NICs) > 0 {
			windows = append(windows, h)
		}
	}
	if len(windows) == 0 {
		return
	}
	c.checkDefaultClass(windows[0])
	for _, h := range windows {
		c.checkHostWide(h)
		c.checkTCPAppDSCP(h)
		c.checkWindowsDSCP(h)
	}
}

// checkDefaultClass requires an ETS, lossy class on traffic class 0.
func (c *checker) checkDefaultClass(h *model.Host) {
	for _, cl := range c.f.QoS.Classes {
		if cl.TrafficClass != 0 {
			continue
		}
		switch {
		case cl.ETS.Mode == model.ETSStrict:
			c.errorf("Windows needs an ETS class on traffic class 0",
				fmt.Sprintf("class %q is on traffic class 0 and strict, but host %q runs Windows, whose [Default] traffic class (traffic class 0) is always ETS; give class %q a bandwidth or move it to another traffic class.", cl.Name, h.Name, cl.Name),
				[]string{"qos", "class", cl.Name}, rel(fmt.Sprintf("host %q runs Windows", h.Name), "host", h.Name))
		case cl.Lossless:
			c.errorf("Windows needs a lossy class on traffic class 0",
				fmt.Sprintf("class %q is on traffic class 0 and lossless, but host %q runs Windows, whose [Default] traffic class (traffic class 0) is lossy; put the lossless class on another traffic class.", cl.Name, h.Name),
				[]string{"qos", "class", cl.Name}, rel(fmt.Sprintf("host %q runs Windows", h.Name), "host", h.Name))
		}
		return
	}
	c.errorf("Windows needs a class on traffic class 0",
		fmt.Sprintf("host %q runs Windows, whose [Default] traffic class stands for traffic class 0, but no class of the fabric is on traffic class 0; give the default class traffic_class = 0.", h.Name),
		[]string{"qos"}, rel(fmt.Sprintf("host %q runs Windows", h.Name), "host", h.Name))
}

// checkHostWide requires the NICs of one Windows host to agree on what
// Windows sets host-wide (NetQos policies, PFC) or per driver (the RoCE
// mode: "RoceMode ... per driver", Mellanox WinOF-2 User Manual, Rev 1.21, section 3.1.3.6).
func (c *checker) checkHostWide(h *model.Host) {
	first := &h.NICs[0]
	modes := map[string]*model.NIC{first.Driver: first}
	for i := 1; i < len(h.NICs); i++ {
		n := &h.NICs[i]
		a, b := first.RoCE, n.RoCE
		if a.Priority != b.Priority || !slices.Equal(a.PFCPriorities, b.PFCPriorities) {
			c.errorf("NICs of a Windows host disagree",
				fmt.Sprintf("nic %q of host %q rides priority %d with PFC on %s, but nic %q rides priority %d with PFC on %s; Windows QoS policies and PFC are host-wide, so every NIC of a Windows host must use the same priorities.",
					n.Name, h.Name, b.Priority, prioList(b.PFCPriorities), first.Name, a.Priority, prioList(a.PFCPriorities)),
				nicPath(h.Name, n.Name), rel(fmt.Sprintf("nic %q", first.Name), nicPath(h.Name, first.Name)...))
			continue
		}
		if m, ok := modes[n.Driver]; ok && (m.RoCE.Mode != b.Mode || m.RoCE.UDPPort != b.UDPPort) && n.Transport == model.TransportRoCE && m.Transport == model.TransportRoCE {
			c.errorf("NICs of a Windows driver disagree",
				fmt.Sprintf("nic %q of host %q asks RoCE %s, but nic %q on the same driver %s asks RoCE %s; Windows sets the RoCE mode per driver (Mellanox WinOF-2 User Manual, Rev 1.21, section 3.1.3.6), so they must agree.",
					n.Name, h.Name, b.Mode, m.Name, n.Driver, m.RoCE.Mode),
				nicPath(h.Name, n.Name, "roce_mode"), rel(fmt.Sprintf("nic %q", m.Name), nicPath(h.Name, m.Name)...))
			continue
		}
		modes[n.Driver] = n
	}
}

// checkTCPAppDSCP requires the NICs of a Windows host that list one
// application over TCP (nvme-tcp, iscsi) to mark it with one DSCP: its
// NetQos policy matches the TCP port host-wide (New-NetQosPolicy), so it
// can mark one DSCP only, whichever NIC the connection leaves by.
func (c *checker) checkTCPAppDSCP(h *model.Host) {
	first := map[string]*model.NIC{}
	for i := range h.NICs {
		n := &h.NICs[i]
		for _, a := range n.Applications {
			if !a.OverTCP() {
				continue
			}
			m, ok := first[a.Kind]
			if !ok {
				first[a.Kind] = n
				continue
			}
			if m.RoCE.DSCP != n.RoCE.DSCP {
				c.errorf("NICs of a Windows host mark one application two ways",
					fmt.Sprintf("nic %q of host %q lists %q with DSCP %d, but nic %q lists it with DSCP %d; the NetQos policy of an application over TCP matches its port on the whole host, so it marks one DSCP: give the NICs that list %q the same dscp, or list it on one of them.",
						n.Name, h.Name, a.Kind, n.RoCE.DSCP, m.Name, m.RoCE.DSCP, a.Kind),
					nicPath(h.Name, n.Name, "applications"), rel(fmt.Sprintf("nic %q", m.Name), nicPath(h.Name, m.Name)...))
			}
		}
	}
}

// prioList prints priorities for a message, "none" for none.
func prioList(ps []int) string {
	if len(ps) == 0 {
		return "none"
	}
	s := ""
	for i, p := range ps {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(p)
	}
	return s
}
