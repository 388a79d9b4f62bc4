// Package onyx simulates NVIDIA Onyx (MLNX-OS): every port of the
// switch model with its defaults, the CLI grammar (prefix and interface
// modes, unique-prefix abbreviations, `no` forms, ranges), immediate
// effect, configuration files, show commands in the `| json-print` shapes
// of the OS release the switch reports, and a running-config in Onyx's own
// layout. See ../README.md for the public sample behind each behaviour.
package onyx

import (
	"encoding/json"
	"maps"

	"github.com/fabricc/fabricc/sim/cli"
)

// State is the structured configuration of one Onyx switch.
type State struct {
	Hostname string
	// VLANs maps id -> name ("" when unnamed); VLAN 1 always exists.
	VLANs map[int]string
	// PFC is `dcb priority-flow-control enable force`; PFCPriorities the
	// `dcb priority-flow-control priority N enable` set.
	PFC           bool
	PFCPriorities map[int]bool
	Pools         map[string]*TrafficPool
	// Advanced is `advanced buffer management force`; APools its pools.
	Advanced bool
	// LLDP is the global `lldp` switch, which a release before 3.8.2000
	// leaves off and 3.8.2000 and later leave on (NVIDIA Onyx User
	// Manual, Link Layer Discovery Protocol (LLDP): "From version
	// 3.8.2000, LLDP is now enabled by default"); the running-config
	// prints it where it is not the release's default (`lldp`, `no
	// lldp`), as it prints no other default.
	LLDP   bool
	APools map[string]*AdvPool
	// RoCE is the `roce` mode ("lossless", "semi-lossless", "lossy"),
	// "" when RoCE mode is off (3.8.2000 and later).
	RoCE string
	// PortChannels and MLAGPortChannels are the `interface port-channel
	// N` and `interface mlag-port-channel N` bundles, sorted (lag.go).
	PortChannels, MLAGPortChannels []int
	// IPL is the MLAG IPL id of each port-channel made the inter-peer
	// link (`interface port-channel N ipl 1`, lag.go); nil when none.
	IPL map[int]int
	// Ports holds every port of the model by name ("1/1").
	Ports map[string]*Port
}

// TrafficPool is a `traffic pool NAME` (MLNX-OS >= 3.6.5000).
type TrafficPool struct {
	Type          string
	MemoryPercent string
	SPs           []int
}

// AdvPool is an advanced-mode `pool NAME size N type T`.
type AdvPool struct {
	Size int64
	Type string
}

// Port is one `interface ethernet 1/N`. Zero values of the optional
// settings are the Onyx defaults, which the running-config leaves out.
type Port struct {
	// NativeG is the cage's speed in Gb/s (hardware, not configuration).
	NativeG int
	// Speed is the forced speed ("100G"); "" is auto-negotiation.
	Speed       string
	MTU         int
	Description string
	Shutdown    bool
	// Mode is "access" (default), "trunk", "hybrid" or "routed".
	Mode string
	// AccessVLAN is the access (or hybrid untagged) VLAN; 0 is VLAN 1.
	AccessVLAN int
	// AllowedAll is a trunk's implicit "allowed-vlan all", what a port
	// has when it becomes a trunk; Allowed are the tagged VLANs of a trunk
	// or hybrid port otherwise (a hybrid port starts with none). Emulab
	// snmpit_mellanox.pm: removing one VLAN from a trunk turns the
	// implicit all into "allowed-vlan none" plus one "add" per VLAN.
	AllowedAll bool
	Allowed    []int
	// Trust is "L2" (default), "L3", "both" or "port".
	Trust                   string
	RewritePCP, RewriteDSCP bool
	DSCPToSP, SPToTC        map[int]int // overrides of the defaults (sp, tc)
	ETS                     map[int]*ETS
	ECN                     map[int]*ECN
	PFCMode                 string // "auto" (default), "on" or "off"
	FlowSend, FlowReceive   bool   // global pause; off by default
	PFCWatchdog             bool
	IngressPGs              map[int]*PG
	EgressQueues            map[int]*EgressQueue
	// LAG is the kind of bundle the port is a member of ("port-channel",
	// "mlag-port-channel"; "" when none), LAGGroup its number, LAGMode
	// the channel-group mode (on, active, passive).
	LAG      string
	LAGGroup int
	LAGMode  string
	// NoLLDPReceive and NoLLDPTransmit are `no lldp receive` and `no
	// lldp transmit`: a port receives and transmits LLDP by default
	// (NVIDIA Onyx User Manual, Link Layer Discovery Protocol (LLDP),
	// "Enable LLDP per interface"; mellanox.onyx fixture
	// onyx_lldp_interface_show.cfg, "Receive": "Enabled").
	NoLLDPReceive, NoLLDPTransmit bool
}

