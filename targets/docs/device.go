package docs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// RenderSwitch writes <switch>.md and <switch>.buffer.svg.
func RenderSwitch(f *model.Fabric, sw *model.Switch) ([]targets.File, error) {
	return renderSwitch(f, sw, false)
}

// RenderSwitchMapped is RenderSwitch with each file's source map
// (targets.SourceMap); every line of the chart comes from the switch's
// buffer budget.
func RenderSwitchMapped(f *model.Fabric, sw *model.Switch) ([]targets.File, error) {
	return renderSwitch(f, sw, true)
}

// renderSwitch writes the switch's files, with source maps when mapped.
func renderSwitch(f *model.Fabric, sw *model.Switch, mapped bool) ([]targets.File, error) {
	if f == nil || sw == nil {
		return nil, fmt.Errorf("docs: no fabric or switch given")
	}
	d := newDeviceDoc(mapped)
	d.at("switch", sw.Name)
	d.h(1, md(sw.Name))
	d.also("fabric")
	d.also("switch", sw.Name, "os_version")
	d.also("switch", sw.Name, "model")
	d.p(fmt.Sprintf("Switch of fabric %s: %s %s on %s. Back to the %s.",
		md(f.Name), md(string(sw.Platform)), md(sw.OSVersion), md(sw.Hardware.Model), "[fabric overview](../"+FabricFile+")"))
	writeSwitchFacts(d, sw)
	writePorts(d, sw)
	writeHeadroom(d, sw)
	writeSwitchBudget(d, sw)
	chart, err := BufferChart(sw)
	if err != nil {
		return nil, err
	}
	svg := targets.File{Name: sw.Name + ChartSuffix, Target: Target, Mode: 0o644, Data: chart}
	if mapped {
		svg.Map = targets.Uniform(chart, targets.Path("switch", sw.Name, "buffer"))
	}
	return []targets.File{d.file(sw.Name + ".md"), svg}, nil
}

// writeSwitchFacts lists the hardware and switch-wide settings.
func writeSwitchFacts(d *doc, sw *model.Switch) {
	hw := sw.Hardware
	wd := "off"
	if w := sw.PFCWatchdog; w.Enabled {
		wd = fmt.Sprintf("on: %s after %d ms, polling every %d ms, restore after %d ms", md(w.Action), w.TimeoutMs, w.PollingIntervalMs, w.RestoreMs)
	}
	var facts rows
	d.at("switch", sw.Name, "platform")
	d.also("switch", sw.Name, "os_version")
	facts.add(d, "platform", md(string(sw.Platform))+" "+md(sw.OSVersion))
	// The switch model picks the hardware figures.
	d.at("switch", sw.Name, "model")
	facts.add(d, "model", md(hw.Model)+" ("+md(hw.ASIC)+")")
	buffer := Bytes(hw.BufferBytes) + " (" + MiB(hw.BufferBytes) + ")"
	if hw.UsableBufferBytes > 0 && hw.UsableBufferBytes != hw.BufferBytes {
		buffer += " in all (datasheet); " + Bytes(hw.UsableBufferBytes) + " usable, which the budget below uses (SONiC's figure for the ASIC)"
	}
	facts.add(d, "packet buffer", buffer)
	facts.add(d, "buffer cell", Bytes(int64(hw.CellBytes)))
	facts.add(d, "pipeline latency, MAC/PHY delay", Bytes(int64(hw.PipelineLatencyBytes))+", "+Bytes(int64(hw.MACPHYDelayBytes)))
	facts.add(d, "hardware figures from", md(hw.Source))
	// The OS version picks the buffer configuration style.
	d.at("switch", sw.Name, "os_version")
	facts.add(d, "buffer configuration", md(sw.BufferStyle))
	d.at("switch", sw.Name, "pfc_watchdog")
	facts.add(d, "PFC watchdog", wd)
	d.table([]string{"what", "value"}, &facts)
}

// writePorts lists every port with its peer and layer-2 settings.
func writePorts(d *doc, sw *model.Switch) {
	d.h(2, "Ports")
	if len(sw.Ports) == 0 {
		d.p("No ports.")
		return
	}
	var body rows
	for _, p := range sw.Ports {
		state := ""
		if p.Shutdown {
			state = "shut down"
		}
		d.at("switch", sw.Name, "port", p.Name)
		if p.Peer != nil {
			d.also("switch", sw.Name, "port", p.Name, "link")
		}
		body.add(d, md(p.Name), md(p.Description), peerCell(p.Peer), Speed(p.SpeedMbps), md(string(p.Mode)),
			vlansText(p), strconv.Itoa(p.MTU), md(string(p.Trust)), pfcText(p.PFCPriorities, p.LinkPause), cableText(p.Peer), state)
	}
	d.table([]string{"port", "description", "peer", "speed", "mode", "VLANs", "MTU", "trust", "PFC", "cable", "state"}, &body, 6)
}

// peerCell links the far end's device document: "[gpu01](../gpu01/gpu01.md) roce0".
func peerCell(p *model.Peer) string {
	if p == nil {
		return "-"
	}
	return link(p.Device, "..", p.Device, p.Device+".md") + " " + md(p.Port)
}

// cableText is "1 m dac", or "-".
func cableText(p *model.Peer) string {
	if p == nil {
		return "-"
	}
	return Meters(p.CableMeters) + " " + md(p.CableKind)
}

// vlansText is "101" (access), "trunk 101, 102 (native 101)" or "-".
func vlansText(p model.Port) string {
	switch p.Mode {
	case model.ModeAccess:
		return strconv.Itoa(p.AccessVLAN)
	case model.ModeTrunk:
		s := Ranges(p.TrunkVLANs)
		if p.NativeVLAN != 0 {
			s += " (native " + strconv.Itoa(p.NativeVLAN) + ")"
		}
		return s
	}
	return "-"
}

// pfcText is "3", "off" or "link pause".
func pfcText(prios []int, linkPause bool) string {
	switch {
	case len(prios) > 0:
		return Ranges(prios)
	case linkPause:
		return "link pause"
	}
	return "off"
}

