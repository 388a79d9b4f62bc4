package cumulus

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// ifName matches interface names NVUE takes as one path token ("swp1",
// "swp1s0").
var ifName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)

// speeds are the `link speed` keywords of NVUE (Switch Port Attributes:
// auto, 10M .. 800G), keyed by Mb/s.
var speeds = map[int]string{
	10: "10M", 100: "100M", 1000: "1G", 10000: "10G", 25000: "25G", 40000: "40G",
	50000: "50G", 100000: "100G", 200000: "200G", 400000: "400G", 800000: "800G",
}

// speedName prints a speed the NVUE way, or the Mb/s when it has none.
func speedName(mbps int) string {
	if s, ok := speeds[mbps]; ok {
		return s
	}
	return fmt.Sprintf("%dM", mbps)
}

// attachments are the per-port profile names ("" for none/default-global).
type attachments struct {
	mapping, pfc, pause []string
	watchdog            bool
}

// peerText describes the far end for the port's heading.
func peerText(port *model.Port) string {
	if port.Peer == nil {
		return "unused"
	}
	pe := port.Peer
	return fmt.Sprintf("to %s %s %s (%s, %g m)", pe.Kind, pe.Device, pe.Port, pe.CableKind, pe.CableMeters)
}

// renderPorts writes each port: link, bridge membership and QoS profiles,
// after clearing what an earlier fabric may have left on them.
func renderPorts(p *plan, sw *model.Switch, a attachments, t target) error {
	p.at()
	renderClears(p, sw, t)
	for i := range sw.Ports {
		if err := renderPort(p, &sw.Ports[i], i, a, t); err != nil {
			return fmt.Errorf("port %s: %w", sw.Ports[i].Name, err)
		}
	}
	return nil
}

// renderPort writes one port.
func renderPort(p *plan, port *model.Port, i int, a attachments, t target) error {
	if !ifName.MatchString(port.Name) {
		return fmt.Errorf("%q is not a Cumulus interface name such as swp1", port.Name)
	}
	p.port(port.Name, "link")
	p.sectionf("%s: %s", port.Name, peerText(port))
	base := "interface " + port.Name
	p.port(port.Name)
	p.set(base+" type", "swp")
	if port.Description != "" {
		p.port(port.Name, "description")
		if err := quote.CheckCLIText(port.Description); err != nil {
			return fmt.Errorf("description %q %w; change it", port.Description, err)
		}
		p.set(base+" description", quote.CLIText(port.Description))
	}
	if err := renderLink(p, port, base); err != nil {
		return err
	}
	if err := renderBridgePort(p, port, base); err != nil {
		return err
	}
	if a.mapping[i] != "" {
		p.port(port.Name, "trust")
		p.set(base+" qos mapping profile", a.mapping[i])
	}
	if a.pfc[i] != "" {
		p.port(port.Name, "pfc")
		p.set(base+" qos pfc profile", a.pfc[i])
	}
	if a.pause[i] != "" {
		p.port(port.Name, "pfc")
		p.set(base+" qos link-pause profile", a.pause[i])
	}
	renderPortWatchdog(p, port, a, t)
	renderDCBX(p, port, t)
	if port.Shutdown {
		p.port(port.Name)
		p.member(base + " link state down")
	}
	return nil
}

// renderDCBX advertises the port's PFC in LLDP where the peer NIC takes
// its PFC from the switch by DCBX (model.Port.DCBX: a QLogic NIC in
// Dynamic DCBX mode): "By default, all QoS TLV transmission is off on
// all interfaces" (Cumulus Linux user guide, Link Layer Discovery
// Protocol, "Transmit QoS TLVs"), so without it the NIC runs its RoCE
// priority without PFC. renderClears unsets it on every other fabric
// port. Every release fabricc renders (5.3 on) has the command
// ("Introduced in Cumulus Linux 5.1.0": NVUE Command Reference, Set and
// Unset Commands, LLDP).
func renderDCBX(p *plan, port *model.Port, t target) {
	if port.DCBX {
		p.port(port.Name, "link")
		p.set("interface "+port.Name+" lldp dcbx-pfc-tlv", t.on)
	}
}

// renderLink writes speed and MTU (NVUE: mtu 552-9216, speed keywords).
func renderLink(p *plan, port *model.Port, base string) error {
	if port.SpeedMbps > 0 {
		kw, ok := speeds[port.SpeedMbps]
		if !ok {
			return fmt.Errorf("speed %d Mb/s has no NVUE link speed keyword (10M, 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G)", port.SpeedMbps)
		}
		p.port(port.Name, "speed")
		p.set(base+" link speed", kw)
	}
	p.port(port.Name, "mtu")
	if port.MTU < 552 || port.MTU > 9216 {
		return fmt.Errorf("MTU %d is outside NVUE's 552-9216", port.MTU)
	}
	p.set(base+" link mtu", port.MTU)
	return nil
}

