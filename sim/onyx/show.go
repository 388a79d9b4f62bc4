package onyx

// `| json-print` shapes follow the Ansible mellanox.onyx unit test
// fixtures (MLNX-OS >= 3.6.6000 list forms). Shapes not
// found in any source (buffers details, the SP->TC element of show qos
// interface) are this simulator's; README.md lists them.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

type showCmd struct {
	pattern string
	do      func(d *Device, m []string) any
	text    func(d *Device, m []string) string
	re      *regexp.Regexp
}

const ethArg = ` ethernet (\d+/\d+(?:/\d+)?)`

var shows = compileShows([]showCmd{
	{pattern: `show running-config`, text: func(d *Device, m []string) string { return render(d.run) }},
	{pattern: `show configuration files`, text: func(d *Device, m []string) string { return d.filesText() }},
	{pattern: `show version`, do: func(d *Device, m []string) any {
		return map[string]any{"Product name": "Onyx", "Product release": "3.10.4206", "Version summary": "X86_64 3.10.4206 2023-06-01", "Product model": "x86onie"}
	}},
	{pattern: `show interfaces` + ethArg + ` congestion-control`, do: (*Device).congestion},
	{pattern: `show interfaces` + ethArg, do: (*Device).iface},
	{pattern: `show interfaces switchport`, do: (*Device).switchport},
	{pattern: `show dcb priority-flow-control`, do: (*Device).pfc},
	{pattern: `show dcb ets interface` + ethArg, do: (*Device).ets},
	{pattern: `show qos interface` + ethArg, do: (*Device).qos},
	{pattern: `show traffic pool(?: ([\w\-]+))?`, do: (*Device).pools},
	{pattern: `show buffers details interfaces` + ethArg, do: (*Device).buffers},
	{pattern: `show vlan`, do: (*Device).vlans},
})

func compileShows(cs []showCmd) []showCmd {
	for i := range cs {
		cs[i].re = cli.Anchored(cs[i].pattern)
	}
	return cs
}

func (s *shell) show(line string) string {
	cmd, filters := cli.Pipe(line)
	json := false
	for _, f := range filters {
		switch f {
		case "json-print":
			json = true
		case "no-more":
		default:
			return unrecognized(line)
		}
	}
	for _, c := range shows {
		m := c.re.FindStringSubmatch(cmd)
		if m == nil {
			continue
		}
		if c.text != nil {
			return c.text(s.d, m)
		}
		v := c.do(s.d, m)
		if err, ok := v.(error); ok {
			return err.Error()
		}
		if json {
			return cli.JSON(v)
		}
		return textOf(v, "")
	}
	return unrecognized(line)
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
				fmt.Fprintf(&b, "%s%-24s: %s\n", indent, k, s)
				continue
			}
			fmt.Fprintf(&b, "%s%s:\n%s", indent, k, textOf(x[k], indent+"  "))
		}
	default:
		fmt.Fprintf(&b, "%s%v\n", indent, x)
	}
	return b.String()
}

func (d *Device) existing(name string) (*Port, error) {
	p, ok := d.run.Ports[name]
	if !ok {
		return nil, fmt.Errorf("%% Interface ethernet %s does not exist", name)
	}
	return p, nil
}

func (d *Device) iface(m []string) any {
	p, err := d.existing(m[1])
	if err != nil {
		return err
	}
	desc := p.Description
	if desc == "" {
		desc = `N\A`
	}
	attrs := map[string]any{
		"Admin state": enabled(!p.Shutdown), "Operational state": upDown(!p.Shutdown), "Description": desc,
		"MTU":          fmt.Sprintf("%d bytes(Maximum packet size %d bytes)", p.MTU, p.MTU+22),
		"Actual speed": speedText(p.Speed), "Flow-control": fmt.Sprintf("receive %s send %s", onOff(p.FlowReceive), onOff(p.FlowSend)),
		"Switchport mode": p.Mode,
	}
	return []any{map[string]any{"Eth" + m[1]: []any{attrs}}}
}

func (d *Device) switchport(m []string) any {
	out := map[string]any{}
	for _, n := range d.run.portNames() {
		p := d.run.Ports[n]
		access := p.AccessVLAN
		if access == 0 {
			access = 1
		}
		out["Eth"+n] = map[string]any{"Mode": p.Mode, "Access vlan": strconv.Itoa(access), "Allowed vlans": cli.Join(p.Allowed, ", ")}
	}
	return out
}

func (d *Device) pfc(m []string) any {
	var on, off []int
	for p := 0; p < 8; p++ {
		if d.run.PFCPriorities[p] {
			on = append(on, p)
		} else {
			off = append(off, p)
		}
	}
	table := map[string]any{}
	for _, n := range d.run.portNames() {
		p := d.run.Ports[n]
		oper := "Disabled"
		if d.run.PFC && p.PFCMode == "on" {
			oper = "Enabled"
		}
		admin := map[string]string{"on": "on", "off": "off", "auto": "Auto"}[p.PFCMode]
		table["Eth"+n] = []any{map[string]any{"PFC admin": admin, "PFC oper": oper}}
	}
	return []any{
		map[string]any{"PFC": strings.ToLower(enabled(d.run.PFC))},
		map[string]any{"Priority Enabled List": cli.Join(on, " "), "Priority Disabled List": cli.Join(off, " ")},
		table,
	}
}

