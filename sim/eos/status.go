package eos

// JSON shapes: `show interfaces` follows napalm's EOS fixture
// test_get_interfaces/normal/show_interfaces.json and ANTA's VerifyL2MTU
// and VerifyInterfacesSpeed test data; `show interfaces status` the
// node-scraper Arista collector test data; `show vlan` napalm's
// test_get_vlans/normal/show_vlan.json. The PFC and QoS shapes have no
// public sample; they are this simulator's and README.md marks them.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

func (d *Device) interfacesStatus() (any, string, error) {
	st := map[string]any{}
	var text strings.Builder
	text.WriteString("Port       Name        Status       Vlan     Duplex Speed  Type\n")
	for _, n := range d.run.portNames() {
		p := d.run.Ports[n]
		link := linkStatus(p)
		st[n] = map[string]any{
			"description":        p.Description,
			"linkStatus":         link,
			"lineProtocolStatus": map[bool]string{true: "up", false: "down"}[link == "connected"],
			"bandwidth":          bandwidth(p),
			"duplex":             "duplexFull",
			"interfaceType":      "100GBASE-CR4",
			"vlanInformation":    vlanInfo(p),
		}
		fmt.Fprintf(&text, "%-10s %-11s %-12s %-8s full   %-6s 100GBASE-CR4\n", "Et"+strings.TrimPrefix(n, "Ethernet"), p.Description, link, vlanColumn(p), speedText(p))
	}
	return map[string]any{"interfaceStatuses": st}, text.String(), nil
}

// selectPorts returns every configured port when num is empty, else the
// one port num names (ok false when it does not exist).
func (d *Device) selectPorts(num string) (names []string, ok bool) {
	if num == "" {
		return d.run.portNames(), true
	}
	n := portName(num)
	if _, ok := d.run.Ports[n]; !ok {
		return nil, false
	}
	return []string{n}, true
}

func (d *Device) interfaces(num string) (any, string, error) {
	names, ok := d.selectPorts(num)
	if !ok {
		return nil, "", fmt.Errorf("%% Interface does not exist")
	}
	out := map[string]any{}
	var text strings.Builder
	for _, n := range names {
		p := d.run.Ports[n]
		link := linkStatus(p)
		proto := map[bool]string{true: "up", false: "down"}[link == "connected"]
		out[n] = map[string]any{
			"name": n, "description": p.Description, "mtu": ifMTU(p), "l2Mru": 0, "l3MtuConfigured": p.MTU != defaultMTU,
			"bandwidth": bandwidth(p), "interfaceStatus": link, "lineProtocolStatus": proto, "lanes": 0,
			"duplex": "duplexFull", "autoNegotiate": "off", "forwardingModel": forwarding(p), "hardware": "ethernet",
		}
		fmt.Fprintf(&text, "%s is %s, line protocol is %s (%s)\n  Description: %s\n  IP MTU %d bytes, BW %d kbit\n", n, map[bool]string{true: "up", false: "administratively down"}[!p.Shutdown], proto, link, p.Description, ifMTU(p), bandwidth(p)/1000)
	}
	return map[string]any{"interfaces": out}, text.String(), nil
}

// ifMTU is the "mtu" `show interfaces` reports: the configured (IP) MTU
// of a routed port, 9214 on a switchport, whose frames the L2 MTU
// bounds (ANTA VerifyL2MTU expects 9214 on L2 ports and VerifyL3MTU 1500
// on L3 ports by default).
func ifMTU(p *Port) int {
	if p.mode() == "routed" || p.MTU != defaultMTU {
		return p.MTU
	}
	return 9214
}

func (d *Device) vlans() (any, string, error) {
	out := map[string]any{}
	var text strings.Builder
	text.WriteString("VLAN  Name                             Status    Ports\n")
	for _, id := range cli.SortedKeys(d.run.VLANs) {
		members := map[string]any{}
		var names []string
		for _, n := range d.run.portNames() {
			if inVLAN(d.run.Ports[n], id) {
				members[n] = map[string]any{"privatePromoted": false}
				names = append(names, "Et"+strings.TrimPrefix(n, "Ethernet"))
			}
		}
		out[strconv.Itoa(id)] = map[string]any{"name": d.run.VLANs[id], "status": "active", "interfaces": members, "dynamic": false}
		fmt.Fprintf(&text, "%-5d %-32s active    %s\n", id, d.run.VLANs[id], strings.Join(names, ", "))
	}
	return map[string]any{"vlans": out, "sourceDetail": ""}, text.String(), nil
}

