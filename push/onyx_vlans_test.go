package push

import (
	"strings"
	"testing"
)

// TestOnyxTrunkVLANs: a trunk's allowed-vlan lines are sent as a whole when
// the running set differs, whatever form the running config prints it in,
// and not at all when it matches.
func TestOnyxTrunkVLANs(t *testing.T) {
	want := []string{
		"interface ethernet 1/7 switchport mode trunk",
		"interface ethernet 1/7 switchport trunk allowed-vlan none",
		"interface ethernet 1/7 switchport trunk allowed-vlan add 101",
		"interface ethernet 1/7 switchport trunk allowed-vlan add 102",
	}
	all := strings.Join(want[1:], "|")
	tests := []struct {
		name    string
		running []string
		send    string
	}{
		{"one list, same set", []string{want[0], "interface ethernet 1/7 switchport trunk allowed-vlan 101,102"}, ""},
		{"none and add lines, same set", want, ""},
		{"range, same set", []string{want[0], "interface ethernet 1/7 switchport trunk allowed-vlan 101-102"}, ""},
		// Sending only "add 102" would leave 103 allowed: every line goes.
		{"none and add lines, other set", []string{want[0], want[1], want[2], "interface ethernet 1/7 switchport trunk allowed-vlan add 103"}, all},
		{"one list, a VLAN short", []string{want[0], "interface ethernet 1/7 switchport trunk allowed-vlan 101"}, all},
		{"trunk allowing every VLAN", []string{want[0]}, all},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(onyxMissing(want, tt.running), "|"); got != tt.send {
				t.Errorf("send = %q\nwant %q", got, tt.send)
			}
		})
	}
}
