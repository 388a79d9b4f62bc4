package eos

import (
	"errors"
	"fmt"
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
	key  string // port name, VLAN list, profile name, queue number
	qos  *QoS   // the QoS a txq or qos line edits (port or profile)
	txq  *TxQueue
}

// env is what a grammar rule works on.
type env struct {
	st *State
	sh *shell
	fr *frame
}

// Grammar sources: the Arista EOS User Manual command pages and the
// arista.avd eos_cli_config_gen templates (qos, ethernet-interfaces,
// platform), as quoted in ../README.md.

// kinds are the EOS value kinds.
var kinds = map[string]string{
	"if":    `(?i:ethernet|et)\d+(?:/\d+){0,2}`,
	"ifnum": `\d+(?:/\d+){0,2}`,
	// otherif is an interface of another kind than an Ethernet port
	// (Management1, Loopback0, Vlan10, Port-Channel1), which the
	// simulator does not model.
	"otherif": `(?i:[a-df-z][a-z\-]*)\d+(?:[/.:]\d+)*`,
	"name":    `[\w.\-]{1,40}`,
	"vlans":   `\d[\d,\-]*`,
	// "100gfull", "100g-2", "100g", and the megabit forms of 1G and 10G
	// ("speed forced 10000full", "forced 1000full": public EOS
	// running-configs; AVD ethernet_interfaces[].speed).
	"speed": `\d+g(?:-\d|full)?|\d+full`,
	"unit":  `segments|bytes|kbytes|mbytes|milliseconds|microseconds`,
	"frac":  `1/(?:2|4|8|16|32|64|128)|1|2|4|8|16|32|64|3/4`,
	"secs":  `\d+(?:\.\d+)?`,
}

// portName canonicalises "et1/1" or "1/1" to "Ethernet1/1".
func portName(s string) string {
	s = strings.TrimLeft(s, "EeTtHhRrNn")
	return "Ethernet" + s
}

// queueKeyword refuses an egress-queue keyword the switch's ASIC family
// does not have (Device.txQueue), as EOS refuses an unknown token: at
// is the keyword's token number.
func (e *env) queueKeyword(kw string, at int) error {
	if want := e.sh.d.txQueue; want != "" && kw != want {
		return fmt.Errorf("%% Invalid input (at token %d: '%s')", at, kw)
	}
	return nil
}

// platformKeyword refuses a `platform trident` command on a Sand
// (Jericho) switch and a `platform sand` command on a Strata (Trident,
// Tomahawk) one, as EOS refuses a token its parser does not have: the
// platform commands exist per ASIC family (Arista AVD eos_designs
// platform settings: `platform trident forwarding-table partition` "for
// Trident3 based platforms i.e 7050X3, 7300X3, 720XP and 722XP", "not
// supported on 710P or 722XP platforms"; `lag_hardware_only`, `platform
// sand lag hardware-only`, for the 7280R/7500R only; AVD's schema keeps
// platform.trident and platform.sand apart). A model without hardware
// data takes both.
func (e *env) platformKeyword(word string) error {
	own := map[string]string{"uc-tx-queue": "trident", "tx-queue": "sand"}[e.sh.d.txQueue]
	if own != "" && word != own {
		return fmt.Errorf("%% Invalid input (at token 1: '%s')", word)
	}
	return nil
}

// errNotSimulated answers a known command the simulator does not model.
var errNotSimulated = errors.New("% This command is not simulated")

// port is the port of the current interface frame.
func (e *env) port() *Port { return e.st.Ports[e.fr.key] }

// enterPort enters the interface sub-mode of an existing port; a port
// the model does not have is invalid input (no public sample of the
// exact text).
func enterPort(e *env, name string) error {
	p, ok := e.st.Ports[name]
	if !ok {
		return fmt.Errorf("%% Invalid input (at token 1: '%s')", name)
	}
	e.sh.push(&frame{kind: kIf, key: name, qos: &p.QoS})
	return nil
}

