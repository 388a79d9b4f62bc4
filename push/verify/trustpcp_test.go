package verify

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestTrustImpactOnAPCPFabric: on a fabric whose ports trust PCP (Onyx
// L2, EOS `qos trust cos`, NVUE l2), RoCE is classified by its VLAN tag's
// PCP, which is its class's priority (model.Class.Priority), so a trust
// difference speaks of that PCP, not of the DSCP it would mark. A port
// that trusts neither mark (trust port, NVIDIA Onyx User Manual, QoS
// Commands, "qos trust [port | L2 | L3 | both]"; a mode the read-back
// does not name reads as "") puts RoCE in the port's default priority;
// one that trusts DSCP instead puts it where the DSCP map does, which
// the fabric does not rely on: the class's summary. A fabric that
// trusts DSCP keeps its DSCP words.
func TestTrustImpactOnAPCPFabric(t *testing.T) {
	f, sw := fabric("1/1")
	f.QoS.Classes[1].MarkDSCP = 26
	f.Switches[0].Ports[0].Trust = model.TrustPCP
	sw = &f.Switches[0]
	two := &LosslessMarks{{DSCP: 26, Priority: 3}, {DSCP: 24, Priority: 4}}
	for _, tc := range []struct {
		intended, actual string
		marks            *LosslessMarks
		want             string
	}{
		{"pcp", "", nil, "RoCE's PCP 3 no longer reaches priority 3: its traffic is dropped, not paused"},
		{"pcp", "", two, "RoCE's PCP 3 no longer reaches priority 3, PCP 4 priority 4: its traffic is dropped, not paused"},
		{"pcp", "dscp", nil, "RoCE may be dropped instead of paused"},
		{"pcp", "both", nil, "RoCE may be dropped instead of paused"},
		{"dscp", "", nil, "RoCE's DSCP 26 no longer reaches priority 3: its traffic is dropped, not paused"},
		{"dscp", "pcp", two, "RoCE's DSCP 26 no longer reaches priority 3, DSCP 24 priority 4: its traffic is dropped, not paused"},
	} {
		f.Switches[0].Ports[0].Trust = model.Trust(tc.intended)
		want, got := Expect(f, sw), Expect(f, sw)
		got.Ports["1/1"].Trust = model.Trust(tc.actual)
		ds := Compare("sw1", want, got)
		if len(ds) != 1 || ds[0].Field != "trust" {
			t.Fatalf("intended %s, actual %q: differences %v, want the one trust difference", tc.intended, tc.actual, ds)
		}
		if tc.marks != nil {
			ds[0].Lossless = tc.marks
		}
		if im := ImpactOf(ds[0]); im != (Impact{Class: ImpactLossless, Text: tc.want}) {
			t.Errorf("intended %s, actual %q: impact %+v\nwant lossless %q", tc.intended, tc.actual, im, tc.want)
		}
	}
}

// TestOnyxTrustPortRead: Onyx `qos trust port` (NVIDIA Onyx User Manual,
// QoS Commands: `qos trust [port | L2 | L3 | both]`, default L2) is read
// as trust port, a difference from the intended L3, not as the L2 a port
// without the line has.
func TestOnyxTrustPortRead(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"   interface ethernet 1/1 qos trust port\n", "port"},
		{"   interface ethernet 1/1 qos trust L3\n", "dscp"},
	} {
		s, err := ParseOnyx("##\n## Interface Ethernet configuration\n##\n" + tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if p := s.Ports["1/1"]; p == nil || string(p.Trust) != tc.want {
			t.Errorf("%q: port %+v, want trust %s", tc.line, p, tc.want)
		}
	}
}
