package verify

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// diffs is Compare's differences as strings.
func diffs(want, got *State) string {
	var out []string
	for _, d := range Compare("sw1", want, got) {
		out = append(out, d.String())
	}
	return strings.Join(out, "|")
}

// TestECNToleranceBounds checks the exact edges of the ECN tolerance:
// one KiB (1024 B) below and 7 % + 1 KiB above the intended value.
// Anything outside is a real change that verify must report.
func TestECNToleranceBounds(t *testing.T) {
	want := ECN{MinBytes: 150000, MaxBytes: 1500000}
	for _, tc := range []struct {
		got ECN
		ok  bool
	}{
		{ECN{MinBytes: 150000 - 1024, MaxBytes: 1500000}, true},
		{ECN{MinBytes: 150000 - 1025, MaxBytes: 1500000}, false},
		{ECN{MinBytes: 148000, MaxBytes: 1500000}, false}, // 2000 B below: more than a KB rounding
		{ECN{MinBytes: 150000, MaxBytes: 1500000 - 1024}, true},
		{ECN{MinBytes: 150000, MaxBytes: 1500000 - 1025}, false},
		{ECN{MinBytes: 150000 + 10500 + 1024, MaxBytes: 1500000}, true}, // 7 % of 150000 = 10500
		{ECN{MinBytes: 150000 + 10500 + 1025, MaxBytes: 1500000}, false},
		{ECN{MinBytes: 150000, MaxBytes: 1500000 + 105000 + 1024}, true},
		{ECN{MinBytes: 150000, MaxBytes: 1500000 + 105000 + 1025}, false},
	} {
		if got := ecnRangeClose(ecnViewOf(want).Range, ecnViewOf(tc.got).Range); got != tc.ok {
			t.Errorf("ecnRangeClose(%v, %v) = %v, want %v", want, tc.got, got, tc.ok)
		}
	}
}

// TestPoolPercentExact: a pool's share is compared as configured, to the
// hundredth Onyx prints; anything else, a NaN too, is a difference.
func TestPoolPercentExact(t *testing.T) {
	w := map[string]Pool{"lossy": {Percent: 48.3, Priorities: []int{0, 1, 2}}}
	for _, tc := range []struct {
		got  float64
		want string
	}{
		{48.3, ""},
		{48.30000001, ""},
		{48.31, "sw1 pool lossy percent: intended 48.3, actual 48.31"},
		{48, "sw1 pool lossy percent: intended 48.3, actual 48"},
		{math.NaN(), "sw1 pool lossy percent: intended 48.3, actual NaN"},
	} {
		g := map[string]Pool{"lossy": {Percent: tc.got, Priorities: []int{0, 1, 2}}}
		var got []string
		for _, d := range comparePools("sw1", w, g) {
			got = append(got, d.String())
		}
		if s := strings.Join(got, "|"); s != tc.want {
			t.Errorf("actual %v: %q, want %q", tc.got, s, tc.want)
		}
	}
}

// TestEOSDefaultDSCPMap checks the DSCP -> traffic class map EOS uses for
// a DSCP without a "qos map dscp" line: DSCP 0-7 -> TC 1 and 8-15 -> TC
// 0 (EOS keeps TC 0 below best effort: CoS 1 -> TC 0, CoS 0 -> TC 1),
// then DSCP 8n..8n+7 -> TC n.
func TestEOSDefaultDSCPMap(t *testing.T) {
	s := mustEOS("interface Ethernet1/1\n   mtu 9216\n")
	m := s.Ports["Ethernet1/1"].DSCPToTC
	for d, want := range map[int]int{0: 1, 7: 1, 8: 0, 15: 0, 16: 2, 26: 3, 46: 5, 48: 6, 63: 7} {
		if m[d] != want {
			t.Errorf("EOS default: DSCP %d -> TC %d, want %d", d, m[d], want)
		}
	}
}

// TestOnyxDefaults checks what a port reads as when Onyx's running-config
// leaves a setting at its default (no line): trust L2 (PCP), and the
// default map DSCP 8n..8n+7 -> switch priority n -> traffic class n.
func TestOnyxDefaults(t *testing.T) {
	f, sw := fabric("1/1")
	f.QoS.DSCPToPriority = make([]int, 64)
	for d := range f.QoS.DSCPToPriority {
		f.QoS.DSCPToPriority[d] = d / 8
	}
	f.QoS.PriorityToTC = []int{0, 1, 2, 3, 4, 5, 6, 7}
	if got := diffs(Expect(f, sw), mustOnyx(onyxRunning)); got != "" {
		t.Errorf("default DSCP map equal to the model's: differences %q", got)
	}
	noTrust := strings.Replace(onyxRunning, "interface ethernet 1/1 qos trust L3\n", "", 1)
	if got, want := diffs(Expect(f, sw), mustOnyx(noTrust)), "sw1 1/1 trust: intended dscp, actual pcp"; got != want {
		t.Errorf("no trust line: %q, want %q", got, want)
	}
}

