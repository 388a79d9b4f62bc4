package onyx

import (
	"strings"
	"testing"
)

// TestLLDPOnBeforeItIsTheDefault checks that a switch with a port whose
// NIC takes its PFC by DCBX turns LLDP (and with it DCBX IEEE) on where
// the release leaves it off, and writes nothing from 3.8.2000, where
// "LLDP is now enabled by default" (NVIDIA Onyx User Manual, Link Layer
// Discovery Protocol (LLDP)).
func TestLLDPOnBeforeItIsTheDefault(t *testing.T) {
	for _, tc := range []struct {
		version string
		dcbx    bool
		want    bool
	}{
		{"3.6.8190", true, true},
		{"3.8.1000", true, true},
		{"3.8.2000", true, false},
		{"3.10.4206", true, false},
		{"3.6.8190", false, false},
	} {
		f := fixture(StyleTrafficPool)
		f.Switches[0].OSVersion = tc.version
		f.Switches[0].Ports[0].DCBX = tc.dcbx
		out := render(t, f)
		got := strings.Contains(out, "\nlldp\n")
		if got != tc.want {
			t.Errorf("%s, DCBX peer %v: lldp written %v, want %v", tc.version, tc.dcbx, got, tc.want)
		}
	}
}