// writeHeadroom lists the inputs and results of the headroom formula for
// every lossless priority group.
func writeHeadroom(d *doc, sw *model.Switch) {
	d.h(2, "PFC headroom of the lossless priority groups")
	var inputs, results rows
	formulas := map[string]bool{}
	var formulaOrder []string
	var mtuFrom origins
	for _, p := range sw.Ports {
		for _, pg := range p.PriorityGroups {
			h := pg.Headroom
			if !pg.Lossless || h == nil {
				continue
			}
			id := md(p.Name) + " PG" + strconv.Itoa(pg.Index)
			if d.b.Mapped() {
				d.at("switch", sw.Name, "port", p.Name, "pg", strconv.Itoa(pg.Index))
			}
			inputs.add(d, id, Ranges(pg.Priorities), Speed(h.SpeedMbps), strconv.Itoa(h.Lanes), cableText(p.Peer), Meters(h.CableMeters),
				Bytes(int64(h.PortMTUBytes)), Bytes(int64(h.LosslessMTUBytes)), strconv.Itoa(h.SmallPacketPercent)+" %",
				md(sw.Hardware.ASIC), Bytes(int64(h.CellBytes)), Bytes(int64(h.PipelineLatencyBytes)), Bytes(int64(h.MACPHYDelayBytes)), strconv.Itoa(h.PauseQuanta))
			results.add(d, id, Bytes(int64(h.PeerResponseBytes)), Bytes(int64(h.CableBytes)), Bytes(int64(h.PropagationBytes)),
				strconv.FormatFloat(h.CellOccupancy, 'f', 3, 64), Bytes(pg.XoffBytes), Bytes(pg.XonBytes), Bytes(pg.SizeBytes))
			mtuFrom.add(h.LosslessMTUFrom, id, []string{"switch", sw.Name, "port", p.Name, "pg", strconv.Itoa(pg.Index)})
			if !formulas[h.Formula] {
				formulas[h.Formula] = true
				formulaOrder = append(formulaOrder, h.Formula)
			}
		}
	}
	d.at()
	if len(inputs.cells) == 0 {
		d.p("No port has a lossless priority group.")
		return
	}
	if _, ok := HeadroomUnconfigured(sw); ok {
		d.at("switch", sw.Name, "os_version")
		d.also("switch", sw.Name, "model")
		d.p(configKeywords(sw))
		d.at()
	}
	d.p("Inputs. The cable is the port's link (5 m, SONiC's default, for a port without one); lanes are the port's electrical lanes (on a Spectrum ASIC an 8-lane port doubles the pipeline latency and adds a port MTU, as SONiC's Mellanox headroom and Linux mlxsw do); the lossless MTU is the fabric's lossless_mtu or, when it is not written, the RoCE path MTU of the NICs the port receives from, at most the port's largest frame (below the table when not the written value); the small-packet share is the fabric's traffic assumption; cell size, pipeline latency and MAC/PHY delay are constants of the ASIC.")
	d.table([]string{"port / PG", "priorities", "speed", "lanes", "cable", "length used", "port MTU", "lossless MTU", "small packets", "ASIC", "cell", "pipeline latency", "MAC/PHY delay", "pause quanta"},
		&inputs, 3, 5, 6, 7, 8, 10, 11, 12, 13)
	for _, o := range mtuFrom.list {
		for _, at := range o.at {
			d.also(at...)
		}
		d.p("Lossless MTU of " + strings.Join(o.ids, ", ") + ": " + md(o.text) + ".")
		d.at()
	}
	d.p("Terms and results. Peer response = pause quanta x 512 bit times, what the peer may still send before it obeys the pause (IEEE 802.3 Annex 31B's worst case, as SONiC's dynamic headroom uses it; NVIDIA's static Spectrum tables use 3.8 KB, which gives far less headroom; on Broadcom ASICs the whole formula is the Mellanox bound, about three times SONiC's Broadcom profiles); " +
		"cable = 2 x length x speed / signal speed (198,000 km/s), the bytes on the wire during the pause's round trip; " +
		"propagation = port MTU + cable + MAC/PHY delay + peer response (+ the tile term on Spectrum-4 and -5); " +
		"in flight after PAUSE (SONiC's xoff) = lossless MTU + propagation x cell occupancy, rounded up to 1 KiB (+ 2 KiB small-packet compensation when the formula adds it), the room kept above the PAUSE threshold; " +
		"PAUSE threshold (SONiC's xon) = pipeline latency, the occupancy at which the port sends PAUSE; buffer (SONiC's size) = in flight after PAUSE + PAUSE threshold, the buffer reserved for the group.")
	d.table([]string{"port / PG", "peer response", "cable", "propagation", "cell occupancy", "in flight after PAUSE", "PAUSE threshold", "buffer"}, &results, 1, 2, 3, 4, 5, 6, 7)
	for _, fm := range formulaOrder {
		d.p("Formula: " + md(fm) + ".")
	}
	if _, ok := HeadroomUnconfigured(sw); !ok {
		if k := configKeywords(sw); k != "" {
			d.at("switch", sw.Name, "os_version")
			d.also("switch", sw.Name, "model")
			d.p(k)
		}
	}
}

