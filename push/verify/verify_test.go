package verify

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// fabric is a small RoCE fabric: roce TC3 lossless WRR 50 ECN 150/1500 KiB,
// cnp TC6 strict, default TC0 WRR 50, VLAN 100 "rdma".
func fabric(port string) (*model.Fabric, *model.Switch) {
	f := &model.Fabric{
		VLANs: []model.VLAN{{ID: 100, Name: "rdma"}},
		QoS: model.QoS{Classes: []model.Class{
			{Name: "default", TrafficClass: 0, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
			{Name: "roce", Priority: 3, TrafficClass: 3, Lossless: true, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
				ECN: &model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}},
			{Name: "cnp", Priority: 6, TrafficClass: 6, ETS: model.ETS{Mode: model.ETSStrict}},
		}},
	}
	sw := &model.Switch{Name: "sw1", Ports: []model.Port{{
		Name: port, MTU: 9216, Mode: model.ModeTrunk, TrunkVLANs: []int{100},
		Trust: model.TrustDSCP, PFCPriorities: []int{3},
	}}}
	f.Switches = []model.Switch{*sw}
	return f, sw
}

// onyxRunning is a realistic Onyx RoCE block (commands of the mellanox.onyx
// modules) as a real
// `show running-config` prints it: "##" headers, lines indented by three
// spaces, port ranges (intel mfd-switchmanagement's Onyx test data).
const onyxRunning = `##
## Running database "initial"
##
no cli default prefix-modes enable
dcb priority-flow-control enable force
dcb priority-flow-control priority 3 enable
vlan 100
vlan 100 name "rdma"
   interface ethernet 1/1-1/2 mtu 9216 force
   interface ethernet 1/1 switchport mode trunk
interface ethernet 1/1 switchport trunk allowed-vlan add 100
interface ethernet 1/1 qos trust L3
interface ethernet 1/1 traffic-class 3 dcb ets wrr 50
interface ethernet 1/1 traffic-class 0 dcb ets wrr 50
interface ethernet 1/1 traffic-class 6 dcb ets strict
interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500
interface ethernet 1/1 dcb priority-flow-control mode on force
`

// eosRunning is a realistic EOS RoCE block (syntax of Arista AVD
// eos_cli_config_gen).
const eosRunning = `vlan 100
   name rdma
!
qos map traffic-class 0 to cos 0
qos map traffic-class 1 to cos 1
!
qos profile ROCE
   qos trust dscp
   !
   uc-tx-queue 3
      no priority
      bandwidth percent 50
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100
   uc-tx-queue 0
      no priority
      bandwidth percent 50
   uc-tx-queue 6
      priority strict
   !
   priority-flow-control on
   priority-flow-control priority 3 no-drop
!
interface Ethernet1/1
   mtu 9216
   switchport mode trunk
   switchport trunk allowed vlan 100
   service-profile ROCE
`

const nvueJSON = `[{"header": {"model": "vx", "version": "cumulus-linux 5.9.1"}},
 {"set": {
  "bridge": {"domain": {"br_default": {"vlan": {"100": {}}}}},
  "interface": {"swp1": {"type": "swp", "link": {"mtu": 9216},
     "bridge": {"domain": {"br_default": {}}}}},
  "qos": {
   "mapping": {"default-global": {"trust": "l3"}},
   "pfc": {"default-global": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}},
   "egress-scheduler": {"default-global": {"traffic-class": {"0": {"mode": "dwrr", "bw-percent": 45}, "3": {"mode": "dwrr", "bw-percent": 50}, "6": {"mode": "strict"},
     "1,2,4,5,7": {"mode": "dwrr", "bw-percent": 1}}}},
   "congestion-control": {"default-global": {"traffic-class": {"0": {"ecn": "disable"}, "3": {"min-threshold": 153600, "max-threshold": 1536000, "probability": 100, "ecn": "enable"}}}}
  }}}]`

