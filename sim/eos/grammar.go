package eos

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// Frame kinds: the configuration sub-modes.
const (
	kGlobal  = "global"
	kIf      = "if"
	kVLAN    = "vlan"
	kProfile = "qos-profile"
	kTxQ     = "txq"
	kMMU     = "mmu"
)

// frame is one configuration mode on the shell's mode stack.
type frame struct {
	kind string
	key  string // port name, VLAN id, profile name, queue number
	qos  *QoS   // the QoS a txq or qos line edits (port or profile)
	txq  *TxQueue
}

// env is what a grammar rule works on.
type env struct {
	st *State
	sh *shell
	fr *frame
}

type rules = cli.Rules[*env]

var ifName = `(?i:ethernet|et)\s*(\d+(?:/\d+){0,2})`

// portName canonicalises "et1/1" to "Ethernet1/1".
func portName(num string) string { return "Ethernet" + num }

var grammar = map[string]rules{
	kGlobal: cli.Compile([]cli.Rule[*env]{
		{Pattern: `interface ` + ifName, Do: func(e *env, m []string) error {
			name := portName(m[1])
			p := e.st.port(name)
			e.sh.push(&frame{kind: kIf, key: name, qos: &p.QoS})
			return nil
		}},
		{Pattern: `no interface ` + ifName, Do: func(e *env, m []string) error {
			e.st.Ports[portName(m[1])] = newPort()
			return nil
		}},
		{Pattern: `vlan (\S+)`, Do: enterVLAN},
		{Pattern: `no vlan (\S+)`, Do: func(e *env, m []string) error {
			ids, err := cli.Ints(m[1], 1, 4094)
			for _, id := range ids {
				delete(e.st.VLANs, id)
			}
			return err
		}},
		{Pattern: `qos map dscp ([\d ]+) to traffic-class (\d)`, Do: func(e *env, m []string) error {
			return setMap(e.st.DSCPToTC, m[1], 63, m[2])
		}},
		{Pattern: `qos map cos ([\d ]+) to traffic-class (\d)`, Do: func(e *env, m []string) error {
			return setMap(e.st.CoSToTC, m[1], 7, m[2])
		}},
		{Pattern: `no qos map dscp ([\d ]+) to traffic-class (\d)`, Do: func(e *env, m []string) error {
			return delMap(e.st.DSCPToTC, m[1], 63)
		}},
		{Pattern: `no qos map cos ([\d ]+) to traffic-class (\d)`, Do: func(e *env, m []string) error {
			return delMap(e.st.CoSToTC, m[1], 7)
		}},
		{Pattern: `(no )?priority-flow-control all off`, Do: func(e *env, m []string) error {
			e.st.PFCAllOff = m[1] == ""
			return nil
		}},
		{Pattern: `priority-flow-control pause watchdog default (timeout|recovery-time|polling-interval) (\d+(?:\.\d+)?)`, Do: func(e *env, m []string) error {
			*e.st.Watchdog.timer(m[1]) = m[2]
			return nil
		}},
		{Pattern: `no priority-flow-control pause watchdog default (timeout|recovery-time|polling-interval)`, Do: func(e *env, m []string) error {
			*e.st.Watchdog.timer(m[1]) = ""
			return nil
		}},
		{Pattern: `priority-flow-control pause watchdog action (drop|no-drop)`, Do: func(e *env, m []string) error {
			e.st.Watchdog.Action = m[1]
			return nil
		}},
		{Pattern: `no priority-flow-control pause watchdog action`, Do: func(e *env, m []string) error {
			e.st.Watchdog.Action = ""
			return nil
		}},
		{Pattern: `qos profile ([\w.\-]{1,40})`, Do: func(e *env, m []string) error {
			q := cli.Entry(e.st.Profiles, m[1], newQoS)
			e.sh.push(&frame{kind: kProfile, key: m[1], qos: q})
			return nil
		}},
		{Pattern: `no qos profile ([\w.\-]{1,40})`, Do: func(e *env, m []string) error {
			delete(e.st.Profiles, m[1])
			return nil
		}},
		{Pattern: `platform trident mmu queue profile ([\w.\-]{1,40})`, Do: func(e *env, m []string) error {
			cli.Entry(e.st.MMU, m[1], func() *MMU { return &MMU{Egress: map[int]*MMUQueue{}, PGs: map[int]*MMUQueue{}} })
			e.sh.push(&frame{kind: kMMU, key: m[1]})
			return nil
		}},
		{Pattern: `platform trident mmu queue profile ([\w.\-]{1,40}) apply`, Do: func(e *env, m []string) error {
			if _, ok := e.st.MMU[m[1]]; !ok {
				return fmt.Errorf("%% MMU queue profile %s does not exist", m[1])
			}
			e.st.MMUApply = m[1]
			return nil
		}},
		{Pattern: `hostname (\S+)`, Do: func(e *env, m []string) error {
			e.st.Hostname = m[1]
			return nil
		}},
	}),
	kVLAN: cli.Compile([]cli.Rule[*env]{
		{Pattern: `name (\S{1,32})`, Do: func(e *env, m []string) error {
			e.st.VLANs[atoi(e.fr.key)] = m[1]
			return nil
		}},
		{Pattern: `no name`, Do: func(e *env, m []string) error {
			e.st.VLANs[atoi(e.fr.key)] = defaultVLANName(atoi(e.fr.key))
			return nil
		}},
	}),
	kIf:      cli.Compile(append(portRules(), qosRules()...)),
	kProfile: cli.Compile(qosRules()),
	kTxQ:     cli.Compile(txqRules()),
	kMMU:     cli.Compile(mmuRules()),
}