// configKeywords says which lines of the switch's configuration carry
// the three numbers of the headroom table, so that a reviewer can find
// each in the configuration; on a switch where fabricc configures no
// per-port headroom it says so, and that the table is fabricc's
// computation, for comparison. The keyword meanings are the vendors':
// a PAUSE threshold is what Linux mlxsw calls the PBMC register's
// buf_xoff_threshold ("Once the amount of data in the buffer goes above
// this value, device starts sending PFC frames", drivers/net/ethernet/
// mellanox/mlxsw/reg.h, commit 155f9de2 "mlxsw: reg: Add lossless
// settings for PBMC register"), buf_xon_threshold the level below which
// PFC frames stop, buf_size the buffer; mlx5e's receive-buffer commit
// 0696d608 writes the relation as xoff_threshold = buffer_size - xoff.
// NVUE's xoff-threshold and xon-threshold are the same pair (Cumulus
// Linux user guide, Quality of Service, Priority Flow Control).
func configKeywords(sw *model.Switch) string {
	if u, ok := HeadroomUnconfigured(sw); ok {
		return "**Not configured on this switch.** " + md(u.Who) + ", and this switch's configuration carries none of the numbers below. " +
			"They are fabricc's computed values, for comparison, and the buffer budget below counts them; after a recable check the switch's own headroom, " +
			md(u.Check("<port>")) + "."
	}
	const both = "Each PAUSE threshold is the level above which the port sends PAUSE and (set equal) below which it stops, so in flight after PAUSE = buffer - PAUSE threshold."
	switch sw.Platform {
	case model.PlatformOnyx:
		return "In the configuration (Onyx advanced buffers): `ingress-buffer iPort.pgN map pool ... reserved R xoff X xon X`, " +
			"where R is the buffer and Onyx's `xoff` and `xon` are both the PAUSE threshold, not the in-flight bytes that SONiC calls xoff. " + both
	case model.PlatformCumulus:
		return "In the configuration (NVUE PFC profile): `qos pfc <profile> port-buffer` is the buffer, `xoff-threshold` and `xon-threshold` are the PAUSE threshold, " +
			"and `cable-length` is the cable rounded up to whole meters; the in-flight bytes are not a keyword (the NOTE line beside the profile gives them). " + both
	case model.PlatformEOS:
		return "In the configuration (EOS MMU queue profile): one `ingress headroom bytes H` line for the whole platform, H = the largest per-port sum of the in-flight-after-PAUSE values of the table; " +
			"the PAUSE threshold and the buffer are left to EOS (see the buffer budget below)."
	}
	return ""
}

// writeSwitchBudget shows the chart and the pool table.
func writeSwitchBudget(d *doc, sw *model.Switch) {
	d.h(2, "Buffer budget")
	b := sw.Buffer
	d.at("switch", sw.Name, "buffer")
	d.p("![Buffer budget of " + md(sw.Name) + "](" + linkPath(sw.Name+ChartSuffix) + ")")
	d.printf("Of %s, the lossless priority groups hold %s of PFC headroom now; the lossless pool is planned for %s, their headroom at %s cables. "+
		"Other reservations take %s; %s are shared.",
		Bytes(b.TotalBytes), Bytes(b.HeadroomBytes), Bytes(b.HeadroomReserveBytes), Meters(b.PlanningCableMeters), Bytes(b.ReservedBytes), Bytes(b.SharedBytes))
	var body rows
	for _, u := range Pools(sw) {
		d.at("switch", sw.Name, "pool", u.Pool.Name, u.Pool.Direction)
		body.add(d, poolRow(md(sw.Name), u)[1:]...)
	}
	d.table([]string{"pool", "direction", "type", "size", "share of buffer", "demand", "used"}, &body, 3, 4, 5, 6)
	if note := eosProfileNote(sw); note != "" {
		d.at("switch", sw.Name, "buffer")
		d.p(note)
	}
}

// RenderHost writes <host>.md.
func RenderHost(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderHost(f, h, false)
}

// RenderHostMapped is RenderHost with the file's source map.
func RenderHostMapped(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderHost(f, h, true)
}

// renderHost writes the host's document, with its source map when mapped.
func renderHost(f *model.Fabric, h *model.Host, mapped bool) ([]targets.File, error) {
	if f == nil || h == nil {
		return nil, fmt.Errorf("docs: no fabric or host given")
	}
	d := newDeviceDoc(mapped)
	d.at("host", h.Name)
	d.h(1, md(h.Name))
	d.also("fabric")
	d.also("host", h.Name, "os")
	d.also("host", h.Name, "tuning")
	ver := ""
	if h.OSVersion != "" {
		ver = " " + md(h.OSVersion)
	}
	d.p(fmt.Sprintf("Host of fabric %s: %s%s, host tuning %s. Back to the [fabric overview](../%s).",
		md(f.Name), md(string(h.OS)), ver, yesNo(h.Tuning, "on", "off"), FabricFile))
	writeNICs(d, h)
	writeRoutes(d, h)
	writeRails(d, h)
	writeHostQoS(d, f, h)
	writeHostDCQCN(d, f, h)
	slNames, slPrio := slSetting(slNICs(f, h))
	writeLinuxMarking(d, h, slNames, slPrio)
	writeApplications(d, h)
	d.h(2, "By hand")
	// The steps follow from the host's OS and its NICs' models and drivers.
	d.at("host", h.Name, "os")
	for _, n := range h.NICs {
		d.also("host", h.Name, "nic", n.Name, "model")
	}
	steps := manualSteps(h, slNames, slPrio)
	if len(steps) == 0 {
		d.p("Nothing: the host script sets everything the model asks of this host.")
	}
	for _, s := range steps {
		d.line("- " + s)
	}
	return []targets.File{d.file(h.Name + ".md")}, nil
}

// vlanCell is a NIC's VLAN in the NIC table: the VLAN ID, with the VLAN
// interface the Linux script makes when the nic names it (vlan_interface),
// or "-" for an untagged NIC.
func vlanCell(n *model.NIC) string {
	if n.VLAN != 0 && n.VLANInterface != "" {
		return strconv.Itoa(n.VLAN) + " (" + md(n.VLANInterface) + ")"
	}
	return intOrDash(n.VLAN)
}

// writeNICs lists every NIC with its link.
func writeNICs(d *doc, h *model.Host) {
	d.h(2, "NICs")
	var body rows
	for _, n := range h.NICs {
		d.at("host", h.Name, "nic", n.Name)
		if n.Peer != nil {
			d.also("host", h.Name, "nic", n.Name, "link")
		}
		addrs := make([]string, len(n.Addresses))
		for i, a := range n.Addresses {
			addrs[i] = md(a)
		}
		body.add(d, md(n.Name), md(n.Interface), md(n.Model), md(n.Driver), md(string(n.Transport)), Speed(n.SpeedMbps),
			strconv.Itoa(n.MTU), rocePathMTU(n), vlanCell(&n), orDash(strings.Join(addrs, ", ")), peerCell(n.Peer), cableText(n.Peer))
	}
	d.at()
	if len(body.cells) == 0 {
		d.p("No NICs.")
		return
	}
	d.table([]string{"NIC", "interface", "model", "driver", "transport", "speed", "MTU", "RoCE path MTU", "VLAN", "addresses", "peer", "cable"}, &body, 6, 7, 8)
}

