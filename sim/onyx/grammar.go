package onyx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// Grammar sources: the mellanox.onyx Ansible modules and their unit tests
// (onyx_interface, onyx_l2_interface, onyx_vlan, onyx_qos,
// onyx_traffic_class, onyx_pfc_interface, onyx_buffer_pool), the Onyx
// User Manual command reference (traffic pool, ingress-buffer), and the
// running-config samples named in ../README.md.

// kinds are the Onyx value kinds of the grammar.
var kinds = map[string]string{
	"ports": `\d+/\d+(?:/\d+)?(?:-\d+/\d+(?:/\d+)?)?`,
	"speed": `\d+G`,
	"pool":  `[\w\-]{1,20}`,
	"pg":    `iPort\.pg\d`,
	"tcq":   `ePort\.tc\d`,
	"alpha": `1/(?:2|4|8|16|32|64|128)|0|1|2|4|8|16|32|64|inf`,
	// No public sample gives the longest file name Onyx takes; fabricc's
	// lock file names are at most 80 characters.
	"file": `[\w.\-]{1,80}`,
	"tc":   `[0-7]`,
	"prio": `[0-7]`,
}

// penv is what a per-port rule works on: one port (a copy that replaces
// the port when the command succeeds on every port it names).
type penv struct {
	st *State
	p  *Port
}

