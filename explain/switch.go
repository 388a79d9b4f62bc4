package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// switchElement resolves switch/<name>[/...].
func (b *Build) switchElement(el *Element, path []string) error {
	sw := b.Fabric.Switch(path[1])
	if sw == nil {
		return fmt.Errorf("the fabric has no switch %q", path[1])
	}
	key := []string{"switch", sw.Name}
	rest := path[2:]
	switch {
	case len(rest) == 0:
		el.What = fmt.Sprintf("switch %s: %s %s on %s", sw.Name, sw.Platform, sw.OSVersion, sw.Hardware.Model)
		b.add(el, "switch block", key...)
	case rest[0] == "port" && len(rest) >= 2:
		p := sw.Port(rest[1])
		if p == nil {
			return fmt.Errorf("switch %s has no port %q", sw.Name, rest[1])
		}
		return b.port(el, sw, p, rest[2:])
	case rest[0] == "pool" && len(rest) == 3:
		return b.pool(el, sw, rest[1], rest[2])
	case rest[0] == "buffer":
		el.What = fmt.Sprintf("the buffer budget of switch %s", sw.Name)
		b.addHardware(el, sw)
		el.Derivation = budget(sw, nil)
	case rest[0] == "pfc_watchdog":
		b.watchdog(el, sw)
	case rest[0] == "model":
		el.What = fmt.Sprintf("switch %s's model %s (ASIC %s, %s buffer)", sw.Name, sw.Hardware.Model, sw.Hardware.ASIC, docs.Bytes(sw.Hardware.BufferBytes))
		b.addAttr(el, "model", key...)
	default:
		el.What = fmt.Sprintf("switch %s's %s", sw.Name, rest[0])
		b.addAttr(el, rest[0], key...)
	}
	return nil
}

// watchdog resolves a switch's PFC watchdog: its own block, else the
// qos-level one, else the defaults.
func (b *Build) watchdog(el *Element, sw *model.Switch) {
	w := sw.PFCWatchdog
	el.What = fmt.Sprintf("the PFC watchdog of switch %s: off", sw.Name)
	if w.Enabled {
		el.What = fmt.Sprintf("the PFC watchdog of switch %s: %s after %d ms, polling every %d ms, restore after %d ms",
			sw.Name, w.Action, w.TimeoutMs, w.PollingIntervalMs, w.RestoreMs)
	}
	if b.addExact(el, "pfc_watchdog block of the switch", "switch", sw.Name, "pfc_watchdog") {
		return
	}
	if b.addExact(el, "pfc_watchdog block of qos", "qos", "pfc_watchdog") {
		return
	}
	b.add(el, "switch block (no pfc_watchdog block: the defaults)", "switch", sw.Name)
}

// addHardware adds the switch's model attribute, which picks the
// hardware table's figures.
func (b *Build) addHardware(el *Element, sw *model.Switch) {
	b.addAttr(el, "model", "switch", sw.Name)
}

// portAttrWords name what a port attribute sets, for the description.
var portAttrWords = map[string]string{
	"speed": "speed", "mtu": "MTU", "mode": "mode", "vlans": "VLANs", "native_vlan": "native VLAN",
	"trust": "trust", "pfc": "PFC", "lanes": "lanes", "description": "description", "link": "cable",
}

