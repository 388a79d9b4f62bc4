package onyx

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// render is `show running-config`: flat single-line commands under `##`
// headers, as Onyx prints it (mellanox.onyx fixture
// onyx_config_config.cfg); defaults are not shown.
func render(s *State) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	section := func(title string) { w("##\n## %s\n##", title) }
	section("Running-config temporary prefix mode setting")
	w("no cli default prefix-modes enable")
	w("")
	ports := s.portNames()
	section("Interface Ethernet configuration")
	renderPorts(w, s, ports)
	w("")
	section("Interface Ethernet buffer configuration")
	renderBuffers(w, s, ports)
	w("")
	section("VLAN configuration")
	renderVLANs(w, s, ports)
	w("")
	section("DCBX PFC configuration")
	if s.PFC {
		w("dcb priority-flow-control enable force")
	}
	for _, p := range cli.SortedKeys(s.PFCPriorities) {
		w("dcb priority-flow-control priority %d enable", p)
	}
	each(w, s, ports, func(p *Port) []string {
		var out []string
		switch p.PFCMode {
		case "on":
			out = append(out, "dcb priority-flow-control mode on force")
		case "off":
			out = append(out, "no dcb priority-flow-control mode force")
		}
		if p.PFCWatchdog {
			out = append(out, "pfc-wd")
		}
		return out
	})
	w("")
	section("QoS switch configuration")
	each(w, s, ports, qosLines)
	w("")
	section("Network management configuration")
	w("hostname %s", s.Hostname)
	return b.String()
}

type writer func(format string, a ...any)

// each writes per-port lines in the flat `interface ethernet X cmd` form.
func each(w writer, s *State, ports []string, lines func(p *Port) []string) {
	for _, n := range ports {
		for _, l := range lines(s.Ports[n]) {
			w("interface ethernet %s %s", n, l)
		}
	}
}

func renderPorts(w writer, s *State, ports []string) {
	each(w, s, ports, func(p *Port) []string {
		var out []string
		if p.Speed != "" {
			out = append(out, "speed "+p.Speed+" force")
		}
		if p.MTU != defaultMTU {
			out = append(out, fmt.Sprintf("mtu %d force", p.MTU))
		}
		switch p.Mode {
		case "trunk", "hybrid":
			out = append(out, "switchport mode "+p.Mode)
		case "routed":
			out = append(out, "no switchport force")
		}
		if p.Description != "" {
			out = append(out, fmt.Sprintf("description %q", p.Description))
		}
		if p.FlowSend != "" {
			out = append(out, "flowcontrol send "+p.FlowSend+" force")
		}
		if p.FlowReceive != "" {
			out = append(out, "flowcontrol receive "+p.FlowReceive+" force")
		}
		if p.Shutdown {
			out = append(out, "shutdown")
		}
		return out
	})
}

func renderBuffers(w writer, s *State, ports []string) {
	for _, n := range cli.SortedKeys(s.Pools) {
		p := s.Pools[n]
		w("traffic pool %s type %s", n, p.Type)
		if p.MemoryPercent != "" {
			w("traffic pool %s memory percent %s", n, p.MemoryPercent)
		}
		if len(p.SPs) > 0 {
			w("traffic pool %s map switch-priority %s", n, cli.Join(p.SPs, " "))
		}
	}
	if s.Advanced {
		w("advanced buffer management force")
	}
	for _, n := range cli.SortedKeys(s.APools) {
		w("pool %s size %d type %s", n, s.APools[n].Size, s.APools[n].Type)
	}
	each(w, s, ports, bufferLines)
}

func bufferLines(p *Port) []string {
	var out []string
	for _, i := range cli.SortedKeys(p.IngressPGs) {
		g := p.IngressPGs[i]
		if len(g.SPs) > 0 {
			out = append(out, fmt.Sprintf("ingress-buffer iPort.pg%d bind switch-priority %s", i, cli.Join(g.SPs, " ")))
		}
		if !g.Mapped {
			continue
		}
		xo := ""
		if g.Type == "lossless" {
			xo = fmt.Sprintf(" xoff %d xon %d", g.Xoff, g.Xon)
		}
		out = append(out, fmt.Sprintf("ingress-buffer iPort.pg%d map pool %s type %s reserved %d%s shared alpha %s", i, g.Pool, g.Type, g.Reserved, xo, g.Alpha))
	}
	for _, i := range cli.SortedKeys(p.EgressQueues) {
		q := p.EgressQueues[i]
		out = append(out, fmt.Sprintf("egress-buffer ePort.tc%d map pool %s reserved %d shared alpha %s", i, q.Pool, q.Reserved, q.Alpha))
	}
	return out
}

func renderVLANs(w writer, s *State, ports []string) {
	ids := cli.SortedKeys(s.VLANs)
	for _, id := range ids {
		if id != 1 {
			w("vlan %d", id)
		}
	}
	for _, id := range ids {
		if id != 1 && s.VLANs[id] != "" {
			w("vlan %d name %q", id, s.VLANs[id])
		}
	}
	each(w, s, ports, func(p *Port) []string {
		var out []string
		if p.AccessVLAN != 0 {
			out = append(out, fmt.Sprintf("switchport access vlan %d", p.AccessVLAN))
		}
		if p.Allowed != nil && (p.Mode == "trunk" || p.Mode == "hybrid") {
			list := cli.Join(p.Allowed, ",")
			if list == "" {
				list = "none"
			}
			out = append(out, fmt.Sprintf("switchport %s allowed-vlan %s", p.Mode, list))
		}
		return out
	})
}

func qosLines(p *Port) []string {
	var out []string
	if p.Trust != "L2" {
		out = append(out, "qos trust "+p.Trust)
	}
	for _, sp := range groupKeys(p.DSCPToSP) {
		out = append(out, fmt.Sprintf("qos map dscp %s to switch-priority %d", cli.Join(group(p.DSCPToSP, sp), " "), sp))
	}
	for _, tc := range groupKeys(p.SPToTC) {
		out = append(out, fmt.Sprintf("traffic-class %d bind switch-priority %s", tc, cli.Join(group(p.SPToTC, tc), " ")))
	}
	for _, tc := range cli.SortedKeys(p.ETS) {
		if p.ETS[tc].Strict {
			out = append(out, fmt.Sprintf("traffic-class %d dcb ets strict", tc))
		} else {
			out = append(out, fmt.Sprintf("traffic-class %d dcb ets wrr %d", tc, p.ETS[tc].Weight))
		}
	}
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

// groupKeys are the distinct values of m, ascending.
func groupKeys(m map[int]int) []int {
	set := map[int]bool{}
	for _, v := range m {
		set[v] = true
	}
	return cli.SortedKeys(set)
}

// group are the keys of m mapped to v, ascending.
func group(m map[int]int, v int) []int {
	var out []int
	for _, k := range cli.SortedKeys(m) {
		if m[k] == v {
			out = append(out, k)
		}
	}
	return out
}
