package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/docs"
)

// Impact is a change that may interrupt traffic on its device while it
// is applied, so that a reviewer can tell a maintenance-window change
// from a daytime one.
type Impact struct {
	// Kind is "buffer" (pool sizes as the switch is told them change,
	// which re-carves the shared buffer, or priority-group and queue
	// reservations of ports do), "link" (a port
	// retrains: its speed or lanes change), "pfc" (the PFC priorities
	// of ports change), "vlan" (a port's layer-2 mode changes, or it
	// stops carrying VLANs it carried), "replacement" (the switch's
	// platform or model changes: another operating system or another
	// box, so the whole switch is down while it is replaced; a host's
	// OS changes) or
	// "adapter-restart" (a Windows host's script restarts the adapter).
	Kind string `json:"kind"`
	// Subjects are the ports or NICs concerned; none for the whole
	// device.
	Subjects []string `json:"subjects,omitempty"`
	// Text says what happens, with its public source where there is one.
	Text string `json:"text"`
}

// cumulusQoSSource is NVIDIA's statement on which QoS changes interrupt
// traffic on Cumulus Linux: a switchd reload does not impact forwarding
// "except when the qos_infra.conf file changes, or when the switch
// pauses frames or controls priority flow, which require modifications
// to the ASIC buffer and might result in momentary packet loss".
const cumulusQoSSource = "NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS"

// noStatement is what fabricc knows of the same on the other platforms.
func noStatement(sw *model.Switch) string {
	return "no public " + vendorOf(sw) + " statement was found on whether this interrupts traffic; plan it for a maintenance window"
}

// vendorOf names whose documentation would say.
func vendorOf(sw *model.Switch) string {
	switch sw.Platform {
	case model.PlatformEOS:
		return "Arista EOS"
	case model.PlatformOnyx:
		return "NVIDIA Onyx"
	}
	return string(sw.Platform)
}

// switchImpact lists the disruptive changes from switch a to b.
func switchImpact(a, b *model.Switch) []Impact {
	// A replaced switch is down as a whole: its ports' buffer, link and
	// PFC impacts would only repeat that.
	if out := replacementImpact(a, b); out != nil {
		return out
	}
	var out []Impact
	renamed := renamedPorts(a, b)
	var buffer, pfc []string
	var vlan vlanGroups
	link := map[string]string{}
	var linkPorts []string
	// Where the switch sizes its headroom itself, the priority-group
	// numbers are fabricc's computation, not configured. A change of
	// qos headroom mode writes or unsets every lossless port's
	// port-buffer and thresholds, so those ports are the buffer impact.
	_, selfSized := docs.HeadroomUnconfigured(b)
	if a.HeadroomLeftToSwitch != b.HeadroomLeftToSwitch {
		buffer, selfSized = losslessPorts(b), true
	}
	for i := range b.Ports {
		pb := &b.Ports[i]
		pa := a.Port(pb.Name)
		if pa == nil && renamed[pb.Name] != "" {
			pa = a.Port(renamed[pb.Name])
		}
		if pa == nil {
			if len(pb.PriorityGroups) > 0 && !selfSized {
				buffer = append(buffer, pb.Name)
			}
			continue
		}
		if !selfSized && !sameReservations(pa, pb) {
			buffer = append(buffer, pb.Name)
		}
		if !slices.Equal(pa.PFCPriorities, pb.PFCPriorities) {
			pfc = append(pfc, pb.Name)
		}
		if c := vlanChange(pa, pb); c != "" {
			vlan.add(c, pb.Name)
		}
		why := concat(change("speed", docs.Speed(pa.SpeedMbps), docs.Speed(pb.SpeedMbps), ""),
			change("lanes", strconv.Itoa(pa.Lanes), strconv.Itoa(pb.Lanes), ""))
		if len(why) > 0 {
			linkPorts = append(linkPorts, pb.Name)
			link[pb.Name] = joinChanges(why)
		}
	}
	if resized := resizedPools(a, b); len(buffer) > 0 || len(resized) > 0 {
		out = append(out, Impact{Kind: "buffer", Subjects: buffer, Text: bufferText(buffer, len(resized) > 0) + ": " + platformImpact(b, "momentary packet loss on the whole switch possible")})
	}
	for _, p := range linkPorts {
		out = append(out, Impact{Kind: "link", Subjects: []string{p}, Text: fmt.Sprintf("link flap on %s (%s): the link goes down and trains again at both ends", p, link[p])})
	}
	if len(pfc) > 0 {
		out = append(out, Impact{Kind: "pfc", Subjects: pfc, Text: "PFC priorities change on " + portList(pfc) + ": " + platformImpact(b, "momentary packet loss possible")})
	}
	return append(out, vlan.impacts()...)
}