var globalRules = []cli.Rule[*env]{
	{Syntax: "interface <if>", Do: func(e *env, m []string) error { return enterPort(e, portName(m[1])) }},
	{Syntax: "interface ethernet <ifnum>", Do: func(e *env, m []string) error { return enterPort(e, portName(m[1])) }},
	{Syntax: "{no|default} interface <if>", Do: func(e *env, m []string) error {
		name := portName(m[2])
		p, ok := e.st.Ports[name]
		if !ok {
			return fmt.Errorf("%% Invalid input (at token 2: '%s')", name)
		}
		e.st.Ports[name] = newPort(p.NativeG, p.Inactive)
		return nil
	}},
	// Interfaces other than Ethernet ports (Management1, Loopback0,
	// Vlan10, Port-Channel1, as real running-configs have them: napalm
	// test/eos/mocked_data/test_get_config/normal/show_running_config.text)
	// are not simulated, not invalid input (review rsim #7).
	{Syntax: "[no|default] interface <otherif>"},
	{Syntax: "vlan <vlans>", Do: enterVLAN},
	{Syntax: "no vlan <vlans>", Do: func(e *env, m []string) error {
		ids, err := cli.Ints(m[1], 1, 4094)
		for _, id := range ids {
			if id != 1 {
				delete(e.st.VLANs, id)
			}
		}
		return err
	}},
	{Syntax: "qos map dscp <list> to traffic-class <int>", Do: func(e *env, m []string) error {
		return setMap(e.st.DSCPToTC, m[1], 63, m[2], 7, func(d int) int { return defaultTC(d / 8) })
	}},
	{Syntax: "qos map cos <list> to traffic-class <int>", Do: func(e *env, m []string) error {
		return setMap(e.st.CoSToTC, m[1], 7, m[2], 7, defaultTC)
	}},
	// `qos map traffic-class <tcs> to cos <cos>` (AVD qos.map.traffic_class,
	// "qos map traffic-class 2 4 5 to cos 7" in the intended qos.cfg).
	{Syntax: "qos map traffic-class <list> to cos <int>", Do: func(e *env, m []string) error {
		return setMap(e.st.TCToCoS, m[1], 7, m[2], 7, defaultTC)
	}},
	{Syntax: "no qos map traffic-class <list> to cos [<int>]", Do: func(e *env, m []string) error { return delMap(e.st.TCToCoS, m[1], 7) }},
	{Syntax: "no qos map dscp <list> to traffic-class <int>", Do: func(e *env, m []string) error { return delMap(e.st.DSCPToTC, m[1], 63) }},
	{Syntax: "no qos map cos <list> to traffic-class <int>", Do: func(e *env, m []string) error { return delMap(e.st.CoSToTC, m[1], 7) }},
	{Syntax: "[no] priority-flow-control all off", Do: func(e *env, m []string) error { e.st.PFCAllOff = m[1] == ""; return nil }},
	{Syntax: "priority-flow-control pause watchdog default {timeout|recovery-time|polling-interval} <secs>", Do: func(e *env, m []string) error {
		*e.st.Watchdog.timer(m[1]) = m[2]
		return nil
	}},
	{Syntax: "no priority-flow-control pause watchdog default {timeout|recovery-time|polling-interval}", Do: func(e *env, m []string) error {
		*e.st.Watchdog.timer(m[1]) = ""
		return nil
	}},
	{Syntax: "priority-flow-control pause watchdog action {drop|no-drop}", Do: func(e *env, m []string) error { e.st.Watchdog.Action = m[1]; return nil }},
	{Syntax: "no priority-flow-control pause watchdog action", Do: func(e *env, m []string) error { e.st.Watchdog.Action = ""; return nil }},
	{Syntax: "qos profile <name>", Do: func(e *env, m []string) error {
		q := cli.Entry(e.st.Profiles, m[1], newQoS)
		e.sh.push(&frame{kind: kProfile, key: m[1], qos: q})
		return nil
	}},
	{Syntax: "no qos profile <name>", Do: func(e *env, m []string) error { delete(e.st.Profiles, m[1]); return nil }},
	// The MMU queue profile is a Trident/Tomahawk command (AVD
	// platform.trident.mmu); a Jericho switch refuses it at "trident".
	{Syntax: "platform trident mmu queue profile <name>", Do: func(e *env, m []string) error {
		if err := e.platformKeyword("trident"); err != nil {
			return err
		}
		cli.Entry(e.st.MMU, m[1], func() *MMU { return &MMU{Egress: map[int]*MMUQueue{}, PGs: map[int]*MMUQueue{}} })
		e.sh.push(&frame{kind: kMMU, key: m[1]})
		return nil
	}},
	{Syntax: "platform trident mmu queue profile <name> apply", Do: func(e *env, m []string) error {
		if err := e.platformKeyword("trident"); err != nil {
			return err
		}
		if _, ok := e.st.MMU[m[1]]; !ok {
			return fmt.Errorf("%% MMU queue profile %s does not exist", m[1])
		}
		e.st.MMUApply = m[1]
		return nil
	}},
	// Other platform commands of the switch's own family are known but
	// not simulated; the other family's are invalid input.
	{Syntax: "platform {trident|sand} <rest>", Do: func(e *env, m []string) error {
		if err := e.platformKeyword(m[1]); err != nil {
			return err
		}
		return errNotSimulated
	}},
	{Syntax: "hostname <word>", Do: func(e *env, m []string) error { e.st.Hostname = m[1]; return nil }},
	{Syntax: "spanning-tree <rest>"},
	{Syntax: "ip <rest>"},
	{Syntax: "router <rest>"},
	{Syntax: "username <rest>"},
	{Syntax: "management <rest>"},
	{Syntax: "service <rest>"},
}