// portRules are the commands of `interface ethernet X` (also written
// on one line after it from configuration mode).
var portRules = []cli.Rule[*penv]{
	{Syntax: "speed <speed> [force]", Do: func(e *penv, m []string) error { e.p.Speed = m[1]; return nil }},
	{Syntax: "no speed [force]", Do: func(e *penv, m []string) error { e.p.Speed = ""; return nil }},
	{Syntax: "mtu <int> [force]", Do: func(e *penv, m []string) error {
		v, err := rangeInt("MTU", m[1], 1500, 9216)
		if err == nil {
			e.p.MTU = v
		}
		return err
	}},
	{Syntax: "no mtu [force]", Do: func(e *penv, m []string) error { e.p.MTU = defaultMTU; return nil }},
	{Syntax: "description <rest>", Do: func(e *penv, m []string) error { e.p.Description = unquote(m[1]); return nil }},
	{Syntax: "no description", Do: func(e *penv, m []string) error { e.p.Description = ""; return nil }},
	{Syntax: "[no] shutdown", Do: func(e *penv, m []string) error { e.p.Shutdown = m[1] == ""; return nil }},
	// `lldp receive`, `lldp transmit` and their no forms (NVIDIA Onyx
	// User Manual, Link Layer Discovery Protocol (LLDP); the commands
	// mellanox.onyx onyx_lldp_interface.py sends).
	{Syntax: "[no] lldp {receive|transmit}", Do: func(e *penv, m []string) error {
		*map[string]*bool{"receive": &e.p.NoLLDPReceive, "transmit": &e.p.NoLLDPTransmit}[m[2]] = m[1] != ""
		return nil
	}},
	{Syntax: "switchport mode {access|trunk|hybrid}", Do: setMode},
	{Syntax: "no switchport mode", Do: func(e *penv, m []string) error { return setMode(e, []string{"", "access"}) }},
	{Syntax: "no switchport force", Do: func(e *penv, m []string) error { e.p.Mode = "routed"; return nil }},
	{Syntax: "switchport [force]", Do: func(e *penv, m []string) error {
		if e.p.Mode == "routed" {
			e.p.Mode = "access"
		}
		return nil
	}},
	{Syntax: "switchport access vlan <int>", Do: func(e *penv, m []string) error {
		v, err := vlanID(e.st, m[1])
		if err == nil {
			e.p.AccessVLAN = v
		}
		return err
	}},
	{Syntax: "no switchport access vlan", Do: func(e *penv, m []string) error { e.p.AccessVLAN = 0; return nil }},
	// `allowed-vlan add N` adds, `remove N` removes, and a plain list
	// replaces the allowed set (Onyx User Manual, "switchport
	// {trunk|hybrid} allowed-vlan"); adding to a trunk that allows every
	// VLAN changes nothing.
	{Syntax: "switchport {trunk|hybrid} allowed-vlan [{add|remove}] <list>", Do: allowedVLANs},
	{Syntax: "switchport {trunk|hybrid} allowed-vlan {all|none}", Do: func(e *penv, m []string) error {
		if err := needMode(e.p, m[1]); err != nil {
			return err
		}
		e.p.Allowed, e.p.AllowedAll = nil, m[2] == "all"
		return nil
	}},
	{Syntax: "no switchport {trunk|hybrid} allowed-vlan", Do: func(e *penv, m []string) error {
		e.p.Allowed, e.p.AllowedAll = nil, e.p.Mode == "trunk"
		return nil
	}},
	{Syntax: "qos trust {port|L2|L3|both}", Do: func(e *penv, m []string) error { e.p.Trust = m[1]; return nil }},
	{Syntax: "no qos trust", Do: func(e *penv, m []string) error { e.p.Trust = "L2"; return nil }},
	{Syntax: "[no] qos rewrite {pcp|dscp}", Do: func(e *penv, m []string) error {
		*map[string]*bool{"pcp": &e.p.RewritePCP, "dscp": &e.p.RewriteDSCP}[m[2]] = m[1] == ""
		return nil
	}},
	{Syntax: "qos map dscp <list> to switch-priority <prio>", Do: func(e *penv, m []string) error {
		ds, err := cli.Ints(m[1], 0, 63)
		for _, d := range ds {
			setOverride(e.p.DSCPToSP, d, atoi(m[2]), defaultSP(d))
		}
		return err
	}},
	{Syntax: "no qos map dscp <list> [to] [switch-priority] [<prio>]", Do: func(e *penv, m []string) error {
		ds, err := cli.Ints(m[1], 0, 63)
		for _, d := range ds {
			delete(e.p.DSCPToSP, d)
		}
		return err
	}},
	{Syntax: "traffic-class <tc> bind switch-priority <list>", Do: func(e *penv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		for _, sp := range sps {
			setOverride(e.p.SPToTC, sp, atoi(m[1]), sp)
		}
		return err
	}},
	{Syntax: "no traffic-class <tc> bind switch-priority <list>", Do: func(e *penv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		for _, sp := range sps {
			delete(e.p.SPToTC, sp)
		}
		return err
	}},
	{Syntax: "traffic-class <tc> dcb ets strict", Do: func(e *penv, m []string) error {
		e.p.ETS[atoi(m[1])] = &ETS{Strict: true}
		return nil
	}},
	{Syntax: "traffic-class <tc> dcb ets wrr <int>", Do: func(e *penv, m []string) error {
		w, err := rangeInt("weight", m[2], 1, 100)
		if err == nil {
			e.p.ETS[atoi(m[1])] = &ETS{Weight: w}
		}
		return err
	}},
	{Syntax: "no traffic-class <tc> dcb ets", Do: func(e *penv, m []string) error { delete(e.p.ETS, atoi(m[1])); return nil }},
	{Syntax: "traffic-class <tc> congestion-control {ecn|red|both} {minimum-absolute|minimum-relative} <int> {maximum-absolute|maximum-relative} <int>", Do: setECN},
	{Syntax: "no traffic-class <tc> congestion-control", Do: func(e *penv, m []string) error { delete(e.p.ECN, atoi(m[1])); return nil }},
	{Syntax: "dcb priority-flow-control mode {on|auto} force", Do: func(e *penv, m []string) error {
		if m[1] == "on" && (e.p.FlowSend || e.p.FlowReceive) {
			return fmt.Errorf("PFC cannot be enabled on an interface with global pause (flowcontrol) enabled")
		}
		e.p.PFCMode = m[1]
		return nil
	}},
	{Syntax: "no dcb priority-flow-control mode [force]", Do: func(e *penv, m []string) error { e.p.PFCMode = "off"; return nil }},
	{Syntax: "flowcontrol {send|receive} {on|off} force", Do: func(e *penv, m []string) error {
		if m[2] == "on" && e.p.PFCMode == "on" {
			return fmt.Errorf("global pause and PFC cannot both be enabled on the interface")
		}
		*flow(e.p, m[1]) = m[2] == "on"
		return nil
	}},
	{Syntax: "no flowcontrol {send|receive} [force]", Do: func(e *penv, m []string) error { *flow(e.p, m[1]) = false; return nil }},
	{Syntax: "[no] pfc-wd", Do: func(e *penv, m []string) error { e.p.PFCWatchdog = m[1] == ""; return nil }},
	{Syntax: "ingress-buffer <pg> bind switch-priority <list>", Do: func(e *penv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		if err == nil {
			pg(e.p, m[1]).SPs = sps
		}
		return err
	}},
	{Syntax: "ingress-buffer <pg> map pool <word> type lossless reserved <int> xoff <int> xon <int> shared alpha <alpha>", Do: func(e *penv, m []string) error {
		return mapPG(e, m[1], m[2], "lossless", m[3], m[4], m[5], m[6])
	}},
	{Syntax: "ingress-buffer <pg> map pool <word> type lossy reserved <int> shared alpha <alpha>", Do: func(e *penv, m []string) error {
		return mapPG(e, m[1], m[2], "lossy", m[3], "0", "0", m[4])
	}},
	{Syntax: "no ingress-buffer <pg> [<rest>]", Do: func(e *penv, m []string) error { delete(e.p.IngressPGs, pgNum(m[1])); return nil }},
	{Syntax: "egress-buffer <tcq> map pool <word> reserved <int> shared alpha <alpha>", Do: func(e *penv, m []string) error {
		if err := checkPool(e.st, m[2]); err != nil {
			return err
		}
		e.p.EgressQueues[pgNum(m[1])] = &EgressQueue{Pool: m[2], Reserved: int64(atoi(m[3])), Alpha: m[4]}
		return nil
	}},
	{Syntax: "no egress-buffer <tcq> [<rest>]", Do: func(e *penv, m []string) error { delete(e.p.EgressQueues, pgNum(m[1])); return nil }},
}

