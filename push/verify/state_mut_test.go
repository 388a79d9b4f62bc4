package verify

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/onyx"
	"github.com/google/go-cmp/cmp"
)

// Tests that pin Expect where a one-token mutation of state.go (review
// mutants3) left every earlier test passing.

// mutQoSFabric is fabric("1/1") on Onyx with complete QoS maps: DSCP d
// to priority d/8, priorities 0-2 and 4-5 to traffic class 0, 3 to 3,
// 6 to 6 and 7 to 7 (which no class names), and one more class on
// traffic class 5 that no priority maps to.
func mutQoSFabric() (*model.Fabric, *model.Switch) {
	f, sw := fabric("1/1")
	for d := 0; d < 64; d++ {
		f.QoS.DSCPToPriority = append(f.QoS.DSCPToPriority, d/8)
	}
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 7}
	f.QoS.Classes = append(f.QoS.Classes, model.Class{Name: "spare", Priority: 5, TrafficClass: 5, ETS: model.ETS{Mode: model.ETSStrict}})
	sw.Platform = model.PlatformOnyx
	f.Switches[0] = *sw
	return f, sw
}

// TestExpectMutUsedTCs: the traffic classes compared are those a
// priority maps to (7 too, which no class names) and those a class
// names (5 too, which no priority maps to); with no priority map every
// traffic class is compared (nil).
func TestExpectMutUsedTCs(t *testing.T) {
	f, sw := mutQoSFabric()
	if d := cmp.Diff(map[int]bool{0: true, 3: true, 5: true, 6: true, 7: true}, Expect(f, sw).UsedTCs); d != "" {
		t.Errorf("used traffic classes (-want +got):\n%s", d)
	}
	f.QoS.PriorityToTC, f.QoS.DSCPToPriority = nil, nil
	if used := Expect(f, sw).UsedTCs; used != nil {
		t.Errorf("no priority map: used traffic classes %v, want nil (every class compared)", used)
	}
}

// TestExpectMutUsedTCETSDrift: Onyx prints a port's ETS as
// `interface ethernet 1/1 traffic-class 3 dcb ets wrr 50` (NVIDIA Onyx
// User Manual, QoS); a used traffic class set by hand to another share
// is a difference verify names, also for a traffic class only a class
// names (5, no priority maps to it).
func TestExpectMutUsedTCETSDrift(t *testing.T) {
	f, sw := mutQoSFabric()
	running := `   interface ethernet 1/1 mtu 9216 force
   interface ethernet 1/1 switchport mode trunk
   interface ethernet 1/1 switchport trunk allowed-vlan none
   interface ethernet 1/1 switchport trunk allowed-vlan add 100
   interface ethernet 1/1 traffic-class 5 dcb ets wrr 10
`
	var fields []string
	for _, d := range Compare("sw1", Expect(f, sw), mustOnyx(running)) {
		fields = append(fields, d.Field)
	}
	if !slices.ContainsFunc(fields, func(s string) bool { return s == "ETS TC5 mode" }) {
		t.Errorf("traffic class 5 set to WRR 10 by hand: differences %q, want ETS TC5 mode", fields)
	}
}

// TestExpectMutAccessVLAN: an access port's VLAN is intended, so an
// Onyx port moved to another VLAN by hand (`interface ethernet 1/1
// switchport access vlan 200`, NVIDIA Onyx User Manual, VLANs) is a
// difference.
func TestExpectMutAccessVLAN(t *testing.T) {
	f, sw := fabric("1/1")
	sw.Ports[0].Mode, sw.Ports[0].AccessVLAN, sw.Ports[0].TrunkVLANs = model.ModeAccess, 100, nil
	f.Switches[0] = *sw
	if got := Expect(f, sw).Ports["1/1"].AccessVLAN; got != 100 {
		t.Errorf("intended access VLAN %d, want 100", got)
	}
}

// TestExpectMutNoMapsNoGroups: a model without complete QoS maps
// intends no DSCP -> TC map (nil: not compared), and an Onyx port in
// advanced buffer mode without priority groups intends no ingress
// buffers (nil).
func TestExpectMutNoMapsNoGroups(t *testing.T) {
	f, sw := mutQoSFabric()
	f.QoS.DSCPToPriority = nil
	sw.BufferStyle = onyx.StyleAdvanced
	f.Switches[0] = *sw
	p := Expect(f, sw).Ports["1/1"]
	if p.DSCPToTC != nil {
		t.Errorf("no DSCP map: intended DSCP -> TC %v, want nil", p.DSCPToTC)
	}
	if p.IngressBuffers != nil {
		t.Errorf("no priority groups: intended ingress buffers %v, want nil", p.IngressBuffers)
	}
	f, sw = mutQoSFabric()
	want := map[int]int{}
	for d := 0; d < 64; d++ {
		want[d] = f.QoS.PriorityToTC[d/8]
	}
	if d := cmp.Diff(want, Expect(f, sw).Ports["1/1"].DSCPToTC); d != "" {
		t.Errorf("DSCP -> TC (-want +got):\n%s", d)
	}
}

// TestExpectMutMMUOfEOS: the MMU queue profile is intended on an EOS
// switch whose ASIC has one (Trident3, Arista TOI "mmu" queue profiles)
// when targets/eos writes its ingress headroom, with thresholds or
// without (a lossless group with no shared alpha writes none), and on
// an EOS switch without a known ASIC never.
func TestExpectMutMMUOfEOS(t *testing.T) {
	f, sw := bufferSwitch(model.PlatformEOS, "Ethernet1/1")
	sw.Ports[0].PriorityGroups[1].SharedAlpha = ""
	f.Switches[0] = *sw
	if d := cmp.Diff(&MMU{IngressHeadroom: 79872, Thresholds: map[int]string{}}, Expect(f, sw).Ports["Ethernet1/1"].MMU); d != "" {
		t.Errorf("Trident3, lossless group without alpha: intended MMU (-want +got):\n%s", d)
	}
	f, sw = bufferSwitch(model.PlatformEOS, "Ethernet1/1")
	sw.Hardware.ASIC = ""
	f.Switches[0] = *sw
	if m := Expect(f, sw).Ports["Ethernet1/1"].MMU; m != nil {
		t.Errorf("EOS without a known ASIC: intended MMU %+v, want none", m)
	}
}
