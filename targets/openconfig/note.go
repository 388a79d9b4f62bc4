package openconfig

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// Note returns the sidecar "<switch>.openconfig.md": the switch's intent
// that OpenConfig cannot express, with the model's values, so a reader sees
// what a gNMI Set of the JSON will not configure. OpenConfig has no PFC,
// PFC watchdog or headroom model, carries of DCQCN only the switch's ECN
// marking, and has no 802.1p classifier match (openconfig/public
// release/models: no PFC anywhere; the classifier's l2 conditions are
// MAC addresses and EtherType only, openconfig-packet-match.yang revision
// 2026-03-25; see README.md).
func Note(f *model.Fabric, sw *model.Switch) []byte {
	return writeNote(f, sw, targets.NewText(false)).Bytes()
}

// writeNote writes the note into b and returns b.
func writeNote(f *model.Fabric, sw *model.Switch, b *targets.Text) *targets.Text {
	name := quote.Markdown(sw.Name)
	b.At("switch", sw.Name)
	fmt.Fprintf(b, "# %s: intent not in %s.openconfig.json\n\n", name, name)
	b.Also("switch", sw.Name, "os_version")
	b.Also("switch", sw.Name, "model")
	fmt.Fprintf(b, "Switch %s (%s %s, %s). OpenConfig has no model for PFC, the PFC watchdog "+
		"or priority-group headroom, carries of DCQCN only the switch's ECN marking, "+
		"and its classifiers cannot match the 802.1p priority. "+
		"A gNMI Set of the JSON leaves everything below to the switch's native configuration.\n",
		name, sw.Platform, quote.Markdown(sw.OSVersion), quote.Markdown(sw.Hardware.Model))
	writeApply(b, sw)
	writeModels(b)
	writePFC(b, &f.QoS, sw)
	writeWatchdog(b, sw)
	writeMaps(b, &f.QoS)
	writeTrust(b, sw)
	writeHeadroom(b, sw)
	writePools(b, sw)
	writeDCQCN(b, &f.QoS)
	writeMTU(b, sw)
	writeQueueNames(b, &f.QoS, sw)
	return b
}

// writeMTU says how the JSON's interface mtu relates to the model's port
// MTU on this platform (ocMTU, by model.PortMTU).
func writeMTU(b *targets.Text, sw *model.Switch) {
	b.At()
	if sw.Platform == model.PlatformEOS {
		b.WriteString("\n## MTU (in the JSON for routed ports only)\n\n")
		b.At("switch", sw.Name)
		for _, p := range sw.Ports {
			b.Also("switch", sw.Name, "port", p.Name, "mtu")
		}
		b.WriteString("Arista does not support setting OpenConfig's L2 interface mtu " +
			"(openconfig/featureprofiles deviation omit_l2_mtu), so the JSON has none. " +
			"The eos port MTU is the IP MTU of a routed port: on routed ports the JSON writes it as " +
			"subinterface 0's openconfig-if-ip ipv4 mtu. On switchports it stays with the native configuration (`fabricc push`).\n")
		return
	}
	b.WriteString("\n## MTU (in the JSON)\n\n")
	b.At("switch", sw.Name)
	for _, p := range sw.Ports {
		b.Also("switch", sw.Name, "port", p.Name, "mtu")
	}
	m := sw.Platform.PortMTU()
	fmt.Fprintf(b, "OpenConfig's interface mtu is the Ethernet frame without FCS (1514 for a 1500-byte IP MTU). ")
	switch add := model.EthernetHeaderBytes - m.HeaderBytes; add {
	case 0:
		fmt.Fprintf(b, "The %s port MTU counts that frame, so the JSON's mtu is the port MTU as written.\n", sw.Platform)
	default:
		fmt.Fprintf(b, "The %s port MTU is the IP MTU, so the JSON's mtu is the port MTU + %d.\n", sw.Platform, add)
	}
}

