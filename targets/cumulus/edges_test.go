package cumulus

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestScriptLinesArithmetic pins the NVUE values that fabricc derives
// from the model by arithmetic or grouping rather than copying a number:
// whole-meter cable lengths, the watchdog's robustness count, the trust
// profile a PCP-trusting port gets, and the split of PFC profiles. Each
// case fails when the rule is changed (rounding instead of ceiling,
// floor division, merging unequal profiles).
func TestScriptLinesArithmetic(t *testing.T) {
	cabled := func(i int, name, host string, speed int, meters float64) func(f *model.Fabric) {
		return func(f *model.Fabric) {
			f.Switches[0].Ports[i] = hostPort(name, host, speed, meters, 19000, 19000)
		}
	}
	tests := []struct {
		name   string
		mutate func(f *model.Fabric)
		want   []string
		absent []string
	}{
		// NVUE cable-length is whole meters; a 2.3 m cable needs the
		// headroom of 3 m, never 2 m (less headroom than the cable needs
		// drops lossless traffic).
		{name: "cable length rounds up", mutate: cabled(2, "swp3", "host03", 25000, 2.3), want: []string{
			"nv set qos pfc pfc-sp3-25g-3m cable-length 3",
			"nv set interface swp3 qos pfc profile pfc-sp3-25g-3m",
		}, absent: []string{"nv set qos pfc pfc-sp3-25g-2m cable-length 2"}},
		// NVUE detects a stuck queue after polling-interval x robustness;
		// 250 ms at 100 ms polling needs 3 polls (300 ms >= 250 ms), not 2
		// (200 ms, which would declare a queue stuck before the timeout).
		{name: "watchdog robustness rounds up", mutate: func(f *model.Fabric) {
			f.Switches[0].PFCWatchdog.TimeoutMs = 250
		}, want: []string{
			"nv set qos pfc-watchdog polling-interval 100",
			"nv set qos pfc-watchdog robustness 3",
		}, absent: []string{"nv set qos pfc-watchdog robustness 2"}},
		// NVUE trust keywords: l2 (PCP), l3 (DSCP), both.
		{name: "pcp trust profile", mutate: func(f *model.Fabric) {
			f.Switches[0].Ports[2].Trust = model.TrustPCP
		}, want: []string{
			"nv set qos mapping trust-l2 trust l2",
			"nv set qos mapping trust-l2 pcp 3 switch-priority 3",
			"nv set qos mapping trust-l2 pcp 6 switch-priority 6",
			"nv set interface swp3 qos mapping profile trust-l2",
		}, absent: []string{
			"nv set qos mapping trust-l3 trust l3",
			"nv set qos mapping trust-l2 dscp 24,25,26,27,28,29,30,31 switch-priority 3",
		}},
		// Two ports of the same speed on different cables need different
		// cable-length (and headroom), so they cannot share a profile.
		{name: "pfc profiles split by cable", mutate: cabled(1, "swp2", "host02", 100000, 5), want: []string{
			"nv set qos pfc pfc-sp3-100g-5m cable-length 5",
			"nv set interface swp2 qos pfc profile pfc-sp3-100g-5m",
			"nv set interface swp1 qos pfc profile pfc-sp3-100g-3m",
			"nv set qos pfc pfc-sp3-100g-3m cable-length 3",
		}},
		// The same buffer numbers without a headroom record (a hand-built
		// model): the cable alone still keeps the profiles apart.
		{name: "pfc profiles split by cable alone", mutate: func(f *model.Fabric) {
			sw := &f.Switches[0]
			for i := range sw.Ports {
				for j := range sw.Ports[i].PriorityGroups {
					sw.Ports[i].PriorityGroups[j].Headroom = nil
				}
			}
			sw.Ports[1].Peer.CableMeters = 5
		}, want: []string{
			"nv set qos pfc pfc-sp3-100g-5m cable-length 5",
			"nv set interface swp2 qos pfc profile pfc-sp3-100g-5m",
			"nv set interface swp1 qos pfc profile pfc-sp3-100g-3m",
			"nv set qos pfc pfc-sp3-100g-3m cable-length 3",
		}},
		// The link-pause profile is shared, so its cable-length must cover
		// the longest cable of its ports (30 m uplink, not the 2.5 m DAC).
		{name: "link pause takes the longest cable", mutate: func(f *model.Fabric) {
			for _, i := range []int{2, 4} {
				p := &f.Switches[0].Ports[i]
				p.PFCPriorities, p.LinkPause = nil, true
			}
		}, want: []string{
			"# profile link-pause: ports swp3,swp32; cable-length is the longest of their cables",
			"nv set qos link-pause link-pause cable-length 30",
		}, absent: []string{"nv set qos link-pause link-pause cable-length 3"}},
		// A trunk given only its native VLAN carries that VLAN untagged.
		{name: "trunk with only a native VLAN", mutate: func(f *model.Fabric) {
			p := &f.Switches[0].Ports[4]
			p.TrunkVLANs, p.NativeVLAN = nil, 100
		}, want: []string{
			"nv set interface swp32 bridge domain br_default vlan 100",
			"nv set interface swp32 bridge domain br_default untagged 100",
		}},
		// NVUE refuses the watchdog on a port with neither PFC nor link
		// pause, so the port gets a note, not the set line.
		{name: "watchdog needs PFC or pause", mutate: func(f *model.Fabric) {
			f.Switches[0].Ports[2].PFCPriorities = nil
		}, want: []string{
			"# NOTE: port swp3 is covered by the PFC watchdog but has neither PFC nor link pause; NVUE allows the watchdog only on such ports",
			"nv set interface swp1 qos pfc-watchdog state enable",
		}, absent: []string{"nv set interface swp3 qos pfc-watchdog state enable"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script, _ := render(t, tc.mutate)
			assertLines(t, script, tc.want, tc.absent)
		})
	}
}

