package onyx

// Show commands. `| json-print` shapes follow the public test fixtures of
// the mellanox.onyx Ansible collection (tests/unit/modules/fixtures) for
// releases before 3.6.6000, and the list forms that collection's modules
// read from 3.6.6000 on (BaseOnyxModule.ONYX_API_VERSION; onyx_vlan,
// onyx_l2_interface, onyx_interface, onyx_pfc_interface, onyx_facts).
// ../README.md names the fixture of each command and marks the shapes
// that have none.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

// shower renders one show command: a value for JSON (and a text form
// derived from it) or, with text set, text only.
type shower struct {
	syntax string
	value  func(e *env, m []string) (any, error)
	text   func(e *env, m []string) (string, error)
	enable bool // needs enable mode
}

const ethArg = " ethernet <ports>"

var shows = []shower{
	{syntax: "show running-config", enable: true, text: func(e *env, m []string) (string, error) { return e.sh.d.render(e.st), nil }},
	{syntax: "show configuration files", enable: true, text: func(e *env, m []string) (string, error) { return e.sh.d.filesText(), nil }},
	{syntax: "show configuration files <file>", enable: true, text: func(e *env, m []string) (string, error) {
		st, ok := e.sh.d.files[m[1]]
		if !ok {
			return "", fmt.Errorf("configuration file %s does not exist", m[1])
		}
		return e.sh.d.renderAs(st, "Saved database \""+m[1]+"\""), nil
	}},
	{syntax: "show version", value: func(e *env, m []string) (any, error) { return e.sh.d.version(), nil }, text: versionText},
	{syntax: "show hosts", text: hostsText},
	{syntax: "show inventory", text: inventoryText},
	{syntax: "show module", value: func(e *env, m []string) (any, error) {
		return map[string]any{"MGMT": []any{map[string]any{"Status": "ready"}}}, nil
	}},
	{syntax: "show interfaces" + ethArg + " congestion-control", value: (*env).congestion},
	{syntax: "show interfaces ethernet [<ports>]", value: (*env).interfaces},
	{syntax: "show interfaces ethernet [<ports>] status", value: (*env).status},
	{syntax: "show interfaces switchport", value: (*env).switchport},
	{syntax: "show vlan", value: (*env).vlans},
	{syntax: "show dcb priority-flow-control", value: (*env).pfc},
	{syntax: "show dcb ets interface" + ethArg, value: (*env).ets},
	{syntax: "show qos interface" + ethArg, value: (*env).qos},
	{syntax: "show traffic pool [<pool>]", value: (*env).pools},
	{syntax: "show roce", text: roceText},
	{syntax: "show buffers details interfaces" + ethArg, value: (*env).buffers},
	{syntax: "show lldp interfaces ethernet remote", value: (*env).lldpRemote},
	{syntax: "show lldp local", value: (*env).lldpLocal, text: lldpLocalText},
	{syntax: "show lldp interfaces", value: (*env).lldpInterfaces},
}

// unsimulatedShows are show commands the switch has and the simulator
// does not answer; they keep abbreviations as ambiguous as on the switch.
var unsimulatedShows = []string{"show lldp <rest>", "show mac-address-table [<rest>]", "show ip <rest>",
	"show protocols", "show log [<rest>]", "show clock", "show users"}

// showRules are the show commands as grammar rules.
var showRules = func() []cli.Rule[*env] {
	var out []cli.Rule[*env]
	for _, s := range shows {
		out = append(out, cli.Rule[*env]{Syntax: s.syntax, Do: s.run})
	}
	for _, s := range unsimulatedShows {
		out = append(out, cli.Rule[*env]{Syntax: s})
	}
	return out
}()

func (s shower) run(e *env, m []string) error {
	if s.enable && e.sh.priv == privExec {
		return fmt.Errorf("%s requires enable mode", m[0])
	}
	if s.value == nil || (s.text != nil && !e.json) {
		t, err := s.text(e, m)
		e.out.WriteString(t)
		return err
	}
	v, err := s.value(e, m)
	if err != nil {
		return err
	}
	if e.json {
		e.out.WriteString(cli.JSON(v))
	} else {
		e.out.WriteString(textOf(v, ""))
	}
	return nil
}

// textOf prints a show value as indented "key : value" lines.
func textOf(v any, indent string) string {
	var b strings.Builder
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			b.WriteString(textOf(e, indent))
		}
	case map[string]any:
		for _, k := range cli.SortedKeys(x) {
			if s, ok := x[k].(string); ok {
				fmt.Fprintf(&b, "%s%-32s: %s\n", indent, k, s)
				continue
			}
			fmt.Fprintf(&b, "%s%s:\n%s", indent, k, textOf(x[k], indent+"  "))
		}
	default:
		fmt.Fprintf(&b, "%s%v\n", indent, x)
	}
	return b.String()
}