// ETS is `traffic-class T dcb ets strict|wrr W`.
type ETS struct {
	Strict bool
	Weight int
}

// ECN is `traffic-class T congestion-control ecn minimum-absolute MIN
// maximum-absolute MAX` (KB) or the relative form (percent).
type ECN struct {
	Mode     string
	Relative bool
	Min, Max int
}

// PG is an advanced-mode ingress priority group buffer.
type PG struct {
	SPs                 []int
	Pool, Type          string
	Reserved, Xoff, Xon int64
	Alpha               string
	Mapped              bool
}

// EgressQueue is an advanced-mode egress buffer of one traffic class.
type EgressQueue struct {
	Pool     string
	Reserved int64
	Alpha    string
}

// defaultMTU is the Onyx default port MTU ("1500 bytes(Maximum packet
// size 1522 bytes)" on a fresh port, mellanox.onyx fixture
// onyx_interfaces_show.cfg).
const defaultMTU = 1500

func newState(opts cli.Options) *State {
	s := &State{Hostname: opts.Name, VLANs: map[int]string{1: "default"}, PFCPriorities: map[int]bool{},
		Pools: map[string]*TrafficPool{}, APools: map[string]*AdvPool{}, Ports: map[string]*Port{}}
	for _, p := range opts.Ports {
		s.Ports[p.Name] = newPort(p.SpeedG)
	}
	s.LLDP = lldpOnByDefault(opts.Version)
	return s
}

func newPort(nativeG int) *Port {
	return &Port{NativeG: nativeG, MTU: defaultMTU, Mode: "access", Trust: "L2", PFCMode: "auto",
		DSCPToSP: map[int]int{}, SPToTC: map[int]int{}, ETS: map[int]*ETS{}, ECN: map[int]*ECN{},
		IngressPGs: map[int]*PG{}, EgressQueues: map[int]*EgressQueue{}}
}

// clone deep-copies the state (a configuration file's snapshot).
func (s *State) clone() *State {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // maps, slices and scalars only: cannot fail
	}
	c := &State{}
	if err := json.Unmarshal(b, c); err != nil {
		panic(err)
	}
	return c
}

// clone copies a port so a command can be tried on it first.
func (p *Port) clone() *Port {
	c := *p
	c.Allowed = append([]int(nil), p.Allowed...)
	c.DSCPToSP, c.SPToTC = maps.Clone(p.DSCPToSP), maps.Clone(p.SPToTC)
	c.ETS, c.ECN = maps.Clone(p.ETS), maps.Clone(p.ECN)
	c.IngressPGs, c.EgressQueues = map[int]*PG{}, maps.Clone(p.EgressQueues)
	for k, g := range p.IngressPGs {
		cg := *g
		c.IngressPGs[k] = &cg
	}
	return &c
}

// portNames lists the ports in front-panel order.
func (s *State) portNames() []string { return cli.PortNames(s.Ports) }

// defaultSP is Onyx's default DSCP -> switch priority: 8n..8n+7 -> n
// (mellanox.onyx fixture show_qos_interface_ethernet.cfg).
func defaultSP(dscp int) int { return dscp / 8 }

// sp is the switch priority of a DSCP on p.
func (p *Port) sp(dscp int) int {
	if v, ok := p.DSCPToSP[dscp]; ok {
		return v
	}
	return defaultSP(dscp)
}

// tc is the traffic class of a switch priority on p; SP n -> TC n by
// default (the "TC" column of the same fixture's rewrite mapping).
func (p *Port) tc(sp int) int {
	if v, ok := p.SPToTC[sp]; ok {
		return v
	}
	return sp
}

// defaultWeight is the WRR weight of a traffic class nobody configured:
// the weights 12 and 13 alternate so that the eight classes share 100
// (mellanox.onyx fixture onyx_show_dcb_ets_interface.cfg: TC0 12, TC1 13,
// TC4 12, TC5 13, TC6 12, TC7 13).
func defaultWeight(tc int) int { return 12 + tc%2 }

// ets is the scheduling of tc on p, defaults filled in.
func (p *Port) ets(tc int) ETS {
	if e, ok := p.ETS[tc]; ok {
		return *e
	}
	return ETS{Weight: defaultWeight(tc)}
}

// drift lowers the MTU of the first port (panel order) whose MTU was
// configured by 100 bytes.
func (s *State) drift() {
	for _, n := range s.portNames() {
		if p := s.Ports[n]; p.MTU != defaultMTU {
			p.MTU -= 100
			return
		}
	}
}
