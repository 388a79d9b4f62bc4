package verify

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/eos"
)

// block is one line of an indented EOS configuration with its children.
type block struct {
	text     string
	children []*block
}

// parseBlocks turns EOS `show running-config` text (block form, children
// indented under their parent, "!" separators) into a tree.
func parseBlocks(text string) ([]*block, error) {
	type frame struct {
		indent int
		b      *block
	}
	root := &block{}
	stack := []frame{{-1, root}}
	sc := runningScanner(text)
	line := 0
	for sc.Scan() {
		line++
		raw := strings.TrimRight(sc.Text(), " \r")
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "!") {
			continue
		}
		ind := len(raw) - len(strings.TrimLeft(raw, " "))
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		b := &block{text: t}
		parent := stack[len(stack)-1].b
		parent.children = append(parent.children, b)
		stack = append(stack, frame{ind, b})
	}
	return root.children, scanError(sc, line)
}

// ParseEOS reads EOS `show running-config` into a State; an error when
// the text cannot be read to its end (scanError).
func ParseEOS(running string) (*State, error) {
	blocks, err := parseBlocks(running)
	if err != nil {
		return nil, err
	}
	return eosState(blocks), nil
}

// eosState interprets an EOS configuration tree.
func eosState(top []*block) *State {
	s := NewState()
	s.Pools = nil // buffers are an MMU profile, not pools with shares
	profiles := map[string]*block{}
	for _, b := range top {
		if name, ok := strings.CutPrefix(b.text, "qos profile "); ok {
			profiles[name] = b
		}
	}
	dscp := eosDSCPMap(top)
	tcCoS := eosTCCoSMap(top)
	mmu := eosMMU(top)
	s.MMUProfile = eosProfileSettings(top)
	for _, b := range top {
		f := strings.Fields(b.text)
		switch {
		case len(f) == 2 && f[0] == "vlan":
			eosVLAN(s, f[1], b)
		case len(f) == 2 && f[0] == "interface":
			p := s.Port(f[1])
			p.Mode = model.ModeAccess
			pfcOn := false
			for _, c := range b.children {
				// A qos profile's lines apply where `service-profile NAME`
				// attaches it (Arista AVD eos_cli_config_gen, qos.cfg).
				if name, ok := strings.CutPrefix(c.text, "service-profile "); ok && profiles[name] != nil {
					eosQoS(p, profiles[name].children)
					pfcOn = eosPFCEnable(profiles[name].children, pfcOn)
				}
			}
			eosQoS(p, b.children)
			eosPFCOff(p, eosPFCEnable(b.children, pfcOn))
			p.DCBX = eosDCBX(b.children)
			p.DSCPToTC = dscp
			p.TCToCoS = tcCoS
			p.SwitchWide = eosSwitchWide
			p.MMU = mmu
		}
	}
	return s
}

// eosPFCEnable is the port's PFC enable after lines, on when they do not
// say (on is what came before them: a qos profile's, then the
// interface's own). `priority-flow-control on` (`priority-flow-control
// mode on` in earlier EOS releases) is the port's PFC switch, apart from
// the `priority-flow-control priority N no-drop` lines that only choose
// the priorities (Arista EOS User Manual, Quality of Service, "Priority
// Flow Control"; Arista AVD eos_cli_config_gen ethernet-interfaces.j2 and
// qos-profiles.j2 render priority_flow_control.enabled as its own line);
// PFC is off by default, and `no priority-flow-control` switches it off.
func eosPFCEnable(lines []*block, on bool) bool {
	for _, c := range lines {
		switch c.text {
		case "priority-flow-control on", "priority-flow-control mode on":
			on = true
		case "no priority-flow-control", "no priority-flow-control on", "no priority-flow-control mode on":
			on = false
		}
	}
	return on
}

// eosPFCOff clears the no-drop priorities of a port whose PFC is off
// (!on): the port sends and honours no PFC frame whatever they say, so
// its lossless class drops under congestion. The note keeps what the
// lines say, so a difference names the missing enable.
func eosPFCOff(p *Port, on bool) {
	if on || len(p.PFC) == 0 {
		return
	}
	if p.Notes == nil {
		p.Notes = map[string]string{}
	}
	p.Notes["PFC"] = fmt.Sprintf("%s no-drop, but no `priority-flow-control on`: PFC is off on the port", priorityText(p.PFC))
	p.PFC = nil
}

// eosDCBX is an interface's `dcbx mode ieee|cee`, "off" without one
// ("DCBX is off by default": Arista EOS User Manual, DCBX and Flow
// Control).
func eosDCBX(lines []*block) string {
	for _, c := range lines {
		if mode, ok := strings.CutPrefix(c.text, "dcbx mode "); ok {
			return mode
		}
	}
	return "off"
}

