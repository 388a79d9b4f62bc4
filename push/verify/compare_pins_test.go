package verify

import (
	"testing"

	"github.com/fabricc/fabricc/model"
)

// Tests that pin Compare where hand mutation testing (review mutants2)
// changed a decision with no test failing.

// TestComparePinsNotSet: a setting the switch's configuration leaves out
// (no MTU line, no switchport mode, no trust) is the switch's default,
// which the difference says, rather than an MTU of 0 bytes or an empty
// mode, which no switch has.
func TestComparePinsNotSet(t *testing.T) {
	for _, tc := range []struct {
		set  func(p *Port)
		want string
	}{
		{func(p *Port) { p.MTU = 9214 }, "sw Ethernet1 MTU: intended 9214, actual not set (the switch's default)"},
		{func(p *Port) { p.Mode = model.ModeTrunk }, "sw Ethernet1 mode: intended trunk, actual not set (the switch's default)"},
		{func(p *Port) { p.Speed, p.SpeedLanes = 100000, 4 }, "sw Ethernet1 speed lanes: intended 4, actual not set (the switch's default)"},
		{func(p *Port) { p.IngressBuffers = map[int]IngressBuffer{3: {Xoff: 19456}} }, "sw Ethernet1 ingress-buffer pg3 xoff: intended 19456 B, actual not set (the switch's default)"},
		{func(p *Port) { p.IngressBuffers = map[int]IngressBuffer{3: {Xon: 18432}} }, "sw Ethernet1 ingress-buffer pg3 xon: intended 18432 B, actual not set (the switch's default)"},
		{func(p *Port) { p.Trust = model.TrustDSCP }, "sw Ethernet1 trust: intended dscp, actual not set (the switch's default)"},
	} {
		want, got := NewState(), NewState()
		tc.set(want.Port("Ethernet1"))
		g := got.Port("Ethernet1")
		// the same speed and priority group, without the setting
		g.Speed, g.IngressBuffers = want.Ports["Ethernet1"].Speed, map[int]IngressBuffer{3: {}}
		if d := Compare("sw", want, got); len(d) != 1 || d[0].String() != tc.want {
			t.Errorf("differences %q, want %q", d, tc.want)
		}
	}
}

// TestComparePinsSpeedUnits: a speed is written in the unit the
// platforms' keywords use (NVUE `link speed 100G`, Onyx `speed 100M`:
// NVUE Command Reference, Interface Commands; Onyx User Manual,
// Ethernet Interfaces): G for whole Gb/s, M otherwise, so 100 Mb/s is
// "100M", never "0G".
func TestComparePinsSpeedUnits(t *testing.T) {
	want, got := NewState(), NewState()
	want.Port("Ethernet1").Speed = 100000
	got.Port("Ethernet1").Speed = 100
	if d := Compare("sw", want, got); len(d) != 1 || d[0].String() != "sw Ethernet1 speed: intended 100G, actual 100M" {
		t.Errorf("differences %q", d)
	}
}