func enterVLAN(e *env, m []string) error {
	ids, err := cli.Ints(m[1], 1, 4094)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := e.st.VLANs[id]; !ok {
			e.st.VLANs[id] = defaultVLANName(id)
		}
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

var vlanRules = []cli.Rule[*env]{
	{Syntax: "name <word>", Do: func(e *env, m []string) error { return nameVLANs(e, func(int) string { return m[1] }) }},
	{Syntax: "no name", Do: func(e *env, m []string) error { return nameVLANs(e, defaultVLANName) }},
}

func nameVLANs(e *env, name func(int) string) error {
	ids, err := cli.Ints(e.fr.key, 1, 4094)
	for _, id := range ids {
		e.st.VLANs[id] = name(id)
	}
	return err
}

var portRules = []cli.Rule[*env]{
	{Syntax: "description <rest>", Do: func(e *env, m []string) error { e.port().Description = m[1]; return nil }},
	{Syntax: "no description", Do: func(e *env, m []string) error { e.port().Description = ""; return nil }},
	{Syntax: "mtu <int>", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 68, 9214)
		if err == nil {
			e.port().MTU = v
		}
		return err
	}},
	{Syntax: "no mtu", Do: func(e *env, m []string) error { e.port().MTU = defaultMTU; return nil }},
	{Syntax: "speed [{forced|auto}] <speed>", Do: func(e *env, m []string) error {
		e.port().Speed = strings.TrimSpace(m[1] + " " + m[2])
		return nil
	}},
	{Syntax: "no speed", Do: func(e *env, m []string) error { e.port().Speed = ""; return nil }},
	{Syntax: "[no] shutdown", Do: func(e *env, m []string) error { e.port().Shutdown = m[1] == ""; return nil }},
	// Access is the default mode: the running-config does not print it.
	{Syntax: "switchport mode {access|trunk}", Do: func(e *env, m []string) error {
		e.port().Mode = map[string]string{"access": "", "trunk": "trunk"}[m[1]]
		return nil
	}},
	// `no switchport` makes the port routed and `switchport` makes it a
	// switchport again; neither changes the switchport mode or VLANs
	// (AVD ethernet-interfaces.j2 writes `switchport` or `no switchport`
	// apart from `switchport mode`). (no public sample of EOS keeping them)
	{Syntax: "no switchport", Do: func(e *env, m []string) error { e.port().Routed = true; return nil }},
	{Syntax: "switchport", Do: func(e *env, m []string) error { e.port().Routed = false; return nil }},
	// 802.3x pause (AVD ethernet-interfaces.j2 `flowcontrol receive`,
	// values on, off, desired); off is the default and is not printed.
	{Syntax: "flowcontrol {receive|send} {on|off|desired}", Do: func(e *env, m []string) error {
		*e.port().flow(m[1]) = map[string]string{"on": "on", "off": "", "desired": "desired"}[m[2]]
		return nil
	}},
	{Syntax: "{no|default} flowcontrol {receive|send}", Do: func(e *env, m []string) error { *e.port().flow(m[2]) = ""; return nil }},
	{Syntax: "no switchport mode", Do: func(e *env, m []string) error { e.port().Mode = ""; return nil }},
	{Syntax: "switchport access vlan <int>", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 1, 4094)
		if err == nil {
			e.port().AccessVLAN = v
		}
		return err
	}},
	{Syntax: "no switchport access vlan", Do: func(e *env, m []string) error { e.port().AccessVLAN = 0; return nil }},
	{Syntax: "switchport trunk allowed vlan [{add|remove}] <vlans>", Do: func(e *env, m []string) error {
		return trunkVLANs(e.port(), m[1], m[2])
	}},
	{Syntax: "switchport trunk allowed vlan none", Do: func(e *env, m []string) error { e.port().TrunkVLANs = []int{}; return nil }},
	{Syntax: "switchport trunk allowed vlan all", Do: func(e *env, m []string) error { e.port().TrunkVLANs = nil; return nil }},
	{Syntax: "no switchport trunk allowed vlan", Do: func(e *env, m []string) error { e.port().TrunkVLANs = nil; return nil }},
	{Syntax: "switchport trunk native vlan <int>", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 1, 4094)
		if err == nil {
			e.port().NativeVLAN = v
		}
		return err
	}},
	{Syntax: "no switchport trunk native vlan", Do: func(e *env, m []string) error { e.port().NativeVLAN = 0; return nil }},
	{Syntax: "service-profile <name>", Do: func(e *env, m []string) error {
		if _, ok := e.st.Profiles[m[1]]; !ok {
			return fmt.Errorf("%% QoS profile %s does not exist", m[1])
		}
		e.port().Profile = m[1]
		return nil
	}},
	{Syntax: "no service-profile", Do: func(e *env, m []string) error { e.port().Profile = ""; return nil }},
	{Syntax: "dcbx mode {ieee|cee}", Do: func(e *env, m []string) error { e.port().DCBX = m[1]; return nil }},
	{Syntax: "no dcbx mode", Do: func(e *env, m []string) error { e.port().DCBX = ""; return nil }},
	// Port-Channel membership (Arista EOS User Manual, Port Channels and
	// LACP, "channel-group"; AVD `channel-group ID mode MODE`), recorded
	// so a push can see it; the Port-Channel interface EOS creates with
	// it is not simulated.
	{Syntax: "channel-group <int> mode {active|passive|on}", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 1, 2000)
		if err == nil {
			e.port().ChannelGroup = fmt.Sprintf("%d mode %s", v, m[2])
		}
		return err
	}},
	{Syntax: "{no|default} channel-group", Do: func(e *env, m []string) error { e.port().ChannelGroup = ""; return nil }},
	{Syntax: "ip <rest>"},
	{Syntax: "lldp <rest>"},
}

