package verify

import (
	"encoding/json"
	"strings"
	"testing"
)

// losslessFabricRunning is onyxRunning with the fabric's DSCP map as
// targets/onyx writes it per port (`qos map dscp LIST to switch-priority
// SP`, NVIDIA Onyx User Manual, QoS): RoCE's DSCP 26 to priority 3, CNP's
// DSCP 48 to priority 6, every other DSCP to 0.
func losslessFabricRunning(dscp26To string) string {
	return onyxRunning +
		"interface ethernet 1/1 qos map dscp 0-25 27-47 49-63 to switch-priority 0\n" +
		"interface ethernet 1/1 qos map dscp 26 to switch-priority " + dscp26To + "\n" +
		"interface ethernet 1/1 qos map dscp 48 to switch-priority 6\n" +
		"interface ethernet 1/1 traffic-class 0 bind switch-priority 0-2 4 5 7\n" +
		"interface ethernet 1/1 traffic-class 3 bind switch-priority 3\n" +
		"interface ethernet 1/1 traffic-class 6 bind switch-priority 6\n"
}

// TestImpactNamesLosslessDSCP: a trust or DSCP map difference read from
// an Onyx switch names the fabric's lossless class it breaks, RoCE's
// marked DSCP and its priority, from the intended State, in the text
// and in the JSON; a DSCP map entry outside the lossless class keeps the
// class's summary.
func TestImpactNamesLosslessDSCP(t *testing.T) {
	f, sw := fabric("1/1")
	f.QoS.Classes[1].MarkDSCP, f.QoS.Classes[1].DSCP = 26, []int{26}
	f.QoS.Classes[2].MarkDSCP, f.QoS.Classes[2].DSCP = 48, []int{48}
	f.QoS.DSCPToPriority = make([]int, 64)
	f.QoS.DSCPToPriority[26], f.QoS.DSCPToPriority[48] = 3, 6
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	roce := "RoCE's DSCP 26 no longer reaches priority 3: its traffic is dropped, not paused"
	for _, tc := range []struct {
		name, running, diff, impact, json string
	}{
		{"trust pcp", strings.Replace(losslessFabricRunning("3"), "interface ethernet 1/1 qos trust L3\n", "", 1),
			"sw1 1/1 trust: intended dscp, actual pcp", roce,
			`{"device":"sw1","port":"1/1","field":"trust","intended":"dscp","actual":"pcp","impact":{"class":"lossless","text":"` + roce + `"}}`},
		{"trust both", strings.Replace(losslessFabricRunning("3"), "qos trust L3", "qos trust both", 1),
			"sw1 1/1 trust: intended dscp, actual both", "RoCE may be dropped instead of paused", ""},
		{"DSCP 26 to 0", losslessFabricRunning("0"),
			"sw1 1/1 DSCP 26 traffic class: intended 3, actual 0", roce,
			`{"device":"sw1","port":"1/1","field":"DSCP 26 traffic class","intended":"3","actual":"0","impact":{"class":"lossless","text":"` + roce + `"}}`},
		{"DSCP 10 to 3", strings.Replace(losslessFabricRunning("3"), "0-25 27-47", "0-9 11-25 27-47", 1) + "interface ethernet 1/1 qos map dscp 10 to switch-priority 3\n",
			"sw1 1/1 DSCP 10 traffic class: intended 0, actual 3", "RoCE may be dropped instead of paused", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := diffs(Expect(f, sw), mustOnyx(losslessFabricRunning("3"))); got != "" {
				t.Fatalf("the fabric's own running-config: differences %q", got)
			}
			ds := Compare("sw1", Expect(f, sw), mustOnyx(tc.running))
			if len(ds) != 1 || ds[0].String() != tc.diff {
				t.Fatalf("differences %v, want the one %q", ds, tc.diff)
			}
			if got := ImpactOf(ds[0]); got != (Impact{ImpactLossless, tc.impact}) {
				t.Errorf("impact %+v, want %q", got, tc.impact)
			}
			if tc.json == "" {
				return
			}
			if b, err := json.Marshal(ds[0]); err != nil || string(b) != tc.json {
				t.Errorf("JSON:\n%s (%v)\nwant:\n%s", b, err, tc.json)
			}
		})
	}
}

// TestImpactNamesEveryLosslessClass: with two lossless classes, a trust
// that drops DSCP names both.
func TestImpactNamesEveryLosslessClass(t *testing.T) {
	d := Difference{Device: "leaf1", Port: "swp1", Field: "trust", Intended: "dscp", Actual: "pcp",
		Lossless: &LosslessMarks{{DSCP: 26, Priority: 3}, {DSCP: 24, Priority: 4}}}
	want := "RoCE's DSCP 26 no longer reaches priority 3, DSCP 24 priority 4: its traffic is dropped, not paused"
	if got := ImpactOf(d).Text; got != want {
		t.Errorf("impact %q, want %q", got, want)
	}
}
