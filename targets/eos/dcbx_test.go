package eos

import (
	"strings"
	"testing"
)

// TestDCBXModeFollowsThePeer checks that a port whose NIC takes its PFC
// by DCBX advertises it (`dcbx mode ieee`, the line of Mellanox's Arista
// example, WinOF-2 User Manual 1.21 §3.1.3.4) and that every other port
// gets EOS's default back (`no dcbx mode`): DCBX is off by default on EOS
// (Arista EOS User Manual, DCBX and Flow Control).
func TestDCBXModeFollowsThePeer(t *testing.T) {
	f := testFabric()
	f.Switches[0].Ports[1].DCBX = true // Ethernet2/1, host02
	out := render(t, f)
	for port, want := range map[string]string{
		"Ethernet1/1":  "   no dcbx mode",
		"Ethernet2/1":  "   dcbx mode ieee",
		"Ethernet31/1": "   no dcbx mode",
	} {
		block := interfaceBlock(t, out, port)
		if !strings.Contains(block, "\n"+want+"\n") {
			t.Errorf("interface %s: no line %q in\n%s", port, want, block)
		}
	}
	if n := strings.Count(out, "dcbx mode ieee"); n != 1 {
		t.Errorf("dcbx mode ieee written %d times, want once (Ethernet2/1)", n)
	}
}