// replacementImpact is the impact of a switch whose platform or model
// changes: that is no change a push applies to a running switch but a
// replacement (another operating system installed, or another box
// racked), during which every link of the switch is down. A platform
// change also needs the inventory entry's platform changed, since push
// refuses a device whose inventory platform is not the fabric's.
func replacementImpact(a, b *model.Switch) []Impact {
	newOS, newBox := a.Platform != b.Platform, a.Hardware.Model != b.Hardware.Model
	var what, when string
	switch {
	case newOS && newBox:
		what = platform(a) + " on " + a.Hardware.Model + " -> " + platform(b) + " on " + b.Hardware.Model
	case newOS:
		what = string(a.Platform) + " -> " + string(b.Platform) + " on " + b.Hardware.Model
	case newBox:
		what = a.Hardware.Model + " -> " + b.Hardware.Model
	default:
		return nil
	}
	if newOS {
		when = "its operating system is replaced, so every link of the switch is down while it is installed; push it after the install, once its inventory entry says platform " + string(b.Platform) + " (push refuses a switch whose inventory platform is not the fabric's)"
	} else {
		when = "another switch, so every link is down while it is swapped; push it after the new switch is racked: pushed to the old one, its pools and headroom would be sized for the new one's buffer"
	}
	return []Impact{{Kind: "replacement", Text: "replaced: " + what + ": " + when}}
}

// bufferText says what a buffer change does: it re-carves the shared
// buffer when a pool size the switch is told changes (resized), and
// otherwise reprograms the reservations of the ports only (an added
// port's priority group), which is no pool re-carve.
func bufferText(ports []string, resized bool) string {
	reservations := "priority-group or queue reservations change on " + portList(ports)
	switch {
	case resized && len(ports) > 0:
		return "re-carves the shared buffer (pool sizes and " + reservations + ")"
	case resized:
		return "re-carves the shared buffer (pool sizes change)"
	}
	return "reprograms the buffer (" + reservations + ", pool sizes stay)"
}

// vlanChange says what a port's layer-2 change from a to b
// interrupts, as the end of an impact line whose start names the ports:
// a new switchport mode replaces its VLAN membership (on Onyx a port
// that changes mode loses its VLANs until they are set again, so push
// sends them with the mode), and VLANs the port no longer carries stop
// there (narrowing a live trunk: the intended effect, but one a
// reviewer should see, since hosts or switches beyond the port may
// still use them). It is "" when neither happens.
func vlanChange(a, b *model.Port) string {
	if a.Mode != b.Mode {
		return fmt.Sprintf("switchport mode %s -> %s: the VLAN membership is replaced, and traffic through the port stops until the new mode and VLANs are set", a.Mode, b.Mode)
	}
	var gone []string
	for _, v := range a.CarriedVLANs() {
		if !b.CarriesVLAN(v) {
			gone = append(gone, strconv.Itoa(v))
		}
	}
	switch len(gone) {
	case 0:
		return ""
	case 1:
		return "no longer carries VLAN " + gone[0] + ": its traffic through the port stops"
	}
	return "no longer carries VLANs " + strings.Join(gone, ", ") + ": their traffic through the port stops"
}

// vlanGroups are the ports of a switch grouped by their vlanChange, in
// the order each change is first met (port order).
type vlanGroups struct {
	order []string
	ports map[string][]string
}

// add puts port under change c.
func (g *vlanGroups) add(c, port string) {
	if g.ports == nil {
		g.ports = map[string][]string{}
	}
	if g.ports[c] == nil {
		g.order = append(g.order, c)
	}
	g.ports[c] = append(g.ports[c], port)
}

// impacts is one "vlan" impact per distinct change.
func (g *vlanGroups) impacts() []Impact {
	out := make([]Impact, 0, len(g.order))
	for _, c := range g.order {
		out = append(out, Impact{Kind: "vlan", Subjects: g.ports[c], Text: portList(g.ports[c]) + ": " + c})
	}
	return out
}

// platformImpact is what the platform's documentation says of a buffer
// or PFC change: NVIDIA's statement on Cumulus, none found elsewhere.
func platformImpact(sw *model.Switch, loss string) string {
	if sw.Platform == model.PlatformCumulus {
		return loss + " (" + cumulusQoSSource + ")"
	}
	return noStatement(sw)
}

// portList is "swp1" or "2 ports (swp1, swp2)".
func portList(ports []string) string {
	if len(ports) == 1 {
		return ports[0]
	}
	return strconv.Itoa(len(ports)) + " ports (" + namesInSummary(ports) + ")"
}

// sameReservations reports whether two ports reserve the same buffer:
// priority groups (priorities, size, thresholds) and egress queues.
func sameReservations(a, b *model.Port) bool {
	if len(a.PriorityGroups) != len(b.PriorityGroups) || len(a.EgressQueues) != len(b.EgressQueues) {
		return false
	}
	for i, g := range a.PriorityGroups {
		h := b.PriorityGroups[i]
		if g.Index != h.Index || g.SizeBytes != h.SizeBytes || g.XoffBytes != h.XoffBytes || g.XonBytes != h.XonBytes || !slices.Equal(g.Priorities, h.Priorities) {
			return false
		}
	}
	for i, q := range a.EgressQueues {
		if r := b.EgressQueues[i]; q.TrafficClass != r.TrafficClass || q.ReservedBytes != r.ReservedBytes {
			return false
		}
	}
	return true
}