// writePFC lists the lossless priorities, fabric-wide and per port.
func writePFC(b *targets.Text, q *model.QoS, sw *model.Switch) {
	b.Fixed("\n## PFC (802.1Qbb)\n\n")
	b.At("qos")
	fmt.Fprintf(b, "Lossless priorities of the fabric: %s.\n\n", ints(q.PFCPriorities))
	b.At()
	b.WriteString("| port | PFC priorities | 802.3x link pause |\n|---|---|---|\n")
	for _, p := range sw.Ports {
		b.At("switch", sw.Name, "port", p.Name, "pfc")
		fmt.Fprintf(b, "| %s | %s | %s |\n", quote.Markdown(p.Name), ints(p.PFCPriorities), onOff(p.LinkPause))
	}
	b.At()
	b.WriteString("\nLink pause is also in the JSON (openconfig-if-ethernet enable-flow-control).\n")
}

// writeWatchdog describes the PFC storm watchdog and the ports it covers.
func writeWatchdog(b *targets.Text, sw *model.Switch) {
	w := sw.PFCWatchdog
	b.Fixed("\n## PFC watchdog\n\n")
	b.At("switch", sw.Name, "pfc_watchdog")
	if !w.Enabled {
		b.WriteString("Off.\n")
		return
	}
	fmt.Fprintf(b, "On: action %s, timeout %d ms, polling interval %d ms, restore %d ms.\n",
		w.Action, w.TimeoutMs, w.PollingIntervalMs, w.RestoreMs)
	var covered []string
	for _, p := range sw.Ports {
		if p.PFCWatchdog {
			b.Also("switch", sw.Name, "port", p.Name, "pfc")
			covered = append(covered, quote.Markdown(p.Name))
		}
	}
	fmt.Fprintf(b, "Ports covered: %s.\n", orNone(strings.Join(covered, ", ")))
}

// writeMaps lists the DSCP -> priority and priority -> traffic class maps.
// The JSON classifies DSCP straight to a forwarding group (queue); the
// 802.1p priority PFC pauses is not in it.
func writeMaps(b *targets.Text, q *model.QoS) {
	b.At()
	b.WriteString("\n## Priority maps\n\n")
	b.WriteString("The JSON's classifiers send each class's DSCP set straight to its queue. " +
		"The 802.1p priority in between, which PFC pauses on, is not in it.\n\n")
	b.WriteString("| priority | DSCP | traffic class |\n|---|---|---|\n")
	b.At("qos")
	for prio := range q.PriorityToTC {
		var dscp []int
		for d, p := range q.DSCPToPriority {
			if p == prio {
				dscp = append(dscp, d)
			}
		}
		fmt.Fprintf(b, "| %d | %s | %d |\n", prio, ranges(dscp), q.PriorityToTC[prio])
	}
}

// writeTrust lists the ports whose classification the JSON cannot state.
func writeTrust(b *targets.Text, sw *model.Switch) {
	b.Fixed("\n## Trust\n\n")
	b.At()
	var pcp, both []string
	for _, p := range sw.Ports {
		// Each port's trust decides what the lines below say.
		b.Also("switch", sw.Name, "port", p.Name, "trust")
		switch p.Trust {
		case model.TrustPCP:
			pcp = append(pcp, quote.Markdown(p.Name))
		case model.TrustBoth:
			both = append(both, quote.Markdown(p.Name))
		}
	}
	if len(pcp) == 0 && len(both) == 0 {
		b.WriteString("Every port trusts DSCP; the JSON binds the DSCP classifiers to each port's input.\n")
		return
	}
	if len(pcp) > 0 {
		fmt.Fprintf(b, "Trust PCP (802.1p), no input classifier in the JSON: %s.\n", strings.Join(pcp, ", "))
	}
	if len(both) > 0 {
		fmt.Fprintf(b, "Trust both (DSCP for IP, PCP otherwise), only the DSCP part is in the JSON: %s.\n", strings.Join(both, ", "))
	}
}

