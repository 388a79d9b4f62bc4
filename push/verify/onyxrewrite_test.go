package verify

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestOnyxRewriteIsADifference: `interface ethernet X qos rewrite dscp`
// and `... qos rewrite pcp` (NVIDIA Onyx User Manual, QoS, "Rewrite")
// remark every packet leaving the port from its switch priority; fabricc
// writes neither, so one set by hand on a fabric port is a difference,
// named with the line that removes it, and a port outside the fabric is
// not compared.
func TestOnyxRewriteIsADifference(t *testing.T) {
	f, sw := threePorts(model.PlatformOnyx, "1/1", "1/2", "1/3")
	sw.Platform = model.PlatformOnyx
	f.QoS.DSCPToPriority, f.QoS.PriorityToTC = nil, nil
	running := onyxThree(onyxRunning) + "interface ethernet 1/2 qos rewrite pcp\ninterface ethernet 1/3 qos rewrite dscp\n" +
		"interface ethernet 1/3 qos rewrite pcp\ninterface ethernet 1/9 qos rewrite dscp\n"
	var got []string
	for _, d := range Compare("leaf4", Expect(f, sw), mustOnyx(running)) {
		got = append(got, d.String())
	}
	want := []string{
		"leaf4 1/2 qos rewrite pcp: intended off, actual on (fabricc writes no rewrite and push leaves it: remove it on the switch with `interface ethernet 1/2 no qos rewrite pcp`)",
		"leaf4 1/3 qos rewrite dscp: intended off, actual on (fabricc writes no rewrite and push leaves it: remove it on the switch with `interface ethernet 1/3 no qos rewrite dscp` and `interface ethernet 1/3 no qos rewrite pcp`)",
		"leaf4 1/3 qos rewrite pcp: intended off, actual on (fabricc writes no rewrite and push leaves it: remove it on the switch with `interface ethernet 1/3 no qos rewrite dscp` and `interface ethernet 1/3 no qos rewrite pcp`)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("differences\n%q\nwant\n%q", got, want)
	}
	if d := Compare("leaf4", Expect(f, sw), mustOnyx(onyxThree(onyxRunning))); len(d) != 0 {
		t.Errorf("no rewrite: differences %v, want none", d)
	}
}
