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

// renderPorts writes each port: link, bridge membership and QoS profiles.
func renderPorts(p *plan, sw *model.Switch, a attachments, t target) error {
	p.at()
	renderTrunkNote(p, sw)
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
	if port.Shutdown {
		p.port(port.Name)
		p.member(base + " link state down")
	}
	return nil
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
		// `nv set ... vlan` adds to the port's list; the unset first makes
		// the script's list replace it. A patch cannot unset and set one
		// object, so the YAML carries a note instead (renderTrunkNote).
		p.port(port.Name, "vlans")
		p.unsetPath(br + " vlan")
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

// renderTrunkNote warns once that a patch only adds VLANs to a trunk:
// NVUE merges `nv config patch` into the revision (NVUE reference, Config
// Commands), so VLANs the switch already allows on a port stay allowed.
func renderTrunkNote(p *plan, sw *model.Switch) {
	var trunks []string
	for _, port := range sw.Ports {
		if port.Mode == model.ModeTrunk {
			trunks = append(trunks, port.Name)
		}
	}
	if len(trunks) > 0 {
		if p.mapped {
			for _, name := range trunks {
				p.also("switch", sw.Name, "port", name, "vlans")
			}
		}
		p.notef("nv config patch merges: a trunk's VLAN list only grows, so on %s unset interface <port> bridge domain br_default vlan first where the switch may allow other VLANs (the .nvue.sh does)", strings.Join(trunks, ","))
	}
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