var qosRules = []cli.Rule[*env]{
	{Syntax: "qos trust {dscp|cos}", Do: func(e *env, m []string) error { e.fr.qos.Trust = m[1]; return nil }},
	{Syntax: "no qos trust", Do: func(e *env, m []string) error { e.fr.qos.Trust = "untrusted"; return nil }},
	{Syntax: "default qos trust", Do: func(e *env, m []string) error { e.fr.qos.Trust = ""; return nil }},
	{Syntax: "[no] priority-flow-control on", Do: func(e *env, m []string) error { e.fr.qos.PFC = m[1] == ""; return nil }},
	// AVD ethernet-interfaces.j2 writes `no priority-flow-control` for
	// priority_flow_control.enabled false; it turns PFC off and, as
	// modelled here, leaves the priority lines (no public sample of
	// whether EOS clears them).
	{Syntax: "no priority-flow-control", Do: func(e *env, m []string) error { e.fr.qos.PFC = false; return nil }},
	{Syntax: "[no] priority-flow-control mode on", Do: func(e *env, m []string) error { e.fr.qos.PFC = m[1] == ""; return nil }},
	{Syntax: "priority-flow-control priority <int> {no-drop|drop}", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 0, 7)
		if err == nil {
			e.fr.qos.NoDrop[v] = m[2] == "no-drop"
		}
		return err
	}},
	{Syntax: "no priority-flow-control priority <int> [{no-drop|drop}]", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 0, 7)
		delete(e.fr.qos.NoDrop, v)
		return err
	}},
	{Syntax: "[no] priority-flow-control pause watchdog", Do: func(e *env, m []string) error { e.fr.qos.Watchdog = m[1] == ""; return nil }},
	// One egress-queue sub-mode per ASIC family (Device.txQueue): the
	// other family's keyword is invalid input at its first token.
	{Syntax: "{tx-queue|uc-tx-queue} <int>", Do: func(e *env, m []string) error {
		if err := e.queueKeyword(m[1], 1); err != nil {
			return err
		}
		q := cli.Entry(e.fr.qos.TxQueues, atoi(m[2]), func() *TxQueue { return &TxQueue{Keyword: m[1]} })
		e.sh.push(&frame{kind: kTxQ, key: m[2], qos: e.fr.qos, txq: q})
		return nil
	}},
	{Syntax: "no {tx-queue|uc-tx-queue} <int>", Do: func(e *env, m []string) error {
		if err := e.queueKeyword(m[1], 2); err != nil {
			return err
		}
		delete(e.fr.qos.TxQueues, atoi(m[2]))
		return nil
	}},
}

