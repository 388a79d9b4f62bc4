package push

import (
	"strings"
	"testing"
)

// TestOnyxDSCPMapAtDefaultIsNoStray pins onyxStrayDSCPMaps against a
// one-token mutation (review mutants3) that refused every DSCP map line
// on a fabric port: a `qos map dscp LIST to switch-priority SP` line
// (NVIDIA Onyx User Manual 3.10, "QoS Commands") that maps each DSCP
// where Onyx's default map does (DSCP 8n..8n+7 to switch priority n,
// the mellanox.onyx fixture show_qos_interface_ethernet.cfg) changes
// nothing the fabric keeps, so push does not refuse it; a line that
// moves DSCP 24 and 26 to switch priority 0 on the same port is refused,
// naming both and their removal; lines on two ports are two items.
func TestOnyxDSCPMapAtDefaultIsNoStray(t *testing.T) {
	want := []string{"interface ethernet 1/1 mtu 9216 force", "interface ethernet 1/2 mtu 9216 force"}
	ours := onyxPortsOf(want)
	if err := onyxStrayDSCPMaps(want, []string{"interface ethernet 1/1 qos map dscp 24 25 to switch-priority 3"}, ours); err != nil {
		t.Errorf("a map equal to Onyx's default refused: %v", err)
	}
	err := onyxStrayDSCPMaps(want, []string{"interface ethernet 1/1 qos map dscp 24 26 to switch-priority 0"}, ours)
	if want := "`interface ethernet 1/1 qos map dscp 24 26 to switch-priority 0` (remove it with `interface ethernet 1/1 no qos map dscp 24 26`)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("DSCP 24 and 26 moved to switch priority 0: %v, want a refusal naming %s", err, want)
	}
	err = onyxStrayDSCPMaps(want, []string{"interface ethernet 1/1 qos map dscp 26 to switch-priority 0", "interface ethernet 1/2 qos map dscp 26 to switch-priority 0"}, ours)
	if want := "(remove it with `interface ethernet 1/1 no qos map dscp 26`); `interface ethernet 1/2 qos map dscp 26 to switch-priority 0`"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("stray maps on two ports: %v, want the two named apart: %s", err, want)
	}
}
