package eos

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// qosMapLines are the "qos map" lines of out, in order.
func qosMapLines(out string) []string {
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "qos map ") {
			got = append(got, l)
		}
	}
	return got
}

// TestTrafficClassToCoSTie (review rsw, finding 2): EOS pauses by CoS and
// queues by traffic class, so a lossless class whose traffic class is
// not its priority needs "qos map traffic-class T to cos P" (and, on a
// port that classifies by CoS, "qos map cos P to traffic-class T"), or
// PFC on priority 3 pauses a queue the class is not in.
func TestTrafficClassToCoSTie(t *testing.T) {
	dscpLines := []string{
		"qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 56 57 58 59 60 61 62 63 to traffic-class 0",
	}
	for _, tt := range []struct {
		name  string
		tc    int
		trust model.Trust
		want  []string
	}{
		{"RoCE in TC3, DSCP trust", 3, model.TrustDSCP, slices.Concat(dscpLines, []string{
			"qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 3",
			"qos map dscp 48 49 50 51 52 53 54 55 to traffic-class 6",
			"qos map traffic-class 0 to cos 0",
			"qos map traffic-class 1 to cos 1",
			"qos map traffic-class 2 to cos 2",
			"qos map traffic-class 3 to cos 3",
			"qos map traffic-class 4 to cos 4",
			"qos map traffic-class 5 to cos 5",
			"qos map traffic-class 6 to cos 6",
			"qos map traffic-class 7 to cos 7",
		})},
		{"RoCE in TC4, DSCP trust", 4, model.TrustDSCP, slices.Concat(dscpLines, []string{
			"qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 4",
			"qos map dscp 48 49 50 51 52 53 54 55 to traffic-class 6",
			"qos map traffic-class 0 to cos 0",
			"qos map traffic-class 1 to cos 1",
			"qos map traffic-class 2 to cos 2",
			"qos map traffic-class 3 4 to cos 3",
			"qos map traffic-class 5 to cos 5",
			"qos map traffic-class 6 to cos 6",
			"qos map traffic-class 7 to cos 7",
		})},
		{"RoCE in TC4, CoS trust", 4, model.TrustPCP, slices.Concat([]string{
			"qos map cos 0 1 2 4 5 7 to traffic-class 0",
			"qos map cos 3 to traffic-class 4",
			"qos map cos 6 to traffic-class 6",
		}, dscpLines, []string{
			"qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 4",
			"qos map dscp 48 49 50 51 52 53 54 55 to traffic-class 6",
			"qos map traffic-class 0 to cos 0",
			"qos map traffic-class 1 to cos 1",
			"qos map traffic-class 2 to cos 2",
			"qos map traffic-class 3 4 to cos 3",
			"qos map traffic-class 5 to cos 5",
			"qos map traffic-class 6 to cos 6",
			"qos map traffic-class 7 to cos 7",
		})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			f.QoS.Classes[1].TrafficClass = tt.tc
			f.QoS.PriorityToTC[3] = tt.tc
			f.Switches[0].Ports[0].Trust = tt.trust
			out := render(t, f)
			if got := qosMapLines(out); !slices.Equal(got, tt.want) {
				t.Errorf("qos map lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if got := txQueueBlock(t, out, strconv.Itoa(tt.tc)); len(got) == 0 || got[0] != "      no priority" {
				t.Errorf("tx-queue %d block: %q", tt.tc, got)
			}
		})
	}
}

// interfaceBlock is the "interface name" block of out, up to its "!".
func interfaceBlock(t *testing.T, out, name string) string {
	t.Helper()
	i := strings.Index(out, "\ninterface "+name+"\n")
	if i < 0 {
		t.Fatalf("no interface %s in\n%s", name, out)
	}
	rest := out[i+1:]
	if j := strings.Index(rest, "\n!\n"); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// TestWatchdogGuaranteedBandwidth (review rsw, finding 4; review reos,
// finding 3): EOS's PFC watchdog monitors only PFC queues with
// guaranteed bandwidth, so a port running the watchdog gets `bandwidth
// guaranteed percent N` (the documented form) in its lossless class's
// queue, N the smallest whole share of the slowest watchdog port that
// sends one of the switch's largest frames per polling interval; every
// other queue, and every queue of a port without the watchdog, gets the
// no-form.
func TestWatchdogGuaranteedBandwidth(t *testing.T) {
	for _, tt := range []struct {
		name    string
		edit    func(f *model.Fabric)
		port    string
		roce    string // the line in uc-tx-queue 3 (the RoCE class)
		cnpLine string // the line in uc-tx-queue 6 (the CNP class, lossy)
	}{
		{"watchdog port, MTU 9214, polling 100 ms: 739 kbps, 1 % of 25G", func(*model.Fabric) {}, "Ethernet1/1",
			"      bandwidth guaranteed percent 1", "      no bandwidth guaranteed"},
		{"watchdog port, polling 5 ms: 14778 kbps, still 1 % of 25G", func(f *model.Fabric) { f.Switches[0].PFCWatchdog.PollingIntervalMs = 5 }, "Ethernet1/1",
			"      bandwidth guaranteed percent 1", "      no bandwidth guaranteed"},
		{"polling 5 ms with a 1G watchdog port: 14778 kbps is 1.48 % of 1G", func(f *model.Fabric) {
			f.Switches[0].PFCWatchdog.PollingIntervalMs = 5
			f.Switches[0].Ports[1].SpeedMbps = 1000
		}, "Ethernet1/1", "      bandwidth guaranteed percent 2", "      no bandwidth guaranteed"},
		{"port without the watchdog", func(f *model.Fabric) { f.Switches[0].Ports[0].PFCWatchdog = false }, "Ethernet1/1",
			"      no bandwidth guaranteed", "      no bandwidth guaranteed"},
		{"port without PFC", func(*model.Fabric) {}, "Ethernet32/1",
			"      no bandwidth guaranteed", "      no bandwidth guaranteed"},
		{"switch watchdog off", func(f *model.Fabric) {
			f.Switches[0].PFCWatchdog = model.PFCWatchdog{}
		}, "Ethernet1/1", "      no bandwidth guaranteed", "      no bandwidth guaranteed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			tt.edit(f)
			block := interfaceBlock(t, render(t, f), tt.port)
			for tc, want := range map[string]string{"3": tt.roce, "6": tt.cnpLine} {
				got := txQueueBlock(t, block, tc)
				if !slices.Contains(got, want) {
					t.Errorf("%s uc-tx-queue %s lacks %q:\n%s", tt.port, tc, want, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestTxQueueKeywordByASIC (review reos, finding 2): the Strata ASICs
// (Trident, Tomahawk) split unicast and multicast queues and configure
// the unicast ones under `uc-tx-queue N`; Jericho has `tx-queue N`.
func TestTxQueueKeywordByASIC(t *testing.T) {
	for _, tt := range []struct{ asic, want, not string }{
		{"Trident3", "   uc-tx-queue 3", "   tx-queue 3"},
		{"Tomahawk", "   uc-tx-queue 3", "   tx-queue 3"},
		{"Jericho2", "   tx-queue 3", "   uc-tx-queue 3"},
	} {
		f := testFabric()
		f.Switches[0].Hardware.ASIC = tt.asic
		block := interfaceBlock(t, render(t, f), "Ethernet1/1")
		lines := strings.Split(block, "\n")
		if !slices.Contains(lines, tt.want) || slices.Contains(lines, tt.not) {
			t.Errorf("%s: Ethernet1/1 lacks %q or has %q:\n%s", tt.asic, tt.want, tt.not, block)
		}
	}
}
