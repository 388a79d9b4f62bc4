package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// checkVendorNotes draws the vendor warnings of the Demartek RoCE
// Deployment Guide.
func (c *checker) checkVendorNotes() {
	c.checkPriority3()
	for _, h := range c.f.Hosts {
		for _, n := range h.NICs {
			if n.TakesPFCByDCBX() {
				c.warnf("QLogic RoCE priority is set in UEFI",
					fmt.Sprintf("NIC %s:%s (%s) takes its RoCE priority from the adapter's UEFI HII, not from the OS: set it in System Setup > Device Settings > the port > Device Level Configuration (DCBX protocol Dynamic, RoCE Priority %d) before the host scripts run (Demartek RoCE Deployment Guide, QLogic adapter set-up).", h.Name, n.Name, n.Model, n.RoCE.Priority),
					nicPath(h.Name, n.Name, "model"))
			}
		}
	}
}

// checkPriority3 warns when priority 3 is lossless on switches that are
// not Mellanox/NVIDIA Spectrum switches: "Any other switch would most
// likely have Priority 3 set to FCoE ... Priority 5 would be recommended"
// (Demartek RoCE Deployment Guide, "Deploying RoCE on a Network Switch").
// Arista EOS is not such a switch: Arista's own RoCEv2 design puts RoCE
// in traffic class 3 with PFC no-drop on priority 3, and EOS maps DSCP
// CS3 to traffic class 3 by default (Arista AI Network Fabric Deployment
// Guide, "Global QoS Mapping Config"; Broadcom RoCE Deployment Guide,
// "Deploying RoCE on Arista Switches"), so the warning would only ever
// be acknowledged there. The fix is one change to the
// class, so there is one warning, pointing at the class, with every
// switch concerned as a related place.
func (c *checker) checkPriority3() {
	var class string
	for _, cl := range c.f.QoS.Classes {
		if cl.Lossless && slices.Contains(cl.Priorities, 3) {
			class = cl.Name
		}
	}
	if class == "" {
		return
	}
	var names []string
	var rels []related
	for _, sw := range c.f.Switches {
		spectrum := strings.HasPrefix(sw.Hardware.ASIC, "Spectrum")
		if sw.Platform == model.PlatformOnyx || sw.Platform == model.PlatformEOS || (sw.Platform == model.PlatformCumulus && spectrum) {
			continue
		}
		if !switchCarries(&sw, 3) {
			continue
		}
		names = append(names, fmt.Sprintf("%s (%s on %s)", sw.Name, sw.Platform, sw.Hardware.Model))
		rels = append(rels, rel(fmt.Sprintf("switch %s is %s on %s", sw.Name, sw.Platform, sw.Hardware.Model), "switch", sw.Name, "platform"))
	}
	if len(names) == 0 {
		return
	}
	c.warnf("Priority 3 may be taken by FCoE",
		fmt.Sprintf("Class %q makes priority 3 lossless on %s. On switches other than NVIDIA Spectrum and Arista EOS, priority 3 is often reserved for FCoE and cannot be changed; the Demartek RoCE Deployment Guide recommends priority 5 there. Check those switches, or move the class to priority 5.", class, listText(names)),
		[]string{"qos", "class", class, "priority"}, rels...)
}
