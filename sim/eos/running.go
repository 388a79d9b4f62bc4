package eos

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// render is `show running-config`: EOS block form, stable order, every
// interface listed (a port without settings as an empty block), defaults
// left out, a "! device:" header as EOS prints it.
func (d *Device) render(s *State) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("! Command: show running-config")
	w("! device: %s (%s, EOS-%s)", s.Hostname, d.modelName(), d.opts.Version)
	w("!")
	w("! boot system flash:/EOS-%s.swi", d.opts.Version)
	w("!")
	w("hostname %s", s.Hostname)
	w("!")
	for _, id := range cli.SortedKeys(s.VLANs) {
		if id == 1 {
			continue
		}
		w("vlan %d", id)
		if name := s.VLANs[id]; name != defaultVLANName(id) {
			w("   name %s", name)
		}
		w("!")
	}
	renderMaps(w, "dscp", "traffic-class", s.DSCPToTC)
	renderMaps(w, "cos", "traffic-class", s.CoSToTC)
	renderMaps(w, "traffic-class", "cos", s.TCToCoS)
	renderPFC(w, s)
	for _, name := range cli.SortedKeys(s.MMU) {
		renderMMU(w, name, s.MMU[name])
	}
	if s.MMUApply != "" {
		w("platform trident mmu queue profile %s apply", s.MMUApply)
		w("!")
	}
	for _, name := range cli.SortedKeys(s.Profiles) {
		w("qos profile %s", name)
		renderQoS(w, s.Profiles[name])
		w("!")
	}
	for _, name := range s.portNames() {
		w("interface %s", name)
		renderPort(w, s.Ports[name])
		w("!")
	}
	w("end")
	return b.String()
}

type writer func(format string, a ...any)

// renderMaps prints a `qos map FROM <keys> to TO <value>` table, one
// line per value.
func renderMaps(w writer, from, to string, m map[int]int) {
	byTC := map[int][]int{}
	for k, tc := range m {
		byTC[tc] = append(byTC[tc], k)
	}
	for _, tc := range cli.SortedKeys(byTC) {
		keys := byTC[tc]
		sortInts(keys)
		w("qos map %s %s to %s %d", from, cli.Join(keys, " "), to, tc)
	}
	if len(m) > 0 {
		w("!")
	}
}

func renderPFC(w writer, s *State) {
	n := 0
	line := func(format string, a ...any) { w(format, a...); n++ }
	if s.PFCAllOff {
		line("priority-flow-control all off")
	}
	wd := s.Watchdog
	if wd.Action != "" {
		line("priority-flow-control pause watchdog action %s", wd.Action)
	}
	if wd.Timeout != "" {
		line("priority-flow-control pause watchdog default timeout %s", wd.Timeout)
	}
	if wd.Polling != "" {
		line("priority-flow-control pause watchdog default polling-interval %s", wd.Polling)
	}
	if wd.Recovery != "" {
		line("priority-flow-control pause watchdog default recovery-time %s", wd.Recovery)
	}
	if n > 0 {
		w("!")
	}
}

func renderMMU(w writer, name string, p *MMU) {
	w("platform trident mmu queue profile %s", name)
	if p.IngressThreshold != "" {
		w("    ingress threshold %s", p.IngressThreshold)
	}
	if p.IngressHeadroom != 0 {
		w("    ingress headroom bytes %d", p.IngressHeadroom)
	}
	for _, g := range cli.SortedKeys(p.PGs) {
		e := p.PGs[g]
		if e.HasReserved {
			w("    ingress priority-group %d reserved bytes %d", g, e.Reserved)
		}
		if e.Threshold != "" {
			w("    ingress priority-group %d threshold %s", g, e.Threshold)
		}
	}
	for _, q := range cli.SortedKeys(p.Egress) {
		e := p.Egress[q]
		if e.HasReserved {
			w("    egress unicast queue %d reserved bytes %d", q, e.Reserved)
		}
		if e.Threshold != "" {
			w("    egress unicast queue %d threshold %s", q, e.Threshold)
		}
	}
	w("!")
}

func renderPort(w writer, p *Port) {
	if p.Description != "" {
		w("   description %s", p.Description)
	}
	if p.Shutdown {
		w("   shutdown")
	}
	if p.MTU != defaultMTU {
		w("   mtu %d", p.MTU)
	}
	if p.FlowReceive != "" {
		w("   flowcontrol receive %s", p.FlowReceive)
	}
	if p.FlowSend != "" {
		w("   flowcontrol send %s", p.FlowSend)
	}
	if p.Speed != "" {
		w("   speed %s", p.Speed)
	}
	if p.Mode == "trunk" {
		w("   switchport mode trunk")
	}
	if p.Routed {
		w("   no switchport")
	}
	if p.AccessVLAN != 0 {
		w("   switchport access vlan %d", p.AccessVLAN)
	}
	if p.NativeVLAN != 0 {
		w("   switchport trunk native vlan %d", p.NativeVLAN)
	}
	if p.TrunkVLANs != nil {
		list := cli.Ranges(p.TrunkVLANs)
		if list == "" {
			list = "none"
		}
		w("   switchport trunk allowed vlan %s", list)
	}
	if p.ChannelGroup != "" {
		w("   channel-group %s", p.ChannelGroup)
	}
	if p.DCBX != "" {
		w("   dcbx mode %s", p.DCBX)
	}
	if p.Profile != "" {
		w("   service-profile %s", p.Profile)
	}
	renderQoS(w, &p.QoS)
}

func renderQoS(w writer, q *QoS) {
	switch q.Trust {
	case "dscp", "cos":
		w("   qos trust %s", q.Trust)
	case "untrusted":
		w("   no qos trust")
	}
	for _, n := range cli.SortedKeys(q.TxQueues) {
		t := q.TxQueues[n]
		w("   !")
		w("   %s %d", t.Keyword, n)
		if t.WRR {
			w("      no priority")
		}
		if t.BWPercent != 0 {
			w("      bandwidth percent %d", t.BWPercent)
		}
		if t.Guaranteed != 0 {
			w("      bandwidth guaranteed percent %d", t.Guaranteed)
		}
		if e := t.ECN; e != nil {
			w("      random-detect ecn minimum-threshold %d %s maximum-threshold %d %s max-mark-probability %d%s", e.Min, e.Unit, e.Max, e.Unit, e.Prob, weight(e.Weight))
		}
		if t.ECNCounter {
			w("      random-detect ecn count")
		}
	}
	if len(q.TxQueues) > 0 {
		w("   !")
	}
	if q.PFC {
		w("   priority-flow-control on")
	}
	for _, p := range cli.SortedKeys(q.NoDrop) {
		kw := "drop"
		if q.NoDrop[p] {
			kw = "no-drop"
		}
		w("   priority-flow-control priority %d %s", p, kw)
	}
	if q.Watchdog {
		w("   priority-flow-control pause watchdog")
	}
}

func weight(v int) string {
	if v < 0 {
		return ""
	}
	return fmt.Sprintf(" weight %d", v)
}

func sortInts(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}
