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

// TestOnyxReleaseAtTheBoundary pins onyxRelease against one-token
// mutations (review mutants3) that put 3.6.5000 itself on the wrong
// side: traffic pools start with that release (NVIDIA Onyx User Manual,
// Shared Buffers; the mellanox.onyx fixture onyx_command_show_version.txt
// prints "Product release:   3.6.5000"), so a file declaring 3.6.5000 is
// refused on a switch running 3.6.4006, and one declaring 3.6.4006 on a
// switch running 3.6.5000; the same release on both sides is not.
func TestOnyxReleaseAtTheBoundary(t *testing.T) {
	for _, tc := range []struct {
		declared, running string
		refused           bool
	}{
		{"3.6.5000", "3.6.4006", true},
		{"3.6.4006", "3.6.5000", true},
		{"3.6.5000", "3.6.5000", false},
		{"3.6.4006", "3.6.4006", false},
	} {
		config := []byte("## platform onyx, OS version " + tc.declared + ", hardware SN2700\n")
		c := cmdConn{answers: map[string]string{"show version": "Product name:      Onyx\nProduct release:   " + tc.running + "\n"}}
		err := onyxRelease(c, config)
		want := "the switch runs release " + tc.running + " (show version) but the fabric declares os_version " + tc.declared + ", on the other side of 3.6.5000, "
		if got := err != nil && strings.HasPrefix(err.Error(), want); got != tc.refused || (err != nil && !tc.refused) {
			t.Errorf("declared %s, running %s: %v; want refused: %v", tc.declared, tc.running, err, tc.refused)
		}
	}
}

// TestOnyxBufferModeToAdvancedRefusal pins the whole refusal of a
// fabric in advanced buffer mode onto a switch with traffic pools (the
// two are alternatives, NVIDIA Onyx User Manual 3.10.4100, Shared
// Buffers), against a mutation that cut its second half.
func TestOnyxBufferModeToAdvancedRefusal(t *testing.T) {
	err := onyxBufferMode([]string{onyxAdvancedLine}, []string{"traffic pool roce type lossless"}, false, true)
	want := "the switch programs its buffer with traffic pools, but the fabric configures advanced buffer mode, the buffer style its os_version " +
		"implies (before 3.6.5000), which would replace the pools; check os_version against `show version` and correct it, and push again; nothing was changed"
	if err == nil || err.Error() != want {
		t.Errorf("advanced onto traffic pools: %v\nwant %s", err, want)
	}
}

// TestOnyxChassisRowFields pins onyxChassisModel against one-token
// mutations (review mutants3): `show inventory` is a table of Module,
// Part Number and Serial Number under dashed rules (NVIDIA MLNX-GW User
// Manual, "Chassis Management Commands", the same MLNX-OS CLI); of a
// CHASSIS row whose part number names no model of the catalogue the
// part number is the model, never the serial number or the module, and
// a row cut after its module name is no model, not a panic.
func TestOnyxChassisRowFields(t *testing.T) {
	const table = "-----------------------------------------------------\n" +
		"Module    Part Number     Serial Number\n" +
		"-----------------------------------------------------\n"
	for out, want := range map[string]string{
		table + "CHASSIS   MZZ0000-XX1F    MT0000X00001\n": "MZZ0000-XX1F",
		table + "CHASSIS\n": "",
		table:               "",
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%q: panic %v", out, r)
				}
			}()
			if got := onyxChassisModel(out); got != want {
				t.Errorf("onyxChassisModel(%q) = %q, want %q", out, got, want)
			}
		}()
	}
}
