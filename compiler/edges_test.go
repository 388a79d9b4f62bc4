package compiler

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// TestUncabledLengthIsDefault checks that a link with no length (0 m)
// gets SONiC's default cable of 5 m, not 0 m: a 0 m headroom would leave
// out the bytes in flight on the cable. Port 1/2 of leaf1 is cabled at
// 5 m; with its length removed its headroom must not change (worked
// example of headroom_test.go: xoff 44032, size 63488).
func TestUncabledLengthIsDefault(t *testing.T) {
	f := testFabric()
	f.Switches[0].Ports[1].Peer.CableMeters = 0
	physics(t, f, testSources(f))
	pg := f.Switches[0].Ports[1].PriorityGroups[1]
	if pg.Headroom == nil || pg.Headroom.CableMeters != 5 || pg.XoffBytes != 44032 || pg.SizeBytes != 63488 {
		t.Errorf("0 m cable: cable %v xoff %d size %d, want 5 m, 44032, 63488", pg.Headroom.CableMeters, pg.XoffBytes, pg.SizeBytes)
	}
}

// TestNoLosslessPortsAllSharedToLossy checks the pools of a switch with
// PFC on no port: there is no headroom to plan and no lossless pool, so
// the whole shared buffer goes to the lossy pools. Every port then has a
// lossy PG 0 (10240 B) and three lossy egress queues (9216 B each).
func TestNoLosslessPortsAllSharedToLossy(t *testing.T) {
	f := testFabric()
	sw := &f.Switches[0]
	for i := range sw.Ports {
		sw.Ports[i].PFCPriorities = nil
	}
	physics(t, f, testSources(f))
	const total = 13945824 // the SN2410's usable buffer
	reserved := int64(4*10240 + 12*9216)
	shared := total - reserved // 13794272
	if sw.Buffer.HeadroomReserveBytes != 0 || sw.Buffer.SharedBytes != shared {
		t.Errorf("budget %+v, want no headroom and %d shared", sw.Buffer, shared)
	}
	var got []string
	for _, p := range sw.Pools {
		got = append(got, p.Direction+" "+p.Type+" "+p.Name)
		var want int64
		switch p.Direction {
		case "ingress":
			want = 4*10240 + shared // 13835232
		case "egress":
			want = 12*9216 + shared // 13904864
		}
		if p.SizeBytes != want {
			t.Errorf("pool %s %s: %d bytes, want %d (every shared byte to the lossy pool)", p.Direction, p.Name, p.SizeBytes, want)
		}
	}
	if want := []string{"ingress lossy lossy-default", "egress lossy lossy-default"}; !slices.Equal(got, want) {
		t.Errorf("pools %q, want %q", got, want)
	}
}

// TestPoolPercent checks a pool's share of the buffer: percent of the
// total, to one decimal (the precision Onyx's "memory percent" keeps).
func TestPoolPercent(t *testing.T) {
	for _, tt := range []struct {
		size, total int64
		want        float64
	}{
		{7130317, 16777216, 42.5}, // 42.50000
		{5592405, 16777216, 33.3}, // 33.33333
		{7549747, 16777216, 45.0}, // 44.99999
		{6303744, 13107200, 48.1}, // 48.09375
		{0, 16777216, 0},
		{1000, 0, 0}, // no buffer size known
	} {
		if got := pool("p", "ingress", "lossy", tt.size, tt.total, nil).Percent; got != tt.want {
			t.Errorf("pool(%d of %d).Percent = %v, want %v", tt.size, tt.total, got, tt.want)
		}
	}
}

// TestECNEqualThresholds checks that min == max is refused: marking
// ramps from min to max, so an equal pair leaves no ramp.
func TestECNEqualThresholds(t *testing.T) {
	f := testFabric()
	f.QoS.Classes[1].ECN.MinBytes = 300 * 1024
	f.QoS.Classes[1].ECN.MaxBytes = 300 * 1024
	src := testSources(f)
	want := []string{"error|ECN minimum not below maximum|qos/class/roce/ecn/min|qos/class/roce/ecn/max"}
	if diff := cmp.Diff(want, runChecks(t, f, src)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestECNRampOnALossyClass checks that a lossy class's empty ECN ramp
// is refused at validate, as a lossless class's is: it passed before and
// failed only when a switch was rendered, with no position ("need 0 <
// min <= max").
func TestECNRampOnALossyClass(t *testing.T) {
	f := testFabric()
	var lossy *model.Class
	for i := range f.QoS.Classes {
		if !f.QoS.Classes[i].Lossless {
			lossy = &f.QoS.Classes[i]
			break
		}
	}
	if lossy == nil {
		t.Fatal("the test fabric has no lossy class")
	}
	lossy.ECN = &model.ECN{MinBytes: 1500 * 1024, MaxBytes: 150 * 1024, MarkProbabilityPercent: 100}
	src := testSources(f)
	want := []string{"error|ECN minimum not below maximum|qos/class/" + lossy.Name + "/ecn/min|qos/class/" + lossy.Name + "/ecn/max"}
	if diff := cmp.Diff(want, runChecks(t, f, src)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestZeroSizeLosslessPG checks the consistency check behind PFC: a
// port with PFC on the RoCE priority whose lossless group holds no
// buffer is reported, since paused traffic would have nowhere to go.
func TestZeroSizeLosslessPG(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	physics(t, f, src)
	f.Switches[0].Ports[0].PriorityGroups[1].SizeBytes = 0
	var got []string
	for _, d := range check(f, src) {
		got = append(got, diagLine(src, d))
	}
	want := []string{"error|No lossless buffer for PFC priority|switch/leaf1/port/1/1|"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestShutDownPortChecks checks what a shut-down port changes in the
// checks. Switches have egress queues 0-7, so traffic class 8 is out of
// range; a shut-down port carries no traffic, so it needs no PFC (only
// the host side still reports that its NIC expects lossless service)
// and it does not count among the lossless ports of the DCQCN bound:
// with leaf1 1/1 down, k = 2 and S = 6703672 B (half the shared part of
// the SN2410's usable 13945824 B), 2 x 6703672 / (2 x 3) = 2234557 B, so
// a 460 KB (471040 B) minimum is below it.
func TestShutDownPortChecks(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *model.Fabric)
		want   []string
	}{
		{"traffic class 8", func(f *model.Fabric) { f.QoS.Classes[2].TrafficClass = 8 },
			[]string{"error|Traffic class out of range|qos/class/cnp|"}},
		{"shut-down port without PFC", func(f *model.Fabric) {
			f.Switches[0].Ports[0].Shutdown = true
			f.Switches[0].Ports[0].PFCPriorities = nil
		}, []string{
			"error|RoCE priority not lossless|host/h1/nic/roce0/priority|switch/leaf1/port/1/1",
			"error|RoCE DSCP maps to lossy priority|host/h1/nic/roce0/dscp|switch/leaf1/port/1/1/trust",
			"error|NIC PFC priorities differ from switch port|host/h1/nic/roce0/pfc_priorities|switch/leaf1/port/1/1",
		}},
		{"shut-down port leaves the DCQCN bound", func(f *model.Fabric) {
			f.Switches[0].Ports[0].Shutdown = true
			f.QoS.Classes[1].ECN.MinBytes = 460 * 1024
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			tt.mutate(f)
			if diff := cmp.Diff(tt.want, runChecks(t, f, testSources(f))); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
