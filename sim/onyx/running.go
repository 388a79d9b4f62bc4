package onyx

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// render is `show running-config` in Onyx's layout, after the
// mellanox.onyx fixture onyx_config_config.cfg: a "##" header naming the
// running database and the hostname, "##" section titles, commands
// indented by three spaces (hostname and the prefix-mode lines are not),
// consecutive ports with the same setting as one range
// ("interface ethernet 1/7-1/8 ..."), defaults left out. VLAN names are
// quoted, descriptions are not, as in the Cray-HPE canu Mellanox
// running-config sample and intel mfd-switchmanagement's Onyx sample
// ("description TRUNK TO Dell7048").
func (d *Device) render(s *State) string {
	return d.renderAs(s, "Running database \""+d.active+"\"")
}

// renderAs renders s under the header title ("Running database
// \"initial\"", as in the running-config samples; a saved file's
// title, "Saved database \"NAME\"", follows the TMS CLI's "Active saved
// database" header of `show configuration` and has no Onyx sample).
func (d *Device) renderAs(s *State, title string) string {
	r := &renderer{s: s, ports: s.portNames()}
	r.raw("##\n## %s\n## Generated at %s\n## Hostname: %s\n##\n", title, d.booted.Format("2006/01/02 15:04:05 -0700"), s.Hostname)
	r.section("Running-config temporary prefix mode setting")
	r.raw("no cli default prefix-modes enable\n")
	r.section("Interface Ethernet configuration")
	for _, kind := range interfaceLines {
		r.perPort(kind)
	}
	r.lagLines()
	r.section("Interface Ethernet buffer configuration")
	r.buffers()
	r.section("VLAN configuration")
	r.vlans()
	r.section("Other IP configuration")
	r.raw("hostname %s\n", s.Hostname)
	if s.LLDP != lldpOnByDefault(d.opts.Version) {
		r.section("LLDP configuration")
		r.raw("%s\n", map[bool]string{true: "lldp", false: "no lldp"}[s.LLDP])
	}
	r.section("DCBX PFC configuration")
	r.pfc()
	r.section("QoS switch configuration")
	for _, kind := range qosLines {
		r.perPort(kind)
	}
	r.section("DCBX ETS configuration")
	r.perPort(etsLines)
	r.section("Congestion control configuration")
	r.perPort(ecnLines)
	r.section("Persistent prefix mode setting")
	r.raw("cli default prefix-modes enable\n")
	return r.b.String()
}

type renderer struct {
	s     *State
	ports []string
	b     strings.Builder
}

func (r *renderer) raw(format string, a ...any) { fmt.Fprintf(&r.b, format, a...) }

func (r *renderer) section(title string) {
	r.raw("%s\n##\n## %s\n##\n", r.sectionEnd(), title)
}

// sectionEnd is the line that ends the section before: three spaces
// after an indented command, else an empty line, as in the running-config
// of ansible/ansible test/units/modules/network/onyx/fixtures/
// onyx_config_config.cfg (mellanox.onyx keeps the same fixture; review
// rsim #8), where ten of the eleven sections ending in an indented
// command end with "   " and the header and the hostname section with
// an empty line.
func (r *renderer) sectionEnd() string {
	out := r.b.String()
	last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
	if strings.HasPrefix(last, "   ") {
		return "   "
	}
	return ""
}

// cmd writes one indented command.
func (r *renderer) cmd(format string, a ...any) { r.raw("   "+format+"\n", a...) }

// portLines are the lines one kind of setting gives a port.
type portLines func(p *Port) []string

// perPort writes a kind of per-port line, ports with the same line in a
// row joined into a range, in the order of each line's first port.
func (r *renderer) perPort(kind portLines) {
	type group struct {
		text  string
		ports []int // indexes into r.ports
	}
	var order []*group
	byText := map[string]*group{}
	for i, n := range r.ports {
		for _, l := range kind(r.s.Ports[n]) {
			g := byText[l]
			if g == nil {
				g = &group{text: l}
				byText[l] = g
				order = append(order, g)
			}
			g.ports = append(g.ports, i)
		}
	}
	type run struct {
		first, last int
		text        string
	}
	var runs []run
	for _, g := range order {
		for i := 0; i < len(g.ports); {
			j := i
			for j+1 < len(g.ports) && g.ports[j+1] == g.ports[j]+1 {
				j++
			}
			runs = append(runs, run{g.ports[i], g.ports[j], g.text})
			i = j + 1
		}
	}
	sortRuns(runs, func(a, b run) bool { return a.first < b.first })
	for _, rn := range runs {
		spec := r.ports[rn.first]
		if rn.last != rn.first {
			spec += "-" + r.ports[rn.last]
		}
		r.cmd("interface ethernet %s %s", spec, rn.text)
	}
}

