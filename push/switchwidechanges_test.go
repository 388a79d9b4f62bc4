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

// TestSwitchWideChangesByStage: on a platform whose read-back has the
// DSCP map's two stages (Cumulus, Onyx), a partial push's switch-wide
// change names the stage that moved, in Compare's words: the egress map
// (switch priority -> traffic class) moving switch priority 3 from
// traffic class 3 to 0 is "switch priority 3 traffic class 3 -> 0", not
// a change of DSCP 24 and 26 that land there; a DSCP moved to another
// switch priority is "DSCP 26 switch priority 0 -> 3". Without the
// stages the composed map is named, "DSCP 26 TC0 -> TC3".
func TestSwitchWideChangesByStage(t *testing.T) {
	ports := func(dscpToPrio, prioToTC map[int]int) map[string]*verify.Port {
		m := map[string]*verify.Port{}
		for _, n := range []string{"swp1", "swp2", "swp3"} {
			p := &verify.Port{PFC: []int{3}, DSCPToPriority: dscpToPrio, PriorityToTC: prioToTC}
			if dscpToPrio != nil {
				p.DSCPToTC = map[int]int{}
				for d, prio := range dscpToPrio {
					p.DSCPToTC[d] = prioToTC[prio]
				}
			}
			m[n] = p
		}
		return m
	}
	for _, tc := range []struct {
		name          string
		before, after map[string]*verify.Port
		want          []string
	}{
		{"egress map", ports(map[int]int{0: 0, 24: 3, 26: 3}, map[int]int{0: 0, 3: 3}), ports(map[int]int{0: 0, 24: 3, 26: 3}, map[int]int{0: 0, 3: 0}),
			[]string{"switch priority 3 traffic class 3 -> 0"}},
		{"DSCP map", ports(map[int]int{0: 0, 26: 0}, map[int]int{0: 0, 3: 3}), ports(map[int]int{0: 0, 26: 3}, map[int]int{0: 0, 3: 3}),
			[]string{"DSCP 26 switch priority 0 -> 3"}},
		{"composed only", ports(nil, nil), ports(nil, nil), []string{"DSCP 26 TC0 -> TC3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "composed only" {
				for _, p := range tc.before {
					p.DSCPToTC = map[int]int{26: 0}
				}
				for _, p := range tc.after {
					p.DSCPToTC = map[int]int{26: 3}
				}
			}
			want := &verify.State{Ports: ports(nil, nil)}
			before, after := &verify.State{Ports: tc.before}, &verify.State{Ports: tc.after}
			if got := switchWideChanges(want, before, after); !slices.Equal(got, tc.want) {
				t.Errorf("switch-wide changes %q, want %q", got, tc.want)
			}
		})
	}
}
