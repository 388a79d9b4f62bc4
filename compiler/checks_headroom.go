package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// checkHeadroomCables warns where a port's PFC headroom rests on a cable
// length nobody confirmed: a lossless port without a link (or a link
// without a length) is sized for SONiC's 5 m default, and a long cable
// on a switch that sizes its own headroom is not told to the switch.
func (c *checker) checkHeadroomCables() {
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		c.checkUncabledPFC(sw)
		c.checkSelfSizedLongCables(sw)
	}
}

// checkUncabledPFC warns once per switch about its PFC ports whose
// headroom assumes defaultCableMeters because no link gives a length.
// SONiC picks its default cable per switch role (sonic-buildimage
// cable_length.j2: 5 m toward servers, 40 m toward leaves, 300 m toward
// spines), so 5 m is the shortest class, not a length for an unknown
// port: such a port is usually cabled to something outside the fabric.
func (c *checker) checkUncabledPFC(sw *model.Switch) {
	var ports []string
	var first string
	for j := range sw.Ports {
		p := &sw.Ports[j]
		if p.Shutdown || !anyLosslessPG(p) || (p.Peer != nil && p.Peer.CableMeters > 0) {
			continue
		}
		if first == "" {
			first = p.Name
		}
		ports = append(ports, sw.Name+":"+p.Name)
	}
	if len(ports) == 0 {
		return
	}
	who := "Port " + ports[0] + " has"
	if len(ports) > 1 {
		who = fmt.Sprintf("%d ports of switch %s (%s) have", len(ports), sw.Name, listText(ports))
	}
	c.warnf("PFC port without a cable length",
		fmt.Sprintf("%s PFC on but no link with a length, so the PFC headroom assumes a %g m cable (SONiC's default cable length, its shortest class); a longer cable needs more, and frames arriving after PAUSE beyond it are dropped. Write a link block for each such port with its length (link { a = \"<switch>:<port>\" b = \"<peer>\" length = <metres> }), or turn PFC off on a port that carries no lossless traffic.",
			who, defaultCableMeters),
		portPath(sw.Name, first))
}

// headroomWriter is the one split of the switches by who sizes their
// PFC headroom when fabricc does not configure it. selfSized says why
// the switch sizes it itself, whatever fabricc writes: Onyx in
// traffic-pool mode (NVIDIA Onyx User Manual, Shared Buffers: the switch
// computes each port's headroom) and EOS on an ASIC without an MMU queue
// profile (Jericho). refused says why its configuration has no form
// without fabricc's headroom bytes, so that headroom mode "platform" is
// refused: Onyx with advanced buffer management, whose `ingress-buffer
// ... map pool` line carries the group's reserved, xoff and xon bytes,
// and EOS on Trident and Tomahawk, whose MMU queue profile fabricc
// writes with `ingress headroom bytes`. Every Onyx and EOS switch is
// one or the other; Cumulus is neither: fabricc writes its headroom, and
// mode "platform" leaves it to the switch.
func headroomWriter(sw *model.Switch) (selfSized, refused string) {
	switch sw.Platform {
	case model.PlatformOnyx:
		if sw.BufferStyle == "traffic-pool" {
			return "Onyx sizes each port's headroom itself in traffic-pool mode (MLNX-OS 3.6.5000 and later)", ""
		}
		return "", fmt.Sprintf("Onyx %s, advanced buffer management: each lossless ingress-buffer line takes reserved, xoff and xon bytes; traffic pools, where Onyx sizes headroom itself, need MLNX-OS 3.6.5000", sw.OSVersion)
	case model.PlatformEOS:
		if !sw.Hardware.HasEOSMMUProfile() {
			return "EOS sizes PFC headroom itself on " + sw.Hardware.ASIC, ""
		}
		return "", fmt.Sprintf("EOS on %s (%s): the MMU queue profile's ingress headroom bytes", sw.Hardware.Model, sw.Hardware.ASIC)
	}
	return "", ""
}

// checkSelfSizedLongCables warns about the lossless links of a switch that
// sizes its own headroom when they are longer than planningCableFloor,
// the longest default cable class (sonic-buildimage cable_length.j2):
// the switch is told no cable length, and no public document gives the
// length it assumes.
func (c *checker) checkSelfSizedLongCables(sw *model.Switch) {
	who, _ := headroomWriter(sw)
	if who == "" {
		return
	}
	for _, ll := range linksLongerThan(sw, planningCableFloor) {
		if ll.port.Shutdown || !anyLosslessPG(ll.port) {
			continue
		}
		c.warnf("Long cable on a switch that sizes its own headroom",
			fmt.Sprintf("Link %s is %g m long and carries lossless traffic, but %s and is told no cable length: fabricc's configuration has no headroom line for it, and no public document gives the length the switch assumes. fabricc computes %d bytes in flight after PAUSE for this cable (the switch document lists it). Check the switch's own headroom for the port after cabling it, shorten the link to %g m or less, or use a switch whose headroom fabricc writes (Cumulus Linux, Onyx before 3.6.5000 with advanced buffers, EOS on Trident or Tomahawk).",
				ll.name(sw.Name), cableMeters(ll.port), who, maxXoff(ll.port), planningCableFloor),
			portPath(sw.Name, ll.port.Name, "link", "length"))
	}
}

// maxXoff is the largest in flight after PAUSE of p's lossless groups.
func maxXoff(p *model.Port) int64 {
	var most int64
	for _, pg := range p.PriorityGroups {
		if pg.Lossless && pg.XoffBytes > most {
			most = pg.XoffBytes
		}
	}
	return most
}

// checkHeadroomMode refuses qos.headroom.mode = "platform" on the
// switches whose configuration cannot leave the headroom to the switch
// (headroomWriter's refused: Onyx with advanced buffer management, EOS
// on Trident and Tomahawk). Elsewhere the mode changes nothing but
// Cumulus: Onyx traffic pools and EOS on Jericho size headroom
// themselves already (fabricc's values are comments there). One error,
// at the mode, names every such switch.
func (c *checker) checkHeadroomMode() {
	if !c.f.QoS.Headroom.LeftToPlatform() {
		return
	}
	var names []string
	var rels []related
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		_, why := headroomWriter(sw)
		if why == "" {
			continue
		}
		names = append(names, fmt.Sprintf("%s (%s)", sw.Name, why))
		rels = append(rels, rel(fmt.Sprintf("switch %s: %s", sw.Name, why), "switch", sw.Name, "platform"))
	}
	if len(names) == 0 {
		return
	}
	c.errorf("Headroom mode platform not possible",
		fmt.Sprintf("headroom mode \"platform\" leaves each lossless port's headroom to the switch, but fabricc writes it on %s. Remove mode (or write \"computed\"), or move those switches to a release or model that sizes headroom itself.", listText(names)),
		[]string{"qos", "headroom", "mode"}, rels...)
}