// sortRuns is a stable insertion sort (runs of one kind are few).
func sortRuns[T any](v []T, less func(a, b T) bool) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && less(v[j], v[j-1]); j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// interfaceLines are the kinds of the "Interface Ethernet configuration"
// section, in order.
var interfaceLines = []portLines{
	func(p *Port) []string { return when(p.Speed != "", "speed "+p.Speed+" force") },
	func(p *Port) []string { return when(p.MTU != defaultMTU, fmt.Sprintf("mtu %d force", p.MTU)) },
	func(p *Port) []string {
		switch p.Mode {
		case "trunk", "hybrid":
			return []string{"switchport mode " + p.Mode}
		case "routed":
			return []string{"no switchport force"}
		}
		return nil
	},
	func(p *Port) []string { return when(p.Description != "", "description "+p.Description) },
	func(p *Port) []string { return when(p.FlowSend, "flowcontrol send on force") },
	func(p *Port) []string { return when(p.FlowReceive, "flowcontrol receive on force") },
	func(p *Port) []string { return when(p.Shutdown, "shutdown") },
	func(p *Port) []string { return when(p.NoLLDPReceive, "no lldp receive") },
	func(p *Port) []string { return when(p.NoLLDPTransmit, "no lldp transmit") },
}

func when(ok bool, line string) []string {
	if ok {
		return []string{line}
	}
	return nil
}

func (r *renderer) buffers() {
	for _, n := range cli.SortedKeys(r.s.Pools) {
		p := r.s.Pools[n]
		r.cmd("traffic pool %s type %s", n, p.Type)
		if p.MemoryPercent != "" {
			r.cmd("traffic pool %s memory percent %s", n, p.MemoryPercent)
		}
		if len(p.SPs) > 0 {
			r.cmd("traffic pool %s map switch-priority %s", n, cli.Join(p.SPs, " "))
		}
	}
	if r.s.Advanced {
		r.cmd("advanced buffer management force")
	}
	for _, n := range cli.SortedKeys(r.s.APools) {
		r.cmd("pool %s size %d type %s", n, r.s.APools[n].Size, r.s.APools[n].Type)
	}
	r.perPort(func(p *Port) []string {
		var out []string
		for _, i := range cli.SortedKeys(p.IngressPGs) {
			if g := p.IngressPGs[i]; len(g.SPs) > 0 {
				out = append(out, fmt.Sprintf("ingress-buffer iPort.pg%d bind switch-priority %s", i, cli.Join(g.SPs, " ")))
			}
		}
		return out
	})
	r.perPort(func(p *Port) []string {
		var out []string
		for _, i := range cli.SortedKeys(p.IngressPGs) {
			g := p.IngressPGs[i]
			if !g.Mapped {
				continue
			}
			xo := ""
			if g.Type == "lossless" {
				xo = fmt.Sprintf(" xoff %d xon %d", g.Xoff, g.Xon)
			}
			out = append(out, fmt.Sprintf("ingress-buffer iPort.pg%d map pool %s type %s reserved %d%s shared alpha %s", i, g.Pool, g.Type, g.Reserved, xo, g.Alpha))
		}
		return out
	})
	r.perPort(func(p *Port) []string {
		var out []string
		for _, i := range cli.SortedKeys(p.EgressQueues) {
			q := p.EgressQueues[i]
			out = append(out, fmt.Sprintf("egress-buffer ePort.tc%d map pool %s reserved %d shared alpha %s", i, q.Pool, q.Reserved, q.Alpha))
		}
		return out
	})
}

