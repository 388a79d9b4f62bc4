package verify

import (
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