// TestOnyxPortPFCMode checks that PFC enabled switch-wide on a priority
// is not PFC on a port: the port needs "dcb priority-flow-control mode on
// force" too.
func TestOnyxPortPFCMode(t *testing.T) {
	f, sw := fabric("1/1")
	running := strings.Replace(onyxRunning, "interface ethernet 1/1 dcb priority-flow-control mode on force\n", "", 1)
	if got, want := diffs(Expect(f, sw), mustOnyx(running)), "sw1 1/1 PFC priorities: intended 3, actual none"; got != want {
		t.Errorf("port without PFC mode: %q, want %q", got, want)
	}
}

// TestOnyxAllowedVLANs checks how Onyx trunk and hybrid lines build the
// tagged VLAN list: "none" clears it, "add" and "remove" edit it, and a
// hybrid port's access VLAN is carried untagged on the trunk (the
// model's native VLAN, which the model lists among the trunk VLANs).
func TestOnyxAllowedVLANs(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		want        []int
	}{
		{"add and remove", "interface ethernet 1/1 switchport mode trunk\n" +
			"interface ethernet 1/1 switchport trunk allowed-vlan none\n" +
			"interface ethernet 1/1 switchport trunk allowed-vlan add 100\n" +
			"interface ethernet 1/1 switchport trunk allowed-vlan add 200\n" +
			"interface ethernet 1/1 switchport trunk allowed-vlan remove 200\n", []int{100}},
		{"hybrid", "interface ethernet 1/1 switchport mode hybrid\n" +
			"interface ethernet 1/1 switchport access vlan 10\n" +
			"interface ethernet 1/1 switchport hybrid allowed-vlan none\n" +
			"interface ethernet 1/1 switchport hybrid allowed-vlan add 2\n", []int{2, 10}},
	} {
		p := mustOnyx(tc.lines).Ports["1/1"]
		if p == nil || intsText(p.TrunkVLANs) != intsText(tc.want) || p.Mode != "trunk" {
			t.Errorf("%s: %+v, want trunk VLANs %v", tc.name, p, tc.want)
		}
	}
}

// TestEOSTrustCoS checks that "qos trust cos" reads as PCP trust.
func TestEOSTrustCoS(t *testing.T) {
	f, sw := fabric("Ethernet1/1")
	running := strings.Replace(eosRunning, "   qos trust dscp\n", "   qos trust cos\n", 1)
	if got, want := diffs(Expect(f, sw), mustEOS(running)), "sw1 Ethernet1/1 trust: intended dscp, actual pcp"; got != want {
		t.Errorf("trust cos: %q, want %q", got, want)
	}
}

// TestEOSThresholdUnits checks that the EOS threshold units scale
// consistently: 1 mbytes is 1024 kbytes, as 1 kbytes is 1024 bytes
// (TestParsersMatchModel reads 150 kbytes as 153600 B); segments and
// time units stay in their own unit.
func TestEOSThresholdUnits(t *testing.T) {
	for _, tc := range []struct {
		v, unit  string
		want     int64
		wantUnit string
	}{
		{"150", "bytes", 150, ""},
		{"150", "kbytes", 150 * 1024, ""},
		{"2", "mbytes", 2 * 1024 * 1024, ""},
		{"150", "segments", 150, "segments"},
		{"320", "microseconds", 320, "microseconds"},
		{"1", "milliseconds", 1, "milliseconds"},
	} {
		if got, unit := eosThreshold(tc.v, tc.unit); got != tc.want || unit != tc.wantUnit {
			t.Errorf("eosThreshold(%s %s) = %d %q, want %d %q", tc.v, tc.unit, got, unit, tc.want, tc.wantUnit)
		}
	}
	if a, _ := eosThreshold("1", "mbytes"); a != 1024*1024 {
		t.Errorf("1 mbytes = %d B, want 1024 kbytes", a)
	}
}

