package onyx

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// penv is what a per-port rule works on.
type penv struct {
	st *State
	p  *Port
}

// genv is what a global rule works on.
type genv struct {
	st *State
	sh *shell
}

// Onyx syntax sources: the Ansible mellanox.onyx modules and unit tests,
// intel/mfd-switchmanagement tests, att/netarbiter nvmf/RoCE_Deployment.md.
var portRules = cli.Compile([]cli.Rule[*penv]{
	{Pattern: `speed (\d+G)(?: force)?`, Do: func(e *penv, m []string) error { e.p.Speed = m[1]; return nil }},
	{Pattern: `no speed(?: force)?`, Do: func(e *penv, m []string) error { e.p.Speed = ""; return nil }},
	{Pattern: `mtu (\d+)(?: force)?`, Do: func(e *penv, m []string) error {
		v, err := cli.Int(m[1], 1500, 9216)
		if err == nil {
			e.p.MTU = v
		}
		return err
	}},
	{Pattern: `no mtu(?: force)?`, Do: func(e *penv, m []string) error { e.p.MTU = defaultMTU; return nil }},
	{Pattern: `description (.+)`, Do: func(e *penv, m []string) error { e.p.Description = unquote(m[1]); return nil }},
	{Pattern: `no description`, Do: func(e *penv, m []string) error { e.p.Description = ""; return nil }},
	{Pattern: `(no )?shutdown`, Do: func(e *penv, m []string) error { e.p.Shutdown = m[1] == ""; return nil }},
	{Pattern: `switchport mode (access|trunk|hybrid)`, Do: func(e *penv, m []string) error { e.p.Mode = m[1]; return nil }},
	{Pattern: `no switchport mode`, Do: func(e *penv, m []string) error { e.p.Mode = "access"; return nil }},
	{Pattern: `no switchport force`, Do: func(e *penv, m []string) error { e.p.Mode = "routed"; return nil }},
	{Pattern: `switchport(?: force)?`, Do: func(e *penv, m []string) error { e.p.Mode = "access"; return nil }},
	{Pattern: `switchport access vlan (\d+)`, Do: func(e *penv, m []string) error {
		v, err := vlanID(e.st, m[1])
		if err == nil {
			e.p.AccessVLAN = v
		}
		return err
	}},
	{Pattern: `no switchport access vlan`, Do: func(e *penv, m []string) error { e.p.AccessVLAN = 0; return nil }},
	{Pattern: `switchport (?:trunk|hybrid) allowed-vlan (add |remove )?([\d,\- ]+)`, Do: allowedVLANs},
	{Pattern: `switchport (?:trunk|hybrid) allowed-vlan (all|none)`, Do: func(e *penv, m []string) error {
		e.p.Allowed = map[string][]int{"all": nil, "none": {}}[m[1]]
		return nil
	}},
	{Pattern: `no switchport (?:trunk|hybrid) allowed-vlan`, Do: func(e *penv, m []string) error { e.p.Allowed = nil; return nil }},
	{Pattern: `qos trust (port|L2|L3|both)`, Do: func(e *penv, m []string) error { e.p.Trust = m[1]; return nil }},
	{Pattern: `no qos trust`, Do: func(e *penv, m []string) error { e.p.Trust = "L2"; return nil }},
	{Pattern: `qos map dscp ([\d ]+) to switch-priority (\d)`, Do: func(e *penv, m []string) error {
		ds, err := cli.Ints(m[1], 0, 63)
		for _, d := range ds {
			e.p.DSCPToSP[d] = atoi(m[2])
		}
		return err
	}},
	{Pattern: `no qos map dscp ([\d ]+)(?: to switch-priority \d)?`, Do: func(e *penv, m []string) error {
		ds, err := cli.Ints(m[1], 0, 63)
		for _, d := range ds {
			delete(e.p.DSCPToSP, d)
		}
		return err
	}},
	{Pattern: `traffic-class (\d) bind switch-priority ([\d ]+)`, Do: func(e *penv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		for _, sp := range sps {
			e.p.SPToTC[sp] = atoi(m[1])
		}
		return err
	}},
	{Pattern: `no traffic-class (\d) bind switch-priority ([\d ]+)`, Do: func(e *penv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		for _, sp := range sps {
			delete(e.p.SPToTC, sp)
		}
		return err
	}},
	{Pattern: `traffic-class (\d) dcb ets strict`, Do: func(e *penv, m []string) error {
		e.p.ETS[atoi(m[1])] = &ETS{Strict: true}
		return nil
	}},
	{Pattern: `traffic-class (\d) dcb ets wrr (\d+)`, Do: func(e *penv, m []string) error {
		w, err := cli.Int(m[2], 1, 100)
		if err == nil {
			e.p.ETS[atoi(m[1])] = &ETS{Weight: w}
		}
		return err
	}},
	{Pattern: `no traffic-class (\d) dcb ets`, Do: func(e *penv, m []string) error { delete(e.p.ETS, atoi(m[1])); return nil }},
	{Pattern: `traffic-class (\d) congestion-control (ecn|red|both) minimum-(absolute|relative) (\d+) maximum-(absolute|relative) (\d+)`, Do: setECN},
	{Pattern: `no traffic-class (\d) congestion-control`, Do: func(e *penv, m []string) error { delete(e.p.ECN, atoi(m[1])); return nil }},
	{Pattern: `dcb priority-flow-control mode (on|auto) force`, Do: func(e *penv, m []string) error { e.p.PFCMode = m[1]; return nil }},
	{Pattern: `no dcb priority-flow-control mode(?: force)?`, Do: func(e *penv, m []string) error { e.p.PFCMode = "off"; return nil }},
	{Pattern: `flowcontrol (send|receive) (on|off) force`, Do: func(e *penv, m []string) error {
		if m[2] == "on" && e.p.PFCMode == "on" {
			return fmt.Errorf("%% Error: global pause and PFC cannot both be enabled on the interface")
		}
		*map[string]*string{"send": &e.p.FlowSend, "receive": &e.p.FlowReceive}[m[1]] = m[2]
		return nil
	}},
	{Pattern: `no flowcontrol (send|receive)(?: force)?`, Do: func(e *penv, m []string) error {
		*map[string]*string{"send": &e.p.FlowSend, "receive": &e.p.FlowReceive}[m[1]] = ""
		return nil
	}},
	{Pattern: `(no )?pfc-wd`, Do: func(e *penv, m []string) error { e.p.PFCWatchdog = m[1] == ""; return nil }},
	{Pattern: `ingress-buffer iPort\.pg(\d) bind switch-priority ([\d ]+)`, Do: func(e *penv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		if err == nil {
			pg(e.p, m[1]).SPs = sps
		}
		return err
	}},
	{Pattern: `ingress-buffer iPort\.pg(\d) map pool (\w+) type (lossy|lossless) reserved (\d+)(?: xoff (\d+) xon (\d+))? shared alpha (\S+)`, Do: mapPG},
	{Pattern: `no ingress-buffer iPort\.pg(\d)(?: .*)?`, Do: func(e *penv, m []string) error { delete(e.p.IngressPGs, atoi(m[1])); return nil }},
	{Pattern: `egress-buffer ePort\.tc(\d) map pool (\w+) reserved (\d+) shared alpha (\S+)`, Do: func(e *penv, m []string) error {
		if err := checkPool(e.st, m[2]); err != nil {
			return err
		}
		if !alphaRe.MatchString(m[4]) {
			return fmt.Errorf("%% Error: invalid alpha %s", m[4])
		}
		e.p.EgressQueues[atoi(m[1])] = &EgressQueue{Pool: m[2], Reserved: int64(atoi(m[3])), Alpha: m[4]}
		return nil
	}},
	{Pattern: `no egress-buffer ePort\.tc(\d)(?: .*)?`, Do: func(e *penv, m []string) error { delete(e.p.EgressQueues, atoi(m[1])); return nil }},
})

