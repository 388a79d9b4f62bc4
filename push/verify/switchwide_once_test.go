package verify

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// threePorts is fabric() on platform with three ports, the DSCP map of
// TestMapsAndWatchdog (DSCP 26 -> priority 3, 48 -> 6, the rest 0) and
// priorities 3 and 6 in traffic classes 3 and 6.
func threePorts(platform model.Platform, names ...string) (*model.Fabric, *model.Switch) {
	f, sw := fabric(names[0])
	f.QoS.DSCPToPriority = make([]int, 64)
	f.QoS.DSCPToPriority[26], f.QoS.DSCPToPriority[48] = 3, 6
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	sw.Platform = platform
	for _, n := range names[1:] {
		p := sw.Ports[0]
		p.Name = n
		sw.Ports = append(sw.Ports, p)
	}
	f.Switches = []model.Switch{*sw}
	return f, sw
}

// dscpOthers are the DSCP values the model maps to priority 0 but 26
// and 48, as a list of words.
func dscpOthers(sep string) string {
	var out []string
	for d := 0; d < 64; d++ {
		if d != 26 && d != 48 {
			out = append(out, itoa(d))
		}
	}
	return strings.Join(out, sep)
}

// eosThree is eosRunning's profile on Ethernet1/1-3/1 with the global
// qos map lines targets/eos writes for threePorts; maps replaces them.
func eosThree(maps string) string {
	out := strings.Replace(eosRunning, "qos map traffic-class 0 to cos 0\nqos map traffic-class 1 to cos 1\n", maps, 1)
	for _, n := range []string{"Ethernet2/1", "Ethernet3/1"} {
		out += "!\ninterface " + n + "\n   mtu 9216\n   switchport mode trunk\n   switchport trunk allowed vlan 100\n   service-profile ROCE\n"
	}
	return out
}

// eosMaps are the global qos map lines of threePorts on EOS.
var eosMaps = "qos map dscp " + dscpOthers(" ") + " to traffic-class 0\n" +
	"qos map dscp 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\n" +
	"qos map traffic-class 0 to cos 0\nqos map traffic-class 1 to cos 1\n"

// onyxThree is onyxRunning on ports 1/1-1/3.
func onyxThree(running string) string {
	return strings.NewReplacer("interface ethernet 1/1 ", "interface ethernet 1/1-1/3 ",
		"interface ethernet 1/1-1/2 mtu", "interface ethernet 1/1-1/3 mtu").Replace(running)
}

// nvueThree is nvueJSON on swp1-3, with qos (members of the "qos"
// object, each ending in a comma) in place of its mapping profile, and
// the interfaces of ifaces beside swp1-3's shared ones.
func nvueThree(qos, ifaces string) string {
	out := strings.Replace(nvueJSON, `"interface": {"swp1": {`, `"interface": {`+ifaces+`"swp1-3": {`, 1)
	return strings.Replace(out, `"mapping": {"default-global": {"trust": "l3"}},`, qos, 1)
}

// nvueMapping are the DSCP map and egress-queue-mapping lines of
// threePorts as targets/cumulus writes them, but only the DSCP values
// that differ from NVUE's default map.
const nvueMapping = `"mapping": {"default-global": {"trust": "l3", "dscp": {
     "8-25,27-47,49-63": {"switch-priority": 0}}}},
   "egress-queue-mapping": {"default-global": {"switch-priority": {"1,2,4,5,7": {"traffic-class": 0}}}},
`