// productName is "MLNX-OS" before the Onyx rename (the 3.6.5000
// fixture onyx_facts_show_version.cfg), "Onyx" from 3.6.6000 on (no
// public sample of a later `show version`).
func (d *Device) productName() string {
	if d.newAPI {
		return "Onyx"
	}
	return "MLNX-OS"
}

// buildDate is a fixed build date: the simulator has no image.
const buildDate = "2023-06-01 12:00:00"

// version is `show version | json-print` (fixture
// onyx_facts_show_version.cfg; the Ansible cliconf reads "Product name",
// "Product release", "Version summary" and "Product model").
func (d *Device) version() map[string]any {
	return map[string]any{
		"Product name": d.productName(), "Product release": d.opts.Version, "Build ID": "#1-dev",
		"Build date": buildDate, "Target arch": "x86_64", "Target hw": "x86_64", "Built by": "jenkins@build",
		"Version summary": fmt.Sprintf("X86_64 %s %s x86_64", d.opts.Version, buildDate),
		"Product model":   "x86onie", "Host ID": "7CFE90000000", "System serial num": "MT0000X00000",
		"System UUID": "00000000-0000-0000-0000-7cfe90000000", "Uptime": uptime(time.Since(d.booted)),
		"CPU load averages": "0.05 / 0.05 / 0.01", "Number of CPUs": "4",
		"System memory": "2597 MB used / 5213 MB free / 7810 MB total", "Swap": "0 MB used / 0 MB free / 0 MB total",
	}
}

// versionText is the text `show version` (fixture
// onyx_command_show_version.txt).
func versionText(e *env, m []string) (string, error) {
	v := e.sh.d.version()
	var b strings.Builder
	for i, k := range []string{"Product name", "Product release", "Build ID", "Build date", "Target arch", "Target hw", "Built by", "Version summary",
		"", "Product model", "Host ID", "System serial num", "System UUID",
		"", "Uptime", "CPU load averages", "Number of CPUs", "System memory", "Swap"} {
		if k == "" {
			if i > 0 {
				b.WriteString("\n")
			}
			continue
		}
		fmt.Fprintf(&b, "%-18s %s\n", k+":", v[k])
	}
	return b.String(), nil
}

// inventoryText is `show inventory`: a table under dashed rules whose
// header is that of a real Onyx 3.9.2504 session recorded in oxidized's
// model test data (ytti/oxidized spec/model/data/
// mlnxos#Onyx_3.9.2504#simulation.yaml):
//
//	-----------------------------------------------------------------------------
//	Module           Part Number        Serial Number        Asic Rev.    HW Rev.
//	-----------------------------------------------------------------------------
//
// with a CHASSIS and a MGMT row in those columns whose part number is the
// model after an "M" (MSN2700-CS2F). That session printed no rows, so
// the rows' values beyond the part number (serial, ASIC and hardware
// revisions) have no public sample; the suffix, for airflow and power
// supplies, is a stand-in. Push reads the model out of the part number.
func inventoryText(e *env, m []string) (string, error) {
	part := "M" + e.sh.d.opts.Model + "-CS2F"
	rule := strings.Repeat("-", 77) + "\n"
	row := func(module, part, serial, asic, hw string) string {
		return fmt.Sprintf("%-17s%-19s%-21s%-13s%s\n", module, part, serial, asic, hw)
	}
	return rule + row("Module", "Part Number", "Serial Number", "Asic Rev.", "HW Rev.") + rule +
		row("CHASSIS", part, "MT0000X00000", "N/A", "A1") +
		row("MGMT", part, "MT0000X00000", "0", "A1"), nil
}

// hostsText is `show hosts`. Its first line is what the mellanox.onyx
// cliconf reads (`show hosts | include Hostname`, the value after ":");
// the rest of the layout has no public sample.
func hostsText(e *env, m []string) (string, error) {
	return fmt.Sprintf("Hostname: %s\n\nName servers:\n  No name servers configured.\n\nDomain names:\n  No domain names configured.\n\n"+
		"Static IPv4 host mappings:\n  127.0.0.1 --> localhost\n", e.st.Hostname), nil
}

func uptime(d time.Duration) string {
	days := int(d.Hours()) / 24
	return fmt.Sprintf("%dd %dh %dm %.3fs", days, int(d.Hours())%24, int(d.Minutes())%60, d.Seconds()-float64(int(d.Minutes())*60))
}

