package verify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tests that pin the Onyx readback where hand mutation testing (review
// mutants2) changed a parse step with no test failing.

// TestOnyxPinsVLANs: Onyx's running-config prints `vlan N` for each
// VLAN and `vlan N name "TEXT"` for a named one (Onyx User Manual,
// VLANs): a VLAN without a name line is present with no name, and a
// `vlan N` line does not erase the name another line gave.
func TestOnyxPinsVLANs(t *testing.T) {
	s := mustOnyx("vlan 100\nvlan 100 name \"rdma\"\nvlan 100\nvlan 200\n")
	if d := cmp.Diff(map[int]string{100: "rdma", 200: ""}, s.VLANs); d != "" {
		t.Errorf("VLANs (-want +got):\n%s", d)
	}
}

// TestOnyxPinsBothBufferModes: advanced buffer management and traffic
// pools are two buffer forms of which a switch runs one (traffic pools
// from MLNX-OS 3.6.5000, advanced buffer management before: Onyx User
// Manual, Shared Buffers); a switch with both is a conflict verify
// reports, and either one alone is none.
func TestOnyxPinsBothBufferModes(t *testing.T) {
	const adv, pool = "advanced buffer management force\n", "traffic pool roce type lossless\n"
	for text, conflict := range map[string]bool{adv + pool: true, adv: false, pool: false} {
		var fields []string
		for _, c := range mustOnyx(text).Conflicts {
			if c.Field == "buffer mode" {
				fields = append(fields, c.Actual)
			}
		}
		if got := len(fields) == 1 && strings.HasPrefix(fields[0], "advanced buffer management force and traffic pools "); got != conflict || len(fields) > 1 {
			t.Errorf("%q: buffer mode conflicts %q, want one: %v", text, fields, conflict)
		}
	}
}