// TestSwitchWideOnce (review rmig, finding 8 (a)): a difference in a
// setting the switch holds once for all ports is one line for the switch
// (scope switch-wide), not one per fabric port; a setting a port holds
// itself stays one line per port. Each platform's read-back as its parser
// reads it.
func TestSwitchWideOnce(t *testing.T) {
	nvue := func(doc string) *State {
		s, err := ParseNVUE([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	eosPorts := []string{"Ethernet1/1", "Ethernet2/1", "Ethernet3/1"}
	for _, tc := range []struct {
		name     string
		platform model.Platform
		ports    []string
		// trust2 is the second port's trust in the model; "" keeps dscp.
		trust2 model.Trust
		got    *State
		want   []string
	}{
		{"eos as pushed", model.PlatformEOS, eosPorts, "", mustEOS(eosThree(eosMaps)), nil},
		{"eos global dscp map", model.PlatformEOS, eosPorts, "",
			mustEOS(eosThree(eosMaps + "qos map dscp 26 to traffic-class 1\n")),
			[]string{"sw1 (switch-wide) DSCP 26 traffic class: intended 3, actual 1"}},
		{"eos global traffic-class map", model.PlatformEOS, eosPorts, "",
			mustEOS(eosThree(strings.Replace(eosMaps, "qos map traffic-class 0 to cos 0\n", "", 1))),
			[]string{"sw1 (switch-wide) CoS of TC0: intended 0, actual 1"}},
		{"eos per-interface trust stays per port", model.PlatformEOS, eosPorts, "",
			mustEOS(strings.Replace(eosThree(eosMaps), "   service-profile ROCE\n!\ninterface Ethernet3/1", "   service-profile ROCE\n   qos trust cos\n!\ninterface Ethernet3/1", 1)),
			[]string{"sw1 Ethernet2/1 trust: intended dscp, actual pcp"}},
		{"onyx as pushed", model.PlatformOnyx, []string{"1/1", "1/2", "1/3"}, "", mustOnyx(onyxThree(onyxRunning)), nil},
		{"onyx global PFC priority", model.PlatformOnyx, []string{"1/1", "1/2", "1/3"}, "",
			mustOnyx(onyxThree(onyxRunning) + "dcb priority-flow-control priority 4 enable\n"),
			[]string{"sw1 (switch-wide) PFC priorities: intended 3, actual 3,4"}},
		{"onyx a port's PFC mode off stays per port", model.PlatformOnyx, []string{"1/1", "1/2", "1/3"}, "",
			mustOnyx(strings.Replace(onyxThree(onyxRunning), "interface ethernet 1/1-1/3 dcb priority-flow-control mode on force\n",
				"interface ethernet 1/1-1/2 dcb priority-flow-control mode on force\n", 1)),
			[]string{"sw1 1/3 PFC priorities: intended 3, actual none"}},
		{"nvue as pushed", model.PlatformCumulus, []string{"swp1", "swp2", "swp3"}, "", nvue(nvueThree(nvueMapping, "")), nil},
		{"nvue default-global scheduler", model.PlatformCumulus, []string{"swp1", "swp2", "swp3"}, "",
			nvue(strings.Replace(nvueThree(nvueMapping, ""), `"3": {"mode": "dwrr", "bw-percent": 50}`, `"3": {"mode": "dwrr", "bw-percent": 20}`, 1)),
			[]string{"sw1 (switch-wide) ETS TC3 bandwidth: intended 50, actual 20"}},
		{"nvue default-global congestion control", model.PlatformCumulus, []string{"swp1", "swp2", "swp3"}, "",
			nvue(strings.Replace(nvueThree(nvueMapping, ""), `"min-threshold": 153600`, `"min-threshold": 40000`, 1)),
			[]string{"sw1 (switch-wide) ECN TC3: intended min 153600 B max 1536000 B, actual min 40000 B max 1536000 B"}},
		{"nvue default-global mapping", model.PlatformCumulus, []string{"swp1", "swp2", "swp3"}, "",
			nvue(nvueThree(strings.Replace(nvueMapping, `"trust": "l3", "dscp": {`, `"trust": "l3", "dscp": {"26": {"switch-priority": 1},`, 1), "")),
			[]string{"sw1 (switch-wide) DSCP 26 switch priority: intended 3, actual 1"}},
		{"nvue a port's own scheduler stays per port", model.PlatformCumulus, []string{"swp1", "swp2", "swp3"}, "",
			nvue(strings.Replace(nvueThree(nvueMapping, `"swp2": {"qos": {"egress-scheduler": {"profile": "mine"}}}, `),
				`"egress-scheduler": {"default-global"`, `"egress-scheduler": {"mine": {"traffic-class": {"0": {"mode": "dwrr", "bw-percent": 45}, "3": {"mode": "dwrr", "bw-percent": 20},
				"6": {"mode": "strict"}, "1,2,4,5,7": {"mode": "dwrr", "bw-percent": 1}}}, "default-global"`, 1)),
			[]string{"sw1 swp2 ETS TC3 bandwidth: intended 50, actual 20"}},
		{"nvue a port that should trust on its own profile stays per port", model.PlatformCumulus, []string{"swp1", "swp2", "swp3"}, model.TrustPCP,
			nvue(nvueThree(nvueMapping, "")),
			[]string{"sw1 swp2 trust: intended pcp, actual dscp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := threePorts(tc.platform, tc.ports...)
			if tc.platform == model.PlatformOnyx {
				// fabricc writes no DSCP map on Onyx (onyxPortLines.compose).
				f.QoS.DSCPToPriority, f.QoS.PriorityToTC = nil, nil
			}
			if tc.trust2 != "" {
				sw.Ports[1].Trust = tc.trust2
			}
			var got []string
			for _, d := range Compare("sw1", Expect(f, sw), tc.got) {
				got = append(got, d.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("differences\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestSwitchWideJSON: in --json and --report a switch-wide difference
// has no port and the scope "switch-wide"; a port's has no scope.
func TestSwitchWideJSON(t *testing.T) {
	f, sw := threePorts(model.PlatformEOS, "Ethernet1/1", "Ethernet2/1", "Ethernet3/1")
	got := mustEOS(strings.Replace(eosThree(eosMaps+"qos map dscp 26 to traffic-class 1\n"), "   mtu 9216\n", "   mtu 9000\n", 1))
	data, err := json.Marshal(Compare("sw1", Expect(f, sw), got))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"device":"sw1","port":"Ethernet1/1","field":"MTU","intended":"9216","actual":"9000","impact":{"class":"mtu","text":"RoCE frames over 9000 bytes dropped"}},` +
		`{"device":"sw1","field":"DSCP 26 traffic class","intended":"3","actual":"1","scope":"switch-wide","impact":{"class":"lossless","text":"RoCE may be dropped instead of paused"}}]`
	if string(data) != want {
		t.Errorf("JSON\n%s\nwant\n%s", data, want)
	}
}