// TestNVUEReadBack checks three NVUE read-backs: the DSCP map goes
// through egress-queue-mapping (switch priority -> traffic class), a
// traffic class whose ecn is disabled has no ECN, and roce-lossless
// counts as a lossless pool (NVUE command reference).
func TestNVUEReadBack(t *testing.T) {
	doc := strings.Replace(nvueJSON, `"mapping": {"default-global": {"trust": "l3"}},`,
		`"mapping": {"default-global": {"trust": "l3", "dscp": {"26": {"switch-priority": 3}, "48": {"switch-priority": 6}, "0": {"switch-priority": 0}}}},
		 "egress-queue-mapping": {"default-global": {"switch-priority": {"3": {"traffic-class": 3}, "6": {"traffic-class": 5}, "0": {"traffic-class": 0}}}},
		 "traffic-pool": {"roce-lossless": {"memory-percent": 50, "switch-priority": {"3": {}}}},`, 1)
	doc = strings.Replace(doc, `"probability": 100, "ecn": "enable"}`, `"probability": 100, "ecn": "enable"}, "0": {"min-threshold": 1000, "max-threshold": 2000, "ecn": "disable"}`, 1)
	s, err := ParseNVUE([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Ports["swp1"]
	if got := p.DSCPToTC; got[26] != 3 || got[48] != 5 || got[0] != 0 {
		t.Errorf("DSCP -> TC %v, want 26:3 48:5 (switch priority 6 -> TC 5) 0:0", got)
	}
	if _, ok := p.ECN[0]; ok || len(p.ECN) != 1 {
		t.Errorf("ECN %v, want TC 3 only (TC 0 has ecn disable)", p.ECN)
	}
	if pl, ok := s.Pools["lossless"]; !ok || pl.Percent != 50 || intsText(pl.Priorities) != "3" {
		t.Errorf("pools %v, want lossless 50%% priorities 3 from roce-lossless", s.Pools)
	}
}

// TestNVUEGroupedInterfaces: `nv config show` groups interfaces whose
// settings are the same under one key and keeps what differs under an
// interface's own key. Shapes of two public samples: the NVUE Command
// Reference's `nv config show` example (CumulusNetworks/docs
// content/nvue-reference/Config-Commands.md, Cumulus Linux 5.7.0:
// "bond1" with its member and access VLAN, "bond1-3" with mtu and
// type), and the switch configuration NVIDIA Air's custom topology guide
// exports with `nv config show -o yaml` (Cumulus Linux 5.15.0: VLANs
// "10,20,30,40", "swp2,6" with access 10).
func TestNVUEGroupedInterfaces(t *testing.T) {
	const doc = `[{"header": {"model": "vx", "nvue-api-version": "nvue_v1", "rev-id": 1.0, "version": "Cumulus Linux 5.15.0"}},
 {"set": {
  "bridge": {"domain": {"br_default": {"untagged": 1, "vlan": {"10,20,30,40": {}}}}},
  "interface": {
   "bond1": {"bond": {"member": {"swp1": {}}, "mlag": {"id": 1}}, "bridge": {"domain": {"br_default": {"access": 10}}}},
   "bond1-3": {"bond": {"lacp-bypass": "on", "mlag": {"enable": "on"}}, "link": {"mtu": 9000}, "type": "bond"},
   "eth0": {"ipv4": {"dhcp-client": {"set-hostname": "enabled", "state": "enabled"}}, "type": "eth", "vrf": "mgmt"},
   "swp2,6": {"bridge": {"domain": {"br_default": {"access": 10}}}},
   "swp2-4,6": {"link": {"mtu": 9216}, "type": "swp"},
   "swp4": {"link": {"mtu": 1500}},
   "vlan10": {"ipv4": {"address": {"172.17.1.1/24": {}}}, "type": "svi", "vlan": 10}
  }}}]`
	s, err := ParseNVUE([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	type port struct {
		mode   model.PortMode
		access int
		mtu    int
	}
	want := map[string]port{
		"bond1": {model.ModeAccess, 10, 9000}, "bond2": {model.ModeRouted, 0, 9000}, "bond3": {model.ModeRouted, 0, 9000},
		"swp2": {model.ModeAccess, 10, 9216}, "swp3": {model.ModeRouted, 0, 9216}, "swp4": {model.ModeRouted, 0, 1500},
		"swp6": {model.ModeAccess, 10, 9216},
	}
	for name, w := range want {
		p := s.Ports[name]
		if p == nil {
			t.Errorf("%s: missing (ports %v)", name, slices.Sorted(maps.Keys(s.Ports)))
			continue
		}
		if got := (port{p.Mode, p.AccessVLAN, p.MTU}); got != w {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
	}
	for _, name := range []string{"swp2,6", "swp2-4,6", "bond1-3", "swp5"} {
		if _, ok := s.Ports[name]; ok {
			t.Errorf("port %q read from a grouped key", name)
		}
	}
	if got := slices.Sorted(maps.Keys(s.VLANs)); !slices.Equal(got, []int{10, 20, 30, 40}) {
		t.Errorf("VLANs %v, want 10 20 30 40", got)
	}
}

// TestNVUENames: NVUE interface lists, and lists a hostile device could
// print, expand to bounded name lists.
func TestNVUENames(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"swp1", "swp1"},
		{"swp2,6", "swp2 swp6"},
		{"swp1-3,swp6,8-9", "swp1 swp2 swp3 swp6 swp8 swp9"},
		{"swp1s0-1,bond1", "swp1s0 swp1s1 bond1"},
		{"lo,eth0", "lo eth0"},
		{"swp9-2", "swp9-2"},
		{"swp1-999999", "swp1-999999"},
		{"swp1-99999999999999999999999", "swp1-99999999999999999999999"},
		{",,", ""},
	} {
		if got := strings.Join(NVUENames(tc.key), " "); got != tc.want {
			t.Errorf("NVUENames(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