// port resolves switch/<sw>/port/<p>[/...].
func (b *Build) port(el *Element, sw *model.Switch, p *model.Port, rest []string) error {
	key := []string{"switch", sw.Name, "port", p.Name}
	who := fmt.Sprintf("switch %s, port %s", sw.Name, p.Name)
	switch {
	case len(rest) == 0:
		el.What = fmt.Sprintf("%s (%s, %s, MTU %d)", who, docs.Speed(p.SpeedMbps), p.Mode, p.MTU)
		b.add(el, "port block", key...)
	case rest[0] == "pg" && len(rest) == 2:
		return b.priorityGroup(el, sw, p, rest[1])
	case rest[0] == "queue" && len(rest) == 2:
		return b.egressQueue(el, sw, p, rest[1])
	case len(rest) == 2 && rest[0] == "mtu" && rest[1] == "frame":
		el.What = fmt.Sprintf("%s: %s", who, frameText(sw.Platform, p.MTU))
		b.addAttr(el, "mtu", key...)
	case rest[0] == "link":
		el.What = fmt.Sprintf("the cable of %s: %s", who, peerText(p.Peer))
		b.add(el, "link block", append(key, "link")...)
		b.addExact(el, "length", append(key, "link", "length")...)
	default:
		el.What = fmt.Sprintf("%s: %s %s", who, portAttrWords[rest[0]], portValue(p, rest[0]))
		b.addAttr(el, rest[0], key...)
		b.addPortExtras(el, sw, p, rest[0])
	}
	return nil
}

// addPortExtras adds what else a port attribute's value comes from: the
// switch model for default lanes and speed, the QoS policy for trust and
// PFC. (The renderers name the VLANs of a VLAN line themselves.)
func (b *Build) addPortExtras(el *Element, sw *model.Switch, p *model.Port, attr string) {
	switch attr {
	case "lanes", "speed":
		if b.exact("", "switch", sw.Name, "port", p.Name, attr) == nil {
			b.addHardware(el, sw)
		}
	case "trust", "pfc":
		b.addQoSBlock(el)
	}
}

// frameText is the step from the port MTU on platform pl to the frame
// size OpenConfig's interface mtu counts (targets/openconfig ocMTU):
// "MTU 9214 (cumulus IP MTU) + 14 (Ethernet header) = 9228, ...".
func frameText(pl model.Platform, mtu int) string {
	frame := pl.PortMTU().FrameBytes(mtu)
	const why = "the frame without FCS that OpenConfig's interface mtu counts (openconfig-interfaces.yang, leaf mtu: 1514 bytes on an Ethernet interface for IP MTU 1500)"
	if add := frame - mtu; add != 0 {
		return fmt.Sprintf("MTU %d (%s IP MTU) + %d (Ethernet header) = %d, %s", mtu, pl, add, frame, why)
	}
	return fmt.Sprintf("MTU %d (%s counts the frame) = %d, %s", mtu, pl, frame, why)
}

// portValue prints one attribute's value on p.
func portValue(p *model.Port, attr string) string {
	switch attr {
	case "speed":
		return docs.Speed(p.SpeedMbps)
	case "mtu":
		return strconv.Itoa(p.MTU)
	case "mode":
		return string(p.Mode)
	case "vlans":
		if p.Mode == model.ModeAccess {
			return "access " + strconv.Itoa(p.AccessVLAN)
		}
		return docs.Ranges(p.TrunkVLANs)
	case "native_vlan":
		if p.NativeVLAN == 0 {
			return "none"
		}
		return strconv.Itoa(p.NativeVLAN)
	case "trust":
		return string(p.Trust)
	case "pfc":
		if p.LinkPause {
			return "off, 802.3x link pause on"
		}
		return "on priorities " + docs.Ranges(p.PFCPriorities)
	case "lanes":
		return strconv.Itoa(p.Lanes)
	case "description":
		return strconv.Quote(p.Description)
	}
	return ""
}

// peerText is "to host gpu01 roce0, 1 m dac" or "no link".
func peerText(pe *model.Peer) string {
	if pe == nil {
		return "no link"
	}
	return fmt.Sprintf("to %s %s %s, %s %s", pe.Kind, pe.Device, pe.Port, docs.Meters(pe.CableMeters), pe.CableKind)
}