func (r *renderer) vlans() {
	ids := cli.SortedKeys(r.s.VLANs)
	for _, id := range ids {
		if id != 1 {
			r.cmd("vlan %d", id)
		}
	}
	for _, id := range ids {
		if id != 1 && r.s.VLANs[id] != "" {
			r.cmd("vlan %d name \"%s\"", id, r.s.VLANs[id])
		}
	}
	// A narrowed trunk: "allowed-vlan none" before the access VLANs, then
	// one "add" per VLAN (the order of intel mfd-switchmanagement's Onyx
	// running-config sample; the add form of Emulab snmpit_mellanox.pm and
	// of the Cray-HPE canu sample's hybrid ports).
	r.perPort(func(p *Port) []string {
		return when(p.Mode == "trunk" && !p.AllowedAll, "switchport trunk allowed-vlan none")
	})
	r.perPort(func(p *Port) []string {
		return when(p.AccessVLAN > 1 && p.Mode != "trunk" && p.Mode != "routed", fmt.Sprintf("switchport access vlan %d", p.AccessVLAN))
	})
	r.perPort(func(p *Port) []string {
		if p.Mode != "trunk" && p.Mode != "hybrid" || p.AllowedAll {
			return nil
		}
		var out []string
		for _, v := range p.Allowed {
			out = append(out, fmt.Sprintf("switchport %s allowed-vlan add %d", p.Mode, v))
		}
		return out
	})
}

func (r *renderer) pfc() {
	if r.s.PFC {
		r.cmd("dcb priority-flow-control enable force")
	}
	for _, p := range cli.SortedKeys(r.s.PFCPriorities) {
		r.cmd("dcb priority-flow-control priority %d enable", p)
	}
	r.perPort(func(p *Port) []string {
		switch p.PFCMode {
		case "on":
			return []string{"dcb priority-flow-control mode on force"}
		case "off":
			return []string{"no dcb priority-flow-control mode force"}
		}
		return nil
	})
	r.perPort(func(p *Port) []string { return when(p.PFCWatchdog, "pfc-wd") })
}

// qosLines are the kinds of the "QoS switch configuration" section.
var qosLines = []portLines{
	func(p *Port) []string { return when(p.Trust != "L2", "qos trust "+p.Trust) },
	func(p *Port) []string { return when(p.RewritePCP, "qos rewrite pcp") },
	func(p *Port) []string { return when(p.RewriteDSCP, "qos rewrite dscp") },
	func(p *Port) []string {
		var out []string
		for _, sp := range values(p.DSCPToSP) {
			out = append(out, fmt.Sprintf("qos map dscp %s to switch-priority %d", cli.Join(keysOf(p.DSCPToSP, sp), " "), sp))
		}
		return out
	},
	func(p *Port) []string {
		var out []string
		for _, tc := range values(p.SPToTC) {
			out = append(out, fmt.Sprintf("traffic-class %d bind switch-priority %s", tc, cli.Join(keysOf(p.SPToTC, tc), " ")))
		}
		return out
	},
}

// etsLines are the non-default ETS settings.
func etsLines(p *Port) []string {
	var out []string
	for _, tc := range cli.SortedKeys(p.ETS) {
		e := p.ETS[tc]
		switch {
		case e.Strict:
			out = append(out, fmt.Sprintf("traffic-class %d dcb ets strict", tc))
		case e.Weight != defaultWeight(tc):
			out = append(out, fmt.Sprintf("traffic-class %d dcb ets wrr %d", tc, e.Weight))
		}
	}
	return out
}

func ecnLines(p *Port) []string {
	var out []string
	for _, tc := range cli.SortedKeys(p.ECN) {
		e := p.ECN[tc]
		kind := "absolute"
		if e.Relative {
			kind = "relative"
		}
		out = append(out, fmt.Sprintf("traffic-class %d congestion-control %s minimum-%s %d maximum-%s %d", tc, e.Mode, kind, e.Min, kind, e.Max))
	}
	return out
}

// values are the distinct values of m, ascending.
func values(m map[int]int) []int {
	set := map[int]bool{}
	for _, v := range m {
		set[v] = true
	}
	return cli.SortedKeys(set)
}

// keysOf are the keys of m mapped to v, ascending.
func keysOf(m map[int]int, v int) []int {
	var out []int
	for _, k := range cli.SortedKeys(m) {
		if m[k] == v {
			out = append(out, k)
		}
	}
	return out
}