const ecnBase = "random-detect ecn minimum-threshold <int> <unit> maximum-threshold <int> <unit>"

var txqRules = []cli.Rule[*env]{
	{Syntax: "no priority", Do: func(e *env, m []string) error { e.fr.txq.WRR = true; return nil }},
	{Syntax: "priority strict", Do: func(e *env, m []string) error { e.fr.txq.WRR = false; return nil }},
	{Syntax: "bandwidth percent <int>", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 1, 100)
		if err == nil {
			e.fr.txq.BWPercent = v
		}
		return err
	}},
	{Syntax: "no bandwidth percent", Do: func(e *env, m []string) error { e.fr.txq.BWPercent = 0; return nil }},
	// The guaranteed bandwidth has one documented form, a share of the
	// port (AVD bandwidth_guaranteed_percent, "bandwidth guaranteed
	// percent 10" in its intended qos.cfg); a bare number is refused, as
	// no public source gives it a unit. The PFC watchdog monitors only PFC
	// queues that have a guarantee (Arista EOS User Manual, DCBX and Flow
	// Control, PFC watchdog, as quoted in a public RoCE-on-EOS write-up).
	{Syntax: "bandwidth guaranteed percent <int>", Do: func(e *env, m []string) error {
		v, err := cli.Int(m[1], 1, 100)
		if err == nil {
			e.fr.txq.Guaranteed = v
		}
		return err
	}},
	{Syntax: "{no|default} bandwidth guaranteed [percent]", Do: func(e *env, m []string) error { e.fr.txq.Guaranteed = 0; return nil }},
	{Syntax: ecnBase + " max-mark-probability <int> weight <int>", Do: func(e *env, m []string) error { return setECN(e, m[1:5], m[5], m[6]) }},
	{Syntax: ecnBase + " max-mark-probability <int>", Do: func(e *env, m []string) error { return setECN(e, m[1:5], m[5], "") }},
	{Syntax: ecnBase + " weight <int>", Do: func(e *env, m []string) error { return setECN(e, m[1:5], "", m[5]) }},
	{Syntax: ecnBase, Do: func(e *env, m []string) error { return setECN(e, m[1:5], "", "") }},
	{Syntax: "no random-detect ecn", Do: func(e *env, m []string) error { e.fr.txq.ECN = nil; return nil }},
	// The no-form fabricc writes for a class without ECN (a public
	// DCQCN tool for Arista 7060 switches disables marking with it).
	{Syntax: "{no|default} random-detect ecn minimum-threshold", Do: func(e *env, m []string) error { e.fr.txq.ECN = nil; return nil }},
	{Syntax: "[no] random-detect ecn count", Do: func(e *env, m []string) error { e.fr.txq.ECNCounter = m[1] == ""; return nil }},
}

// setECN stores `random-detect ecn` thresholds t (min, unit, max, unit)
// with the optional probability and weight.
func setECN(e *env, t []string, prob, weight string) error {
	if t[1] != t[3] {
		return fmt.Errorf("%% Minimum and maximum threshold units must match")
	}
	ecn := &ECN{Unit: t[1], Prob: 100, Weight: -1}
	var err error
	if ecn.Min, err = strconv.ParseInt(t[0], 10, 64); err != nil || ecn.Min < 1 {
		return fmt.Errorf("%% Invalid input")
	}
	if ecn.Max, err = strconv.ParseInt(t[2], 10, 64); err != nil || ecn.Max < ecn.Min || ecn.Max > 256000000 {
		return fmt.Errorf("%% Maximum threshold must not be less than the minimum threshold")
	}
	if prob != "" {
		if ecn.Prob, err = cli.Int(prob, 1, 100); err != nil {
			return err
		}
	}
	if weight != "" {
		if ecn.Weight, err = cli.Int(weight, 0, 15); err != nil {
			return err
		}
	}
	e.fr.txq.ECN = ecn
	return nil
}

