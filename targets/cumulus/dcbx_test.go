package cumulus

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestDCBXPeerGetsThePFCTLV checks that a port whose NIC takes its PFC by
// DCBX transmits the PFC TLV ("By default, all QoS TLV transmission is
// off on all interfaces": Cumulus Linux user guide, Link Layer Discovery
// Protocol, "Transmit QoS TLVs"), in each release's keyword (NVUE
// Command Reference, LLDP: on|off up to 5.14, enabled|disabled after),
// that every fabric port's TLV is unset first, so a port whose DCBX NIC
// is gone stops advertising.
func TestDCBXPeerGetsThePFCTLV(t *testing.T) {
	for _, tc := range []struct{ release, want string }{
		{"5.9.1", "nv set interface swp2 lldp dcbx-pfc-tlv on"},
		{"5.15.0", "nv set interface swp2 lldp dcbx-pfc-tlv enabled"},
	} {
		script, _ := render(t, func(f *model.Fabric) {
			f.Switches[0].OSVersion = tc.release
			f.Switches[0].Ports[1].DCBX = true
		})
		if !strings.Contains(script, "\n"+tc.want+"\n") {
			t.Errorf("%s: no line %q", tc.release, tc.want)
		}
		if n := strings.Count(script, "lldp dcbx-pfc-tlv "); n != 1 {
			t.Errorf("%s: %d ports transmit the PFC TLV, want 1 (swp2)", tc.release, n)
		}
		if !strings.Contains(script, "interface swp1,swp2,swp3,swp31,swp32 lldp dcbx-pfc-tlv") {
			t.Errorf("%s: the fabric ports' PFC TLV is not unset first", tc.release)
		}
	}

}
