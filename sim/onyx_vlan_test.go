package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxTrunkAllowedVLANs: a new trunk allows every VLAN, a bare
// "allowed-vlan N" replaces the list, "none" then "add" builds it (Emulab
// snmpit_mellanox.pm; mellanox.onyx onyx_l2_interface).
func TestOnyxTrunkAllowedVLANs(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string // the port's line in running-config, "" for none
	}{
		{"new trunk allows all", nil, ""},
		{"bare lines replace", []string{"switchport trunk allowed-vlan 100", "switchport trunk allowed-vlan 200"}, "switchport trunk allowed-vlan 200"},
		{"none then add", []string{"switchport trunk allowed-vlan none", "switchport trunk allowed-vlan add 100", "switchport trunk allowed-vlan add 200"}, "switchport trunk allowed-vlan 100,200"},
		{"add to all keeps all", []string{"switchport trunk allowed-vlan add 100"}, ""},
		{"remove from all lists the rest", []string{"switchport trunk allowed-vlan remove 100"}, "switchport trunk allowed-vlan 1,200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := start(t, model.PlatformOnyx, sim.Faults{})
			drv := mustOpen(t, d, onyxDef(t))
			block := []string{"vlan 100", "exit", "vlan 200", "exit", "interface ethernet 1/5 switchport mode trunk"}
			for _, l := range tt.lines {
				block = append(block, "interface ethernet 1/5 "+l)
			}
			configs(t, drv, block...)
			run := cmd(t, drv, "show running-config")
			got := ""
			for _, l := range strings.Split(run, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "interface ethernet 1/5 switchport trunk allowed-vlan") {
					got = strings.TrimPrefix(strings.TrimSpace(l), "interface ethernet 1/5 ")
				}
			}
			if got != tt.want {
				t.Errorf("running-config has %q, want %q", got, tt.want)
			}
		})
	}
}