// selected are the ports a command names: all of them when spec is "".
func (e *env) selected(spec string) ([]string, error) {
	if spec == "" {
		return e.st.portNames(), nil
	}
	return portRange(e.st, spec)
}

// perPort wraps a port's attributes as the release prints them: from
// 3.6.6000 {"Eth1/1": [attrs]}, before that attrs with a "header".
func (e *env) perPort(name string, attrs map[string]any) any {
	if e.sh.d.newAPI {
		return map[string]any{"Eth" + name: []any{attrs}}
	}
	attrs["header"] = "Eth" + name
	return attrs
}

// interfaces is `show interfaces ethernet [X]` (fixture
// onyx_interfaces_show.cfg; a list, one element per port). Every enabled
// port is reported up, as if cabled (no public sample of the lab case).
func (e *env) interfaces(m []string) (any, error) {
	names, err := e.selected(m[1])
	if err != nil {
		return nil, err
	}
	var out []any
	for i, n := range names {
		p := e.st.Ports[n]
		desc := p.Description
		if desc == "" {
			desc = `N\A`
		}
		attrs := map[string]any{
			"Admin state": enabled(!p.Shutdown), "Operational state": upDown(!p.Shutdown), "Description": desc,
			"Mac address": fmt.Sprintf("7c:fe:90:00:%02x:%02x", i/256, i%256), "Fec": "auto",
			"MTU":          fmt.Sprintf("%d bytes(Maximum packet size %d bytes)", p.MTU, p.MTU+22),
			"Actual speed": speedText(p), "Flow-control": fmt.Sprintf("receive %s send %s", onOff(p.FlowReceive), onOff(p.FlowSend)),
			"Forwarding mode": "inherited cut-through", "MAC learning mode": "Enabled", "Boot delay time": "0 sec",
			"Last change in operational status": "Never", "Width reduction mode": "Not supported",
		}
		if p.Mode != "routed" {
			attrs["Switchport mode"] = p.Mode
		}
		out = append(out, e.perPort(n, attrs))
	}
	return out, nil
}

// status is `show interfaces ethernet [X] status` (fixture
// onyx_interfaces_status.cfg).
func (e *env) status(m []string) (any, error) {
	names, err := e.selected(m[1])
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, n := range names {
		p := e.st.Ports[n]
		out["Eth"+n] = []any{map[string]any{"Operational state": upDown(!p.Shutdown), "Speed": speedText(p), "Negotiation": negotiation(p)}}
	}
	return out, nil
}

// switchport is `show interfaces switchport` (fixture
// onyx_l2_interface_show.cfg; list-wrapped from 3.6.6000). Routed ports
// are not switchports.
func (e *env) switchport(m []string) (any, error) {
	out := map[string]any{}
	for _, n := range e.st.portNames() {
		p := e.st.Ports[n]
		if p.Mode == "routed" {
			continue
		}
		access := "N/A"
		if p.Mode != "trunk" {
			access = strconv.Itoa(max(p.AccessVLAN, 1))
		}
		allowed := p.Allowed
		if p.AllowedAll {
			allowed = cli.SortedKeys(e.st.VLANs)
		}
		row := map[string]any{"Mode": p.Mode, "Access vlan": access, "Allowed vlans": cli.Join(allowed, ", ")}
		if e.sh.d.newAPI {
			out["Eth"+n] = []any{row}
		} else {
			out["Eth"+n] = row
		}
	}
	return out, nil
}

// vlans is `show vlan` (fixture onyx_vlan_show.cfg, member ports five to
// a line; list-wrapped from 3.6.6000).
func (e *env) vlans(m []string) (any, error) {
	out := map[string]any{}
	for _, id := range cli.SortedKeys(e.st.VLANs) {
		var ports []string
		for _, n := range e.st.portNames() {
			if inVLAN(e.st.Ports[n], id) {
				ports = append(ports, "Eth"+n)
			}
		}
		var lines []string
		for i := 0; i < len(ports); i += 5 {
			lines = append(lines, strings.Join(ports[i:min(i+5, len(ports))], ", "))
		}
		row := map[string]any{"Name": e.st.VLANs[id], "Ports": strings.Join(lines, ",\n")}
		if e.sh.d.newAPI {
			out[strconv.Itoa(id)] = []any{row}
		} else {
			out[strconv.Itoa(id)] = row
		}
	}
	return out, nil
}