var mmuRules = []cli.Rule[*env]{
	{Syntax: "ingress threshold <frac>", Do: func(e *env, m []string) error { e.mmu().IngressThreshold = m[1]; return nil }},
	{Syntax: "ingress priority-group <int> reserved [bytes] <int>", Do: func(e *env, m []string) error {
		q := mmuEntry(e.mmu().PGs, m[1])
		q.Reserved, q.HasReserved = int64(atoi(m[3])), true
		return nil
	}},
	{Syntax: "ingress priority-group <int> threshold <frac>", Do: func(e *env, m []string) error {
		mmuEntry(e.mmu().PGs, m[1]).Threshold = m[2]
		return nil
	}},
	{Syntax: "ingress headroom [bytes] <int>", Do: func(e *env, m []string) error { e.mmu().IngressHeadroom = int64(atoi(m[2])); return nil }},
	{Syntax: "egress unicast queue <int> reserved [bytes] <int>", Do: func(e *env, m []string) error {
		q := mmuEntry(e.mmu().Egress, m[1])
		q.Reserved, q.HasReserved = int64(atoi(m[3])), true
		return nil
	}},
	{Syntax: "egress unicast queue <int> threshold <frac>", Do: func(e *env, m []string) error {
		mmuEntry(e.mmu().Egress, m[1]).Threshold = m[2]
		return nil
	}},
	// No-forms return a setting to EOS's default: the running-config
	// then leaves its line out.
	{Syntax: "{no|default} ingress headroom", Do: func(e *env, m []string) error { e.mmu().IngressHeadroom = 0; return nil }},
	{Syntax: "{no|default} ingress priority-group <int> {reserved|threshold}", Do: func(e *env, m []string) error {
		return clearMMU(e.mmu().PGs, m[2], m[3])
	}},
	{Syntax: "{no|default} egress unicast queue <int> {reserved|threshold}", Do: func(e *env, m []string) error {
		return clearMMU(e.mmu().Egress, m[2], m[3])
	}},
}

// clearMMU returns the reserved size or the threshold of group or queue
// n (0-7, AVD schema) to EOS's default, dropping an entry left empty.
func clearMMU(queues map[int]*MMUQueue, n, setting string) error {
	i, err := cli.Int(n, 0, 7)
	if err != nil {
		return err
	}
	q, ok := queues[i]
	if !ok {
		return nil
	}
	if setting == "reserved" {
		q.Reserved, q.HasReserved = 0, false
	} else {
		q.Threshold = ""
	}
	if !q.HasReserved && q.Threshold == "" {
		delete(queues, i)
	}
	return nil
}

func (e *env) mmu() *MMU { return e.st.MMU[e.fr.key] }

// flow is the port's 802.3x pause setting of one direction.
func (p *Port) flow(dir string) *string {
	if dir == "send" {
		return &p.FlowSend
	}
	return &p.FlowReceive
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

// setMap stores a `qos map` entry: the keys of list (0-hi) map to the
// value val (0-hiVal). An entry equal to EOS's default map is dropped,
// so the running-config leaves it out as EOS does.
func setMap(m map[int]int, list string, hi int, val string, hiVal int, def func(int) int) error {
	keys, err := cli.Ints(list, 0, hi)
	if err != nil {
		return err
	}
	v, err := cli.Int(val, 0, hiVal)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if v != def(k) {
			m[k] = v
		} else {
			delete(m, k)
		}
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
	p.TrunkVLANs = []int{}
	for _, v := range cli.SortedKeys(set) {
		if set[v] {
			p.TrunkVLANs = append(p.TrunkVLANs, v)
		}
	}
	return nil
}

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

func join[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// grammar is the command set of each configuration frame; a line a
// frame does not know falls back to the frames around it, which is how a
// pasted block works.
var grammar = map[string]*cli.Grammar[*env]{
	kGlobal:  cli.Compile(globalRules, kinds),
	kIf:      cli.Compile(join(portRules, qosRules), kinds),
	kVLAN:    cli.Compile(vlanRules, kinds),
	kProfile: cli.Compile(qosRules, kinds),
	kTxQ:     cli.Compile(txqRules, kinds),
	kMMU:     cli.Compile(mmuRules, kinds),
}
