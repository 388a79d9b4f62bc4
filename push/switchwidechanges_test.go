package push

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/push/verify"
)

// TestSwitchWideChangesOnePort: PFC restored on one Onyx port (1/1) of
// three is that port's change, not a switch-wide one, so a partial push
// names no fabric-wide setting for it; PFC priorities changed on every
// port, a DSCP map that moved on every port and a VLAN added are
// switch-wide, each named once, the most common per-port text for a
// setting whose ports moved from different values.
func TestSwitchWideChangesOnePort(t *testing.T) {
	ports := func(pfc ...[]int) map[string]*verify.Port {
		m := map[string]*verify.Port{}
		for i, p := range pfc {
			m[[]string{"1/1", "1/2", "1/3"}[i]] = &verify.Port{PFC: p, DSCPToTC: map[int]int{26: 3}}
		}
		return m
	}
	want := &verify.State{Ports: ports([]int{3}, []int{3}, []int{3}), VLANs: map[int]string{101: ""}}
	before := &verify.State{Ports: ports(nil, []int{3}, []int{3}), VLANs: map[int]string{101: ""}}
	after := &verify.State{Ports: ports([]int{3}, []int{3}, []int{3}), VLANs: map[int]string{101: ""}}
	if got := switchWideChanges(want, before, after); len(got) != 0 {
		t.Errorf("PFC restored on 1/1 only: switch-wide %q, want none", got)
	}
	if got := verify.SwitchWideChanges(want, before, after); !slices.Equal(got, []string{"PFC priorities none -> 3"}) {
		t.Errorf("verify.SwitchWideChanges = %q: the case no longer tells a port's change from the switch's", got)
	}

	before = &verify.State{Ports: ports(nil, []int{4}, []int{4}), VLANs: map[int]string{101: ""}}
	for _, p := range before.Ports {
		p.DSCPToTC = map[int]int{26: 0}
	}
	after.VLANs = map[int]string{101: "", 300: ""}
	want.VLANs = after.VLANs
	got := switchWideChanges(want, before, after)
	if w := []string{"VLANs 101 -> 101,300", "DSCP 26 TC0 -> TC3", "PFC priorities 4 -> 3"}; !slices.Equal(got, w) {
		t.Errorf("switch-wide changes %q, want %q", got, w)
	}
}