// eosMMU reads the MMU queue profile applied to the platform: the
// `platform trident mmu queue profile NAME` block that a `platform trident
// mmu queue profile NAME apply` line names (Arista AVD platform-trident.j2
// and platform-apply.j2), its `ingress headroom [bytes] N` (bytes unless
// "cells" is given, AVD's platform.trident.mmu.queue_profiles; cells are
// not read) and `ingress priority-group N threshold A` lines. nil when no
// profile is applied. Every port shares it; Compare only reads it. No
// public running-config of an EOS switch with a queue profile was found
// (GitHub search for "platform trident mmu queue profile" and "ingress
// headroom" finds only AVD's templates and the configs AVD renders);
// the block layout is parsed by indentation, so AVD's four-space
// indent and EOS's usual three read the same.
func eosMMU(top []*block) *MMU {
	prof := appliedProfile(top)
	if prof == nil {
		return nil
	}
	m := &MMU{Thresholds: map[int]string{}}
	for _, c := range prof.children {
		f := strings.Fields(c.text)
		switch {
		case len(f) == 4 && f[0] == "ingress" && f[1] == "headroom" && f[2] == "bytes":
			m.IngressHeadroom = Bytes(atoi(f[3]))
		case len(f) == 3 && f[0] == "ingress" && f[1] == "headroom":
			m.IngressHeadroom = Bytes(atoi(f[2]))
		case len(f) == 5 && f[0] == "ingress" && f[1] == "priority-group" && f[3] == "threshold":
			if n, err := strconv.Atoi(f[2]); err == nil {
				m.Thresholds[n] = f[4]
			}
		}
	}
	return m
}

// eosProfileSettings reads the settings of the applied MMU queue profile
// (eosMMU) by setting (targets/eos SplitProfileLine), its priority-group
// and unicast-queue lines only; an empty map when no profile is applied.
func eosProfileSettings(top []*block) map[string]string {
	all := map[string]string{}
	if prof := appliedProfile(top); prof != nil {
		for _, c := range prof.children {
			if k, v, ok := eos.SplitProfileLine(c.text); ok {
				all[k] = v
			}
		}
	}
	return groupAndQueueSettings(all)
}

// appliedProfile is the `platform trident mmu queue profile NAME` block
// that a `platform trident mmu queue profile NAME apply` line names; nil
// when none is applied.
func appliedProfile(top []*block) *block {
	const prefix = "platform trident mmu queue profile "
	profiles := map[string]*block{}
	applied := ""
	for _, b := range top {
		name, ok := strings.CutPrefix(b.text, prefix)
		if !ok {
			continue
		}
		if n, ok := strings.CutSuffix(name, " apply"); ok {
			applied = n
		} else {
			profiles[name] = b
		}
	}
	return profiles[applied]
}

// eosDSCPMap reads the global `qos map dscp <values> to traffic-class
// <tc>` lines. EOS prints only the entries that differ from its default
// map, so every DSCP value without a line gets the default:
// eosDefaultDSCPTC.
func eosDSCPMap(top []*block) map[int]int {
	return eosQoSMap(top, "dscp", "traffic-class", 64, eosDefaultDSCPTC)
}

// eosQoSMap reads the global `qos map <from> <keys> to <to> <value>`
// lines into a map of every key 0 to n-1, a key without a line at EOS's
// default def(key).
func eosQoSMap(top []*block, from, to string, n int, def func(int) int) map[int]int {
	m := map[int]int{}
	for k := 0; k < n; k++ {
		m[k] = def(k)
	}
	for _, b := range top {
		f := strings.Fields(b.text)
		if len(f) < 6 || f[0] != "qos" || f[1] != "map" || f[2] != from || f[len(f)-2] != to || f[len(f)-3] != "to" {
			continue
		}
		v := atoi(f[len(f)-1])
		for _, w := range f[3 : len(f)-3] {
			if k := atoi(w); k >= 0 && k < n {
				m[k] = v
			}
		}
	}
	return m
}

// eosDefaultDSCPTC is EOS's default DSCP -> traffic class map: DSCP/8,
// except that DSCP 0-7 land in TC1 and 8-15 in TC0, following the default
// CoS map (CoS 0 -> TC1, CoS 1 -> TC0). This is an expectation (the Arista
// AI Network Fabric Deployment Guide only says CS3 maps to traffic-class
// 3), not yet confirmed on a switch; it only matters for entries EOS leaves out of its running config.
func eosDefaultDSCPTC(dscp int) int {
	switch tc := dscp / 8; tc {
	case 0:
		return 1
	case 1:
		return 0
	default:
		return tc
	}
}