func enterVLAN(e *env, m []string) error {
	id, err := cli.Int(m[1], 1, 4094)
	if err != nil {
		return err
	}
	if _, ok := e.st.VLANs[id]; !ok {
		e.st.VLANs[id] = defaultVLANName(id)
	}
	e.sh.push(&frame{kind: kVLAN, key: m[1]})
	return nil
}

func defaultVLANName(id int) string {
	if id == 1 {
		return "default"
	}
	return fmt.Sprintf("VLAN%04d", id)
}

func portRules() []cli.Rule[*env] {
	p := func(e *env) *Port { return e.st.port(e.fr.key) }
	return []cli.Rule[*env]{
		{Pattern: `description (.+)`, Do: func(e *env, m []string) error { p(e).Description = m[1]; return nil }},
		{Pattern: `no description`, Do: func(e *env, m []string) error { p(e).Description = ""; return nil }},
		{Pattern: `mtu (\d+)`, Do: func(e *env, m []string) error {
			v, err := cli.Int(m[1], 68, 9216) // Arista AVD examples show 9214 (unverified); the EOS target emits 9216
			if err == nil {
				p(e).MTU = v
			}
			return err
		}},
		{Pattern: `no mtu`, Do: func(e *env, m []string) error { p(e).MTU = defaultMTU; return nil }},
		{Pattern: `speed ((?:forced |auto )?\d+g(?:-\d|full)?)`, Do: func(e *env, m []string) error { p(e).Speed = m[1]; return nil }},
		{Pattern: `no speed`, Do: func(e *env, m []string) error { p(e).Speed = ""; return nil }},
		{Pattern: `(no )?shutdown`, Do: func(e *env, m []string) error { p(e).Shutdown = m[1] == ""; return nil }},
		{Pattern: `switchport mode (access|trunk)`, Do: func(e *env, m []string) error { p(e).Mode = m[1]; return nil }},
		{Pattern: `no switchport`, Do: func(e *env, m []string) error { p(e).Mode = "routed"; return nil }},
		{Pattern: `switchport`, Do: func(e *env, m []string) error { p(e).Mode = ""; return nil }},
		{Pattern: `no switchport mode`, Do: func(e *env, m []string) error { p(e).Mode = ""; return nil }},
		{Pattern: `switchport access vlan (\d+)`, Do: func(e *env, m []string) error {
			v, err := cli.Int(m[1], 1, 4094)
			if err == nil {
				p(e).AccessVLAN = v
			}
			return err
		}},
		{Pattern: `no switchport access vlan`, Do: func(e *env, m []string) error { p(e).AccessVLAN = 0; return nil }},
		{Pattern: `switchport trunk allowed vlan (add |remove )?([\d,\-]+)`, Do: func(e *env, m []string) error {
			return trunkVLANs(p(e), strings.TrimSpace(m[1]), m[2])
		}},
		{Pattern: `switchport trunk allowed vlan none`, Do: func(e *env, m []string) error { p(e).TrunkVLANs = []int{}; return nil }},
		{Pattern: `switchport trunk allowed vlan all`, Do: func(e *env, m []string) error { p(e).TrunkVLANs = nil; return nil }},
		{Pattern: `no switchport trunk allowed vlan`, Do: func(e *env, m []string) error { p(e).TrunkVLANs = nil; return nil }},
		{Pattern: `switchport trunk native vlan (\d+)`, Do: func(e *env, m []string) error {
			v, err := cli.Int(m[1], 1, 4094)
			if err == nil {
				p(e).NativeVLAN = v
			}
			return err
		}},
		{Pattern: `no switchport trunk native vlan`, Do: func(e *env, m []string) error { p(e).NativeVLAN = 0; return nil }},
		{Pattern: `service-profile ([\w.\-]{1,40})`, Do: func(e *env, m []string) error {
			if _, ok := e.st.Profiles[m[1]]; !ok {
				return fmt.Errorf("%% QoS profile %s does not exist", m[1])
			}
			p(e).Profile = m[1]
			return nil
		}},
		{Pattern: `no service-profile`, Do: func(e *env, m []string) error { p(e).Profile = ""; return nil }},
		{Pattern: `dcbx mode (ieee|cee)`, Do: func(e *env, m []string) error { p(e).DCBX = m[1]; return nil }},
		{Pattern: `no dcbx mode`, Do: func(e *env, m []string) error { p(e).DCBX = ""; return nil }},
	}
}

