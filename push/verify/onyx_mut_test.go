package verify

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// Tests that pin the Onyx readback where a one-token mutation of
// onyx.go (review mutants3, an AST mutation run over push/verify) left
// every earlier test passing.

// onyxMutBase is one port configured in every field ParseOnyx reads, in
// the shapes Onyx's running-config prints (HPE Cray CSM documentation,
// `show run int ethernet 1/16` on a Mellanox spine: "interface ethernet
// 1/16 speed 10G force", "interface ethernet 1/16 mtu 1500 force";
// NVIDIA Onyx User Manual, Interfaces: "description"; QoS: "qos trust L3", "traffic-class 3 dcb ets wrr
// 50", "traffic-class 3 congestion-control ecn minimum-absolute 150
// maximum-absolute 1500"; advanced buffer mode as the Demartek RoCE
// Deployment Guide, step 9, types it), a named VLAN and a traffic pool
// (mellanox.onyx onyx_vlan.py and onyx_buffer_pool.py commands).
const onyxMutBase = `##
## VLAN configuration
##
   vlan 10
   vlan 10 name "rdma storage"
##
## Traffic pools
##
   traffic pool roce type lossless
   traffic pool roce memory percent 50.00
   traffic pool roce map switch-priority 3
##
## Interface Ethernet configuration
##
   interface ethernet 1/9 mtu 9216 force
   interface ethernet 1/9 speed 100G force
   interface ethernet 1/9 description "spine01 1/9"
   interface ethernet 1/9 flowcontrol receive on force
   interface ethernet 1/9 switchport mode trunk
   interface ethernet 1/9 switchport trunk allowed-vlan none
   interface ethernet 1/9 switchport trunk allowed-vlan add 10
   interface ethernet 1/9 qos trust L3
   interface ethernet 1/9 traffic-class 3 dcb ets wrr 50
   interface ethernet 1/9 traffic-class 6 dcb ets strict
   interface ethernet 1/9 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500
   interface ethernet 1/9 ingress-buffer iPort.pg3 bind switch-priority 3
   interface ethernet 1/9 ingress-buffer iPort.pg3 map pool ePool0 type lossless reserved 20480 xoff 10240 xon 10240 shared alpha 8
`

// TestOnyxMutCutLinesReadAsNothing: a running-config cut short (a
// dropped session, a line wrapped by the terminal) ends a line before
// its last words. Such a line sets nothing and changes nothing another
// line set: no panic, no field cleared, no port or priority invented.
func TestOnyxMutCutLinesReadAsNothing(t *testing.T) {
	want := mustOnyx(onyxMutBase)
	if want.VLANs[10] != "rdma storage" || !cmp.Equal(want.Pools, map[string]Pool{"lossless": {Percent: 50, Priorities: []int{3}}}) {
		t.Fatalf("base VLAN 10 and pool roce not read whole: VLANs %v, pools %v", want.VLANs, want.Pools)
	}
	if p := want.Ports["1/9"]; p == nil || p.MTU != 9216 || p.Description != "spine01 1/9" || !p.LinkPause || len(p.ETS) != 2 || len(p.IngressBuffers) != 1 {
		t.Fatalf("base port 1/9 not read whole: %+v", p)
	}
	cut := []string{
		"vlan 10 name",
		"traffic pool roce",
		"traffic pool roce type",
		"traffic pool roce memory percent",
		"traffic pool roce map switch-priority",
		"advanced buffer management",
		"interface ethernet 1/10",
		"interface ethernet 1-4",
	}
	for _, tail := range []string{
		"mtu", "speed", "description", "flowcontrol receive", "flowcontrol send",
		"switchport mode", "switchport access vlan", "qos trust",
		"traffic-class 3 dcb", "traffic-class 3 dcb ets", "traffic-class 3 dcb ets wrr",
		"traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute",
		"traffic-class 3 bind switch-priority",
		"qos map dscp 26 to switch-priority",
		"ingress-buffer iPort.pg3", "ingress-buffer iPort.pg3 bind", "ingress-buffer iPort.pg3 map pool",
		"ingress-buffer iPort.pg3 map pool ePool0 type",
	} {
		cut = append(cut, "interface ethernet 1/9 "+tail)
	}
	for _, line := range cut {
		var got *State
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%q: panic %v", line, r)
				}
			}()
			got = mustOnyx(onyxMutBase + "   " + line + "\n")
		}()
		if got == nil {
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q changed the state read (-without +with):\n%s", line, d)
		}
	}
}