// setMode changes the switchport mode; the VLAN membership of the old
// mode does not carry over, and a new trunk allows every VLAN.
func setMode(e *penv, m []string) error {
	if e.p.Mode != m[1] {
		e.p.Mode, e.p.Allowed, e.p.AllowedAll = m[1], nil, m[1] == "trunk"
		if m[1] == "trunk" {
			e.p.AccessVLAN = 0
		}
	}
	return nil
}

func needMode(p *Port, mode string) error {
	if p.Mode != mode {
		return fmt.Errorf("interface is not in %s mode", mode)
	}
	return nil
}

func flow(p *Port, dir string) *bool {
	if dir == "send" {
		return &p.FlowSend
	}
	return &p.FlowReceive
}

// setOverride stores m[k] = v, or drops it when v is the default: the
// running-config then leaves it out.
func setOverride(m map[int]int, k, v, def int) {
	if v == def {
		delete(m, k)
		return
	}
	m[k] = v
}

func setECN(e *penv, m []string) error {
	minKind, maxKind := strings.TrimPrefix(m[3], "minimum-"), strings.TrimPrefix(m[5], "maximum-")
	if minKind != maxKind {
		return fmt.Errorf("minimum and maximum thresholds must both be absolute or both relative")
	}
	lo, hi := atoi(m[4]), atoi(m[6])
	if lo > hi || (minKind == "relative" && hi > 100) {
		return fmt.Errorf("minimum threshold must not exceed maximum threshold")
	}
	e.p.ECN[atoi(m[1])] = &ECN{Mode: m[2], Relative: minKind == "relative", Min: lo, Max: hi}
	return nil
}