func inVLAN(p *Port, id int) bool {
	switch p.Mode {
	case "routed":
		return false
	case "trunk":
		return p.AllowedAll || contains(p.Allowed, id)
	case "hybrid":
		return contains(p.Allowed, id) || max(p.AccessVLAN, 1) == id
	}
	return max(p.AccessVLAN, 1) == id
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// pfc is `show dcb priority-flow-control`: the per-port table of fixtures
// onyx_pfc_interface_{enabled,disabled}.cfg ("PFC admin" on or Auto,
// "PFC oper" Enabled or Disabled). Before 3.6.6000 one object with the
// table under "Table 2", from 3.6.6000 a list whose element 2 is the
// table (onyx_pfc_interface.py load_current_config).
func (e *env) pfc(m []string) (any, error) {
	var on, off []int
	for p := 0; p < 8; p++ {
		if e.st.PFCPriorities[p] {
			on = append(on, p)
		} else {
			off = append(off, p)
		}
	}
	table := map[string]any{}
	for _, n := range e.st.portNames() {
		p := e.st.Ports[n]
		oper := "Disabled"
		if e.st.PFC && p.PFCMode == "on" {
			oper = "Enabled"
		}
		admin := map[string]string{"on": "on", "off": "off", "auto": "Auto"}[p.PFCMode]
		table["Eth"+n] = []any{map[string]any{"PFC admin": admin, "PFC oper": oper}}
	}
	global := map[string]any{"PFC": strings.ToLower(enabled(e.st.PFC))}
	lists := map[string]any{"Priority Enabled List": cli.Join(on, " "), "Priority Disabled List": cli.Join(off, " ")}
	if e.sh.d.newAPI {
		return []any{global, lists, table}, nil
	}
	global["Table 2"] = table
	for k, v := range lists {
		global[k] = v
	}
	return global, nil
}

// ets is `show dcb ets interface ethernet X` (fixture
// onyx_show_dcb_ets_interface.cfg).
func (e *env) ets(m []string) (any, error) {
	names, err := portRange(e.st, m[1])
	if err != nil {
		return nil, err
	}
	var out []any
	for _, n := range names {
		p := e.st.Ports[n]
		sum := 0
		for tc := range 8 {
			if s := p.ets(tc); !s.Strict {
				sum += s.Weight
			}
		}
		per := map[string]any{}
		for tc := range 8 {
			s := p.ets(tc)
			mode, w, pct := "WRR", s.Weight, 0
			if s.Strict {
				mode, w = "Strict", 0
			} else if sum > 0 {
				pct = (s.Weight*100 + sum/2) / sum
			}
			per[strconv.Itoa(tc)] = []any{map[string]any{"S.Mode": mode, "W": strconv.Itoa(w), "W(%)": strconv.Itoa(pct), "BW Gr.(Mbps)": "0", "BW Sh.(Mbps)": "N/A"}}
		}
		out = append(out, map[string]any{"Eth" + n: []any{
			map[string]any{"Multicast unaware mapping": "disabled", "Interface Bandwidth Shape [Mbps]": "N/A"},
			map[string]any{"Flags": []any{map[string]any{"S.Mode": "Scheduling Mode [Strict/WRR]", "Bw.Sh": "Bandwidth Shaper", "D": "-", "W": "Weight", "Bw.Gr": "Bandwidth Guaranteed"}}},
			map[string]any{"ETS per TC": []any{per}},
		}})
	}
	return out, nil
}

// congestion is `show interfaces ethernet X congestion-control` (fixture
// onyx_show_interface_congestion_control.cfg: element tc+1 per traffic
// class, thresholds "500 KB" or "9%").
func (e *env) congestion(m []string) (any, error) {
	names, err := portRange(e.st, m[1])
	if err != nil {
		return nil, err
	}
	p := e.st.Ports[names[0]]
	out := []any{map[string]any{"Interface ethernet": names[0], "ECN marked packets": "0"}}
	for tc := range 8 {
		row := map[string]any{"header": fmt.Sprintf("TC-%d", tc), "Mode": "none"}
		if c, ok := p.ECN[tc]; ok {
			row["Mode"], row["RED dropped packets"] = strings.ToUpper(c.Mode), "0"
			if c.Relative {
				row["Threshold mode"] = "relative"
				row["Minimum threshold"], row["Maximum threshold"] = fmt.Sprintf("%d%%", c.Min), fmt.Sprintf("%d%%", c.Max)
			} else {
				row["Threshold mode"] = "absolute"
				row["Minimum threshold"], row["Maximum threshold"] = fmt.Sprintf("%d KB", c.Min), fmt.Sprintf("%d KB", c.Max)
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// qos is `show qos interface ethernet X` (fixture
// show_qos_interface_ethernet.cfg): trust and rewrite, the DSCP -> switch
// priority map, and the rewrite table whose "TC" column is the switch
// priority -> traffic class map.
func (e *env) qos(m []string) (any, error) {
	names, err := portRange(e.st, m[1])
	if err != nil {
		return nil, err
	}
	var out []any
	for _, n := range names {
		p := e.st.Ports[n]
		maps := map[string]any{}
		rewrite := map[string]any{}
		for sp := range 8 {
			var ds []int
			for dscp := range 64 {
				if p.sp(dscp) == sp {
					ds = append(ds, dscp)
				}
			}
			if len(ds) > 0 {
				maps[fmt.Sprintf("%d(0) %d(1)", sp, sp)] = []any{map[string]any{"switch-priority": strconv.Itoa(sp), "DSCP": cli.Join(ds, " ")}}
			}
			rewrite[strconv.Itoa(sp)] = []any{map[string]any{"PCP(DEI)": fmt.Sprintf("%d(0)", sp), "TC": strconv.Itoa(p.tc(sp)), "DSCP": strconv.Itoa(sp * 8)}}
		}
		out = append(out, map[string]any{"Eth" + n: []any{
			map[string]any{"Trust mode": p.Trust, "DSCP rewrite": enabledLower(p.RewriteDSCP), "PCP,DEI rewrite": enabledLower(p.RewritePCP),
				"Default switch-priority": "0", "Default PCP": "0", "Default DEI": "0", "IP PCP;DEI rewrite": "enable"},
			map[string]any{"PCP(DEI); DSCP to switch-priority mapping": []any{maps}},
			map[string]any{"PCP(DEI); DSCP rewrite mapping (switch-priority to PCP(DEI); DSCP; traffic-class)": []any{
				map[string]any{"Egress Interface": "Eth" + n}, rewrite}},
		}})
	}
	return out, nil
}

// pools is `show traffic pool [NAME]` (fixture onyx_buffer_pool.cfg).
func (e *env) pools(m []string) (any, error) {
	if m[1] != "" && e.st.Pools[m[1]] == nil {
		return nil, fmt.Errorf("traffic pool %s does not exist", m[1])
	}
	out := map[string]any{"Exception list": map[string]any{"message": "N/A"}}
	for _, n := range cli.SortedKeys(e.st.Pools) {
		if m[1] != "" && m[1] != n {
			continue
		}
		p := e.st.Pools[n]
		out[n] = []any{map[string]any{"Type": p.Type, "Switch Priorities": cli.Join(p.SPs, " "), "Memory [%]": p.MemoryPercent,
			"Memory actual": "0M", "Usage": "0", "Max Usage": "0"}}
	}
	return out, nil
}

// buffers is `show buffers details interfaces ethernet X`; no public
// sample of its JSON exists, so this shape is the simulator's own.
func (e *env) buffers(m []string) (any, error) {
	names, err := portRange(e.st, m[1])
	if err != nil {
		return nil, err
	}
	p := e.st.Ports[names[0]]
	in, eg := map[string]any{}, map[string]any{}
	for _, i := range cli.SortedKeys(p.IngressPGs) {
		g := p.IngressPGs[i]
		in[fmt.Sprintf("iPort.pg%d", i)] = map[string]any{"Switch priorities": cli.Join(g.SPs, " "), "Pool": g.Pool, "Type": g.Type,
			"Reserved": strconv.FormatInt(g.Reserved, 10), "Xoff": strconv.FormatInt(g.Xoff, 10), "Xon": strconv.FormatInt(g.Xon, 10), "Shared alpha": g.Alpha}
	}
	for _, i := range cli.SortedKeys(p.EgressQueues) {
		q := p.EgressQueues[i]
		eg[fmt.Sprintf("ePort.tc%d", i)] = map[string]any{"Pool": q.Pool, "Reserved": strconv.FormatInt(q.Reserved, 10), "Shared alpha": q.Alpha}
	}
	return map[string]any{"Eth" + names[0]: []any{map[string]any{"Ingress buffers": in}, map[string]any{"Egress buffers": eg}}}, nil
}

// speedText is the port's speed as "Actual speed" prints it ("100 Gbps").
func speedText(p *Port) string {
	if p.Speed != "" {
		return strings.TrimSuffix(p.Speed, "G") + " Gbps"
	}
	return fmt.Sprintf("%d Gbps", p.NativeG)
}

func negotiation(p *Port) string {
	if p.Speed != "" {
		return "No-Negotiation"
	}
	return "Auto"
}

func enabled(b bool) string {
	if b {
		return "Enabled"
	}
	return "Disabled"
}

func enabledLower(b bool) string { return strings.ToLower(enabled(b)) }

func upDown(b bool) string {
	if b {
		return "Up"
	}
	return "Down"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
