package verify

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// Tests that pin Expect where hand mutation testing (review mutants2)
// changed a decision with no test failing.

// TestStatePinsIngressPoolsOnly: the pools verify compares are the
// ingress shared-buffer pools, one per type (State.Pools); an egress
// pool of the same type, wherever the switch's pool list puts it, is not
// the one a platform's ingress `traffic pool` (Onyx) or `traffic-pool`
// (NVUE) line configures, and a second ingress pool of a type does not
// replace the first.
func TestStatePinsIngressPoolsOnly(t *testing.T) {
	f, sw := fabric("Ethernet1/1")
	sw.Pools = []model.BufferPool{
		{Name: "e", Direction: "egress", Type: "lossless", Percent: 100, Priorities: []int{3}},
		{Name: "i", Direction: "ingress", Type: "lossless", Percent: 52.6, Priorities: []int{3}},
		{Name: "i2", Direction: "ingress", Type: "lossless", Percent: 10, Priorities: []int{4}},
	}
	want := map[string]Pool{"lossless": {Percent: 52.6, Priorities: []int{3}}}
	if d := cmp.Diff(want, Expect(f, sw).Pools); d != "" {
		t.Errorf("pools (-want +got):\n%s", d)
	}
}

// TestStatePinsCumulusEveryClass: targets/cumulus writes the
// congestion control of all eight traffic classes (the idle ones `ecn
// disable`), so verify compares all eight there: ECN left on in a
// traffic class no priority maps to is a difference on NVUE (Cumulus
// Linux User Guide, Quality of Service, Congestion Control (ECN): a
// class's ECN is set in the default-global profile), even though the
// fabric's priority map leaves that class idle.
func TestStatePinsCumulusEveryClass(t *testing.T) {
	f, sw := fabric("swp1")
	sw.Platform = model.PlatformCumulus
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	want := Expect(f, sw)
	got := Expect(f, sw)
	got.Ports["swp1"].ECN[5] = ECN{MinBytes: 153600, MaxBytes: 1536000}
	var fields []string
	for _, d := range Compare("sw1", want, got) {
		fields = append(fields, d.Field)
	}
	if len(fields) != 1 || fields[0] != "ECN TC5" {
		t.Errorf("differences in %q, want ECN TC5 only", fields)
	}
}

// TestStatePinsOnyxPFCScope: on Onyx the PFC priorities are one global
// list (`dcb priority-flow-control priority N enable`) that a port takes
// when its own `dcb priority-flow-control mode on` is set (Onyx User
// Manual, Priority Flow Control). A fabric port without PFC that the
// switch runs with PFC on differs in its own mode line, so the
// difference is the port's, not a switch-wide one.
func TestStatePinsOnyxPFCScope(t *testing.T) {
	f, sw := fabric("1/1")
	sw.Platform = model.PlatformOnyx
	sw.Ports[0].PFCPriorities = nil
	want, got := Expect(f, sw), Expect(f, sw)
	p := got.Ports["1/1"]
	p.PFC, p.SwitchWide = []int{3}, map[string]bool{"PFC": true} // as ParseOnyx reads a port with mode on
	d := Compare("sw1", want, got)
	if len(d) != 1 || d[0].Scope != "" || d[0].String() != "sw1 1/1 PFC priorities: intended none, actual 3" {
		t.Errorf("differences %+v", d)
	}
}

// TestStatePinsOnyxSinglePriorityGroup: in Onyx advanced buffer mode
// every priority group of a port is an `ingress-buffer iPort.pgN` line
// (Onyx User Manual, Shared Buffers), a port with one group (a port
// without PFC: its lossy group alone) included, so verify expects it.
func TestStatePinsOnyxSinglePriorityGroup(t *testing.T) {
	f, sw := fabric("1/1")
	sw.Platform, sw.BufferStyle = model.PlatformOnyx, "advanced"
	sw.Ports[0].PFCPriorities = nil
	sw.Ports[0].PriorityGroups = []model.PriorityGroup{{Index: 0, Priorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, SizeBytes: 10240}}
	got := Expect(f, sw).Ports["1/1"].IngressBuffers
	if len(got) != 1 || !slices.Equal(got[0].Priorities, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("ingress buffers %+v, want pg0 of priorities 0-7", got)
	}
}