// eosTCCoSMap reads the global `qos map traffic-class <tcs> to cos <cos>`
// lines (Arista AVD qos.map.traffic_class; intended qos.cfg "qos map
// traffic-class 2 4 5 to cos 7"), every traffic class without a line at
// EOS's default: eosDefaultTCCoS. The running configuration is read, not
// `show qos maps`, whose structured form has no public sample; the map is
// configuration, so the two say the same.
func eosTCCoSMap(top []*block) map[int]int {
	return eosQoSMap(top, "traffic-class", "cos", 8, eosDefaultTCCoS)
}

// eosDefaultTCCoS is EOS's default traffic class -> CoS map, taken as the
// inverse of its default CoS map (CoS 0 -> TC1, CoS 1 -> TC0, else
// identity; see eosDefaultDSCPTC): TC0 -> CoS 1, TC1 -> CoS 0, else
// identity. Not confirmed on a switch; targets/eos writes every traffic
// class, so it only matters on a switch where the lines are missing.
func eosDefaultTCCoS(tc int) int { return eosDefaultDSCPTC(tc * 8) }

func eosVLAN(s *State, ids string, b *block) {
	name := ""
	for _, c := range b.children {
		if n, ok := strings.CutPrefix(c.text, "name "); ok {
			name = n
		}
	}
	for _, id := range expandList(ids) {
		s.VLANs[id] = name
	}
}

// eosQoS applies interface or qos-profile lines to p.
func eosQoS(p *Port, lines []*block) {
	for _, c := range lines {
		f := strings.Fields(c.text)
		switch {
		case len(f) == 2 && f[0] == "mtu":
			p.MTU = atoi(f[1])
		// description, shutdown, flowcontrol and speed as EOS prints them
		// in an interface block (Arista AVD ethernet-interfaces.j2; the
		// napalm EOS test fixtures' running configs): only what differs
		// from the default, so no line is no shutdown, no description,
		// flowcontrol off and no forced speed.
		case strings.HasPrefix(c.text, "description "):
			p.Description = strings.TrimPrefix(c.text, "description ")
		case c.text == "shutdown":
			p.Shutdown = true
		case c.text == "no shutdown":
			p.Shutdown = false
		case len(f) == 3 && f[0] == "flowcontrol" && (f[1] == "receive" || f[1] == "send"):
			// on or desired (negotiated) pause; off is no pause.
			p.LinkPause = p.LinkPause || f[2] != "off"
		case len(f) >= 2 && f[0] == "speed":
			// `speed forced 100gfull`, `speed 100g`, `speed 200g-4`;
			// `speed auto [100gfull]` negotiates: no forced speed.
			if f[1] == "forced" && len(f) == 3 {
				p.Speed = speedMbps(f[2])
			} else if len(f) == 2 && f[1] != "auto" {
				p.Speed = speedMbps(f[1])
			}
			p.SpeedLanes = eos.TokenLanes(strings.Join(f[1:], " "))
		case c.text == "no switchport":
			p.Mode = model.ModeRouted
		case len(f) == 3 && f[0] == "switchport" && f[1] == "mode":
			p.Mode = model.PortMode(f[2])
		case len(f) == 4 && strings.HasPrefix(c.text, "switchport access vlan "):
			p.AccessVLAN = atoi(f[3])
		case len(f) == 5 && strings.HasPrefix(c.text, "switchport trunk allowed vlan "):
			p.TrunkVLANs = expandList(f[4])
		case len(f) == 3 && f[0] == "qos" && f[1] == "trust":
			p.Trust = map[string]model.Trust{"dscp": model.TrustDSCP, "cos": model.TrustPCP}[f[2]]
		case c.text == "priority-flow-control pause watchdog": // per-port watchdog, Arista AVD qos-profiles.j2
			p.PFCWatchdog = true
		case len(f) == 4 && f[0] == "priority-flow-control" && f[1] == "priority" && f[3] == "no-drop":
			p.PFC = addSorted(p.PFC, atoi(f[2]))
		case len(f) == 2 && (f[0] == "tx-queue" || f[0] == "uc-tx-queue"): // uc-: Trident/Tomahawk, Arista AVD
			eosTxQueue(p, atoi(f[1]), c.children)
		}
	}
}