// rocePathMTU is the RoCE path MTU a RoCE NIC runs (model.RoCEPathMTU,
// what ibv_devinfo prints as active_mtu), "-" for iWARP.
func rocePathMTU(n model.NIC) string {
	if n.Transport == model.TransportIWARP {
		return "-"
	}
	return intOrDash(model.RoCEPathMTU(n.MTU))
}

// writeRoutes lists the NICs' routes (model.NIC.Route): a default route
// via the gateway in a table of the NIC's own, selected by a rule for the
// NIC's address (ip-rule(8), ip-route(8)), and main-table routes via the
// same gateway to the fabric subnets the NIC carries, for initiators that
// resolve with no source address; the Linux script sets them and the
// other hosts' documents list them under "By hand".
func writeRoutes(d *doc, h *model.Host) {
	var body rows
	linkLocalV4 := false
	for _, n := range h.NICs {
		r := n.Route
		if r == nil {
			continue
		}
		from := "derived: the other end of its subnet"
		d.at("host", h.Name, "nic", n.Name, "addresses")
		d.also("host", h.Name, "nic", n.Name, "link")
		if r.Written {
			from = "gateway attribute"
			d.at("host", h.Name, "nic", n.Name, "gateway")
		}
		main := "-"
		if len(r.Prefixes) > 0 {
			main = md(strings.Join(r.Prefixes, ", "))
		}
		linkLocalV4 = linkLocalV4 || strings.Contains(r.Gateway, ":") && !strings.Contains(r.Source, ":")
		body.add(d, md(n.Name), md(r.Source), md(r.Gateway), from, strconv.Itoa(r.Table), strconv.Itoa(r.Priority), main)
	}
	d.at()
	if len(body.cells) == 0 {
		return
	}
	d.h(2, "Routes")
	if h.OS != model.OSLinux {
		writeHostRoutes(d, h, &body)
		return
	}
	who := "The host script adds, for each NIC below,"
	d.p(who + " a default route via the gateway in a routing table of the NIC's own and a rule that sends the packets from the NIC's address there (ip-rule(8), ip-route(8)), " +
		"so that traffic bound to the NIC's address leaves by its own link; " +
		fmt.Sprintf("table and rule priority are %d plus the NIC's place among the host's NICs by name, and the script refuses a table or priority another tool already uses. ", model.RouteBase) +
		"It also adds, in the main table, a route via the same gateway to each of the NIC's main-table prefixes (ip route replace PREFIX via GATEWAY dev IF proto 173). " +
		"The rule only sees packets already bound to the NIC's address, and RDMA-CM initiators that resolve with no source address look the destination up in the main table alone " +
		"(Linux drivers/infiniband/core/addr.c, addr4\\_resolve and addr6\\_resolve): NFS over RDMA (net/sunrpc/xprtrdma/verbs.c, rpcrdma\\_create\\_id), " +
		"the SMB Direct client (fs/smb/client/smbdirect.c), nvme-rdma without --host-traddr (drivers/nvme/host/rdma.c), rping without -I. " +
		"It is the main-table routes that make the kernel pick the NIC, and its address as the source, for them, and so let each NIC reach its RoCE peers beyond its own subnet.")
	d.p(mainPrefixRule("the kernel's more specific connected route") + linuxRoutePrune(h))
	if linkLocalV4 {
		d.p("An IPv4 route via an IPv6 link-local gateway (RFC 5549, as on a BGP-unnumbered link) is written via inet6 GATEWAY (ip-route(8)) and needs Linux 5.2 and iproute2 5.2 or later (\"ipv4: Allow ipv6 gateway with ipv4 routes\").")
	}
	d.table([]string{"NIC", "source", "gateway", "gateway from", "table", "rule priority", "main-table prefixes"}, &body, 4, 5)
}

// writeHostRoutes is the Routes section of a FreeBSD or Windows host:
// the script adds each NIC's main-table routes, now and for every boot;
// neither OS has the Linux script's table per NIC. body holds the Linux
// table's rows, whose table and priority columns it leaves out.
func writeHostRoutes(d *doc, h *model.Host, body *rows) {
	if h.OS == model.OSWindows {
		d.p("The host script adds, for each NIC below, a route via the gateway to each of the NIC's main-table prefixes (New-NetRoute -InterfaceAlias IF -DestinationPrefix PREFIX -NextHop GATEWAY; Microsoft Learn, New-NetRoute), " +
			"which New-NetRoute saves in both the active and the persistent store, so that it survives a reboot (New-NetRoute, -PolicyStore: \"By default, a route is saved in both stores\"). " +
			"A route to the prefix on the NIC's adapter via the gateway is left; one via another next hop, in either store, is removed and the route added again; -Check reports each route that differs and -WhatIf what it would change. " +
			"Initiators that bind no source address, the SMB Direct client among them, pick the NIC, and its address as the source, by these routes. " +
			"A Windows route carries no mark of who added it, so the script records each route it adds, with the metric Windows gave it, under the registry key HKLM\\SOFTWARE\\fabricc\\NetRoute, and on each run removes from both stores a recorded route the fabric no longer has while both still hold it as recorded (adapter, prefix, next hop, metric; Remove-NetRoute, -PolicyStore); -Check reports it. " +
			"A recorded route changed since, and a route the script did not add (one made by hand, or by a script from before routes were recorded), is left: remove it by hand (Remove-NetRoute -InterfaceAlias IF -DestinationPrefix PREFIX). " +
			"Windows has no routing table per NIC, so traffic bound to the NIC's address for a destination outside these prefixes follows the host's other routes.")
	} else {
		d.p("The host script adds, for each NIC below, a route via the gateway to each of the NIC's main-table prefixes now (route add -net PREFIX GATEWAY, -inet6 for IPv6; FreeBSD route(8)) " +
			"and the same routes at every boot through rc.conf: each route's name, fabricc\\_IF\\_N, in static\\_routes with its arguments in route\\_NAME, or for IPv6 in ipv6\\_static\\_routes and ipv6\\_route\\_NAME (FreeBSD Handbook, \"Gateways and Routes\"; rc.conf(5)). " +
			"A route to the prefix via the gateway is left; one via another gateway is changed (route change); --check reports each route that differs and --dry-run prints the route command a run would execute. " +
			"RDMA-CM initiators that bind no source address pick the NIC, and its address as the source, by these routes. " +
			"The script removes the routes it named fabricc\\_IF\\_N in rc.conf that the fabric no longer has: the name from static\\_routes or ipv6\\_static\\_routes and its route\\_NAME (sysrc -=, sysrc -x; sysrc(8)), and the live route while route get still shows it to that prefix via that gateway; a route under another name, another tool's, stays. " +
			"The script makes no routing table (FIB) of the NIC's own (setfib(1)), so traffic bound to the NIC's address for a destination outside these prefixes follows the host's other routes. " +
			"A link-local gateway is scoped to the NIC's interface (fe80::1%IF), and an IPv4 route via an IPv6 gateway (RFC 5549) is written -net PREFIX -inet6 GATEWAY and needs FreeBSD 13.1 or later (route(8)).")
	}
	d.p(mainPrefixRule("the more specific route to that subnet"))
	short := rows{elems: body.elems}
	for _, cells := range body.cells {
		short.cells = append(short.cells, append(append([]string(nil), cells[:4]...), cells[6]))
	}
	d.table([]string{"NIC", "source", "gateway", "gateway from", "main-table prefixes"}, &short)
}