// renderBridgePort writes the port's membership in br_default.
func renderBridgePort(p *plan, port *model.Port, base string) error {
	br := base + " bridge domain br_default"
	switch port.Mode {
	case model.ModeAccess:
		if port.AccessVLAN <= 0 {
			return fmt.Errorf("access port without an access VLAN; give it one or make it a trunk")
		}
		p.port(port.Name, "vlans")
		p.also("vlan", strconv.Itoa(port.AccessVLAN))
		p.set(br+" access", port.AccessVLAN)
	case model.ModeTrunk:
		vlans := port.TrunkVLANs
		if len(vlans) == 0 && port.NativeVLAN > 0 {
			vlans = []int{port.NativeVLAN}
		}
		if len(vlans) == 0 {
			return fmt.Errorf("trunk port with no VLANs; list its VLANs or make it routed")
		}
		// `nv set ... vlan` adds to the port's list; renderClears unsets
		// it first, so the list replaces the switch's.
		p.port(port.Name, "vlans")
		if p.mapped {
			for _, id := range vlans {
				p.also("vlan", strconv.Itoa(id))
			}
		}
		p.member(br + " vlan " + joinInts(vlans))
		p.port(port.Name, "native_vlan")
		if port.NativeVLAN > 0 {
			p.also("vlan", strconv.Itoa(port.NativeVLAN))
			p.set(br+" untagged", port.NativeVLAN)
		} else {
			p.set(br+" untagged", "none")
		}
	case model.ModeRouted:
		p.port(port.Name, "mode")
		p.commentf("routed port: not a bridge member; its addressing is outside the fabric model")
	default:
		return fmt.Errorf("mode %q is not access, trunk or routed", port.Mode)
	}
	return nil
}

// renderClears unsets, before any port is written, the per-port objects
// fabricc owns whose value is a set or a presence rather than one value:
// the port's description and link state, the profiles attached to a
// port (PFC, its watchdog, link pause, the trust mapping, the egress
// scheduler and congestion control) and the parts of its bridge
// membership its mode does not use. `nv set` and `nv config patch` only add to such objects (NVUE
// merges a patch into the revision: NVUE Command Reference, Config
// Commands), so without this a port kept the PFC profile of an earlier
// fabric when its ports came to share default-global, a trunk kept
// VLANs the fabric no longer gives it, an access port that became a
// trunk kept its access VLAN, and a port that became routed stayed in
// the bridge. A patch cannot unset and set one object, so push runs
// these unsets first, in the same pending revision (pushUnsets); the
// unset and the set that follow it leave nothing in the diff when
// nothing changed. Ports sharing an unset are named in one comma list,
// as the NVUE CLI takes interfaces.
func renderClears(p *plan, sw *model.Switch, t target) {
	var all, access, trunk, routed []string
	for _, port := range sw.Ports {
		all = append(all, port.Name)
		switch port.Mode {
		case model.ModeAccess:
			access = append(access, port.Name)
		case model.ModeTrunk:
			trunk = append(trunk, port.Name)
		case model.ModeRouted:
			routed = append(routed, port.Name)
		}
	}
	clear := func(ports []string, what string) {
		if len(ports) > 0 {
			p.unsetPath("interface " + strings.Join(ports, ",") + " " + what)
		}
	}
	if len(all) > 0 {
		p.commentf("clear what an earlier fabric may have left on these ports (a patch and nv set only add); what follows sets it again")
	}
	// A description the fabric no longer gives and the `link state down`
	// of a port the fabric no longer shuts would stay too: `nv unset`
	// removes what the equivalent `nv set` configured (NVUE Command
	// Reference, Set and Unset Commands; Interface: `nv set interface
	// <interface-id> description`, `nv set interface <interface-id> link
	// state up|down`), and a port without `link state` is up (Cumulus
	// Linux user guide, Interface Configuration and Management, "Bring an
	// Interface Up or Down").
	clear(all, "description")
	clear(all, "link state")
	clear(all, "qos pfc")
	clear(all, "qos mapping")
	// Only what the release has: an unset of an object it does not know
	// is refused (version.go).
	if t.rel.atLeast(sinceAdvanceBuffer) {
		clear(all, "qos link-pause")
	}
	if t.rel.atLeast(sincePFCWatchdog) {
		clear(all, "qos pfc-watchdog")
	}
	// fabricc writes ETS and ECN into default-global only, and a profile
	// attached to the port overrides it: an operator's (`nv set interface
	// swp1 qos egress-scheduler profile my-ets`, `... qos
	// congestion-control profile my-ecn`: NVUE Command Reference, Set and
	// Unset Commands, QoS) kept the port on its own scheduling and
	// marking, which verification then reported on every push while diff
	// showed nothing. The profiles themselves stay: they are the
	// operator's, and a port outside the fabric may use them.
	if t.rel.atLeast(sincePortSchedulerECN) {
		clear(all, "qos egress-scheduler")
		clear(all, "qos congestion-control")
	}
	// A PFC TLV the port advertised for an earlier fabric's DCBX peer
	// (renderDCBX) would stay on after the NIC is gone.
	clear(all, "lldp dcbx-pfc-tlv")
	clear(access, "bridge domain br_default vlan")
	clear(access, "bridge domain br_default untagged")
	clear(trunk, "bridge domain br_default access")
	clear(trunk, "bridge domain br_default vlan")
	// "You must omit the bridge name from the `nv unset interface swp1-2
	// bridge domain br_default` command" (Cumulus Linux 5.9 user guide,
	// VXLAN Devices): the port leaves every bridge domain.
	clear(routed, "bridge domain")
}

// renderPortWatchdog enables the watchdog on a PFC or link-pause port.
func renderPortWatchdog(p *plan, port *model.Port, a attachments, t target) {
	if !port.PFCWatchdog || !a.watchdog {
		return
	}
	if len(port.PFCPriorities) == 0 && !port.LinkPause {
		p.port(port.Name, "pfc")
		p.also("switch", p.sw, "pfc_watchdog")
		p.notef("port %s is covered by the PFC watchdog but has neither PFC nor link pause; NVUE allows the watchdog only on such ports", port.Name)
		return
	}
	p.port(port.Name, "pfc")
	p.also("switch", p.sw, "pfc_watchdog")
	p.set("interface "+port.Name+" qos pfc-watchdog state", t.enable)
}
