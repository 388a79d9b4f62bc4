package verify

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tests that pin the EOS readback where hand mutation testing (review
// mutants2) changed a parse step with no test failing. Each expected
// value follows from the EOS command as Arista defines it, not from
// what the parser happens to print.

// TestEOSPinsOnlyInterfacesArePorts: only a two-word `interface NAME`
// line is a port. A top-level line of two words that is not one
// ("hostname leaf1", "ip routing": Arista EOS User Manual, Initial
// Configuration) is no port of the switch.
func TestEOSPinsOnlyInterfacesArePorts(t *testing.T) {
	s := mustEOS("hostname leaf1\nip routing\n!\ninterface Ethernet1/1\n   mtu 9214\n!\n")
	if got := slices.Sorted(maps.Keys(s.Ports)); !slices.Equal(got, []string{"Ethernet1/1"}) {
		t.Errorf("ports %q, want only Ethernet1/1", got)
	}
}

// TestEOSPinsServiceProfileUndefined: a port whose `service-profile`
// names no `qos profile` of the configuration takes nothing from it
// (Arista EOS User Manual, Quality of Service, QoS profiles) and is read
// from its own lines, not refused or dropped.
func TestEOSPinsServiceProfileUndefined(t *testing.T) {
	s := mustEOS("interface Ethernet1/1\n   mtu 9214\n   service-profile NONE\n   qos trust dscp\n!\n")
	p := s.Ports["Ethernet1/1"]
	if p == nil || p.MTU != 9214 || p.Trust != "dscp" || p.PFC != nil {
		t.Fatalf("port %+v, want MTU 9214, trust dscp, no PFC", p)
	}
}

// TestEOSPinsHeadroomCells: `ingress headroom cells N` is in buffer
// cells, not bytes (Arista AVD platform.trident.mmu.queue_profiles:
// unit bytes or cells); verify does not know a cell's size, so it reads
// no headroom rather than N bytes, and the bytes form is read as bytes.
func TestEOSPinsHeadroomCells(t *testing.T) {
	profile := func(line string) string {
		return "platform trident mmu queue profile p\n    " + line +
			"\n    ingress priority-group 3 threshold 2\n!\nplatform trident mmu queue profile p apply\n!\n" +
			"interface Ethernet1/1\n   mtu 9214\n!\n"
	}
	for line, want := range map[string]Bytes{
		"ingress headroom cells 400":     0,
		"ingress headroom bytes 160768":  160768,
		"ingress headroom 79872":         79872,
		"ingress headroom kbytes 160768": 0, // no such unit: not read
	} {
		m := mustEOS(profile(line)).Ports["Ethernet1/1"].MMU
		if m == nil || m.IngressHeadroom != want {
			t.Errorf("%q: MMU %+v, want headroom %d", line, m, want)
		}
	}
}

// TestEOSPinsOtherQoSMaps: only `qos map dscp ... to traffic-class N`
// lines make the DSCP map and only `qos map traffic-class ... to cos N`
// the traffic class -> CoS map. The CoS -> traffic class map and the
// traffic class -> transmit queue map (Arista EOS User Manual, Quality
// of Service: `qos map cos`, `qos map traffic-class ... to tx-queue`)
// share the words of those lines and change neither.
func TestEOSPinsOtherQoSMaps(t *testing.T) {
	s := mustEOS("qos map cos 1 to traffic-class 4\nqos map traffic-class 1 to tx-queue 5\n" +
		"qos map dscp 26 to traffic-class 3\nqos map traffic-class 3 to cos 3\n!\ninterface Ethernet1/1\n   mtu 9214\n!\n")
	p := s.Ports["Ethernet1/1"]
	// EOS's defaults where no line sets the entry (eosDefaultDSCPTC:
	// DSCP 0-7 to TC1; TC1 to CoS 0).
	want := map[string]int{"DSCP 26": 3, "DSCP 1": 1, "DSCP 8": 0, "TC 3": 3, "TC 1": 0}
	got := map[string]int{"DSCP 26": p.DSCPToTC[26], "DSCP 1": p.DSCPToTC[1], "DSCP 8": p.DSCPToTC[8], "TC 3": p.TCToCoS[3], "TC 1": p.TCToCoS[1]}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("maps (-want +got):\n%s", d)
	}
}

// TestEOSPinsStatic pins EOS readback lines as Arista prints them in
// an interface block (Arista AVD ethernet-interfaces.j2): the last
// `shutdown`/`no shutdown` wins, flowcontrol off is no pause, a speed
// with `auto` negotiates, ECN thresholds convert by their unit (kbytes
// x1024), and a `priority-flow-control priority N drop` line is no
// lossless priority.
func TestEOSPinsStatic(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		check       func(p *Port) bool
	}{
		{"flowcontrol off", "   flowcontrol receive off\n   flowcontrol send off\n", func(p *Port) bool { return !p.LinkPause }},
		{"flowcontrol on", "   flowcontrol receive off\n   flowcontrol send on\n", func(p *Port) bool { return p.LinkPause }},
		{"speed auto", "   speed auto 100gfull\n", func(p *Port) bool { return p.Speed == 0 }},
		{"speed forced", "   speed forced 100gfull\n", func(p *Port) bool { return p.Speed == 100000 }},
		{"pfc drop", "   priority-flow-control on\n   priority-flow-control priority 2 drop\n   priority-flow-control priority 3 no-drop\n",
			func(p *Port) bool { return slices.Equal(p.PFC, []int{3}) }},
		// Arista EOS User Manual, Ethernet Ports / VLANs: the access
		// VLAN, and a trunk's native VLAN, which is not an allowed list.
		{"access vlan", "   switchport mode access\n   switchport access vlan 100\n", func(p *Port) bool { return p.AccessVLAN == 100 }},
		{"native vlan", "   switchport mode trunk\n   switchport trunk allowed vlan 100,200-201\n   switchport trunk native vlan 10\n",
			func(p *Port) bool { return slices.Equal(p.TrunkVLANs, []int{100, 200, 201}) }},
		{"ecn kbytes", "   uc-tx-queue 3\n      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 2 mbytes max-mark-probability 100\n",
			func(p *Port) bool {
				return p.ECN[3] == ECN{MinBytes: 150 * 1024, MaxBytes: 2 * 1024 * 1024, Mode: "ecn", Probability: 100}
			}},
	} {
		p := mustEOS("interface Ethernet1/1\n" + tc.lines + "!\n").Ports["Ethernet1/1"]
		if !tc.check(p) {
			t.Errorf("%s: %+v", tc.name, *p)
		}
	}
}
