// Package eos simulates Arista EOS: every port of the switch model, the
// configuration grammar with unique-prefix abbreviations and parent-mode
// fallback, configure sessions with commit timers (session prompts show
// the first six characters of the name), output filters (`| json`,
// `| section`, `| include`) and paging. See ../README.md for the public
// sample behind each behaviour.
package eos

import (
	"encoding/json"

	"github.com/fabricc/fabricc/sim/cli"
)

// State is the structured configuration of one EOS switch.
type State struct {
	Hostname string
	VLANs    map[int]string
	// DSCPToTC and CoSToTC are the global `qos map ... to traffic-class`.
	DSCPToTC map[int]int
	CoSToTC  map[int]int
	// TCToCoS is `qos map traffic-class ... to cos`: the CoS a frame of
	// each traffic class is paused by and leaves with (entries that differ
	// from defaultTC only).
	TCToCoS map[int]int
	// PFCAllOff is `priority-flow-control all off`.
	PFCAllOff bool
	Watchdog  Watchdog
	// Profiles are `qos profile NAME` blocks.
	Profiles map[string]*QoS
	// MMU are `platform trident mmu queue profile NAME` blocks; MMUApply
	// is the applied one.
	MMU      map[string]*MMU
	MMUApply string
	Ports    map[string]*Port
}

// Watchdog is the global PFC watchdog (values as written, in seconds).
type Watchdog struct {
	Action, Timeout, Recovery, Polling string
}

// QoS is what a port or a qos profile carries.
type QoS struct {
	// Trust is "dscp", "cos", "untrusted" (`no qos trust`) or "" (default).
	Trust string
	PFC   bool
	// NoDrop maps priority -> true for `no-drop`, false for `drop`.
	NoDrop   map[int]bool
	Watchdog bool
	TxQueues map[int]*TxQueue
}

// TxQueue is a `tx-queue N` / `uc-tx-queue N` block.
type TxQueue struct {
	// Keyword is "tx-queue" or "uc-tx-queue".
	Keyword string
	// WRR is true after `no priority`; strict priority is the default.
	WRR       bool
	BWPercent int
	// Guaranteed is `bandwidth guaranteed percent N`; 0 is none.
	Guaranteed int
	ECN        *ECN
	ECNCounter bool
}

// ECN is a `random-detect ecn` line.
type ECN struct {
	Min, Max int64
	// Unit is the token written after both thresholds ("kbytes", ...).
	Unit   string
	Prob   int
	Weight int
}

// MMU is a Trident MMU queue profile.
type MMU struct {
	IngressThreshold string
	IngressHeadroom  int64
	// PGs are the ingress priority groups, Egress the unicast queues.
	PGs    map[int]*MMUQueue
	Egress map[int]*MMUQueue
}

// MMUQueue is one ingress priority group or egress unicast queue of an
// MMU profile. HasReserved is whether its reserved line was given: the
// running-config prints only the lines configured, so a group with a
// threshold alone (the lossless group fabricc writes) has no reserved
// line **(no public sample of an EOS running-config with one)**.
type MMUQueue struct {
	Reserved    int64
	HasReserved bool
	Threshold   string
}

// Port is one Ethernet interface.
type Port struct {
	QoS
	// NativeG is the cage speed in Gb/s; Inactive marks a lane that is
	// not broken out (hardware, not configuration).
	NativeG     int
	Inactive    bool
	Description string
	MTU         int
	Speed       string
	// Mode is the switchport mode, "trunk" or "" (access, the default);
	// Routed is set by `no switchport` and cleared by `switchport`, which
	// leave the switchport mode and VLANs as they were, so a port made
	// routed and back keeps its mode (see mode).
	Mode       string
	Routed     bool
	AccessVLAN int
	// TrunkVLANs holds the allowed VLAN list (nil: all).
	TrunkVLANs []int
	NativeVLAN int
	Shutdown   bool
	// FlowReceive and FlowSend are the 802.3x pause settings ("on",
	// "desired"); "" is off, the default.
	FlowReceive string
	FlowSend    string
	Profile     string
	DCBX        string
	// ChannelGroup is `channel-group N mode M` as "N mode M"; "" for
	// none.
	ChannelGroup string
}

// mode is what the port is: "routed", "trunk" or "" (access).
func (p *Port) mode() string {
	if p.Routed {
		return "routed"
	}
	return p.Mode
}

func newState(opts cli.Options) *State {
	s := emptyState(opts.Name)
	for _, p := range opts.Ports {
		s.Ports[p.Name] = newPort(p.SpeedG, p.Inactive)
	}
	return s
}

func emptyState(host string) *State {
	return &State{
		Hostname: host,
		VLANs:    map[int]string{1: "default"},
		DSCPToTC: map[int]int{},
		CoSToTC:  map[int]int{},
		TCToCoS:  map[int]int{},
		Profiles: map[string]*QoS{},
		MMU:      map[string]*MMU{},
		Ports:    map[string]*Port{},
	}
}

// clone deep-copies the state (exported fields only, through JSON).
func (s *State) clone() *State {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // only maps, slices and scalars: cannot fail
	}
	c := emptyState(s.Hostname)
	if err := json.Unmarshal(b, c); err != nil {
		panic(err)
	}
	return c
}

// cleanConfig is `rollback clean-config`: factory defaults, ports kept.
func (s *State) cleanConfig() *State {
	c := emptyState(s.Hostname)
	for name, p := range s.Ports {
		c.Ports[name] = newPort(p.NativeG, p.Inactive)
	}
	return c
}

func newPort(nativeG int, inactive bool) *Port {
	return &Port{MTU: defaultMTU, QoS: *newQoS(), NativeG: nativeG, Inactive: inactive}
}

// newQoS is an empty QoS block (a port's or a service profile's).
func newQoS() *QoS {
	return &QoS{NoDrop: map[int]bool{}, TxQueues: map[int]*TxQueue{}}
}

// defaultMTU is the EOS default L3 MTU of an Ethernet interface.
const defaultMTU = 1500

// portNames lists the ports in natural order.
func (s *State) portNames() []string { return cli.PortNames(s.Ports) }

// effective merges a port's own QoS over its service profile's.
func (s *State) effective(p *Port) QoS {
	q := QoS{NoDrop: map[int]bool{}, TxQueues: map[int]*TxQueue{}}
	layers := []*QoS{}
	if prof, ok := s.Profiles[p.Profile]; ok {
		layers = append(layers, prof)
	}
	layers = append(layers, &p.QoS)
	for _, l := range layers {
		if l.Trust != "" {
			q.Trust = l.Trust
		}
		q.PFC = q.PFC || l.PFC
		q.Watchdog = q.Watchdog || l.Watchdog
		for k, v := range l.NoDrop {
			q.NoDrop[k] = v
		}
		for k, v := range l.TxQueues {
			q.TxQueues[k] = v
		}
	}
	return q
}

// drift lowers the MTU of the first configured port by 100 bytes.
func (s *State) drift() {
	for _, n := range s.portNames() {
		if p := s.Ports[n]; p.MTU != defaultMTU {
			p.MTU -= 100
			return
		}
	}
}