func qosRules() []cli.Rule[*env] {
	return []cli.Rule[*env]{
		{Pattern: `qos trust (dscp|cos)`, Do: func(e *env, m []string) error { e.fr.qos.Trust = m[1]; return nil }},
		{Pattern: `no qos trust`, Do: func(e *env, m []string) error { e.fr.qos.Trust = "untrusted"; return nil }},
		{Pattern: `default qos trust`, Do: func(e *env, m []string) error { e.fr.qos.Trust = ""; return nil }},
		{Pattern: `(no )?priority-flow-control (?:mode )?on`, Do: func(e *env, m []string) error {
			e.fr.qos.PFC = m[1] == ""
			return nil
		}},
		{Pattern: `priority-flow-control priority (\d) (no-drop|drop)`, Do: func(e *env, m []string) error {
			v, err := cli.Int(m[1], 0, 7)
			if err == nil {
				e.fr.qos.NoDrop[v] = m[2] == "no-drop"
			}
			return err
		}},
		{Pattern: `no priority-flow-control priority (\d)(?: no-drop| drop)?`, Do: func(e *env, m []string) error {
			v, err := cli.Int(m[1], 0, 7)
			delete(e.fr.qos.NoDrop, v)
			return err
		}},
		{Pattern: `(no )?priority-flow-control pause watchdog`, Do: func(e *env, m []string) error {
			e.fr.qos.Watchdog = m[1] == ""
			return nil
		}},
		{Pattern: `(tx-queue|uc-tx-queue) (\d)`, Do: func(e *env, m []string) error {
			q := cli.Entry(e.fr.qos.TxQueues, atoi(m[2]), func() *TxQueue { return &TxQueue{Keyword: m[1]} })
			e.sh.push(&frame{kind: kTxQ, key: m[2], qos: e.fr.qos, txq: q})
			return nil
		}},
		{Pattern: `no (?:tx-queue|uc-tx-queue) (\d)`, Do: func(e *env, m []string) error {
			delete(e.fr.qos.TxQueues, atoi(m[1]))
			return nil
		}},
	}
}

var ecnRe = `random-detect ecn minimum-threshold (\d+) (segments|bytes|kbytes|mbytes) maximum-threshold (\d+) (segments|bytes|kbytes|mbytes)(?: max-mark-probability (\d+))?(?: weight (\d+))?`

func txqRules() []cli.Rule[*env] {
	return []cli.Rule[*env]{
		{Pattern: `no priority`, Do: func(e *env, m []string) error { e.fr.txq.WRR = true; return nil }},
		{Pattern: `priority strict`, Do: func(e *env, m []string) error { e.fr.txq.WRR = false; return nil }},
		{Pattern: `bandwidth (?:guaranteed )?percent (\d+)`, Do: func(e *env, m []string) error {
			v, err := cli.Int(m[1], 1, 100)
			if err == nil {
				e.fr.txq.BWPercent = v
			}
			return err
		}},
		{Pattern: `no bandwidth (?:guaranteed )?percent`, Do: func(e *env, m []string) error { e.fr.txq.BWPercent = 0; return nil }},
		{Pattern: ecnRe, Do: setECN},
		{Pattern: `no random-detect ecn`, Do: func(e *env, m []string) error { e.fr.txq.ECN = nil; return nil }},
		{Pattern: `(no )?random-detect ecn count`, Do: func(e *env, m []string) error { e.fr.txq.ECNCounter = m[1] == ""; return nil }},
	}
}