func TestParsersMatchModel(t *testing.T) {
	nv, err := ParseNVUE([]byte(nvueJSON))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, port string
		got        *State
	}{
		{"onyx", "1/1", mustOnyx(onyxRunning)},
		{"eos", "Ethernet1/1", mustEOS(eosRunning)},
		{"nvue", "swp1", nv},
	} {
		f, sw := fabric(tc.port)
		if tc.name == "nvue" {
			sw.Platform = model.PlatformCumulus
		}
		if d := Compare("sw1", Expect(f, sw), tc.got); len(d) != 0 {
			t.Errorf("%s: unexpected differences %v", tc.name, d)
		}
	}
}

func TestCompareNamesEachDifference(t *testing.T) {
	drifted := strings.NewReplacer(
		"mtu 9216 force", "mtu 9116 force",
		"minimum-absolute 150 maximum-absolute 1500", "minimum-absolute 50 maximum-absolute 1500",
		"traffic-class 6 dcb ets strict", "traffic-class 6 dcb ets wrr 10",
		"dcb priority-flow-control priority 3 enable", "dcb priority-flow-control priority 4 enable",
		"qos trust L3", "qos trust L2",
		`vlan 100 name "rdma"`, `vlan 100 name "x"`,
	).Replace(onyxRunning)
	f, sw := fabric("1/1")
	var got []string
	for _, d := range Compare("sw1", Expect(f, sw), mustOnyx(drifted)) {
		got = append(got, d.String())
	}
	want := []string{
		"sw1 VLAN 100 name: intended rdma, actual x",
		"sw1 1/1 MTU: intended 9216, actual 9116",
		"sw1 1/1 trust: intended dscp, actual pcp",
		"sw1 1/1 PFC priorities: intended 3, actual 4",
		"sw1 1/1 ETS TC6 mode: intended strict, actual wrr",
		"sw1 1/1 ETS TC6 bandwidth: intended 0, actual 10",
		"sw1 1/1 ECN TC3: intended min 150KB max 1500KB, actual min 50KB max 1500KB",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCompareUnsetAndAbsent: a port the running configuration leaves
// without an MTU line (Onyx prints none for its default, 1500: the
// mellanox.onyx fixture onyx_interfaces_show.cfg) reads as the 1500 it
// runs, saying why, not "0" nor "not set" (rops #8); a port the configuration does not have at all is one line,
// not a zero for each of its fields.
func TestCompareUnsetAndAbsent(t *testing.T) {
	f, sw := fabric("1/1")
	noMTU := strings.Replace(onyxRunning, "   interface ethernet 1/1-1/2 mtu 9216 force\n", "", 1)
	var got []string
	for _, d := range Compare("sw1", Expect(f, sw), mustOnyx(noMTU)) {
		got = append(got, d.String())
	}
	if want := "sw1 1/1 MTU: intended 9216, actual 1500 (Onyx's default; no mtu line)"; strings.Join(got, "|") != want {
		t.Errorf("port without an MTU line: %q, want %q", got, want)
	}
	f, sw = fabric("1/3")
	got = nil
	for _, d := range Compare("sw1", Expect(f, sw), mustOnyx(onyxRunning)) {
		got = append(got, d.String())
	}
	if want := "sw1 1/3 port: intended configured, actual not in the switch's configuration"; strings.Join(got, "|") != want {
		t.Errorf("port the switch does not configure: %q, want %q", got, want)
	}
}

func TestECNTolerance(t *testing.T) {
	want := ECN{MinBytes: 150000, MaxBytes: 1500000}
	for _, tc := range []struct {
		got ECN
		ok  bool
	}{
		{ECN{MinBytes: 149504, MaxBytes: 1499136}, true},  // 146 KB / 1464 KB: 150000 B rounded down to KB, not up as targets/onyx writes it
		{ECN{MinBytes: 159744, MaxBytes: 1500160}, true},  // Spectrum-4 HW rounding (Cumulus Linux user guide, RoCE)
		{ECN{MinBytes: 100000, MaxBytes: 1500000}, false}, // a real change
		{ECN{MinBytes: 150000, MaxBytes: 1700000}, false},
	} {
		if ecnRangeClose(ecnViewOf(want).Range, ecnViewOf(tc.got).Range) != tc.ok {
			t.Errorf("ecnRangeClose(%v, %v) = %v", want, tc.got, !tc.ok)
		}
	}
}

func TestParseEOSJSON(t *testing.T) {
	running := `{"cmds": {"vlan 100": {"cmds": {"name rdma": null}},
	  "qos profile ROCE": {"cmds": {"qos trust dscp": null, "priority-flow-control on": null,
	     "priority-flow-control priority 3 no-drop": null,
	     "uc-tx-queue 3": {"cmds": {"no priority": null, "bandwidth percent 50": null,
	        "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100": null}},
	     "uc-tx-queue 0": {"cmds": {"no priority": null, "bandwidth percent 50": null}},
	     "uc-tx-queue 6": {"cmds": {"priority strict": null}}}},
	  "interface Ethernet1/1": {"cmds": {"mtu 9216": null, "switchport mode trunk": null,
	     "switchport trunk allowed vlan 100": null, "service-profile ROCE": null}}},
	 "header": ["! device: leaf1"]}`
	// The napalm/anta shape of show interfaces: the port really runs 9116.
	ifs := `{"interfaces": {"Ethernet1/1": {"name": "Ethernet1/1", "mtu": 9116, "bandwidth": 100000000000}}}`
	got, err := ParseEOSJSON([]byte(running), []byte(ifs))
	if err != nil {
		t.Fatal(err)
	}
	f, sw := fabric("Ethernet1/1")
	d := Compare("sw1", Expect(f, sw), got)
	if len(d) != 1 || d[0].String() != "sw1 Ethernet1/1 MTU: intended 9216, actual 9116" {
		t.Errorf("differences = %v", d)
	}
	if _, err := ParseEOSJSON([]byte("% Invalid input"), nil); err == nil {
		t.Error("want an error for non-JSON output")
	}
}

func TestMapsAndWatchdog(t *testing.T) {
	f, sw := fabric("1/1")
	f.QoS.DSCPToPriority = make([]int, 64)
	f.QoS.DSCPToPriority[26], f.QoS.DSCPToPriority[48] = 3, 6
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	sw.Ports[0].PFCWatchdog = true
	var others []string
	for d := 0; d < 64; d++ {
		if d != 26 && d != 48 {
			others = append(others, itoa(d))
		}
	}
	maps := "interface ethernet 1/1 pfc-wd\n" +
		"interface ethernet 1/1 qos map dscp " + strings.Join(others, " ") + " to switch-priority 0\n" +
		"interface ethernet 1/1 qos map dscp 26 to switch-priority 3\n" +
		"interface ethernet 1/1 qos map dscp 48 to switch-priority 6\n" +
		"interface ethernet 1/1 traffic-class 0 bind switch-priority 0 1 2 4 5 7\n"
	if d := Compare("sw1", Expect(f, sw), mustOnyx(onyxRunning+maps)); len(d) != 0 {
		t.Errorf("onyx with maps: %v", d)
	}
	// DSCP 26 mapped to switch priority 4, which the bind line puts in TC 0.
	bad := strings.Replace(maps, "dscp 26 to switch-priority 3", "dscp 26 to switch-priority 4", 1)
	bad = strings.Replace(bad, "interface ethernet 1/1 pfc-wd\n", "", 1)
	var got []string
	for _, x := range Compare("sw1", Expect(f, sw), mustOnyx(onyxRunning+bad)) {
		got = append(got, x.String())
	}
	want := "sw1 1/1 PFC watchdog: intended on, actual off|sw1 1/1 DSCP 26 traffic class: intended 3, actual 0"
	if strings.Join(got, "|") != want {
		t.Errorf("differences %q, want %q", got, want)
	}
	// EOS: the global qos map lines as targets/eos renders them give no
	// difference; a wrong line for DSCP 26 is caught. Values without a
	// line take EOS's default map, so leaving out the DSCP 26 line (its
	// default, TC 3, is the intent) is no difference either.
	f2, sw2 := fabric("Ethernet1/1")
	f2.QoS = f.QoS
	eos := strings.Replace(eosRunning, "   priority-flow-control on\n", "   priority-flow-control on\n   priority-flow-control pause watchdog\n", 1)
	eosMaps := "qos map dscp " + strings.Join(others, " ") + " to traffic-class 0\n" +
		"qos map dscp 26 to traffic-class 3\n" +
		"qos map dscp 48 to traffic-class 6\n"
	sw2.Ports[0].PFCWatchdog = true
	if d := Compare("sw1", Expect(f2, sw2), mustEOS(eos+eosMaps)); len(d) != 0 {
		t.Errorf("eos: %v", d)
	}
	if d := Compare("sw1", Expect(f2, sw2), mustEOS(eos+strings.Replace(eosMaps, "qos map dscp 26 to traffic-class 3\n", "", 1))); len(d) != 0 {
		t.Errorf("eos without the default-equal line: %v", d)
	}
	got = nil
	for _, x := range Compare("sw1", Expect(f2, sw2), mustEOS(eos+strings.Replace(eosMaps, "dscp 26 to traffic-class 3", "dscp 26 to traffic-class 0", 1))) {
		got = append(got, x.String())
	}
	if want := "sw1 Ethernet1/1 DSCP 26 traffic class: intended 3, actual 0"; strings.Join(got, "|") != want {
		t.Errorf("eos differences %q, want %q", got, want)
	}
}

// TestPools: the intended share is the one fabricc configures on the
// platform, Onyx's two decimals and NVUE's whole percent rounded down
// (targets/cumulus: memory-percent is an integer and the pools must sum
// to 100 or less), so a switch configured as pushed has no difference
// and one a percent off has one.
func TestPools(t *testing.T) {
	f, sw := fabric("1/1")
	sw.Platform = model.PlatformOnyx
	sw.Pools = []model.BufferPool{
		{Name: "lossy-default", Direction: "ingress", Type: "lossy", Percent: 48.3, Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
		{Name: "roce-lossless", Direction: "ingress", Type: "lossless", Percent: 50.8, Priorities: []int{3}},
		{Name: "roce-lossless", Direction: "egress", Type: "lossless", Percent: 47.8, Priorities: []int{3}},
	}
	onyx := onyxRunning + `traffic pool lossy-default type lossy
traffic pool lossy-default memory percent 48.30
traffic pool lossy-default map switch-priority 0 1 2 4 5 6 7
traffic pool roce-lossless type lossless
traffic pool roce-lossless memory percent 40.00
traffic pool roce-lossless map switch-priority 3 4
`
	var got []string
	for _, d := range Compare("sw1", Expect(f, sw), mustOnyx(onyx)) {
		got = append(got, d.String())
	}
	want := "sw1 pool lossless percent: intended 50.8, actual 40|sw1 pool lossless priorities: intended 3, actual 3,4"
	if strings.Join(got, "|") != want {
		t.Errorf("onyx pools: %q, want %q", got, want)
	}
	// NVUE: 48.3 % and 50.8 % are configured as 48 and 50.
	nvPools := func(lossy, lossless int) *State {
		t.Helper()
		nv := strings.Replace(nvueJSON, `"qos": {`, fmt.Sprintf(`"qos": {"traffic-pool": {
	  "default-lossy": {"memory-percent": %d, "switch-priority": {"0,1,2,4,5,6,7": {}}},
	  "default-lossless": {"memory-percent": %d, "switch-priority": {"3": {}}}},`, lossy, lossless), 1)
		st, err := ParseNVUE([]byte(nv))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	_, sw2 := fabric("swp1")
	sw2.Platform = model.PlatformCumulus
	sw2.Pools = sw.Pools
	if d := Compare("sw1", Expect(f, sw2), nvPools(48, 50)); len(d) != 0 {
		t.Errorf("nvue pools as configured: %v", d)
	}
	got = nil
	for _, d := range Compare("sw1", Expect(f, sw2), nvPools(48, 51)) {
		got = append(got, d.String())
	}
	if want := "sw1 pool lossless percent: intended 50, actual 51"; strings.Join(got, "|") != want {
		t.Errorf("nvue pool a percent off: %q, want %q", got, want)
	}
	// A pool the switch lacks names the share fabricc would configure.
	st := nvPools(48, 50)
	delete(st.Pools, "lossless")
	got = nil
	for _, d := range Compare("sw1", Expect(f, sw2), st) {
		got = append(got, d.String())
	}
	if want := "sw1 pool lossless: intended 50% priorities 3, actual missing"; strings.Join(got, "|") != want {
		t.Errorf("nvue pool missing: %q, want %q", got, want)
	}
}

func TestApplyOnyxPFC(t *testing.T) {
	// Shapes of mellanox.onyx fixtures/onyx_pfc_interface_*.cfg: the
	// 3.6.6000+ list and the older object with "Table 2".
	newer := `[{"PFC": "enabled"}, {"Priority Enabled List": "3", "Priority Disabled List": "0 1 2 4 5 6 7"},
	  {"Eth1/1": [{"PFC admin": "on", "PFC oper": "Enabled"}], "Eth1/2": [{"PFC admin": "Auto", "PFC oper": "Disabled"}]}]`
	older := `{"PFC": "enabled", "Priority Enabled List": "3 4",
	  "Table 2": {"Eth1/1": [{"PFC admin": "on", "PFC oper": "Enabled"}], "Eth1/2": [{"PFC admin": "on", "PFC oper": "Enabled"}]}}`
	for _, tc := range []struct {
		name, out string
		p1, p2    string
	}{
		{"3.6.6000+", newer, "[3]", "[]"},
		{"older", older, "[3 4]", "[3 4]"},
		{"global off", strings.Replace(newer, `"PFC": "enabled"`, `"PFC": "disabled"`, 1), "[]", "[]"},
	} {
		s := mustOnyx("interface ethernet 1/1 mtu 9216 force\ninterface ethernet 1/2 mtu 9216 force\n")
		if err := ApplyOnyxPFC(s, []byte(tc.out)); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(s.Ports["1/1"].PFC) + fmt.Sprint(s.Ports["1/2"].PFC); got != tc.p1+tc.p2 {
			t.Errorf("%s: PFC %s, want %s%s", tc.name, got, tc.p1, tc.p2)
		}
	}
	// Captured: the "data" of Onyx's JSON API for this command (the form
	// json-print is taken to share), in the show_pfc_status docstring of
	// a public Python JSON API client for Mellanox switches
	// (ufmlog/ufmdb, systems/switch; the search index did not name its
	// repository), trimmed to two of its 16 ports: the global state and
	// both lists in one object, then the table.
	captured := `[{"PFC": "enabled", "Priority Enabled List": "3 4", "Priority Disabled List": "0 1 2 5 6 7"},
	  {"Eth1/16": [{"PFC admin": "Auto", "PFC oper": "Enabled"}], "Eth1/1": [{"PFC admin": "Auto", "PFC oper": "Disabled"}]}]`
	s := mustOnyx("interface ethernet 1/1 dcb priority-flow-control mode on force\ninterface ethernet 1/16 mtu 9216 force\n")
	if err := ApplyOnyxPFC(s, []byte(captured)); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(s.Ports["1/1"].PFC) + fmt.Sprint(s.Ports["1/16"].PFC); got != "[][3 4]" {
		t.Errorf("JSON API capture: PFC %s, want [] (oper Disabled) then [3 4]", got)
	}
	if err := ApplyOnyxPFC(NewState(), []byte("% Unrecognized command")); err == nil {
		t.Error("want an error for non-JSON")
	}
}

// TestCompareSpeaksUserTerms: ports in natural order (swp2 before
// swp10), sizes in KB as the language writes them, lists and maps
// written out, never Go syntax.
func TestCompareSpeaksUserTerms(t *testing.T) {
	want, got := NewState(), NewState()
	for _, n := range []string{"swp10", "swp2", "swp1"} {
		w, g := want.Port(n), got.Port(n)
		w.MTU, g.MTU = 9216, 9000
	}
	w := want.Port("swp2")
	w.ETS[0] = model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}
	w.ECN[3] = ECN{MinBytes: 150 * 1024, MaxBytes: 153601}
	w.DSCPToTC = map[int]int{0: 0, 1: 0, 2: 0, 26: 3, 48: 6}
	g := got.Port("swp2")
	g.DSCPToTC = map[int]int{0: 0, 1: 0, 2: 0, 26: 0, 48: 6}
	var lines []string
	for _, d := range Compare("leaf1", want, got) {
		lines = append(lines, d.String())
	}
	wantLines := []string{
		"leaf1 swp1 MTU: intended 9216, actual 9000",
		"leaf1 swp2 MTU: intended 9216, actual 9000",
		"leaf1 swp2 ETS TC0: intended wrr 50%, actual (none)",
		"leaf1 swp2 ECN TC3: intended min 150KB max 153601 B, actual (none)",
		"leaf1 swp2 DSCP 26 traffic class: intended 3, actual 0",
		"leaf1 swp10 MTU: intended 9216, actual 9000",
	}
	if d := cmp.Diff(wantLines, lines); d != "" {
		t.Errorf("differences (-want +got):\n%s", d)
	}
	for _, l := range lines {
		if strings.Contains(l, "map[") || strings.Contains(l, "{") || strings.Contains(l, "[") {
			t.Errorf("Go syntax in %q", l)
		}
	}
	if got := runsText(map[int]int{0: 0, 1: 0, 2: 0, 26: 3, 27: 0, 28: 0}); got != "0-2 TC0, 26 TC3, 27-28 TC0" {
		t.Errorf("runsText = %q", got)
	}
}

// TestECNDifferenceInOneUnit: an intended threshold that is not a whole
// KB (150000 B) against Onyx's KB read-back prints both sides in bytes,
// so the two can be compared at a glance; whole KB on both sides stay KB.
func TestECNDifferenceInOneUnit(t *testing.T) {
	for _, tc := range []struct {
		want, got ECN
		line      string
	}{
		{ECN{MinBytes: 150000, MaxBytes: 1500000}, ECN{MinBytes: 100 << 10, MaxBytes: 1465 << 10}, "sw1 1/1 ECN TC3: intended min 150000 B max 1500000 B, actual min 102400 B max 1500160 B"},
		{ECN{MinBytes: 150 << 10, MaxBytes: 1500 << 10}, ECN{MinBytes: 50 << 10, MaxBytes: 1500 << 10}, "sw1 1/1 ECN TC3: intended min 150KB max 1500KB, actual min 50KB max 1500KB"},
	} {
		state := func(e ECN) *State { return &State{Ports: map[string]*Port{"1/1": {ECN: map[int]ECN{3: e}}}} }
		d := Compare("sw1", state(tc.want), state(tc.got))
		if len(d) != 1 || d[0].String() != tc.line {
			t.Errorf("%v against %v: %v, want %s", tc.want, tc.got, d, tc.line)
		}
	}
}

// TestNVUEComparesEveryTrafficClass: fabricc writes all eight traffic
// classes of default-global's egress scheduler (the idle ones DWRR 1 %,
// taken from the lossy class, so the profile sums to 100 %), and verification compares all
// eight: a switch whose idle classes kept NVUE's default 12-13 % share,
// or were never written (and so run that share), runs a scheduler over
// 100 % (rsw #7). default-global's scheduler is switch-wide: one line
// for the switch, not one per port.
func TestNVUEComparesEveryTrafficClass(t *testing.T) {
	idle := `"1,2,4,5,7": {"mode": "dwrr", "bw-percent": 1}`
	for _, tc := range []struct {
		name, replace string
		want          []string
	}{
		{"idle classes left unset", `"6": {"mode": "strict"},` + "\n     " + idle, []string{
			"sw1 (switch-wide) ETS TC1 bandwidth: intended 1, actual 13", "sw1 (switch-wide) ETS TC2 bandwidth: intended 1, actual 12",
			"sw1 (switch-wide) ETS TC4 bandwidth: intended 1, actual 12", "sw1 (switch-wide) ETS TC5 bandwidth: intended 1, actual 13",
			"sw1 (switch-wide) ETS TC7 bandwidth: intended 1, actual 13"}},
		{"an idle class at its default share", idle, []string{"sw1 (switch-wide) ETS TC5 bandwidth: intended 1, actual 13"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			with := `"6": {"mode": "strict"}`
			if tc.name != "idle classes left unset" {
				with = `"1,2,4,7": {"mode": "dwrr", "bw-percent": 1}, "5": {"mode": "dwrr", "bw-percent": 13}`
			}
			doc := strings.Replace(nvueJSON, tc.replace, with, 1)
			if doc == nvueJSON {
				t.Fatal("the fixture did not change")
			}
			got, err := ParseNVUE([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			f, sw := fabric("swp1")
			sw.Platform = model.PlatformCumulus
			var lines []string
			for _, d := range Compare("sw1", Expect(f, sw), got) {
				lines = append(lines, d.String())
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("differences %q, want %q", lines, tc.want)
			}
		})
	}
}

// TestNVUEForeignLossless: verification reports NVIDIA's RoCE mode (`nv
// set qos roce`, lossless unless a mode is set) and a roce-lossless
// traffic pool, which fabricc does not set: NVUE allows one lossless
// pool, and fabricc's is default-lossless (rsw #1). RoCE mode switched
// off (enable off) is not reported.
func TestNVUEForeignLossless(t *testing.T) {
	const absent = "absent (fabricc configures the lossless class and its pool itself)"
	for _, tc := range []struct {
		name, qos string
		want      []string
	}{
		{"roce mode", `"roce": {"enable": "on", "mode": "lossless"},`, []string{"sw1 qos roce: intended " + absent + ", actual RoCE mode lossless"}},
		{"roce bare", `"roce": {},`, []string{"sw1 qos roce: intended " + absent + ", actual RoCE mode lossless"}},
		{"roce lossy", `"roce": {"mode": "lossy"},`, []string{"sw1 qos roce: intended " + absent + ", actual RoCE mode lossy"}},
		{"roce off", `"roce": {"enable": "off", "mode": "lossless"},`, nil},
		{"roce pool", `"traffic-pool": {"roce-lossless": {"memory-percent": 50, "switch-priority": {"3": {}}}},`,
			[]string{"sw1 qos traffic-pool roce-lossless: intended " + absent + ", actual lossless pool of switch priority 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseNVUE([]byte(strings.Replace(nvueJSON, `"qos": {`, `"qos": {`+tc.qos, 1)))
			if err != nil {
				t.Fatal(err)
			}
			f, sw := fabric("swp1")
			sw.Platform = model.PlatformCumulus
			var lines []string
			for _, d := range Compare("sw1", Expect(f, sw), got) {
				lines = append(lines, d.String())
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("differences %q, want %q", lines, tc.want)
			}
		})
	}
}