func mapPG(e *penv, name, pool, typ, reserved, xoff, xon, alpha string) error {
	if err := checkPool(e.st, pool); err != nil {
		return err
	}
	g := pg(e.p, name)
	g.Pool, g.Type, g.Reserved, g.Alpha, g.Mapped = pool, typ, int64(atoi(reserved)), alpha, true
	g.Xoff, g.Xon = int64(atoi(xoff)), int64(atoi(xon))
	return nil
}

func checkPool(st *State, name string) error {
	if !st.Advanced {
		return fmt.Errorf("advanced buffer management is disabled; run \"advanced buffer management force\" first")
	}
	if _, ok := st.APools[name]; !ok {
		return fmt.Errorf("pool %s does not exist", name)
	}
	return nil
}

// pg is the port's ingress priority group named "iPort.pgN".
func pg(p *Port, name string) *PG {
	return cli.Entry(p.IngressPGs, pgNum(name), func() *PG { return &PG{} })
}

// pgNum is N of "iPort.pgN" or "ePort.tcN".
func pgNum(name string) int { return atoi(name[len(name)-1:]) }

func allowedVLANs(e *penv, m []string) error {
	if err := needMode(e.p, m[1]); err != nil {
		return err
	}
	ids, err := cli.Ints(m[3], 1, 4094)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := e.st.VLANs[id]; !ok && m[2] != "remove" {
			return fmt.Errorf("VLAN %d does not exist", id)
		}
	}
	set := map[int]bool{}
	switch {
	case m[2] == "add" && e.p.AllowedAll:
		return nil
	case m[2] == "remove" && e.p.AllowedAll:
		for id := range e.st.VLANs {
			set[id] = true
		}
	case m[2] != "":
		for _, v := range e.p.Allowed {
			set[v] = true
		}
	}
	for _, v := range ids {
		set[v] = m[2] != "remove"
	}
	e.p.Allowed, e.p.AllowedAll = nil, false
	for _, v := range cli.SortedKeys(set) {
		if set[v] {
			e.p.Allowed = append(e.p.Allowed, v)
		}
	}
	return nil
}

func vlanID(st *State, s string) (int, error) {
	v, err := rangeInt("VLAN ID", s, 1, 4094)
	if err != nil {
		return 0, err
	}
	if _, ok := st.VLANs[v]; !ok {
		return 0, fmt.Errorf("VLAN %d does not exist", v)
	}
	return v, nil
}

func rangeInt(what, s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%s must be between %d and %d", what, lo, hi)
	}
	return v, nil
}

// pool is the named traffic pool, created lossy on first use.
func pool(st *State, name string) *TrafficPool {
	return cli.Entry(st.Pools, name, func() *TrafficPool { return &TrafficPool{Type: "lossy"} })
}

func nameVLAN(st *State, id, name string) error {
	v, err := vlanID(st, id)
	if err == nil {
		st.VLANs[v] = name
	}
	return err
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// portRange expands "1/1" or "1/1-1/4" into the names of existing ports.
func portRange(st *State, spec string) ([]string, error) {
	a, b, isRange := strings.Cut(spec, "-")
	if !isRange {
		b = a
	}
	ia, ib := strings.LastIndex(a, "/"), strings.LastIndex(b, "/")
	if a[:ia] != b[:ib] || atoi(a[ia+1:]) > atoi(b[ib+1:]) {
		return nil, fmt.Errorf("bad interface range %s", spec)
	}
	var out []string
	for i := atoi(a[ia+1:]); i <= atoi(b[ib+1:]); i++ {
		name := fmt.Sprintf("%s/%d", a[:ia], i)
		if _, ok := st.Ports[name]; !ok {
			return nil, fmt.Errorf("interface ethernet %s does not exist", name)
		}
		out = append(out, name)
	}
	return out, nil
}

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