// TestOnyxMutHostilePortNames: a port name or range that is not Onyx's
// "1/1" or "1/1-1/4" (a damaged line, or a switch in a state no sample
// shows) is kept as the one name it is, never expanded and never a
// panic.
func TestOnyxMutHostilePortNames(t *testing.T) {
	for name, want := range map[string][]string{
		"1-1/4":       {"1-1/4"},
		"1/1-4":       {"1/1-4"},
		"1-4":         {"1-4"},
		"1/1-2/2":     {"1/1-2/2"},
		"1/1/1-1/1/2": {"1/1/1", "1/1/2"},
		"1/7-1/8":     {"1/7", "1/8"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%q: panic %v", name, r)
				}
			}()
			if got := expandOnyxPorts(name); !cmp.Equal(got, want) {
				t.Errorf("expandOnyxPorts(%q) = %q, want %q", name, got, want)
			}
		}()
	}
}

// onyxMutPort is what TestOnyxMutPortLines checks of a port.
type onyxMutPort struct {
	Mode        model.PortMode
	AccessVLAN  int
	TrunkVLANs  []int
	Trust       model.Trust
	Shutdown    AdminDown
	LinkPause   bool
	Description string
}

// TestOnyxMutPortLines pins each port line's reading: the switchport
// modes of the NVIDIA Onyx User Manual (Interfaces, "switchport mode
// access|trunk|hybrid"; "no switchport force" makes a router port, as
// in HPE Cray CSM documentation's `show run int ethernet 1/16`),
// the allowed-VLAN forms (mellanox.onyx onyx_l2_interface.py: "none",
// then "add"/"remove" one VLAN at a time), `qos trust L2|L3|both`
// (mellanox.onyx onyx_qos.py trust choices), `flowcontrol send on
// force` and a description printed unquoted (the Cray-HPE canu
// sample). A port without a mode line is an access port.
func TestOnyxMutPortLines(t *testing.T) {
	s := mustOnyx(`   interface ethernet 1/1 switchport access vlan 10
   interface ethernet 1/1 shutdown
   interface ethernet 1/1 no shutdown
   interface ethernet 1/1 description leaf2-uplink
   interface ethernet 1/2 switchport mode access
   interface ethernet 1/2 switchport access vlan 20
   interface ethernet 1/2 qos trust both
   interface ethernet 1/2 flowcontrol send on force
   interface ethernet 1/3 no switchport force
   interface ethernet 1/3 shutdown
   interface ethernet 1/4 switchport mode hybrid
   interface ethernet 1/4 switchport hybrid allowed-vlan none
   interface ethernet 1/4 switchport hybrid allowed-vlan add 20
   interface ethernet 1/5 switchport mode trunk
   interface ethernet 1/5 switchport trunk allowed-vlan none
   interface ethernet 1/5 switchport trunk allowed-vlan add 10
   interface ethernet 1/5 switchport trunk allowed-vlan add 20
   interface ethernet 1/5 switchport trunk allowed-vlan add 30
   interface ethernet 1/5 switchport trunk allowed-vlan remove 20
   interface ethernet 1/5 qos trust L2
   interface ethernet 1/6 switchport mode trunk
   interface ethernet 1/6 switchport trunk allowed-vlan 10,20
   interface ethernet 1/7 switchport mode trunk
   interface ethernet 1/7 switchport trunk allowed-vlan 10
   interface ethernet 1/7 switchport trunk allowed-vlan all
   interface ethernet 1/8 description "
`)
	want := map[string]onyxMutPort{
		"1/1": {Mode: model.ModeAccess, AccessVLAN: 10, Trust: model.TrustPCP, Description: "leaf2-uplink"},
		"1/2": {Mode: model.ModeAccess, AccessVLAN: 20, Trust: model.TrustBoth, LinkPause: true},
		"1/3": {Mode: model.ModeRouted, Trust: model.TrustPCP, Shutdown: true},
		"1/4": {Mode: model.ModeTrunk, TrunkVLANs: []int{20}, Trust: model.TrustPCP},
		"1/5": {Mode: model.ModeTrunk, TrunkVLANs: []int{10, 30}, Trust: model.TrustPCP},
		"1/6": {Mode: model.ModeTrunk, TrunkVLANs: []int{10, 20}, Trust: model.TrustPCP},
		"1/7": {Mode: model.ModeTrunk, Trust: model.TrustPCP},
		// A lone quote is no quoted string: kept as the text it is.
		"1/8": {Mode: model.ModeAccess, Trust: model.TrustPCP, Description: `"`},
	}
	got := map[string]onyxMutPort{}
	for name, p := range s.Ports {
		got[name] = onyxMutPort{p.Mode, p.AccessVLAN, p.TrunkVLANs, p.Trust, p.Shutdown, p.LinkPause, p.Description}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
}

// TestOnyxMutMaps pins the per-port QoS maps of Onyx's running-config:
// `qos map dscp LIST to switch-priority SP` with a list of several DSCP
// values and `traffic-class TC bind switch-priority LIST` with several
// priorities (NVIDIA Onyx User Manual, QoS: "qos map dscp 24 26 to
// switch-priority 3"; mellanox.onyx fixture
// show_qos_interface_ethernet.cfg for the defaults: DSCP d to switch
// priority d/8, switch priority p to traffic class p).
func TestOnyxMutMaps(t *testing.T) {
	s := mustOnyx(`   interface ethernet 1/1 qos map dscp 24 26 to switch-priority 3
   interface ethernet 1/1 traffic-class 3 bind switch-priority 3 4
   interface ethernet 1/1 traffic-class 1 bind switch-priority 0
`)
	want := map[int]int{}
	for d := 0; d < 64; d++ {
		want[d] = d / 8
	}
	for d := 0; d < 8; d++ {
		want[d] = 1 // switch priority 0 -> TC 1
	}
	for d := 32; d < 40; d++ {
		want[d] = 3 // switch priority 4 -> TC 3
	}
	want[24], want[26] = 3, 3
	if d := cmp.Diff(want, s.Ports["1/1"].DSCPToTC); d != "" {
		t.Errorf("DSCP -> TC (-want +got):\n%s", d)
	}
}

// TestOnyxMutTrafficPools pins the traffic pools (mellanox.onyx
// onyx_buffer_pool.py: `traffic pool NAME type lossless|lossy`, `traffic
// pool NAME memory percent P`, `traffic pool NAME map switch-priority
// LIST`): two lossless pools are a conflict naming both, pools over
// 100 % one naming the total, the larger pool of a type is compared
// (of equal ones the first by name), a pool without a type line is not
// compared by type, and no pool lines at all is nil, nothing to compare.
func TestOnyxMutTrafficPools(t *testing.T) {
	s := mustOnyx(`##
## Traffic pools
##
   traffic pool roce type lossless
   traffic pool roce memory percent 50.00
   traffic pool roce map switch-priority 3
   traffic pool spare type lossless
   traffic pool spare memory percent 60.00
   traffic pool spare map switch-priority 4 5
   traffic pool bulk-a type lossy
   traffic pool bulk-a memory percent 10.00
   traffic pool bulk-a map switch-priority 0
   traffic pool bulk-b type lossy
   traffic pool bulk-b memory percent 10.00
   traffic pool bulk-b map switch-priority 1
   traffic pool other memory percent 5.00
   advanced buffer management force
`)
	wantPools := map[string]Pool{"lossless": {Percent: 60, Priorities: []int{4, 5}}, "lossy": {Percent: 10, Priorities: []int{0}}}
	if d := cmp.Diff(wantPools, s.Pools); d != "" {
		t.Errorf("pools (-want +got):\n%s", d)
	}
	wantConflicts := []Difference{
		{Field: "lossless traffic pools", Intended: "one, the fabric's (remove the other with no traffic pool NAME)",
			Actual: "roce 50.00% priorities 3, spare 60.00% priorities 4,5"},
		{Field: "traffic pools total", Intended: "at most 100%", Actual: "135.00%"},
		{Field: "buffer mode", Intended: "one: traffic pools (3.6.5000 and later) or advanced buffer management (before)",
			Actual: "advanced buffer management force and traffic pools bulk-a, bulk-b, other, roce, spare"},
	}
	if d := cmp.Diff(wantConflicts, s.Conflicts); d != "" {
		t.Errorf("conflicts (-want +got):\n%s", d)
	}
	one := mustOnyx("   traffic pool roce type lossless\n   traffic pool roce memory percent 50.00\n")
	if d := cmp.Diff(map[string]Pool{"lossless": {Percent: 50}}, one.Pools); d != "" || one.Conflicts != nil {
		t.Errorf("one pool: pools (-want +got):\n%s conflicts %q", d, one.Conflicts)
	}
	if none := mustOnyx("   interface ethernet 1/1 mtu 9216 force\n"); none.Pools != nil || none.Conflicts != nil {
		t.Errorf("no pool lines: pools %v, conflicts %q, want nil, nil", none.Pools, none.Conflicts)
	}
}

// TestOnyxMutRoCEMode pins `show roce` as the NVIDIA Onyx User Manual
// 3.10, "RoCE Commands" prints it (3.8.3000 example: "RoCE mode      :
// lossless", then "LLDP : disabled", "Port trust mode: L3"; with RoCE
// mode off "RoCE mode: N/A"): the mode on is a conflict, off none.
func TestOnyxMutRoCEMode(t *testing.T) {
	const on = "RoCE mode      : lossless\nLLDP : disabled\nPort trust mode: L3\n\n"
	for out, want := range map[string]string{on: "lossless", "RoCE mode: N/A\n": "", "": "",
		"LLDP : disabled\nRoCE mode      : lossy\n": "lossy"} {
		if got := OnyxRoCEMode(out); got != want {
			t.Errorf("OnyxRoCEMode(%q) = %q, want %q", out, got, want)
		}
		s := NewState()
		ApplyOnyxRoCE(s, out)
		var wantC []Difference
		if want != "" {
			wantC = []Difference{{Field: "RoCE mode", Intended: "off (turn it off with no roce)", Actual: want}}
		}
		if d := cmp.Diff(wantC, s.Conflicts); d != "" {
			t.Errorf("ApplyOnyxRoCE(%q) conflicts (-want +got):\n%s", out, d)
		}
	}
}

// TestOnyxMutPFCOperOverlay: `show dcb priority-flow-control |
// json-print` overrides the running-config (mellanox.onyx
// onyx_pfc_interface.py shapes): a port whose running-config turns PFC
// on but whose "PFC oper" is Disabled has no PFC; an interface entry
// with an empty table leaves the port as the running-config read it;
// output that is no JSON is an error naming the command.
func TestOnyxMutPFCOperOverlay(t *testing.T) {
	s := mustOnyx(`   dcb priority-flow-control priority 3 enable
   interface ethernet 1/1 dcb priority-flow-control mode on force
   interface ethernet 1/2 dcb priority-flow-control mode on force
`)
	js := `[{"PFC": "enabled", "Priority Enabled List": "3"}, {"Eth1/1": [{"PFC admin": "on", "PFC oper": "Disabled"}], "Eth1/2": []}]`
	if err := ApplyOnyxPFC(s, []byte(js)); err != nil {
		t.Fatal(err)
	}
	if p := s.Ports["1/1"]; p.PFC != nil || p.SwitchWide != nil {
		t.Errorf("1/1 with PFC oper Disabled: PFC %v, switch-wide %v; want none", p.PFC, p.SwitchWide)
	}
	if p := s.Ports["1/2"]; !cmp.Equal(p.PFC, []int{3}) {
		t.Errorf("1/2 with an empty table: PFC %v, want the running-config's [3]", p.PFC)
	}
	err := ApplyOnyxPFC(s, []byte("% Unrecognized command"))
	if err == nil || !strings.HasPrefix(err.Error(), "show dcb priority-flow-control | json-print: ") {
		t.Errorf("not JSON: error %v, want one naming show dcb priority-flow-control | json-print", err)
	}
}

// TestOnyxMutIngressBufferName: only "iPort.pgN" names an ingress
// priority group (Onyx User Manual, ingress-buffer); a bare number is
// no group.
func TestOnyxMutIngressBufferName(t *testing.T) {
	s := mustOnyx("   interface ethernet 1/1 ingress-buffer 3 bind switch-priority 3\n" +
		"   interface ethernet 1/1 ingress-buffer iPort.pgx bind switch-priority 3\n")
	if b := s.Ports["1/1"].IngressBuffers; len(b) != 0 {
		t.Errorf("ingress buffers %v, want none", b)
	}
}
