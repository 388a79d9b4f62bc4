// Package devsem reads rendered switch configurations and host scripts the
// way the device reads them, and returns the state the device ends up in:
// which VLANs each port carries, where a lossless priority group sends
// PAUSE and how much room is left after it, which ECN thresholds each
// traffic class marks at, and what a NIC marks its CNPs with.
//
// Each rule is written from the vendor's own public definition (the
// document is named next to the rule), never from fabricc's renderers, so
// a test that compares this state with the model catches a number that
// lands in the wrong field or a line that replaces instead of adds.
package devsem

import "sort"

// Switch is a switch's state after it has read a configuration.
type Switch struct {
	// Ports by the config's own port name ("1/1", "Ethernet1/1", "swp1").
	Ports map[string]*Port
	// DeviceHeadroom is true when the configuration leaves the lossless
	// headroom to the switch (Onyx traffic pools, EOS without an MMU
	// profile): the room after PAUSE is then the switch's own choice.
	DeviceHeadroom bool
}

// Port is one port's state.
type Port struct {
	// Mode is "access", "trunk" or "routed" ("trunk" also for an Onyx
	// hybrid port, which is a trunk with an untagged VLAN).
	Mode string
	// Untagged is the VLAN untagged frames belong to (access VLAN,
	// native VLAN, Onyx hybrid access VLAN); 0 for none.
	Untagged int
	// AllVLANs is true when the trunk allows every VLAN.
	AllVLANs bool
	// Tagged are the VLANs a trunk carries tagged, ascending (nil when
	// AllVLANs).
	Tagged []int
	// PFC are the priorities with PFC on, ascending.
	PFC []int
	// Lossless are the port's lossless priority groups by index (Onyx,
	// NVUE: the one PFC buffer of the port is index -1).
	Lossless map[int]PG
	// ECN are the ECN marking thresholds per traffic class, bytes.
	ECN map[int]ECN
	// DSCPToTC is the queue each DSCP lands in (nil when the config does
	// not say and the device default is unknown).
	DSCPToTC map[int]int
}

// PG is a lossless priority group's buffer as the device programs it,
// bytes: the buffer size, the occupancy at which PAUSE is sent (xoff
// threshold) and the occupancy at which it stops (xon threshold).
type PG struct {
	SizeBytes int64
	XoffBytes int64
	XonBytes  int64
}

// RoomAfterPause is the buffer left for bytes still in flight once PAUSE
// has been sent: size minus the xoff threshold.
func (g PG) RoomAfterPause() int64 { return g.SizeBytes - g.XoffBytes }

// ECN is one traffic class's marking thresholds, bytes.
type ECN struct {
	MinBytes int64
	MaxBytes int64
}

// newPort is a port in the device's default state.
func newPort() *Port {
	return &Port{Mode: "access", Lossless: map[int]PG{}, ECN: map[int]ECN{}}
}

// port returns the named port, creating it in its default state.
func (s *Switch) port(name string) *Port {
	if s.Ports == nil {
		s.Ports = map[string]*Port{}
	}
	p, ok := s.Ports[name]
	if !ok {
		p = newPort()
		s.Ports[name] = p
	}
	return p
}

// sortedSet returns the members of set, ascending.
func sortedSet(set map[int]bool) []int {
	out := []int{}
	for v, in := range set {
		if in {
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}
