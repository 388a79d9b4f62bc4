package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestJerichoChips: the on-chip buffer a
// Jericho2 switch's headroom estimate is held to is 16 MB per chip in
// use: two on a 7280CR3-96, one on a 7280CR3-32P4, three per 7800R3 line
// card that has ports in the fabric.
func TestJerichoChips(t *testing.T) {
	for _, tc := range []struct {
		model string
		ports []string
		want  int64
	}{
		{"7280CR3-96", []string{"Ethernet1/1"}, 2 << 24},
		{"7280CR3-32P4", []string{"Ethernet1/1"}, 1 << 24},
		{"7804R3", []string{"Ethernet3/1/1", "Ethernet3/2/1"}, 3 << 24},
		{"7808R3", []string{"Ethernet3/1/1", "Ethernet5/1/1"}, 6 << 24},
	} {
		sw := model.Switch{Platform: model.PlatformEOS, Hardware: model.Hardware{Model: tc.model}}
		for _, p := range tc.ports {
			sw.Ports = append(sw.Ports, model.Port{Name: p})
		}
		if !resolveHardware(&sw) {
			t.Fatalf("%s: not in the hardware table", tc.model)
		}
		if !selfSizedBudget(&sw) {
			t.Errorf("%s: EOS on Jericho2 not a self-sized budget", tc.model)
		}
		if got := onChipBytes(&sw); got != tc.want {
			t.Errorf("%s %v: on chip %d, want %d", tc.model, tc.ports, got, tc.want)
		}
	}
}
