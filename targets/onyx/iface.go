package onyx

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// speedTokens are the Onyx speed keywords by Mb/s. Source: ansible
// mellanox.onyx onyx_interface.py choices 1G 10G 25G 40G 50G 56G 100G
// (`speed 100G force`); 200G and 400G exist on Spectrum-2/3 switches.
var speedTokens = map[int]string{
	1000:   "1G",
	10000:  "10G",
	25000:  "25G",
	40000:  "40G",
	50000:  "50G",
	56000:  "56G",
	100000: "100G",
	200000: "200G",
	400000: "400G",
}

// speedToken returns the Onyx speed keyword; "" for speed 0 (not set).
func speedToken(mbps int) (string, error) {
	if mbps == 0 {
		return "", nil
	}
	tok, ok := speedTokens[mbps]
	if !ok {
		return "", fmt.Errorf("speed %d Mb/s has no Onyx keyword; use 1G, 10G, 25G, 40G, 50G, 56G, 100G, 200G or 400G", mbps)
	}
	return tok, nil
}

// writeInterfaces writes the "Interface Ethernet configuration" section.
// Like running-config it groups lines by command across ports (all speed
// lines, then all mtu lines, ...), ports in model order.
func writeInterfaces(w *writer, sw *model.Switch) {
	w.section("Interface Ethernet configuration")
	for i := range sw.Ports {
		p := &sw.Ports[i]
		// validatePort has rejected every speed without a keyword.
		if tok, _ := speedToken(p.SpeedMbps); tok != "" {
			w.port(p, "speed")
			w.cmd("%s speed %s force", iface(p), tok)
		}
	}
	for i := range sw.Ports {
		if p := &sw.Ports[i]; p.MTU > 0 {
			w.port(p, "mtu")
			w.cmd("%s mtu %d force", iface(p), p.MTU)
		}
	}
	for i := range sw.Ports {
		writeSwitchportMode(w, &sw.Ports[i])
	}
	// A push merges its lines into the running configuration, so a
	// description the fabric no longer gives is removed with the no form
	// (mellanox.onyx onyx_interface: `no description`), as shutdown is
	// written in both states below.
	for i := range sw.Ports {
		p := &sw.Ports[i]
		w.port(p, "description")
		if p.Description != "" {
			w.cmd("%s description %s", iface(p), quote.OnyxString(p.Description))
		} else {
			w.cmd("%s no description", iface(p))
		}
	}
	for i := range sw.Ports {
		writeFlowControl(w, &sw.Ports[i])
	}
	for i := range sw.Ports {
		p := &sw.Ports[i]
		w.port(p)
		if p.Shutdown {
			w.cmd("%s shutdown", iface(p))
		} else {
			w.cmd("%s no shutdown", iface(p))
		}
	}
}

// writeSwitchportMode writes the layer-2 mode. A trunk with a native
// (untagged) VLAN is Onyx "hybrid" mode: Onyx trunk ports carry tagged
// frames only, and hybrid ports take the untagged VLAN as their access
// VLAN (ansible onyx_l2_interface.py: modes access|trunk|hybrid).
// Routed ports leave switching with `no switchport force`.
func writeSwitchportMode(w *writer, p *model.Port) {
	w.port(p, "mode")
	switch {
	case p.Mode == model.ModeRouted:
		w.cmd("%s no switchport force", iface(p))
	case p.Mode == model.ModeTrunk && p.NativeVLAN != 0:
		w.cmd("%s switchport mode hybrid", iface(p))
	case p.Mode == model.ModeTrunk:
		w.cmd("%s switchport mode trunk", iface(p))
	default:
		w.cmd("%s switchport mode access", iface(p))
	}
}

// writeFlowControl turns 802.3x global pause on where the model asks for
// link pause, and off everywhere else: where PFC is on (the two are
// mutually exclusive on Onyx; intel mfd test_mellanox.py
// prepare_for_pfc_on_port) and on every other port too, so link pause an
// earlier fabric turned on does not stay on.
func writeFlowControl(w *writer, p *model.Port) {
	state := "off"
	if p.LinkPause && len(p.PFCPriorities) == 0 {
		state = "on"
	}
	w.port(p, "pfc")
	w.cmd("%s flowcontrol send %s force", iface(p), state)
	w.cmd("%s flowcontrol receive %s force", iface(p), state)
}

// writeVLANs writes the "VLAN configuration" section: VLAN creation and
// names, then each port's membership.
//
// A trunk's allowed list is written as "allowed-vlan none" followed by one
// "allowed-vlan add N" per VLAN. On Onyx a bare "switchport trunk
// allowed-vlan N" replaces the list, so one such line per VLAN would leave
// only the last; and a port put in trunk mode starts out allowing every
// VLAN ("allowed-vlan all"), so "add" alone would allow too much. "none"
// then "add" is what running-config itself shows once a trunk's list has
// been narrowed (Emulab snmpit_mellanox.pm, which drives Onyx switches),
// and "add" is how the mellanox.onyx Ansible collection's
// onyx_l2_interface module adds VLANs to trunk and hybrid ports. A trunk
// with a native VLAN is a hybrid port: its access VLAN is the untagged
// one, and the native VLAN is not in its tagged list.
func writeVLANs(w *writer, f *model.Fabric, sw *model.Switch) {
	w.section("VLAN configuration")
	for _, v := range f.VLANs {
		w.b.At("vlan", strconv.Itoa(v.ID))
		w.cmd("vlan %d", v.ID)
	}
	for _, v := range f.VLANs {
		if v.Name != "" {
			w.b.At("vlan", strconv.Itoa(v.ID))
			w.cmd("vlan %d name %s", v.ID, quote.OnyxString(v.Name))
		}
	}
	for i := range sw.Ports {
		p := &sw.Ports[i]
		w.port(p, "vlans")
		switch {
		case p.Mode == model.ModeAccess && p.AccessVLAN != 0:
			w.cmd("%s switchport access vlan %d", iface(p), p.AccessVLAN)
		case p.Mode == model.ModeTrunk && p.NativeVLAN != 0:
			w.port(p, "native_vlan")
			w.cmd("%s switchport access vlan %d", iface(p), p.NativeVLAN)
		}
	}
	for i := range sw.Ports {
		if p := &sw.Ports[i]; p.Mode == model.ModeTrunk {
			writeAllowed(w, p)
		}
	}
}

// writeAllowed writes one trunk's allowed (tagged) VLAN list.
func writeAllowed(w *writer, p *model.Port) {
	mode := "trunk"
	if p.NativeVLAN != 0 {
		mode = "hybrid"
	}
	w.port(p, "vlans")
	w.cmd("%s switchport %s allowed-vlan none", iface(p), mode)
	for _, id := range p.TrunkVLANs {
		if id != p.NativeVLAN {
			w.port(p, "vlans")
			w.b.Also("vlan", strconv.Itoa(id))
			w.cmd("%s switchport %s allowed-vlan add %d", iface(p), mode, id)
		}
	}
}
