// Package onyx simulates NVIDIA Onyx (MLNX-OS): the flat `interface
// ethernet 1/1 ...` grammar fabricc's Onyx target emits, its `no` forms,
// immediate effect, configuration files, and `| json-print` show output.
package onyx

import (
	"github.com/fabricc/fabricc/sim/cli"
)

// State is the structured configuration of one Onyx switch.
type State struct {
	Hostname string
	// VLANs maps id -> name ("" when unnamed).
	VLANs map[int]string
	// PFC is `dcb priority-flow-control enable force`; PFCPriorities the
	// `dcb priority-flow-control priority N enable` set.
	PFC           bool
	PFCPriorities map[int]bool
	Pools         map[string]*TrafficPool
	// Advanced is `advanced buffer management force`; APools its pools.
	Advanced bool
	APools   map[string]*AdvPool
	Ports    map[string]*Port
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

// Port is one `interface ethernet 1/N`.
type Port struct {
	Speed       string
	MTU         int
	Description string
	Shutdown    bool
	// Mode is "access" (default), "trunk", "hybrid" or "routed".
	Mode       string
	AccessVLAN int
	Allowed    []int
	// Trust is "L2" (default), "L3", "both" or "port".
	Trust string
	// DSCPToSP overrides the default DSCP 8n..8n+7 -> SP n.
	DSCPToSP map[int]int
	// SPToTC overrides the default SP n -> TC n (`traffic-class T bind
	// switch-priority ...`).
	SPToTC map[int]int
	ETS    map[int]*ETS
	ECN    map[int]*ECN
	// PFCMode is "auto" (default), "on" or "off".
	PFCMode      string
	FlowSend     string
	FlowReceive  string
	PFCWatchdog  bool
	IngressPGs   map[int]*PG
	EgressQueues map[int]*EgressQueue
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

func newState(host string) *State {
	return &State{Hostname: host, VLANs: map[int]string{1: "default"}, PFCPriorities: map[int]bool{},
		Pools: map[string]*TrafficPool{}, APools: map[string]*AdvPool{}, Ports: map[string]*Port{}}
}

// defaultMTU is the Onyx default port MTU.
const defaultMTU = 1500

func newPort() *Port {
	return &Port{MTU: defaultMTU, Mode: "access", Trust: "L2", PFCMode: "auto",
		DSCPToSP: map[int]int{}, SPToTC: map[int]int{}, ETS: map[int]*ETS{}, ECN: map[int]*ECN{},
		IngressPGs: map[int]*PG{}, EgressQueues: map[int]*EgressQueue{}}
}

// port is the named port, created with Onyx defaults on first use.
func (s *State) port(name string) *Port { return cli.Entry(s.Ports, name, newPort) }

// portNames lists the configured ports in natural order.
func (s *State) portNames() []string { return cli.PortNames(s.Ports) }

// sp is the switch priority of a DSCP on p.
func (p *Port) sp(dscp int) int {
	if v, ok := p.DSCPToSP[dscp]; ok {
		return v
	}
	return dscp / 8
}

// tc is the traffic class of a switch priority on p.
func (p *Port) tc(sp int) int {
	if v, ok := p.SPToTC[sp]; ok {
		return v
	}
	return sp
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