func eosTxQueue(p *Port, tc int, lines []*block) {
	ets := model.ETS{Mode: model.ETSStrict}
	for _, c := range lines {
		f := strings.Fields(c.text)
		switch {
		case c.text == "no priority":
			ets.Mode = model.ETSWRR
		case c.text == "priority strict":
			ets.Mode = model.ETSStrict
		case len(f) == 3 && f[0] == "bandwidth" && f[1] == "percent":
			ets.BandwidthPercent = atoi(f[2])
		case len(f) == 4 && f[0] == "bandwidth" && f[1] == "guaranteed" && f[2] == "percent":
			// AVD ethernet-interface-(uc-)tx-queues.j2
			if p.GuaranteedPercent == nil {
				p.GuaranteedPercent = map[int]int{}
			}
			p.GuaranteedPercent[tc] = atoi(f[3])
		case len(f) >= 8 && f[0] == "random-detect" && f[1] == "ecn" && f[2] == "minimum-threshold":
			e := ECN{Mode: "ecn"}
			e.MinBytes, e.MinUnit = eosThreshold(f[3], f[4])
			e.MaxBytes, e.MaxUnit = eosThreshold(f[6], f[7])
			// max-mark-probability is optional (AVD schema,
			// random_detect.ecn.threshold.max_probability 1-100). No
			// public Arista document gives its default, so a line without
			// it reads 0, "not set": a difference from the probability
			// fabricc writes. Public running-configs print the line whole,
			// its `weight 0` too (an Arista 7388 DCQCN sample in AMD's
			// Instinct cluster networking guide).
			if i := slices.Index(f, "max-mark-probability"); i > 0 && i+1 < len(f) {
				e.Probability = atoi(f[i+1])
			}
			p.ECN[tc] = e
		}
	}
	p.ETS[tc] = ets
}

// eosThreshold reads an EOS threshold with its unit token (Arista EOS
// User Manual, QoS, `random-detect ecn`; AVD
// ethernet-interface-tx-queues.j2: segments | bytes | kbytes | mbytes,
// and microseconds | milliseconds for latency-based marking): bytes,
// kbytes and mbytes in bytes with unit ""; any other unit as the number
// in it, with the unit. targets/eos writes its thresholds in bytes, so
// fabricc's own lines never depend on the size of a kbyte; a line typed
// in kbytes or mbytes is read as 1024 and 1024*1024 bytes, which no
// public Arista document confirms or refutes (the EOS User Manual's
// `random-detect ecn` and AVD's schema name the units without defining
// them). Segments are buffer cells, whose size no public Arista document
// gives per platform, so they are not converted.
func eosThreshold(v, unit string) (int64, string) {
	n, _ := strconv.ParseInt(v, 10, 64)
	switch unit {
	case "bytes":
		return n, ""
	case "kbytes":
		return n * 1024, ""
	case "mbytes":
		return n * 1024 * 1024, ""
	}
	return n, unit
}

// eosInterfaces is `show interfaces | json` (napalm and anta test
// fixtures): interfaces.{name}.mtu.
type eosInterfaces struct {
	Interfaces map[string]struct {
		MTU int `json:"mtu"`
	} `json:"interfaces"`
}

// eosCmds is `show running-config | json` (eAPI form): every
// configuration line is a key of "cmds", whose value is null or an object
// with its own "cmds" for the lines under it.
type eosCmds struct {
	Cmds map[string]*eosCmds `json:"cmds"`
}

// blocks turns the cmds tree into the block tree ParseEOS reads. Order
// among siblings does not matter to the interpretation; keys are sorted
// for determinism.
func (c *eosCmds) blocks() []*block {
	if c == nil {
		return nil
	}
	out := make([]*block, 0, len(c.Cmds))
	for _, k := range slices.Sorted(maps.Keys(c.Cmds)) {
		out = append(out, &block{text: strings.TrimSpace(k), children: c.Cmds[k].blocks()})
	}
	return out
}

// ParseEOSJSON reads `show running-config | json` and, when given,
// `show interfaces | json` (whose interfaces.{name}.mtu is the MTU the
// port really has) into a State.
func ParseEOSJSON(running, interfaces []byte) (*State, error) {
	var c eosCmds
	if err := json.Unmarshal(running, &c); err != nil {
		return nil, fmt.Errorf("show running-config | json: %w", err)
	}
	s := eosState(c.blocks())
	if len(interfaces) == 0 {
		return s, nil
	}
	var ifs eosInterfaces
	if err := json.Unmarshal(interfaces, &ifs); err != nil {
		return nil, fmt.Errorf("show interfaces | json: %w", err)
	}
	for name, i := range ifs.Interfaces {
		if p, ok := s.Ports[name]; ok && i.MTU != 0 {
			p.MTU = i.MTU
		}
	}
	return s, nil
}