var alphaRe = regexp.MustCompile(`^(?:1/(?:2|4|8|16|32|64|128)|0|1|2|4|8|16|32|64|inf)$`)

func setECN(e *penv, m []string) error {
	if m[3] != m[5] {
		return fmt.Errorf("%% Error: minimum and maximum thresholds must both be absolute or both relative")
	}
	lo, hi := atoi(m[4]), atoi(m[6])
	if lo > hi || (m[3] == "relative" && hi > 100) {
		return fmt.Errorf("%% Error: minimum threshold must not exceed maximum threshold")
	}
	e.p.ECN[atoi(m[1])] = &ECN{Mode: m[2], Relative: m[3] == "relative", Min: lo, Max: hi}
	return nil
}

func mapPG(e *penv, m []string) error {
	if err := checkPool(e.st, m[2]); err != nil {
		return err
	}
	if !alphaRe.MatchString(m[7]) {
		return fmt.Errorf("%% Error: invalid alpha %s", m[7])
	}
	if (m[3] == "lossless") != (m[5] != "") {
		return fmt.Errorf("%% Error: xoff and xon are required for, and only allowed with, type lossless")
	}
	g := pg(e.p, m[1])
	g.Pool, g.Type, g.Reserved, g.Alpha, g.Mapped = m[2], m[3], int64(atoi(m[4])), m[7], true
	g.Xoff, g.Xon = int64(atoi(m[5])), int64(atoi(m[6]))
	return nil
}