// mainPrefixRule is the paragraph on which of a host's NICs routes which
// of the fabric's other NIC subnets (compiler mainRoutes, railCarrier);
// covered names what already routes a prefix holding one of the host's
// own subnets.
func mainPrefixRule(covered string) string {
	return "A NIC's main-table prefixes are subnets of the fabric's other NICs of its connected part of the cabling and address family. " +
		"Each such subnet goes out of this host's NIC cabled to the same leaf as the NIC that has it, so that a rail stays on its leaf and off the spine whatever the NICs are named; " +
		"where this host has no NIC on that leaf, out of its NIC at the same place among the host's NICs by name as that NIC is among its host's; else out of its first such NIC by name. " +
		"The subnets are merged into the fewest exact CIDR prefixes (a prefix holding one of the host's own subnets is covered there by " + covered + "), " +
		"and no prefix is routed by two NICs."
}

// linuxRoutePrune is the sentence on how a Linux host's script owns its
// routes (the Linux target's route_prune); nothing for another OS.
func linuxRoutePrune(h *model.Host) string {
	if h.OS != model.OSLinux {
		return ""
	}
	return " Every route and rule the script writes carries protocol 173 (ip-route(8) proto, ip-rule(8) protocol), its mark: a run removes the marked ones the fabric no longer has (a prefix merged otherwise, a NIC renumbered or removed, with its table and rule), --check reports them, and a route or rule without the mark (another tool's, the connected route, a DHCP default) is never removed. " +
		"A route or rule that is already what the fabric wants but lacks the mark (one netplan, NetworkManager or an administrator wrote, usually proto static, or one a fabricc build before the mark wrote) counts as matching and is left to whoever wrote it: the script does not mark it, so it never removes it; delete it by hand once the fabric drops it (fabricc plan names the command). " +
		"Where ip rule does not take protocol (iproute2 before 4.17; the kernel keeps it from Linux 4.17) the rules are written without the mark and a run removes none."
}

// writeRails explains, for a Linux host with two or more NICs with IPv4
// addresses (model.Host.IPv4Rails), the ARP and reverse-path settings its
// script gives those NICs; nothing for other hosts.
func writeRails(d *doc, h *model.Host) {
	rails := h.IPv4Rails()
	if h.OS != model.OSLinux || rails == nil {
		return
	}
	d.h(2, "Several rails")
	d.at("host", h.Name)
	names := make([]string, len(rails))
	for i, n := range rails {
		d.also("host", h.Name, "nic", n.Name, "addresses")
		names[i] = md(n.Name)
	}
	d.p(fmt.Sprintf("NICs %s have IPv4 addresses. Linux's defaults let every interface answer ARP for every address of the host, so a peer (and RDMA-CM resolving a GID) may learn the wrong rail's MAC address, and strict reverse-path filtering drops replies that come in by another rail. ", strings.Join(names, ", ")) +
		"The host script sets net.ipv4.conf.IF.arp\\_ignore = 1, arp\\_announce = 2 and rp\\_filter = 2 (loose) on each of their interfaces (the VLAN interface of a tagged NIC), `--check` reports each that differs, and the boot unit applies them again at every boot " +
		"(Linux kernel Documentation/networking/ip-sysctl.rst: arp\\_ignore, arp\\_announce, rp\\_filter). A host with one such NIC, or only IPv6 ones (ARP is IPv4's), gets none of them.")
	d.at()
}