func (d *Device) pfc() (any, string, error) {
	st := map[string]any{}
	var text strings.Builder
	fmt.Fprintf(&text, "Global PFC : %s\n\nPort       Status   Priorities  Watchdog  Paused TxQ  Watched TxQ\n", enabled(!d.run.PFCAllOff))
	for _, n := range d.run.portNames() {
		q := d.run.effective(d.run.Ports[n])
		var prios []int
		for _, p := range cli.SortedKeys(q.NoDrop) {
			if q.NoDrop[p] {
				prios = append(prios, p)
			}
		}
		on := q.PFC && !d.run.PFCAllOff
		paused, watched := d.run.pausedQueues(q)
		st[n] = map[string]any{"pfcEnabled": on, "priorities": nonNil(prios), "watchdogEnabled": q.Watchdog,
			"pausedTxQueues": nonNil(paused), "watchdogTxQueues": nonNil(watched)}
		fmt.Fprintf(&text, "%-10s %-8s %-11s %-9s %-11s %s\n", n, enabled(on), cli.Join(prios, ","), enabled(q.Watchdog), cli.Join(paused, ","), cli.Join(watched, ","))
	}
	wd := d.run.Watchdog
	return map[string]any{
		"enabled": !d.run.PFCAllOff, "interfaceStatuses": st,
		"watchdog": map[string]any{"action": wd.Action, "timeout": wd.Timeout, "recoveryTime": wd.Recovery, "pollingInterval": wd.Polling},
	}, text.String(), nil
}

func (d *Device) qosInterfaces(num string) (any, string, error) {
	names, ok := d.selectPorts(num)
	if !ok {
		return nil, "", fmt.Errorf("%% Interface does not exist")
	}
	out := map[string]any{}
	var text strings.Builder
	for _, n := range names {
		p := d.run.Ports[n]
		q := d.run.effective(p)
		queues := map[string]any{}
		for _, i := range cli.SortedKeys(q.TxQueues) {
			queues[strconv.Itoa(i)] = txqJSON(q.TxQueues[i])
		}
		out[n] = map[string]any{"trustMode": trustMode(q.Trust), "serviceProfile": p.Profile, "txQueues": queues}
		fmt.Fprintf(&text, "%s:\n  Trust Mode: %s\n", n, trustMode(q.Trust))
		for _, i := range cli.SortedKeys(q.TxQueues) {
			t := q.TxQueues[i]
			fmt.Fprintf(&text, "  Tx-Queue %d: %s bandwidth %d%%%s\n", i, schedMode(t), t.BWPercent, ecnText(t.ECN))
		}
	}
	return map[string]any{"intfQosDetails": out}, text.String(), nil
}

func (d *Device) qosMaps() (any, string, error) {
	dscp, cos := map[string]int{}, map[string]int{}
	var text strings.Builder
	for v := 0; v < 64; v++ {
		tc, ok := d.run.DSCPToTC[v]
		if !ok {
			tc = defaultTC(v / 8)
		}
		dscp[strconv.Itoa(v)] = tc
		fmt.Fprintf(&text, "DSCP %d -> TC %d\n", v, tc)
	}
	for v := 0; v < 8; v++ {
		tc, ok := d.run.CoSToTC[v]
		if !ok {
			tc = defaultTC(v)
		}
		cos[strconv.Itoa(v)] = tc
		fmt.Fprintf(&text, "CoS %d -> TC %d\n", v, tc)
	}
	tcCoS := map[string]int{}
	for tc := 0; tc < 8; tc++ {
		tcCoS[strconv.Itoa(tc)] = d.run.cosOf(tc)
		fmt.Fprintf(&text, "TC %d -> CoS %d\n", tc, d.run.cosOf(tc))
	}
	return map[string]any{"dscpToTcMap": dscp, "cosToTcMap": cos, "tcToCosMap": tcCoS}, text.String(), nil
}

// cosOf is the CoS of traffic class tc: what PFC pauses it by and what a
// tagged frame of it leaves with (`qos map traffic-class`, else EOS's
// default map, the inverse of the default CoS map: TC0 -> CoS 1, TC1 ->
// CoS 0, else identity; unverified on a switch).
func (s *State) cosOf(tc int) int {
	if c, ok := s.TCToCoS[tc]; ok {
		return c
	}
	return defaultTC(tc)
}

