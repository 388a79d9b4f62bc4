package verify

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// onyxLLDPSwitch is an Onyx 3.10 leaf (LLDP on by default) with ports
// 1/1 and 1/2; dcbx names the ports whose NIC takes its PFC by DCBX.
func onyxLLDPSwitch(dcbx ...string) (*model.Fabric, *model.Switch) {
	sw := model.Switch{Name: "leaf1", Platform: model.PlatformOnyx, OSVersion: "3.10.4206"}
	for _, n := range []string{"1/1", "1/2"} {
		sw.Ports = append(sw.Ports, model.Port{Name: n, MTU: 9216, Mode: model.ModeAccess, AccessVLAN: 10,
			Trust: model.TrustDSCP, PFCPriorities: []int{3}, DCBX: slices.Contains(dcbx, n)})
	}
	f := &model.Fabric{Name: "f", Switches: []model.Switch{sw}}
	return f, &f.Switches[0]
}

// TestLLDPOffImpactFollowsDCBX: the impact of LLDP switched off speaks
// of DCBX only where LLDP carries it, a port whose NIC takes its PFC by
// DCBX (model.Port.DCBX; switch-wide, any port of the switch): there the
// switch's PFC no longer reaches the NIC (IEEE 802.1Q clause 38). Where
// no NIC takes PFC by DCBX (the hosts' scripts set it), what is lost is
// verify's cabling check, which reads the neighbors the switch
// receives; a port that only stops transmitting leaves RoCE alone.
func TestLLDPOffImpactFollowsDCBX(t *testing.T) {
	tests := []struct {
		name      string
		dcbx      []string
		port, off string
		want      string
	}{
		{"switch-wide, a DCBX port", []string{"1/2"}, "", "off",
			"DCBX no longer advertises the switch's PFC to the NIC, and the cabling goes unchecked"},
		{"switch-wide, no DCBX port", nil, "", "off",
			"the switch learns no LLDP neighbor: the cabling goes unchecked (no NIC here takes its PFC by DCBX)"},
		{"transmit off on the DCBX port", []string{"1/1"}, "1/1", "transmit off",
			"DCBX no longer advertises the switch's PFC to the NIC on this port"},
		{"transmit off beside the DCBX port", []string{"1/2"}, "1/1", "transmit off",
			"the switch sends no LLDP on this port: its host sees no neighbor; RoCE is unaffected, the NIC does not take its PFC by DCBX"},
		{"off on the DCBX port", []string{"1/1"}, "1/1", "off",
			"DCBX no longer advertises the switch's PFC to the NIC, and the cabling goes unchecked"},
		{"off, no DCBX port", nil, "1/1", "off",
			"the switch learns no LLDP neighbor: the cabling goes unchecked (no NIC here takes its PFC by DCBX)"},
		{"receive off, no DCBX port", nil, "1/1", "receive off",
			"the switch learns no LLDP neighbor on this port: its cabling goes unchecked"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := onyxLLDPSwitch(tc.dcbx...)
			want, got := Expect(f, sw), Expect(f, sw)
			got.DCBXPorts = nil // a read-back carries none
			if tc.port == "" {
				got.LLDP = tc.off
			} else {
				got.Ports[tc.port].LLDP = tc.off
			}
			diffs := Compare("leaf1", want, got)
			if len(diffs) != 1 || diffs[0].Field != "lldp" || diffs[0].Port != tc.port {
				t.Fatalf("differences %v, want the one lldp difference on %q", diffs, tc.port)
			}
			if im := ImpactOf(diffs[0]); im != (Impact{Class: ImpactCabling, Text: tc.want}) {
				t.Errorf("impact %+v\nwant cabling %q", im, tc.want)
			}
		})
	}
}
