package verify

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestDCBXAdvertisement checks that verify reads back the PFC
// advertisement targets/eos and targets/cumulus write for a port whose
// NIC takes its PFC by DCBX (model.Port.DCBX): EOS's `dcbx mode` ("DCBX
// is off by default": Arista EOS User Manual, DCBX and Flow Control) and
// NVUE's `lldp dcbx-pfc-tlv` (off by default: NVUE Command Reference,
// LLDP), and names the difference in both directions.
func TestDCBXAdvertisement(t *testing.T) {
	nvueOn := strings.Replace(nvueJSON, `"swp1": {"type": "swp",`, `"swp1": {"type": "swp", "lldp": {"dcbx-pfc-tlv": "on"},`, 1)
	nvue515 := strings.Replace(nvueJSON, `"swp1": {"type": "swp",`, `"swp1": {"type": "swp", "lldp": {"dcbx-pfc-tlv": "enabled"},`, 1)
	eosIEEE := strings.Replace(eosRunning, "interface Ethernet1/1\n", "interface Ethernet1/1\n   dcbx mode ieee\n", 1)
	eosCEE := strings.Replace(eosRunning, "interface Ethernet1/1\n", "interface Ethernet1/1\n   dcbx mode cee\n", 1)
	for _, tc := range []struct {
		name, port, running string
		nvue, dcbx          bool
		want                string
	}{
		{"eos, advertised as intended", "Ethernet1/1", eosIEEE, false, true, ""},
		{"eos, not advertised", "Ethernet1/1", eosRunning, false, true, "sw1 Ethernet1/1 PFC advertised by DCBX: intended ieee, actual off"},
		{"eos, CEE instead of IEEE", "Ethernet1/1", eosCEE, false, true, "sw1 Ethernet1/1 PFC advertised by DCBX: intended ieee, actual cee"},
		{"eos, advertised by hand", "Ethernet1/1", eosIEEE, false, false, "sw1 Ethernet1/1 PFC advertised by DCBX: intended off, actual ieee"},
		{"nvue, advertised as intended", "swp1", nvueOn, true, true, ""},
		{"nvue 5.15 keyword", "swp1", nvue515, true, true, ""},
		{"nvue, not advertised", "swp1", nvueJSON, true, true, "sw1 swp1 PFC advertised by DCBX: intended on, actual off"},
		{"nvue, advertised by hand", "swp1", nvueOn, true, false, "sw1 swp1 PFC advertised by DCBX: intended off, actual on"},
	} {
		f, sw := fabric(tc.port)
		sw.Ports[0].DCBX = tc.dcbx
		sw.Platform = model.PlatformEOS
		got := mustEOS(tc.running)
		if tc.nvue {
			sw.Platform = model.PlatformCumulus
			var err error
			if got, err = ParseNVUE([]byte(tc.running)); err != nil {
				t.Fatal(err)
			}
		}
		var lines []string
		for _, d := range Compare("sw1", Expect(f, sw), got) {
			lines = append(lines, d.String())
		}
		if strings.Join(lines, "|") != tc.want {
			t.Errorf("%s: differences %q, want %q", tc.name, lines, tc.want)
		}
	}
}