// writeHostQoS lists the RoCE marking, trust, PFC, DCQCN and ETS of
// every NIC.
func writeHostQoS(d *doc, f *model.Fabric, h *model.Host) {
	d.h(2, "RoCE and DCB settings")
	var body rows
	for _, n := range h.NICs {
		r := n.RoCE
		if n.Transport == model.TransportIWARP {
			d.at("host", h.Name, "nic", n.Name, "transport")
			body.add(d, md(n.Name), "iWARP (RDMA over TCP, no PFC needed)", "-", "-", "-", "-", "-", "-", "-")
			continue
		}
		// The NIC's RoCE settings come from its own attributes or, where
		// it sets none, from the fabric's RoCE and CNP classes.
		d.at("host", h.Name, "nic", n.Name, "roce")
		mode := "RoCE " + md(r.Mode)
		if r.UDPPort != 0 {
			mode += ", UDP " + strconv.Itoa(r.UDPPort)
		}
		dscp := fmt.Sprintf("%d (ToS %d)", r.DSCP, r.TOS)
		if windowsDSCPUnset(h, n) {
			// The host script cannot set it: say so in the cell rather
			// than claim the NIC marks it (see By hand).
			dscp += ", not set: driver's own"
		}
		lim := model.NICDriverQoS(h.OS, n.Driver)
		trust, dcqcn, ets := md(string(r.Trust)), Ranges(r.ECNPriorities), nicETS(r.ETS)
		if lim.Unsettable("trust") {
			trust += ", " + notSettable(n.Driver)
		}
		if lim.Unsettable("DCQCN") {
			dcqcn = notSettable(n.Driver) + " (wanted " + dcqcn + ")"
		}
		if lim.Unsettable("ETS") {
			ets = notSettable(n.Driver) + " (wanted " + ets + ")"
		}
		body.add(d, md(n.Name), mode, strconv.Itoa(r.Priority), dscp, trust,
			Ranges(r.PFCPriorities), dcqcn, fmt.Sprintf("%d / %d", r.CNPPriority, r.CNPDSCP), ets)
	}
	d.at()
	if len(body.cells) == 0 {
		return
	}
	unset := ""
	for _, n := range h.NICs {
		if windowsDSCPUnset(h, n) {
			unset = " (a DSCP the host script cannot set says so, and the packets carry the driver's own; see By hand)"
		}
	}
	d.p("RoCE traffic is marked with the priority and DSCP below" + unset + "; the NIC trusts the field shown, pauses the PFC priorities and runs DCQCN " +
		"(ECN reaction and notification point) on the DCQCN priorities; congestion notification packets carry the CNP priority and DSCP. " +
		driverLimits(h) + "The fabric's classes are in the [fabric overview](../" + FabricFile + "#traffic-classes).")
	d.table([]string{"NIC", "RDMA", "priority", "DSCP", "trust", "PFC", "DCQCN", "CNP priority / DSCP", "ETS"}, &body, 2)
}

// notSettable is the cell text of a setting a NIC's driver has none for
// (model.DriverQoS.Unset): "not settable on mlx4en".
func notSettable(driver string) string {
	return "not settable on " + md(driver)
}

// driverLimits is the sentence, one per NIC, that names what its driver
// has no setting for, so that the table claims none of it as configured;
// "" when every NIC's driver has every setting.
func driverLimits(h *model.Host) string {
	var out strings.Builder
	for _, n := range h.NICs {
		lim := model.NICDriverQoS(h.OS, n.Driver)
		if n.Transport != model.TransportRoCE || len(lim.Unset) == 0 {
			continue
		}
		fmt.Fprintf(&out, "%s: %s are not settable on %s, so the host script leaves them as the NIC has them", md(n.Name), md(listWords(lim.Unset)), md(n.Driver))
		if lim.PCPOnly {
			out.WriteString("; the NIC classifies received frames by their 802.1Q PCP only, so its RoCE must arrive tagged in a VLAN")
		}
		out.WriteString(" (see By hand). ")
	}
	return out.String()
}

// listWords is "a, b and c".
func listWords(v []string) string {
	if len(v) < 2 {
		return strings.Join(v, "")
	}
	return strings.Join(v[:len(v)-1], ", ") + " and " + v[len(v)-1]
}

// nicETS is "TC0 50 %, TC3 50 %, TC6 strict": the classes with a share
// or strict scheduling.
func nicETS(ets []model.ETS) string {
	var parts []string
	for tc, e := range ets {
		switch {
		case e.Mode == model.ETSStrict:
			parts = append(parts, fmt.Sprintf("TC%d strict", tc))
		case e.BandwidthPercent > 0:
			parts = append(parts, fmt.Sprintf("TC%d %d %%", tc, e.BandwidthPercent))
		}
	}
	return orDash(strings.Join(parts, ", "))
}

// writeLinuxMarking says, for a Linux host with RoCE NICs, what the
// applications must mark: the host script sets RDMA-CM's default ToS
// only, and NCCL takes its traffic class from NCCL_IB_TC, default 0
// (NCCL User Guide, "Environment Variables", NCCL_IB_TC), which it also
// reads from /etc/nccl.conf. slNames and slPrio are slSetting's.
func writeLinuxMarking(d *doc, h *model.Host, slNames []string, slPrio string) {
	if h.OS != model.OSLinux {
		return
	}
	d.at("host", h.Name)
	for _, n := range h.NICs {
		if n.Transport != model.TransportIWARP {
			d.also("host", h.Name, "nic", n.Name, "roce")
		}
	}
	tos := targets.RoCEToS(h)
	if len(tos) == 0 {
		d.at()
		return
	}
	nccl := "so set NCCL\\_IB\\_TC to that ToS in the jobs' environment or in /etc/nccl.conf (NCCL User Guide, Environment Variables)."
	if t, ok := h.NCCLToS(); ok {
		nccl = fmt.Sprintf("so the host script writes NCCL\\_IB\\_TC=%d into /etc/nccl.conf, since the NICs list the nccl application; "+
			"a job whose environment sets NCCL\\_IB\\_TC overrides it. Before NCCL 2.21 also set NCCL\\_IB\\_GID\\_INDEX to the NIC's RoCE v2 GID "+
			"(usually 3; the default 0 is the link-local RoCE v1 GID, which does not route) (NCCL User Guide, Environment Variables).", t)
	}
	ofed, inbox := tclassNICs(h)
	if len(inbox) > 0 {
		lead := "The host script sets this ToS only as RDMA-CM's default"
		if len(ofed) > 0 {
			lead = "On " + strings.Join(inbox, ", ") + " the host script sets this ToS only as RDMA-CM's default"
		}
		d.p(lead + ", which iSER, NVMe-oF and other RDMA-CM connections take. " +
			"Applications that open their queue pairs with verbs (NCCL, UCX, perftest) mark their own traffic class, which must be ToS " + strings.Join(tos, ", ") +
			" or their RoCE travels in the lossy default class; perftest takes it with --tos. NCCL ignores RDMA-CM's default and marks NCCL\\_IB\\_TC, default 0, " + nccl)
		d.p(ucxText(h))
	}
	if len(ofed) > 0 {
		d.p(ofedText(h, ofed, len(inbox) == 0))
	}
	if sl := slText(h, slNames, slPrio); sl != "" {
		d.p(sl)
	}
	d.at()
}

