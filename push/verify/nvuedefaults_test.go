package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestNVUEFactoryDefaults (review rmig, finding 8 (b)): `nv config show`
// lists only what was set; a value left unset runs NVUE's factory
// default where the Cumulus Linux 5.9 User Guide documents one, and is
// read as that value, so only differences in meaning are listed. A value
// without a documented default stays unset.
func TestNVUEFactoryDefaults(t *testing.T) {
	// The model's DSCP map is NVUE's default (DSCP 8n..8n+7 -> priority
	// n); priorities 3 and 6 land in traffic classes 3 and 6, the others
	// in 0, as the egress-queue-mapping targets/cumulus writes says.
	f, sw := fabric("swp1")
	sw.Platform = model.PlatformCumulus
	f.QoS.DSCPToPriority = make([]int, 64)
	for d := range f.QoS.DSCPToPriority {
		f.QoS.DSCPToPriority[d] = d / 8
	}
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	const mapping = `"mapping": {"default-global": {"trust": "l3"}},`
	const queues = `"egress-queue-mapping": {"default-global": {"switch-priority": {"1,2,4,5,7": {"traffic-class": 0}}}},`
	const tc0Off = `"0": {"ecn": "disable"}, `
	const roce = `"3": {"min-threshold": 153600, "max-threshold": 1536000, "probability": 100, "ecn": "enable"}`
	for _, tc := range []struct {
		name             string
		from, to         string
		want             []string
		portOwnsProfiles bool
	}{
		{"DSCP map left at NVUE's default", "", "", nil, false},
		{"one DSCP value mapped elsewhere", mapping, `"mapping": {"default-global": {"trust": "l3", "dscp": {"34": {"switch-priority": 3}}}},`,
			[]string{"sw1 (switch-wide) DSCP 34 switch priority: intended 4, actual 3"}, false},
		{"no trust set: no documented default, DSCP map not compared", mapping, `"mapping": {"default-global": {}},`,
			[]string{"sw1 (switch-wide) trust: intended dscp, actual not set (the switch's default)"}, false},
		{"ECN on traffic class 0 left at NVUE's default", tc0Off, "",
			[]string{"sw1 (switch-wide) ECN TC0: intended (none), actual min 150000 B max 1500000 B"}, false},
		{"thresholds without an ecn word mark", `, "ecn": "enable"}`, `}`, nil, false},
		// Nor has its unset red, which fabricc writes.
		{"a custom profile's unset traffic class has no default", "", "", []string{"sw1 swp1 ECN TC3 red: intended disable, actual not set (the switch's default)"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := strings.Replace(nvueJSON, mapping, mapping+queues, 1)
			doc := base
			if tc.from != "" {
				doc = strings.Replace(doc, tc.from, tc.to, 1)
				if doc == base {
					t.Fatal("the fixture did not change")
				}
			}
			if tc.portOwnsProfiles {
				doc = strings.Replace(doc, `"congestion-control": {"default-global": {"traffic-class": {`+tc0Off+roce+`}}}`,
					`"congestion-control": {"mine": {"traffic-class": {`+roce+`}}}`, 1)
				doc = strings.Replace(doc, `"link": {"mtu": 9216},`, `"link": {"mtu": 9216}, "qos": {"congestion-control": {"profile": "mine"}},`, 1)
			}
			got, err := ParseNVUE([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, d := range Compare("sw1", Expect(f, sw), got) {
				lines = append(lines, d.String())
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("differences\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
