// Package verify reads a switch's configuration back in model terms and
// compares it with what the fabric model intends. Each platform has a
// parser from the OS's own output (EOS `show running-config`, as block
// text or `| json`, and `show interfaces | json`; Onyx `show
// running-config` flat lines and `show dcb priority-flow-control |
// json-print`; NVUE `nv config show -o json`) into a State; Expect
// builds the State the model asks for; Compare lists every difference as
// device, port, field, intended and actual.
package verify

import "github.com/fabricc/fabricc/model"

// State is what verification compares: the fabric-owned settings of one
// switch, in model units (bytes, priorities, traffic classes).
type State struct {
	// VLANs present, by id, with their names.
	VLANs map[int]string
	// Ports by name (the model's port names).
	Ports map[string]*Port
	// Pools are the ingress shared-buffer pools by type ("lossy",
	// "lossless"); nil when the platform's read-back has no pools to
	// compare (EOS sizes buffers through a system-wide MMU profile).
	Pools map[string]Pool
	// NoVLANNames is set when the platform keeps no VLAN names (NVUE), so
	// names are not compared.
	NoVLANNames bool
}

// Pool is one shared-buffer pool: its share of the buffer and the
// priorities mapped to it.
type Pool struct {
	Percent    float64
	Priorities []int
}

// Port is the per-port part of State.
type Port struct {
	MTU        int
	Mode       model.PortMode
	AccessVLAN int
	TrunkVLANs []int
	Trust      model.Trust
	// PFC priorities with PFC on, ascending.
	PFC []int
	// ETS by traffic class.
	ETS map[int]model.ETS
	// ECN thresholds by traffic class (bytes).
	ECN map[int]ECN
	// PFCWatchdog is true when the PFC storm watchdog covers the port.
	PFCWatchdog bool
	// DSCPToTC is the traffic class each DSCP value lands in (DSCP ->
	// switch priority -> traffic class). nil when the platform's read-back
	// does not show the maps; then it is not compared. EOS prints only
	// the non-default `qos map` lines, so its parser fills the rest from
	// EOS's default map (see eosDefaultDSCPTC).
	DSCPToTC map[int]int
}

// ECN is one queue's marking thresholds in bytes.
type ECN struct {
	MinBytes int64
	MaxBytes int64
}

// NewState returns an empty State.
func NewState() *State {
	return &State{VLANs: map[int]string{}, Ports: map[string]*Port{}}
}

// Port returns the port called name, creating it.
func (s *State) Port(name string) *Port {
	p := s.Ports[name]
	if p == nil {
		p = &Port{ETS: map[int]model.ETS{}, ECN: map[int]ECN{}}
		s.Ports[name] = p
	}
	return p
}

// Expect is the State the model intends for sw: the fabric's VLANs and,
// for every port, the settings the targets render.
func Expect(f *model.Fabric, sw *model.Switch) *State {
	s := NewState()
	for _, v := range f.VLANs {
		s.VLANs[v.ID] = v.Name
	}
	s.Pools = map[string]Pool{}
	for _, bp := range sw.Pools {
		if bp.Direction == "ingress" {
			s.Pools[bp.Type] = Pool{Percent: bp.Percent, Priorities: append([]int(nil), bp.Priorities...)}
		}
	}
	dscpTC := expectDSCPToTC(f.QoS)
	for i := range sw.Ports {
		mp := &sw.Ports[i]
		p := s.Port(mp.Name)
		p.MTU = mp.MTU
		p.Mode = mp.Mode
		p.AccessVLAN = mp.AccessVLAN
		p.TrunkVLANs = append([]int(nil), mp.TrunkVLANs...)
		p.Trust = mp.Trust
		p.PFC = append([]int(nil), mp.PFCPriorities...)
		p.PFCWatchdog = mp.PFCWatchdog
		p.DSCPToTC = dscpTC
		for _, c := range f.QoS.Classes {
			p.ETS[c.TrafficClass] = c.ETS
			if c.ECN != nil && len(mp.PFCPriorities) > 0 {
				p.ECN[c.TrafficClass] = ECN{MinBytes: c.ECN.MinBytes, MaxBytes: c.ECN.MaxBytes}
			}
		}
	}
	return s
}

// expectDSCPToTC composes the model's DSCP -> priority and priority ->
// TC maps; nil when the model does not hold complete maps. Every port
// shares it: the QoS maps are fabric-wide, and Compare only reads them.
func expectDSCPToTC(q model.QoS) map[int]int {
	if len(q.DSCPToPriority) != 64 || len(q.PriorityToTC) != 8 {
		return nil
	}
	out := map[int]int{}
	for d, prio := range q.DSCPToPriority {
		if prio >= 0 && prio < 8 {
			out[d] = q.PriorityToTC[prio]
		}
	}
	return out
}