func checkPool(st *State, name string) error {
	if !st.Advanced {
		return fmt.Errorf("%% Error: advanced buffer management is disabled; run \"advanced buffer management force\" first")
	}
	if _, ok := st.APools[name]; !ok {
		return fmt.Errorf("%% Error: pool %s does not exist", name)
	}
	return nil
}

// pg is the port's ingress priority group numbered n.
func pg(p *Port, n string) *PG {
	return cli.Entry(p.IngressPGs, atoi(n), func() *PG { return &PG{} })
}

func allowedVLANs(e *penv, m []string) error {
	ids, err := cli.Ints(m[2], 1, 4094)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := e.st.VLANs[id]; !ok && m[1] != "remove " {
			return fmt.Errorf("%% VLAN %d does not exist", id)
		}
	}
	set := map[int]bool{}
	if m[1] != "" && e.p.Allowed == nil && e.p.Mode == "trunk" {
		// A trunk with no list allows every VLAN: adding changes nothing,
		// removing turns the implicit "all" into the explicit list of the
		// other VLANs (Emulab snmpit_mellanox.pm).
		if m[1] == "add " {
			return nil
		}
		for id := range e.st.VLANs {
			set[id] = true
		}
	}
	if m[1] != "" {
		for _, v := range e.p.Allowed {
			set[v] = true
		}
	}
	for _, v := range ids {
		set[v] = m[1] != "remove "
	}
	allowed := []int{}
	for _, v := range cli.SortedKeys(set) {
		if set[v] {
			allowed = append(allowed, v)
		}
	}
	e.p.Allowed = allowed
	return nil
}

func vlanID(st *State, s string) (int, error) {
	v, err := cli.Int(s, 1, 4094)
	if err != nil {
		return 0, err
	}
	if _, ok := st.VLANs[v]; !ok {
		return 0, fmt.Errorf("%% VLAN %d does not exist", v)
	}
	return v, nil
}