// ofedText is the marking paragraph of the NICs whose script sets the
// port's global traffic class (ofed, by tclassNICs); only says that the
// host has no others, whose paragraph names NCCL's setting.
func ofedText(h *model.Host, ofed []string, only bool) string {
	s := "On " + strings.Join(ofed, ", ") + " the host script sets the ToS, the fabric's DSCP with ECT(0), as RDMA-CM's default and as the RDMA port's global traffic class " +
		"(/sys/class/infiniband/DEV/tc/PORT/traffic\\_class, which reads back Global tclass=N). MLNX\\_OFED's mlx5\\_ib gives every queue pair of the port that class, " +
		"whatever class the application asked for, and moves connected ones to it, so verbs applications there (UCX and MPI over it, NCCL, perftest) are marked " +
		"without a setting of their own while the class is set (mlnx-ofa\\_kernel, mlx5\\_ib: traffic\\_class\\_store). " +
		"Only MLNX\\_OFED has the class: on an inbox driver, and after mlx5\\_ib loads again until the host script has set it (it starts unset: init\\_tc\\_sysfs), " +
		"each application marks its own class, NCCL its NCCL\\_IB\\_TC. " +
		"The class keeps the ECN-capable bit ECT(0), as UCX's own default 106 (DSCP 26 with ECT(0)) has it and NVIDIA's BlueField images write the class: " +
		"a switch ECN-marks only ECN-capable packets, and drops the others where it would mark them (RFC 3168, section 5), which would leave DCQCN without its marks."
	if t, ok := h.NCCLToS(); ok && only {
		s += fmt.Sprintf(" The host script also writes NCCL\\_IB\\_TC=%d into /etc/nccl.conf, since the NICs list the nccl application, for NCCL jobs that start before the global class is set.", t)
	}
	return s
}

// tclassNICs splits h's RoCE NICs into those whose script sets the port's
// global traffic class (targets.SetsGlobalTClass) and the others, by name
// with their ToS ("p0 (ToS 106)").
func tclassNICs(h *model.Host) (ofed, inbox []string) {
	for i := range h.NICs {
		n := &h.NICs[i]
		if n.Transport == model.TransportIWARP {
			continue
		}
		if targets.SetsGlobalTClass(n) {
			ofed = append(ofed, fmt.Sprintf("%s (traffic class %d, MLNX\\_OFED)", md(n.Name), targets.GlobalTClass(n)))
		} else {
			inbox = append(inbox, fmt.Sprintf("%s (ToS %d)", md(n.Name), n.RoCE.TOS))
		}
	}
	return ofed, inbox
}

// ncclOwnsTC notes, on a host whose script writes NCCL_IB_TC into
// /etc/nccl.conf, that it writes that key only.
func ncclOwnsTC(h *model.Host) string {
	if _, ok := h.NCCLToS(); ok {
		return " (in the jobs' environment or /etc/nccl.conf: the host script writes only NCCL\\_IB\\_TC there)"
	}
	return ""
}

// slNICs are the RoCE NICs of h that tag a VLAN where the NIC or its
// switch port classifies by PCP: there a verbs queue pair's PCP is its
// service level, not its ToS.
func slNICs(f *model.Fabric, h *model.Host) []model.NIC {
	var out []model.NIC
	for _, n := range h.NICs {
		if n.Transport == model.TransportIWARP || n.VLAN == 0 {
			continue
		}
		if n.RoCE.Trust == model.TrustPCP || peerTrust(f, n) == model.TrustPCP {
			out = append(out, n)
		}
	}
	return out
}

// peerTrust is the trust of the switch port a NIC is cabled to, "" when
// it is cabled to none.
func peerTrust(f *model.Fabric, n model.NIC) model.Trust {
	if n.Peer == nil || n.Peer.Kind != "switch" {
		return ""
	}
	if sw := f.Switch(n.Peer.Device); sw != nil {
		if p := sw.Port(n.Peer.Port); p != nil {
			return p.Trust
		}
	}
	return ""
}

// slSetting is what verbs applications on the NICs must set for their
// PCP: the priority when the NICs share one, else "the NIC's priority";
// no names when there are no NICs.
func slSetting(nics []model.NIC) (names []string, prio string) {
	if len(nics) == 0 {
		return nil, ""
	}
	prio = strconv.Itoa(nics[0].RoCE.Priority)
	for _, n := range nics {
		names = append(names, fmt.Sprintf("%s (VLAN %d, priority %d)", md(n.Name), n.VLAN, n.RoCE.Priority))
		if n.RoCE.Priority != nics[0].RoCE.Priority {
			prio = "the NIC's priority"
		}
	}
	return names, prio
}

// slText says, for a host with NICs of slNICs (names and prio from
// slSetting), that verbs applications
// there must set their service level, which the driver turns into the
// VLAN tag's PCP (MLNX_OFED User Manual, RoCE, Type Of Service: "SL
// affects the PCP only when the traffic goes over tagged VLAN frames"),
// and that UCX_IB_SL, NCCL_IB_SL and perftest's --sl all default to 0;
// "" when there are none.
func slText(h *model.Host, names []string, prio string) string {
	if len(names) == 0 {
		return ""
	}
	who := "NIC " + names[0] + " tags a VLAN where it or its switch port classifies by PCP"
	if len(names) > 1 {
		who = "NICs " + listWords(names) + " tag VLANs where they or their switch ports classify by PCP"
	}
	return who + ", and a verbs queue pair's PCP is its service level, not its ToS " +
		"(MLNX\\_OFED User Manual, RoCE, Type Of Service: SL affects the PCP only when the traffic goes over tagged VLAN frames). " +
		"The service level defaults to 0, the default class, so verbs applications there must also set it: UCX\\_IB\\_SL=" + prio + " for UCX, " +
		"NCCL\\_IB\\_SL=" + prio + " for NCCL" + ncclOwnsTC(h) + " and perftest --sl " + prio + " (openucx/ucx, src/uct/ib/base/ib\\_iface.c, UCX\\_IB\\_SL; " +
		"NVIDIA NCCL User Guide, Environment Variables: NCCL\\_IB\\_SL). RDMA-CM connections get their PCP from the ToS through the VLAN's egress map, which the host script sets."
}