// priorityGroup resolves a port's ingress priority group: a lossless one
// with its headroom derivation, a lossy one with its fixed reservation.
func (b *Build) priorityGroup(el *Element, sw *model.Switch, p *model.Port, index string) error {
	var pg *model.PriorityGroup
	for i := range p.PriorityGroups {
		if strconv.Itoa(p.PriorityGroups[i].Index) == index {
			pg = &p.PriorityGroups[i]
		}
	}
	if pg == nil {
		return fmt.Errorf("port %s of switch %s has no priority group %s", p.Name, sw.Name, index)
	}
	kind := "lossy"
	if pg.Lossless {
		kind = "lossless"
	}
	el.What = fmt.Sprintf("switch %s, port %s, priority group %d (%s, priorities %s, pool %s)",
		sw.Name, p.Name, pg.Index, kind, docs.Ranges(pg.Priorities), pg.Pool)
	b.add(el, "port block", "switch", sw.Name, "port", p.Name)
	if c := b.Fabric.QoS.ClassForTC(pg.Index); c != nil && pg.Lossless {
		b.addClass(el, c, "class "+strconv.Quote(c.Name))
	}
	if pg.Headroom != nil {
		el.Derivation = b.headroom(sw, p, pg)
		return nil
	}
	el.Derivation = &Derivation{Name: "lossy priority group reservation",
		Formula: "fixed: " + lossyRecipe,
		Steps:   []Term{{Name: "reserved", Value: docs.Bytes(pg.SizeBytes)}, {Name: "shared alpha", Value: pg.SharedAlpha}}}
	return nil
}

// lossyRecipe cites where the fixed reservations and alphas come from.
const lossyRecipe = "the advanced buffer recipe of att/netarbiter nvmf/RoCE_Deployment.md (lossy PG 10240 B alpha 8, lossless queue 1500 B alpha inf) and SONiC's Spectrum egress_lossy_profile (9216 B)"

// egressQueue resolves a port's egress queue.
func (b *Build) egressQueue(el *Element, sw *model.Switch, p *model.Port, tc string) error {
	for _, q := range p.EgressQueues {
		if strconv.Itoa(q.TrafficClass) != tc {
			continue
		}
		el.What = fmt.Sprintf("switch %s, port %s, egress queue of traffic class %d (pool %s)", sw.Name, p.Name, q.TrafficClass, q.Pool)
		b.add(el, "port block", "switch", sw.Name, "port", p.Name)
		if c := b.Fabric.QoS.ClassForTC(q.TrafficClass); c != nil {
			b.addClass(el, c, "class "+strconv.Quote(c.Name))
		}
		el.Derivation = &Derivation{Name: "egress queue reservation", Formula: "fixed: " + lossyRecipe,
			Steps: []Term{{Name: "reserved", Value: docs.Bytes(q.ReservedBytes)}, {Name: "shared alpha", Value: q.SharedAlpha}}}
		return nil
	}
	return fmt.Errorf("port %s of switch %s has no egress queue for traffic class %s", p.Name, sw.Name, tc)
}

// pool resolves switch/<sw>/pool/<name>/<direction>.
func (b *Build) pool(el *Element, sw *model.Switch, name, direction string) error {
	for i := range sw.Pools {
		pl := &sw.Pools[i]
		if pl.Name != name || pl.Direction != direction {
			continue
		}
		el.What = fmt.Sprintf("switch %s, %s %s pool %s: %s (%s of the buffer), priorities %s",
			sw.Name, pl.Direction, pl.Type, pl.Name, docs.Bytes(pl.SizeBytes), docs.Percent(pl.Percent), docs.Ranges(pl.Priorities))
		b.addHardware(el, sw)
		for _, c := range b.Fabric.QoS.Classes {
			if c.Lossless {
				b.addClass(el, &c, "lossless class "+strconv.Quote(c.Name))
			}
		}
		el.Derivation = budget(sw, pl)
		return nil
	}
	return fmt.Errorf("switch %s has no %s pool %s", sw.Name, direction, name)
}

// join joins non-empty parts with sep.
func join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