// TestECNErrors checks the NVUE ECN ranges: probability 1-100 and
// thresholds 0 < min <= max, each refused with its diagnostic.
func TestECNErrors(t *testing.T) {
	tests := []struct {
		name string
		ecn  model.ECN
		want string
	}{
		{"probability above 100", model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 101},
			`class "roce": NVUE ECN probability must be 1-100, the model gives 101`},
		{"probability 0", model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 0},
			`class "roce": NVUE ECN probability must be 1-100, the model gives 0`},
		{"min 0", model.ECN{MinBytes: 0, MaxBytes: 1500000, MarkProbabilityPercent: 100},
			`class "roce": ECN thresholds 0/1500000 B need 0 < min <= max`},
		{"min above max", model.ECN{MinBytes: 1500001, MaxBytes: 1500000, MarkProbabilityPercent: 100},
			`class "roce": ECN thresholds 1500001/1500000 B need 0 < min <= max`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fixture()
			e := tc.ecn
			f.QoS.Classes[1].ECN = &e
			_, err := Render(f, &f.Switches[0])
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// min == max is a one-point ramp, which NVUE takes.
	f := fixture()
	f.QoS.Classes[1].ECN = &model.ECN{MinBytes: 150000, MaxBytes: 150000, MarkProbabilityPercent: 100}
	if _, err := Render(f, &f.Switches[0]); err != nil {
		t.Errorf("min == max refused: %v", err)
	}
}

// TestFirstPortWithoutPFC: a switch whose first port has PFC off and
// whose other ports have it renders (it dereferenced the first port's
// missing profile), the others each with a profile attached and the
// first with none.
func TestFirstPortWithoutPFC(t *testing.T) {
	script, _ := render(t, func(f *model.Fabric) {
		p := &f.Switches[0].Ports[0]
		p.PFCPriorities, p.PFCWatchdog = []int{}, false
	})
	if strings.Contains(script, "nv set interface swp1 qos pfc profile") {
		t.Errorf("swp1 has PFC off but gets a PFC profile:\n%s", script)
	}
	if !strings.Contains(script, "nv set interface swp2 qos pfc profile ") {
		t.Errorf("swp2 has PFC but no PFC profile attached:\n%s", script)
	}
}