// ucxText says what UCX (Open MPI's pml ucx, MPICH's ch4:ucx) marks on
// h and what to set: UCX_IB_TRAFFIC_CLASS, which on a RoCE v2 GID
// defaults to UCT_IB_DEFAULT_ROCEV2_DSCP, 106 (DSCP 26 with ECT(0)),
// since UCX 1.5 (openucx/ucx pull request 3061, src/uct/ib/base/ib_iface.c)
// and to 0 before. The value keeps ECT(0) because a switch ECN-marks only
// ECN-capable packets (RFC 3168, section 5), and NVIDIA's ECN chapter
// does not say that ConnectX sets ECT itself.
func ucxText(h *model.Host) string {
	classes, ucxDefault := ucxClasses(h)
	what := "DSCP 26 is this host's RoCE DSCP, so UCX 1.5 and later need no setting; with an older UCX set UCX\\_IB\\_TRAFFIC\\_CLASS=106"
	if !ucxDefault {
		what = "set UCX\\_IB\\_TRAFFIC\\_CLASS=" + strings.Join(classes, ", or ") + " in the jobs' environment, or UCX marks DSCP 26"
	}
	return "UCX (Open MPI's pml ucx, MPICH's ch4:ucx) marks UCX\\_IB\\_TRAFFIC\\_CLASS, which on RoCE v2 defaults to 106 (DSCP 26 << 2 with ECT(0)) " +
		"since UCX 1.5 and to 0 before (openucx/ucx, src/uct/ib/base/ib\\_iface.c, UCT\\_IB\\_DEFAULT\\_ROCEV2\\_DSCP): " + what + ". " +
		"Keep the ECT(0) bit (+2) that UCX's value and the script's ToS carry: a switch ECN-marks only ECN-capable packets (RFC 3168, section 5), " +
		"and NVIDIA's ECN chapter (MLNX\\_OFED User Manual, Explicit Congestion Notification) does not say that ConnectX sets ECT on RoCE v2 packets itself."
}

// ucxClasses lists the UCX_IB_TRAFFIC_CLASS values of h's RoCE NICs, the
// DSCP << 2 with ECT(0) (+2), as "106 (DSCP 26)": one per distinct DSCP,
// in NIC order; a list of two or more names the NICs of each.
// ucxDefault reports whether the NICs have one DSCP and it is 26, which
// UCX 1.5 and later mark by default.
func ucxClasses(h *model.Host) (classes []string, ucxDefault bool) {
	var dscps []int
	nics := map[int][]string{}
	for _, n := range h.NICs {
		if n.Transport == model.TransportIWARP {
			continue
		}
		if _, ok := nics[n.RoCE.DSCP]; !ok {
			dscps = append(dscps, n.RoCE.DSCP)
		}
		nics[n.RoCE.DSCP] = append(nics[n.RoCE.DSCP], md(n.Name))
	}
	out := make([]string, len(dscps))
	for i, v := range dscps {
		out[i] = fmt.Sprintf("%d (DSCP %d)", v<<2|2, v)
		if len(dscps) > 1 {
			out[i] = fmt.Sprintf("%d (DSCP %d) for NIC %s", v<<2|2, v, strings.Join(nics[v], ", "))
		}
	}
	return out, len(dscps) == 1 && dscps[0] == ucxDefaultDSCP
}

// ucxDefaultDSCP is the DSCP of UCT_IB_DEFAULT_ROCEV2_DSCP, 106 (26 << 2
// with ECT(0)), UCX's RoCE v2 default since UCX 1.5 (openucx/ucx,
// src/uct/ib/base/ib_iface.c).
const ucxDefaultDSCP = 26

// writeApplications lists the applications with their ports; an
// application that no port identifies (mpi, nccl) has "-", and one over
// TCP (nvme-tcp, iscsi) has its port as "4420/tcp", apart from the RDMA
// applications' NetworkDirect or RDMA-CM port of the same number.
func writeApplications(d *doc, h *model.Host) {
	var body rows
	for _, n := range h.NICs {
		for _, a := range n.Applications {
			d.at("host", h.Name, "nic", n.Name, "applications")
			port := "-"
			if a.Port != 0 {
				port = strconv.Itoa(a.Port)
			}
			if a.OverTCP() {
				port += "/tcp"
			}
			body.add(d, md(n.Name), md(a.Kind), port, strconv.Itoa(a.Priority))
		}
	}
	if len(body.cells) == 0 {
		return
	}
	d.h(2, "Applications")
	d.table([]string{"NIC", "application", "port", "priority"}, &body, 2, 3)
}

// origins groups the priority groups by where a value came from, in
// first-seen order; an empty origin is left out.
type origins struct {
	list []origin
	// index is each text's place in list.
	index map[string]int
}

// origin is one origin text and the priority groups (markdown) it holds for.
type origin struct {
	text string
	ids  []string
	// at are the groups' source paths, for the line's mapping.
	at [][]string
}

// add records that the group id, at source path at, took its value
// from text.
func (o *origins) add(text, id string, at []string) {
	if text == "" {
		return
	}
	if i, ok := o.index[text]; ok {
		o.list[i].ids = append(o.list[i].ids, id)
		o.list[i].at = append(o.list[i].at, at)
		return
	}
	if o.index == nil {
		o.index = map[string]int{}
	}
	o.index[text] = len(o.list)
	o.list = append(o.list, origin{text: text, ids: []string{id}, at: [][]string{at}})
}
