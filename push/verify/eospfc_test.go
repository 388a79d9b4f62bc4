package verify

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// eosPFCPort is an EOS interface block with PFC on priority 3 as
// targets/eos writes it, the enable line given by enable ("" leaves it
// out, as `no priority-flow-control on` typed on the switch does).
func eosPFCPort(enable string) string {
	out := "interface Ethernet1/1\n   mtu 9216\n   switchport mode trunk\n   switchport trunk allowed vlan 100\n   qos trust dscp\n"
	if enable != "" {
		out += "   " + enable + "\n"
	}
	for prio := 0; prio < 8; prio++ {
		if prio == 3 {
			out += "   priority-flow-control priority 3 no-drop\n"
		} else {
			out += "   priority-flow-control priority " + itoa(prio) + " drop\n"
		}
	}
	return out + "!\n"
}

// TestEOSPFCEnableIsThePortsSwitch: on EOS `priority-flow-control on` is
// the port's PFC enable; the `priority-flow-control priority N no-drop`
// lines only choose the priorities (Arista EOS User Manual, Quality of
// Service, "Priority Flow Control"; Arista AVD ethernet-interfaces.j2
// renders priority_flow_control.enabled as its own line). A port whose
// enable is gone and whose no-drop lines stay runs no PFC, and verify
// says so, naming the missing line.
func TestEOSPFCEnableIsThePortsSwitch(t *testing.T) {
	for _, tc := range []struct {
		name, enable string
		want         []int
	}{
		{"enabled", "priority-flow-control on", []int{3}},
		{"enabled, earlier releases' form", "priority-flow-control mode on", []int{3}},
		{"no enable line", "", nil},
		{"switched off", "no priority-flow-control", nil},
	} {
		p := mustEOS(eosPFCPort(tc.enable)).Ports["Ethernet1/1"]
		if !slices.Equal(p.PFC, tc.want) {
			t.Errorf("%s: PFC priorities %v, want %v", tc.name, p.PFC, tc.want)
		}
	}
	f, sw := fabric("Ethernet1/1")
	sw.Platform = model.PlatformEOS
	got := Compare("spine1", Expect(f, sw), mustEOS(eosPFCPort("")))
	want := "spine1 Ethernet1/1 PFC priorities: intended 3, actual none (priority 3 no-drop, but no `priority-flow-control on`: PFC is off on the port)"
	if !slices.ContainsFunc(got, func(d Difference) bool { return d.String() == want }) {
		t.Errorf("differences %v, want among them %q", got, want)
	}
	if d := Compare("spine1", Expect(f, sw), mustEOS(eosPFCPort("priority-flow-control on"))); slices.ContainsFunc(d, func(d Difference) bool { return d.Field == "PFC priorities" }) {
		t.Errorf("PFC on: differences %v, want none in PFC", d)
	}
}

// TestEOSPFCEnableFromProfile: a qos profile's `priority-flow-control
// on` enables PFC on the ports its `service-profile` attaches (Arista AVD
// qos-profiles.j2), and the interface's own `no priority-flow-control`
// takes it back.
func TestEOSPFCEnableFromProfile(t *testing.T) {
	const profile = "qos profile ROCE\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n!\n"
	on := mustEOS(profile + "interface Ethernet1/1\n   service-profile ROCE\n!\n").Ports["Ethernet1/1"]
	off := mustEOS(profile + "interface Ethernet1/1\n   service-profile ROCE\n   no priority-flow-control\n!\n").Ports["Ethernet1/1"]
	if !slices.Equal(on.PFC, []int{3}) || off.PFC != nil {
		t.Errorf("profile's enable: PFC %v, want 3; interface's no priority-flow-control: PFC %v, want none", on.PFC, off.PFC)
	}
}