// writeHeadroom lists every port's ingress priority groups with headroom.
func writeHeadroom(b *targets.Text, sw *model.Switch) {
	b.At()
	b.WriteString("\n## Ingress priority groups and headroom\n\n")
	b.WriteString("| port | PG | priorities | lossless | pool | size bytes | xoff bytes | xon bytes | shared alpha |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range sw.Ports {
		for _, g := range p.PriorityGroups {
			if b.Mapped() {
				b.At("switch", sw.Name, "port", p.Name, "pg", strconv.Itoa(g.Index))
			}
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %d | %d | %d | %s |\n", quote.Markdown(p.Name), g.Index, ints(g.Priorities),
				yesNo(g.Lossless), g.Pool, g.SizeBytes, g.XoffBytes, g.XonBytes, g.SharedAlpha)
		}
	}
}

// writePools lists the shared buffer pools and the egress queue buffers;
// fabricc does not map them to OpenConfig buffer-allocation profiles
// (README.md, open points), and OpenConfig has no buffer pools.
func writePools(b *targets.Text, sw *model.Switch) {
	b.At()
	b.WriteString("\n")
	// The OS version picks the buffer style.
	b.At("switch", sw.Name, "os_version")
	fmt.Fprintf(b, "## Buffers (%s style)\n\n", sw.BufferStyle)
	b.At()
	b.WriteString("| pool | direction | type | size bytes | percent | mode | priorities |\n|---|---|---|---|---|---|---|\n")
	for _, p := range sw.Pools {
		b.At("switch", sw.Name, "pool", p.Name, p.Direction)
		fmt.Fprintf(b, "| %s | %s | %s | %d | %s | %s | %s |\n", p.Name, p.Direction, p.Type, p.SizeBytes,
			strconv.FormatFloat(p.Percent, 'f', 1, 64), p.Mode, ints(p.Priorities))
	}
	b.At()
	b.WriteString("\n| port | traffic class | pool | reserved bytes | shared alpha |\n|---|---|---|---|---|\n")
	for _, p := range sw.Ports {
		for _, e := range p.EgressQueues {
			if b.Mapped() {
				b.At("switch", sw.Name, "port", p.Name, "queue", strconv.Itoa(e.TrafficClass))
			}
			fmt.Fprintf(b, "| %s | %d | %s | %d | %s |\n", quote.Markdown(p.Name), e.TrafficClass, e.Pool, e.ReservedBytes, e.SharedAlpha)
		}
	}
}

// writeDCQCN says which part of DCQCN the JSON carries.
func writeDCQCN(b *targets.Text, q *model.QoS) {
	b.At()
	b.WriteString("\n## DCQCN\n\n")
	b.WriteString("The switch's part, ECN marking, is in the JSON (queue-management-profiles <class>-ecn). " +
		"The reaction and notification points run on the hosts' NICs and are in the host scripts.\n\n")
	for _, c := range q.Classes {
		b.At("qos", "class", c.Name)
		switch {
		case c.Name == q.RoCEClass:
			fmt.Fprintf(b, "- RoCE class %s: priority %d, DSCP %d, traffic class %d.\n", quote.Markdown(c.Name), c.Priority, c.MarkDSCP, c.TrafficClass)
		case c.Name == q.CNPClass:
			fmt.Fprintf(b, "- CNP class %s: priority %d, DSCP %d, traffic class %d.\n", quote.Markdown(c.Name), c.Priority, c.MarkDSCP, c.TrafficClass)
		}
	}
}

// ints writes numbers comma-separated, or "none".
func ints(v []int) string { return orNone(targets.JoinInts(v, ", ")) }

// ranges writes ascending numbers with runs collapsed ("0-23, 32-47"), or
// "none".
func ranges(v []int) string {
	var out []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if j == i {
			out = append(out, strconv.Itoa(v[i]))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", v[i], v[j]))
		}
		i = j + 1
	}
	return orNone(strings.Join(out, ", "))
}

// orNone returns s, or "none" when s is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// onOff writes a switch state.
func onOff(v bool) string {
	if v {
		return "on"
	}
	return "off"
}

// yesNo writes a flag.
func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
