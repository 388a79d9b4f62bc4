package verify

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// eosTC4Running is what a push of eosTC4Fabric leaves in an EOS running
// configuration (only the `qos map` entries that differ from EOS's
// defaults are printed), with its RoCE queue block given as roceQueue and
// its traffic-class map lines as tcMap.
func eosTC4Running(tcMap, roceQueue string) string {
	return `vlan 100
   name rdma
!
qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 4
` + tcMap + `!
interface Ethernet1/1
   mtu 9214
   switchport trunk allowed vlan 100
   switchport mode trunk
   qos trust dscp
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control pause watchdog
   !
   tx-queue 0
      no priority
      bandwidth percent 50
   !
   tx-queue 4
      no priority
      bandwidth percent 50
` + roceQueue + `   !
   tx-queue 6
      priority strict
!
`
}

// eosTC4Fabric is fabric() on EOS with the RoCE class (priority 3) in
// traffic class 4 and the PFC watchdog on, polling every 100 ms.
func eosTC4Fabric() (*model.Fabric, *model.Switch) {
	f, sw := fabric("Ethernet1/1")
	f.QoS.Classes[1].TrafficClass = 4
	f.QoS.Classes[1].ECN = nil
	sw.Platform = model.PlatformEOS
	sw.PFCWatchdog = model.PFCWatchdog{Enabled: true, Action: "drop", TimeoutMs: 200, PollingIntervalMs: 100, RestoreMs: 200}
	sw.Ports[0].MTU = 9214
	sw.Ports[0].PFCWatchdog = true
	return f, sw
}

// TestEOSQueueTie (review rsw, findings 2 and 4): verification reads the
// traffic-class -> CoS map that ties a lossless class's queue to its PFC
// priority, and the guaranteed bandwidth EOS's PFC watchdog needs on that
// queue, and reports a switch that lacks either.
func TestEOSQueueTie(t *testing.T) {
	const tied = "qos map traffic-class 0 to cos 0\nqos map traffic-class 1 to cos 1\nqos map traffic-class 4 to cos 3\n"
	const armed = "      bandwidth guaranteed percent 1\n"
	for _, tt := range []struct {
		name             string
		tcMap, roceQueue string
		want             []string
	}{
		{"as pushed", tied, armed, nil},
		{"no traffic-class map: TC4 leaves with CoS 4, PFC priority 3 pauses TC3",
			"qos map traffic-class 0 to cos 0\nqos map traffic-class 1 to cos 1\n", armed,
			[]string{"sw1 (switch-wide) CoS of TC4: intended 3, actual 4"}},
		{"EOS's default map for TC0 and TC1", "qos map traffic-class 4 to cos 3\n", armed,
			[]string{"sw1 (switch-wide) CoS of TC0: intended 0, actual 1", "sw1 (switch-wide) CoS of TC1: intended 1, actual 0"}},
		{"no guaranteed bandwidth: the watchdog does not monitor the queue", tied, "",
			[]string{"sw1 Ethernet1/1 guaranteed bandwidth (percent) TC4: intended 1, actual 0"}},
		{"another guarantee", tied, "      bandwidth guaranteed percent 5\n",
			[]string{"sw1 Ethernet1/1 guaranteed bandwidth (percent) TC4: intended 1, actual 5"}},
		{"a bare rate is not the percent guarantee fabricc writes", tied, "      bandwidth guaranteed 739\n",
			[]string{"sw1 Ethernet1/1 guaranteed bandwidth (percent) TC4: intended 1, actual 0"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, sw := eosTC4Fabric()
			var got []string
			for _, d := range Compare("sw1", Expect(f, sw), mustEOS(eosTC4Running(tt.tcMap, tt.roceQueue))) {
				got = append(got, d.String())
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("differences (-want +got):\n%s", d)
			}
		})
	}
	// A guarantee on a port without the watchdog is one an earlier push
	// left: the no-form is intended.
	f, sw := eosTC4Fabric()
	sw.Ports[0].PFCWatchdog = false
	running := strings.Replace(eosTC4Running(tied, armed), "   priority-flow-control pause watchdog\n", "", 1)
	var got []string
	for _, d := range Compare("sw1", Expect(f, sw), mustEOS(running)) {
		got = append(got, d.String())
	}
	if want := []string{"sw1 Ethernet1/1 guaranteed bandwidth (percent) TC4: intended 0, actual 1"}; !cmp.Equal(want, got) {
		t.Errorf("watchdog off: %v, want %v", got, want)
	}
}

// TestEOSSpeedLanes (review reos, finding 5): a 100G port on a cage of
// 50G lanes is forced to 2 lanes (`speed 100g-2`); verification reads the
// lane count back, so a port running the 4-lane mode, which does not
// come up against a PAM4 peer, is a difference, not a clean verify.
func TestEOSSpeedLanes(t *testing.T) {
	for _, tt := range []struct {
		name, line string
		want       []string
	}{
		{"as pushed", "   speed 100g-2\n", nil},
		{"the 4-lane mode", "   speed forced 100gfull\n", []string{"sw1 Ethernet1/1 speed lanes: intended 2, actual 4"}},
		{"100g-4", "   speed 100g-4\n", []string{"sw1 Ethernet1/1 speed lanes: intended 2, actual 4"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, sw := eosTC4Fabric()
			sw.Ports[0].SpeedMbps, sw.Ports[0].Lanes = 100000, 2
			running := strings.Replace(eosTC4Running("qos map traffic-class 0 to cos 0\nqos map traffic-class 1 to cos 1\nqos map traffic-class 4 to cos 3\n", "      bandwidth guaranteed percent 1\n"),
				"   mtu 9214\n", "   mtu 9214\n"+tt.line, 1)
			var got []string
			for _, d := range Compare("sw1", Expect(f, sw), mustEOS(running)) {
				got = append(got, d.String())
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("differences (-want +got):\n%s", d)
			}
		})
	}
}