func setECN(e *env, m []string) error {
	if m[2] != m[4] {
		return fmt.Errorf("%% Minimum and maximum threshold units must match")
	}
	ecn := &ECN{Unit: m[2], Prob: 100, Weight: -1}
	var err error
	if ecn.Min, err = strconv.ParseInt(m[1], 10, 64); err != nil || ecn.Min < 1 {
		return fmt.Errorf("%% Invalid input")
	}
	if ecn.Max, err = strconv.ParseInt(m[3], 10, 64); err != nil || ecn.Max < ecn.Min || ecn.Max > 256000000 {
		return fmt.Errorf("%% Maximum threshold must not be less than the minimum threshold")
	}
	if m[5] != "" {
		if ecn.Prob, err = cli.Int(m[5], 1, 100); err != nil {
			return err
		}
	}
	if m[6] != "" {
		if ecn.Weight, err = cli.Int(m[6], 0, 15); err != nil {
			return err
		}
	}
	e.fr.txq.ECN = ecn
	return nil
}

var fracRe = regexp.MustCompile(`^(?:1/(?:2|4|8|16|32|64|128)|1|2|4|8|16|32|64|3/4)$`)

func mmuRules() []cli.Rule[*env] {
	mmu := func(e *env) *MMU { return e.st.MMU[e.fr.key] }
	return []cli.Rule[*env]{
		{Pattern: `ingress threshold (\S+)`, Do: func(e *env, m []string) error {
			if !fracRe.MatchString(m[1]) {
				return fmt.Errorf("%% Invalid input")
			}
			mmu(e).IngressThreshold = m[1]
			return nil
		}},
		{Pattern: `ingress priority-group (\d) reserved (?:bytes )?(\d+)`, Do: func(e *env, m []string) error {
			v, err := strconv.ParseInt(m[2], 10, 64)
			if err == nil {
				mmuEntry(mmu(e).PGs, m[1]).Reserved = v
			}
			return err
		}},
		{Pattern: `ingress priority-group (\d) threshold (\S+)`, Do: func(e *env, m []string) error {
			if !fracRe.MatchString(m[2]) {
				return fmt.Errorf("%% Invalid input")
			}
			mmuEntry(mmu(e).PGs, m[1]).Threshold = m[2]
			return nil
		}},
		{Pattern: `ingress headroom (?:bytes )?(\d+)`, Do: func(e *env, m []string) error {
			v, err := strconv.ParseInt(m[1], 10, 64)
			if err == nil {
				mmu(e).IngressHeadroom = v
			}
			return err
		}},
		{Pattern: `egress unicast queue (\d) reserved (?:bytes )?(\d+)`, Do: func(e *env, m []string) error {
			v, err := strconv.ParseInt(m[2], 10, 64)
			if err == nil {
				mmuEntry(mmu(e).Egress, m[1]).Reserved = v
			}
			return err
		}},
		{Pattern: `egress unicast queue (\d) threshold (\S+)`, Do: func(e *env, m []string) error {
			if !fracRe.MatchString(m[2]) {
				return fmt.Errorf("%% Invalid input")
			}
			mmuEntry(mmu(e).Egress, m[1]).Threshold = m[2]
			return nil
		}},
	}
}

// timer is the field of the `priority-flow-control pause watchdog default`
// keyword name (timeout, recovery-time or polling-interval).
func (w *Watchdog) timer(name string) *string {
	switch name {
	case "timeout":
		return &w.Timeout
	case "recovery-time":
		return &w.Recovery
	}
	return &w.Polling
}

// mmuEntry is the MMU priority group or egress queue numbered n.
func mmuEntry(queues map[int]*MMUQueue, n string) *MMUQueue {
	return cli.Entry(queues, atoi(n), func() *MMUQueue { return &MMUQueue{} })
}

func setMap(m map[int]int, list string, hi int, tc string) error {
	keys, err := cli.Ints(list, 0, hi)
	if err != nil {
		return err
	}
	for _, k := range keys {
		m[k] = atoi(tc)
	}
	return nil
}

func delMap(m map[int]int, list string, hi int) error {
	keys, err := cli.Ints(list, 0, hi)
	for _, k := range keys {
		delete(m, k)
	}
	return err
}

func trunkVLANs(p *Port, op, list string) error {
	ids, err := cli.Ints(list, 1, 4094)
	if err != nil {
		return err
	}
	set := map[int]bool{}
	if op != "" {
		for _, v := range p.TrunkVLANs {
			set[v] = true
		}
	}
	for _, v := range ids {
		set[v] = op != "remove"
	}
	p.TrunkVLANs = nil
	for _, v := range cli.SortedKeys(set) {
		if set[v] {
			p.TrunkVLANs = append(p.TrunkVLANs, v)
		}
	}
	if p.TrunkVLANs == nil {
		p.TrunkVLANs = []int{}
	}
	return nil
}

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