func (d *Device) ets(m []string) any {
	p, err := d.existing(m[1])
	if err != nil {
		return err
	}
	sum := 0
	for _, e := range p.ETS {
		sum += e.Weight
	}
	per := map[string]any{}
	for _, tc := range cli.SortedKeys(p.ETS) {
		e := p.ETS[tc]
		mode, pct := "Strict", 0
		if !e.Strict {
			mode = "WRR"
			if sum > 0 {
				pct = (e.Weight*100 + sum/2) / sum
			}
		}
		per[strconv.Itoa(tc)] = []any{map[string]any{"S.Mode": mode, "W": strconv.Itoa(e.Weight), "W(%)": strconv.Itoa(pct), "BW Gr.(Mbps)": "0", "BW Sh.(Mbps)": "N/A"}}
	}
	return map[string]any{"Interface": "Eth" + m[1], "ETS per TC": []any{per}}
}

func (d *Device) congestion(m []string) any {
	p, err := d.existing(m[1])
	if err != nil {
		return err
	}
	out := []any{map[string]any{"Interface ethernet": m[1], "ECN marked packets": "0"}}
	for tc := 0; tc < 8; tc++ {
		e := map[string]any{"header": fmt.Sprintf("TC-%d", tc), "Mode": "none", "RED dropped packets": "0"}
		if c, ok := p.ECN[tc]; ok {
			e["Mode"] = strings.ToUpper(c.Mode)
			if c.Relative {
				e["Threshold mode"] = "relative"
				e["Minimum threshold"], e["Maximum threshold"] = fmt.Sprintf("%d%%", c.Min), fmt.Sprintf("%d%%", c.Max)
			} else {
				e["Threshold mode"] = "absolute"
				e["Minimum threshold"], e["Maximum threshold"] = fmt.Sprintf("%d KB", c.Min), fmt.Sprintf("%d KB", c.Max)
			}
		}
		out = append(out, e)
	}
	return out
}

func (d *Device) qos(m []string) any {
	p, err := d.existing(m[1])
	if err != nil {
		return err
	}
	var maps []any
	for sp := 0; sp < 8; sp++ {
		var ds []int
		for dscp := 0; dscp < 64; dscp++ {
			if p.sp(dscp) == sp {
				ds = append(ds, dscp)
			}
		}
		maps = append(maps, map[string]any{fmt.Sprintf("%d(0) %d(1)", sp, sp): []any{map[string]any{"switch-priority": strconv.Itoa(sp), "DSCP": cli.Join(ds, " ")}}})
	}
	sptc := map[string]any{}
	for sp := 0; sp < 8; sp++ {
		sptc[strconv.Itoa(sp)] = strconv.Itoa(p.tc(sp))
	}
	return []any{map[string]any{"Eth" + m[1]: []any{
		map[string]any{"Trust mode": p.Trust, "DSCP rewrite": "disabled", "PCP,DEI rewrite": "disabled", "Default switch-priority": "0"},
		map[string]any{"PCP(DEI); DSCP to switch-priority mapping": maps},
		map[string]any{"Switch-priority to traffic-class mapping": []any{sptc}},
	}}}
}

func (d *Device) pools(m []string) any {
	out := map[string]any{"Exception list": map[string]any{"message": "N/A"}}
	for _, n := range cli.SortedKeys(d.run.Pools) {
		if m[1] != "" && m[1] != n {
			continue
		}
		p := d.run.Pools[n]
		out[n] = []any{map[string]any{"Type": p.Type, "Switch Priorities": cli.Join(p.SPs, " "), "Memory [%]": p.MemoryPercent, "Usage": "0", "Max Usage": "0"}}
	}
	if m[1] != "" && out[m[1]] == nil {
		return fmt.Errorf("%% Traffic pool %s does not exist", m[1])
	}
	return out
}

func (d *Device) buffers(m []string) any {
	p, err := d.existing(m[1])
	if err != nil {
		return err
	}
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
	return map[string]any{"Eth" + m[1]: []any{map[string]any{"Ingress buffers": in}, map[string]any{"Egress buffers": eg}}}
}

func (d *Device) vlans(m []string) any {
	out := map[string]any{}
	for _, id := range cli.SortedKeys(d.run.VLANs) {
		var ports []string
		for _, n := range d.run.portNames() {
			if inVLAN(d.run.Ports[n], id) {
				ports = append(ports, "Eth"+n)
			}
		}
		name := d.run.VLANs[id]
		out[strconv.Itoa(id)] = map[string]any{"Name": name, "Ports": strings.Join(ports, ", ")}
	}
	return out
}

func inVLAN(p *Port, id int) bool {
	switch p.Mode {
	case "routed":
		return false
	case "trunk", "hybrid":
		if p.Allowed == nil {
			// A trunk starts out allowing every VLAN.
			return p.Mode == "trunk" || id == 1
		}
		for _, v := range p.Allowed {
			if v == id {
				return true
			}
		}
		return false
	}
	if p.AccessVLAN == 0 {
		return id == 1
	}
	return p.AccessVLAN == id
}

func speedText(s string) string {
	if s == "" {
		return "100 Gbps"
	}
	return strings.TrimSuffix(s, "G") + " Gbps"
}

func enabled(b bool) string {
	if b {
		return "Enabled"
	}
	return "Disabled"
}

func upDown(b bool) string {
	if b {
		return "Up"
	}
	return "Down"
}

func onOff(s string) string {
	if s == "" {
		return "off"
	}
	return s
}
