package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestMapStagesNamed: where a platform keeps DSCP -> switch priority and
// switch priority -> traffic class as two tables, a difference names the
// table that holds it, once: NVUE's `qos mapping` and `qos
// egress-queue-mapping` (Cumulus Linux 5.9 User Guide, Quality of
// Service: Classification, Egress Queues), Onyx's per-port `qos map dscp
// ... to switch-priority` and `traffic-class N bind switch-priority`
// (NVIDIA Onyx User Manual, QoS). A changed egress-queue-mapping is not
// eight DSCP differences; a changed DSCP value is not a traffic-class
// difference. EOS's `qos map dscp ... to traffic-class` is one table and
// keeps the composed comparison.
func TestMapStagesNamed(t *testing.T) {
	nvue := func(doc string) *State {
		s, err := ParseNVUE([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	nvuePorts := []string{"swp1", "swp2", "swp3"}
	onyxPorts := []string{"1/1", "1/2", "1/3"}
	// The Onyx fixture as targets/onyx writes threePorts' maps: no DSCP
	// map (Onyx's default, DSCP 8n..8n+7 -> switch priority n, which the
	// Onyx model below keeps, as fabricc validate asks), the bind lines.
	onyxMaps := "interface ethernet 1/1-1/3 traffic-class 0 bind switch-priority 0 1 2 4 5 7\n" +
		"interface ethernet 1/1-1/3 traffic-class 3 bind switch-priority 3\ninterface ethernet 1/1-1/3 traffic-class 6 bind switch-priority 6\n"
	for _, tc := range []struct {
		name     string
		platform model.Platform
		ports    []string
		got      *State
		want     []string
	}{
		{"nvue as pushed", model.PlatformCumulus, nvuePorts, nvue(nvueThree(nvueMapping, "")), nil},
		// nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0
		{"nvue egress-queue-mapping", model.PlatformCumulus, nvuePorts,
			nvue(nvueThree(strings.Replace(nvueMapping, `"1,2,4,5,7": {"traffic-class": 0}`, `"1,2,4,5,7": {"traffic-class": 0}, "3": {"traffic-class": 0}`, 1), "")),
			[]string{"sw1 (switch-wide) switch priority 3 traffic class: intended 3, actual 0"}},
		// nv set qos mapping default-global dscp 26 switch-priority 0
		{"nvue dscp mapping", model.PlatformCumulus, nvuePorts,
			nvue(nvueThree(strings.Replace(nvueMapping, `"8-25,27-47,49-63"`, `"8-47,49-63"`, 1), "")),
			[]string{"sw1 (switch-wide) DSCP 26 switch priority: intended 3, actual 0"}},
		{"onyx as pushed", model.PlatformOnyx, onyxPorts, mustOnyx(onyxThree(onyxRunning) + onyxMaps), nil},
		{"onyx bind", model.PlatformOnyx, onyxPorts,
			mustOnyx(onyxThree(onyxRunning) + onyxMaps + "interface ethernet 1/2 traffic-class 0 bind switch-priority 3\n"),
			[]string{"sw1 1/2 switch priority 3 traffic class: intended 3, actual 0"}},
		// A DSCP map made by hand (which push refuses to push over).
		{"onyx dscp map", model.PlatformOnyx, onyxPorts,
			mustOnyx(onyxThree(onyxRunning) + onyxMaps + "interface ethernet 1/3 qos map dscp 26 to switch-priority 0\n"),
			[]string{"sw1 1/3 DSCP 26 switch priority: intended 3, actual 0"}},
		{"eos one table", model.PlatformEOS, []string{"Ethernet1/1", "Ethernet2/1", "Ethernet3/1"},
			mustEOS(eosThree(eosMaps + "qos map dscp 26 to traffic-class 0\n")),
			[]string{"sw1 (switch-wide) DSCP 26 traffic class: intended 3, actual 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := threePorts(tc.platform, tc.ports...)
			if tc.platform == model.PlatformOnyx {
				for d := range f.QoS.DSCPToPriority {
					f.QoS.DSCPToPriority[d] = d / 8 // Onyx's own map
				}
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