// resizedPools are the pools (by direction and type) whose written
// size (writtenPoolSize) changes, appears or goes: a model size change
// the switch's configuration rounds away is no change on the switch.
func resizedPools(a, b *model.Switch) []string {
	pools := writtenPools(a)
	var out []string
	for k, pb := range writtenPools(b) {
		pa, ok := pools[k]
		if !ok {
			out = append(out, k)
			continue
		}
		if sizeDiffers(pa.write, true, pb.write, true, pa.pool.SizeBytes, pb.pool.SizeBytes) {
			out = append(out, k)
		}
		delete(pools, k)
	}
	for k := range pools {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// hostImpact lists the disruptive changes of a host's script: a Windows
// script restarts each adapter whose MTU (*JumboPacket), VLAN (VlanID)
// or RoCE mode it changes, once, at the end (README, Hosts); on Linux
// the mlx5 driver takes the link down and up when the PFC priorities
// change (linuxPFCImpact).
func hostImpact(a, b *model.Host) []Impact {
	switch b.OS {
	case model.OSLinux:
		return linuxPFCImpact(a, b)
	case model.OSWindows:
		return windowsImpact(a, b)
	}
	return nil
}

// osImpact is the host's OS change: the host is down while it is
// re-imaged or rebooted into the other OS, and its NICs get the
// fabric's settings only when the new OS's script runs.
func osImpact(a, b *model.Host) []Impact {
	return []Impact{{Kind: "replacement", Text: "another operating system, " + string(a.OS) + " -> " + string(b.OS) +
		": the host is down while it is re-imaged or rebooted, and its NICs get the fabric's settings only when " + targets.HostScriptName(b) + " runs"}}
}

// linuxPFCImpact is the link flap of each mlx5 NIC (ConnectX-4 and
// later) whose PFC priorities the script changes: whether through
// mlnx_qos --pfc or dcb pfc set, the kernel's DCB netlink call reaches
// mlx5e_dcbnl_ieee_setpfc, which on a changed enable mask sets the port
// and calls mlx5_toggle_port_link, taking an administratively up link
// down and up (Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c;
// "net/mlx5e: Toggle link only after modifying port parameters"). RDMA
// connections and storage sessions through the NIC reset. The mlx4
// driver of ConnectX-3 sets PFC without a toggle.
func linuxPFCImpact(a, b *model.Host) []Impact {
	var out []Impact
	for i := range b.NICs {
		nb := &b.NICs[i]
		na := a.NIC(nb.Name)
		if na == nil || !nb.RunsMlx5() || slices.Equal(na.RoCE.PFCPriorities, nb.RoCE.PFCPriorities) {
			continue
		}
		out = append(out, Impact{Kind: "link", Subjects: []string{nb.Name},
			Text: fmt.Sprintf("link flap on %s (PFC %s -> %s): the mlx5 driver takes the link down and up once when the script sets the new PFC priorities, and the RDMA connections through it reset (Linux mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc)",
				nb.Name, docs.Ranges(na.RoCE.PFCPriorities), docs.Ranges(nb.RoCE.PFCPriorities))})
	}
	return out
}

// windowsImpact is the adapter restart of each Windows NIC whose MTU,
// VLAN or RoCE mode the script changes.
func windowsImpact(a, b *model.Host) []Impact {
	var out []Impact
	for i := range b.NICs {
		nb := &b.NICs[i]
		na := a.NIC(nb.Name)
		if na == nil {
			continue
		}
		why := concat(change("MTU", strconv.Itoa(na.MTU), strconv.Itoa(nb.MTU), ""),
			change("VLAN", vlanOrNone(na.VLAN), vlanOrNone(nb.VLAN), ""),
			change("RoCE", na.RoCE.Mode, nb.RoCE.Mode, ""))
		if len(why) == 0 {
			continue
		}
		out = append(out, Impact{Kind: "adapter-restart", Subjects: []string{nb.Name},
			Text: fmt.Sprintf("the script restarts the adapter of %s (%s): its link goes down once and the connections through it are interrupted", nb.Name, joinChanges(why))})
	}
	return out
}

// impactText is "impact: link flap on swp7 (...)".
func impactText(i Impact) string { return "impact: " + i.Text }

// disruptiveSwitches counts the switches with an impact.
func disruptiveSwitches(p *Plan) int { return disruptive(p, "switch") }

// disruptiveHosts counts the hosts with an impact.
func disruptiveHosts(p *Plan) int { return disruptive(p, "host") }

// disruptive counts the devices of a kind with an impact.
func disruptive(p *Plan, kind string) int {
	n := 0
	for _, d := range p.Devices {
		if d.Kind == kind && len(d.Impact) > 0 {
			n++
		}
	}
	return n
}

// plural is "1 switch" or "3 switches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// losslessPorts are the ports of sw with a lossless priority group.
func losslessPorts(sw *model.Switch) []string {
	var out []string
	for i := range sw.Ports {
		if slices.ContainsFunc(sw.Ports[i].PriorityGroups, func(pg model.PriorityGroup) bool { return pg.Lossless }) {
			out = append(out, sw.Ports[i].Name)
		}
	}
	return out
}