var globalRules = cli.Compile([]cli.Rule[*genv]{
	{Pattern: `(no )?cli default prefix-modes enable`, Do: func(e *genv, m []string) error { return nil }},
	{Pattern: `hostname (\S+)`, Do: func(e *genv, m []string) error { e.st.Hostname = m[1]; return nil }},
	{Pattern: `vlan ([\d,\-]+)`, Do: func(e *genv, m []string) error {
		ids, err := cli.Ints(m[1], 1, 4094)
		for _, id := range ids {
			if _, ok := e.st.VLANs[id]; !ok {
				e.st.VLANs[id] = ""
			}
		}
		if err == nil && len(ids) == 1 {
			e.sh.sub = "vlan " + m[1]
		}
		return err
	}},
	{Pattern: `vlan (\d+) name (.+)`, Do: func(e *genv, m []string) error { return nameVLAN(e.st, m[1], unquote(m[2])) }},
	{Pattern: `vlan (\d+) no name`, Do: func(e *genv, m []string) error { return nameVLAN(e.st, m[1], "") }},
	{Pattern: `no vlan ([\d,\-]+)`, Do: func(e *genv, m []string) error {
		ids, err := cli.Ints(m[1], 2, 4094)
		for _, id := range ids {
			delete(e.st.VLANs, id)
		}
		return err
	}},
	{Pattern: `(no )?dcb priority-flow-control enable(?: force)?`, Do: func(e *genv, m []string) error { e.st.PFC = m[1] == ""; return nil }},
	{Pattern: `(no )?dcb priority-flow-control priority (\d) enable`, Do: func(e *genv, m []string) error {
		if m[1] == "" {
			e.st.PFCPriorities[atoi(m[2])] = true
		} else {
			delete(e.st.PFCPriorities, atoi(m[2]))
		}
		return nil
	}},
	{Pattern: `traffic pool ([\w\-]{1,20}) type (lossless|lossy|lossy-mc)`, Do: func(e *genv, m []string) error { pool(e.st, m[1]).Type = m[2]; return nil }},
	{Pattern: `traffic pool ([\w\-]{1,20}) memory percent (\d+(?:\.\d+)?)`, Do: func(e *genv, m []string) error {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil || v > 100 {
			return fmt.Errorf("%% Error: memory percent must be 0-100")
		}
		pool(e.st, m[1]).MemoryPercent = fmt.Sprintf("%.2f", v)
		return nil
	}},
	{Pattern: `traffic pool ([\w\-]{1,20}) map switch-priority ([\d ]+)`, Do: func(e *genv, m []string) error {
		sps, err := cli.Ints(m[2], 0, 7)
		if err == nil {
			pool(e.st, m[1]).SPs = sps
		}
		return err
	}},
	{Pattern: `no traffic pool ([\w\-]{1,20}) map switch-priority(?: [\d ]+)?`, Do: func(e *genv, m []string) error { pool(e.st, m[1]).SPs = nil; return nil }},
	{Pattern: `no traffic pool ([\w\-]{1,20})`, Do: func(e *genv, m []string) error { delete(e.st.Pools, m[1]); return nil }},
	{Pattern: `(no )?advanced buffer management force`, Do: func(e *genv, m []string) error { e.st.Advanced = m[1] == ""; return nil }},
	{Pattern: `pool (\w+) size (\d+) type (dynamic|static)`, Do: func(e *genv, m []string) error {
		if !e.st.Advanced {
			return fmt.Errorf("%% Error: advanced buffer management is disabled; run \"advanced buffer management force\" first")
		}
		e.st.APools[m[1]] = &AdvPool{Size: int64(atoi(m[2])), Type: m[3]}
		return nil
	}},
	{Pattern: `no pool (\w+)`, Do: func(e *genv, m []string) error { delete(e.st.APools, m[1]); return nil }},
})

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

// portRange expands "1/1" or "1/1-1/4" (ranges as in att/netarbiter
// nvmf/RoCE_Deployment.md) into port names.
func portRange(spec string) ([]string, error) {
	a, b, isRange := strings.Cut(spec, "-")
	if !isRange {
		return []string{a}, nil
	}
	ma, mb := portRe.FindStringSubmatch(a), portRe.FindStringSubmatch(b)
	if ma == nil || mb == nil || ma[1] != mb[1] || atoi(ma[2]) > atoi(mb[2]) {
		return nil, fmt.Errorf("%% Error: bad interface range %s", spec)
	}
	var out []string
	for i := atoi(ma[2]); i <= atoi(mb[2]); i++ {
		out = append(out, fmt.Sprintf("%s/%d", ma[1], i))
	}
	return out, nil
}

var portRe = regexp.MustCompile(`^(\d+)/(\d+)$`)

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
