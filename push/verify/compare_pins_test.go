package verify

import (
	"strings"
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

// TestCompareUnusedClassNotCompared (review mrt 8): one mechanism, a
// go-cmp path filter per per-traffic-class map (unusedClassOptions),
// leaves the ETS and ECN of a traffic class no priority maps to out of
// the comparison; the same difference on a used class is reported. A
// platform whose renderer writes all eight ETS entries (AllETS: NVUE)
// has an unused class's share compared, its ECN not.
func TestCompareUnusedClassNotCompared(t *testing.T) {
	state := func(allETS bool, ets map[int]model.ETS, ecn map[int]ECN) *State {
		return &State{UsedTCs: map[int]bool{0: true, 3: true}, AllETS: allETS,
			Ports: map[string]*Port{"p1": {MTU: 9216, ETS: ets, ECN: ecn}}}
	}
	wrr := func(pc int) model.ETS { return model.ETS{Mode: model.ETSWRR, BandwidthPercent: pc} }
	intended := func(allETS bool) *State {
		return state(allETS, map[int]model.ETS{0: wrr(50), 3: wrr(50)}, map[int]ECN{3: {MinBytes: 150000, MaxBytes: 1500000}})
	}
	tests := []struct {
		name   string
		allETS bool
		ets    map[int]model.ETS
		ecn    map[int]ECN
		want   string
	}{
		{"unused class ETS and ECN", false,
			map[int]model.ETS{0: wrr(50), 3: wrr(50), 5: wrr(20)},
			map[int]ECN{3: {MinBytes: 150000, MaxBytes: 1500000}, 5: {MinBytes: 10000, MaxBytes: 20000}}, ""},
		{"used class ETS", false,
			map[int]model.ETS{0: wrr(70), 3: wrr(30)},
			map[int]ECN{3: {MinBytes: 150000, MaxBytes: 1500000}},
			"sw1 p1 ETS TC0 bandwidth: intended 50, actual 70|sw1 p1 ETS TC3 bandwidth: intended 50, actual 30"},
		{"used class ECN", false,
			map[int]model.ETS{0: wrr(50), 3: wrr(50)},
			map[int]ECN{3: {MinBytes: 100000, MaxBytes: 1500000}},
			"sw1 p1 ECN TC3: intended min 150000 B max 1500000 B, actual min 100000 B max 1500000 B"},
		{"all ETS compared", true,
			map[int]model.ETS{0: wrr(50), 3: wrr(50), 5: wrr(1)},
			map[int]ECN{3: {MinBytes: 150000, MaxBytes: 1500000}, 5: {MinBytes: 10000, MaxBytes: 20000}},
			"sw1 p1 ETS TC5: intended (none), actual wrr 1%"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range Compare("sw1", intended(tc.allETS), state(tc.allETS, tc.ets, tc.ecn)) {
				got = append(got, d.String())
			}
			if g := strings.Join(got, "|"); g != tc.want {
				t.Errorf("differences:\n%s\nwant:\n%s", g, tc.want)
			}
		})
	}
}