// pausedQueues are the tx-queues of q that PFC pauses: those whose
// traffic class maps to a no-drop CoS (the tie `qos map traffic-class T
// to cos P` makes). watched are those the PFC watchdog monitors: paused
// ones with guaranteed bandwidth on a port with the watchdog on (Arista
// EOS User Manual, DCBX and Flow Control, PFC watchdog: only PFC-enabled
// queues with guaranteed bandwidth, as quoted in a public RoCE-on-EOS
// write-up).
func (s *State) pausedQueues(q QoS) (paused, watched []int) {
	if !q.PFC || s.PFCAllOff {
		return nil, nil
	}
	for tc := 0; tc < 8; tc++ {
		if !q.NoDrop[s.cosOf(tc)] {
			continue
		}
		paused = append(paused, tc)
		if t := q.TxQueues[tc]; q.Watchdog && t != nil && t.Guaranteed > 0 {
			watched = append(watched, tc)
		}
	}
	return paused, watched
}

// defaultTC is EOS's default map: class 0 -> TC1, class 1 -> TC0, else
// identity (the "low-end inversion"; unverified on a switch).
func defaultTC(class int) int {
	switch class {
	case 0:
		return 1
	case 1:
		return 0
	}
	return class
}

func txqJSON(t *TxQueue) map[string]any {
	q := map[string]any{"schedulingMode": schedMode(t), "bandwidthPercent": t.BWPercent, "guaranteedPercent": t.Guaranteed, "ecnCounters": t.ECNCounter}
	if e := t.ECN; e != nil {
		q["ecn"] = map[string]any{"minThreshold": e.Min, "maxThreshold": e.Max, "unit": e.Unit, "maxMarkProbability": e.Prob}
	}
	return q
}

func schedMode(t *TxQueue) string {
	if t.WRR {
		return "roundRobin"
	}
	return "strictPriority"
}

func ecnText(e *ECN) string {
	if e == nil {
		return ""
	}
	return fmt.Sprintf(" ECN %d-%d %s prob %d%%", e.Min, e.Max, e.Unit, e.Prob)
}

func trustMode(t string) string {
	switch t {
	case "dscp":
		return "DSCP"
	case "untrusted":
		return "UNTRUSTED"
	}
	return "COS"
}

// linkStatus reports every enabled active port as connected, as if
// cabled; an inactive lane is "inactive".
func linkStatus(p *Port) string {
	switch {
	case p.Inactive:
		return "inactive"
	case p.Shutdown:
		return "disabled"
	}
	return "connected"
}

func forwarding(p *Port) string {
	if p.mode() == "routed" {
		return "routed"
	}
	return "bridged"
}

func vlanInfo(p *Port) map[string]any {
	switch p.mode() {
	case "routed":
		return map[string]any{"interfaceMode": "routed", "interfaceForwardingModel": "routed"}
	case "trunk":
		return map[string]any{"interfaceMode": "trunk", "vlanExplanation": "", "interfaceForwardingModel": "bridged"}
	}
	return map[string]any{"interfaceMode": "bridged", "vlanId": accessVLAN(p), "interfaceForwardingModel": "bridged"}
}

func vlanColumn(p *Port) string {
	switch p.mode() {
	case "routed":
		return "routed"
	case "trunk":
		return "trunk"
	}
	return strconv.Itoa(accessVLAN(p))
}

func accessVLAN(p *Port) int {
	if p.AccessVLAN == 0 {
		return 1
	}
	return p.AccessVLAN
}

func inVLAN(p *Port, id int) bool {
	switch p.mode() {
	case "routed":
		return false
	case "trunk":
		if p.TrunkVLANs == nil {
			return true
		}
		for _, v := range p.TrunkVLANs {
			if v == id {
				return true
			}
		}
		return false
	}
	return accessVLAN(p) == id
}

// bandwidth is the port's speed in bit/s: the configured one, else the
// cage's.
func bandwidth(p *Port) int64 {
	digits := strings.TrimPrefix(strings.TrimPrefix(p.Speed, "forced "), "auto ")
	if i := strings.IndexByte(digits, 'g'); i > 0 {
		if g, err := strconv.ParseInt(digits[:i], 10, 64); err == nil {
			return g * 1_000_000_000
		}
	}
	return int64(p.NativeG) * 1_000_000_000
}

func speedText(p *Port) string { return fmt.Sprintf("%dG", bandwidth(p)/1_000_000_000) }

func enabled(b bool) string {
	if b {
		return "Enabled"
	}
	return "Disabled"
}

func nonNil(v []int) []int {
	if v == nil {
		return []int{}
	}
	return v
}
