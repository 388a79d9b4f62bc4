package verify

import (
	"reflect"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// state is a State of ports with PFC priorities and ETS, VLANs and a
// lossless pool, for the tests of what a push changes switch-wide.
func state(vlans []int, pool []int, ports map[string][]int, ets map[int]model.ETS) *State {
	s := NewState()
	for _, v := range vlans {
		s.VLANs[v] = ""
	}
	if pool != nil {
		s.Pools = map[string]Pool{"lossless": {Percent: 50, Priorities: pool}}
	}
	for n, pfc := range ports {
		p := s.Port(n)
		p.PFC = pfc
		for tc, e := range ets {
			p.ETS[tc] = e
		}
	}
	return s
}

// dscp gives every port of s a DSCP map with code point d in class tc.
func dscp(s *State, d, tc int) *State {
	for _, p := range s.Ports {
		p.DSCPToTC = map[int]int{0: 0, d: tc}
	}
	return s
}

// TestSwitchWideChanges: the switch-wide settings that moved between the
// read-back before and after a push, each named once with both values
// (rmig #11); none when only a port's own setting changed.
func TestSwitchWideChanges(t *testing.T) {
	wrr := func(p int) model.ETS { return model.ETS{Mode: model.ETSWRR, BandwidthPercent: p} }
	want := state(nil, nil, map[string][]int{"swp1": nil, "swp2": nil}, nil)
	for _, tc := range []struct {
		name          string
		before, after *State
		out           []string
	}{
		{"nothing", state([]int{10}, []int{3}, map[string][]int{"swp1": {3}, "swp2": {3}}, map[int]model.ETS{3: wrr(50)}),
			state([]int{10}, []int{3}, map[string][]int{"swp1": {3}, "swp2": {3}}, map[int]model.ETS{3: wrr(50)}), nil},
		{"PFC and pool", state([]int{10}, []int{3}, map[string][]int{"swp1": {3}, "swp2": {3}, "swp9": {5}}, nil),
			state([]int{10}, []int{3, 4}, map[string][]int{"swp1": {3, 4}, "swp2": {3, 4}, "swp9": {6}}, nil),
			[]string{"PFC priorities 3 -> 3,4", "lossless pool 50% priority 3 -> 50% priorities 3,4"}},
		{"VLANs and ETS", state([]int{10}, nil, map[string][]int{"swp1": nil}, map[int]model.ETS{3: wrr(50)}),
			state([]int{10, 20}, nil, map[string][]int{"swp1": nil}, map[int]model.ETS{3: wrr(60)}),
			[]string{"VLANs 10 -> 10,20", "ETS TC3 wrr 50% -> wrr 60%"}},
		{"DSCP map", dscp(state(nil, nil, map[string][]int{"swp1": nil}, nil), 26, 0), dscp(state(nil, nil, map[string][]int{"swp1": nil}, nil), 26, 3),
			[]string{"DSCP 26 TC0 -> TC3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SwitchWideChanges(want, tc.before, tc.after); !reflect.DeepEqual(got, tc.out) {
				t.Errorf("got %q, want %q", got, tc.out)
			}
		})
	}
}

// TestPFCTakenOut: a port outside the fabric loses a priority when the
// push disables its PFC switch-wide (Onyx) or moves it out of the
// lossless pool (Cumulus); a priority the fabric keeps, or one that was
// not lossless before, is not lost; fabric ports are not looked at.
func TestPFCTakenOut(t *testing.T) {
	want := state(nil, []int{3}, map[string][]int{"1/2": {3}}, nil)
	for _, tc := range []struct {
		name       string
		before     *State
		switchWide bool
		out        []PFCLoss
	}{
		{"switch-wide", state(nil, []int{3}, map[string][]int{"1/2": {3, 4}, "1/10": {3, 4}, "1/9": {3}}, nil), true,
			[]PFCLoss{{Port: "1/10", SwitchWide: []int{4}}}},
		{"pool", state(nil, []int{3, 4}, map[string][]int{"1/2": {3}, "1/10": {3, 4}, "1/11": {5}}, nil), false,
			[]PFCLoss{{Port: "1/10", Pool: []int{4}}}},
		{"kept", state(nil, []int{3}, map[string][]int{"1/2": {3}, "1/10": {3, 4}}, nil), false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PFCTakenOut(want, tc.before, tc.switchWide); !reflect.DeepEqual(got, tc.out) {
				t.Errorf("got %+v, want %+v", got, tc.out)
			}
		})
	}
}

// TestPFCLossWording: one port that loses a priority switch-wide and
// another out of the lossless pool is warned of before the push and
// noted after it, each in its own tense and words; a switch not read
// before the push (before nil) loses nothing that can be told, and its
// notes are Unowned's.
func TestPFCLossWording(t *testing.T) {
	want := state(nil, []int{3}, map[string][]int{"1/2": {3, 4}}, nil)
	before := state(nil, []int{3, 4}, map[string][]int{"1/2": {3, 4}, "1/10": {4, 5}}, nil)
	after := state(nil, []int{3}, map[string][]int{"1/2": {3, 4}, "1/10": {4}}, nil)
	losses := PFCTakenOut(want, before, true)
	if len(losses) != 1 {
		t.Fatalf("losses %+v, want one for 1/10", losses)
	}
	const warning = "1/10 (not in the fabric) runs PFC on priorities 4,5; this push disables PFC on priority 5 switch-wide and " +
		"moves priority 4 out of the lossless buffer pool, while the port still pauses it: its traffic becomes lossy. " +
		"Add the port to the fabric, or move it to a lossless class the fabric keeps."
	if got := losses[0].Warning(); got != warning {
		t.Errorf("warning:\n%s\nwant\n%s", got, warning)
	}
	note := "not in the fabric and no longer lossless: 1/10 (PFC on priorities 4,5 before the push, which disabled PFC on priority 5 switch-wide " +
		"and moved priority 4 out of the lossless pool); their traffic is lossy now: add the ports to the fabric, or move them to a lossless class the fabric keeps"
	wantNotes := append([]string{note}, Unowned(want, after)...)
	if got := UnownedAfter(want, before, after, true); !reflect.DeepEqual(got, wantNotes) {
		t.Errorf("notes after:\n%q\nwant\n%q", got, wantNotes)
	}
	if got := PFCTakenOut(want, nil, true); got != nil {
		t.Errorf("not read before: losses %+v, want none", got)
	}
	if got, unowned := UnownedAfter(want, nil, after, true), Unowned(want, after); len(unowned) == 0 || !reflect.DeepEqual(got, unowned) {
		t.Errorf("not read before: notes %q, want Unowned's %q", got, unowned)
	}
}

// TestSwitchWideOf: the fields each platform renders switch-wide for a
// port: EOS's global maps for every port, Onyx's PFC priorities for a
// port with PFC only, NVUE's default-global scheduler and ECN for every
// port and its mapping for the ports that trust as the first port does.
func TestSwitchWideOf(t *testing.T) {
	ports := []model.Port{{Name: "p1", Trust: model.TrustDSCP, PFCPriorities: []int{3}}, {Name: "p2", Trust: model.TrustPCP}}
	for _, tc := range []struct {
		platform model.Platform
		want     [2]map[string]bool
	}{
		{model.PlatformEOS, [2]map[string]bool{{"DSCPToTC": true, "TCToCoS": true}, {"DSCPToTC": true, "TCToCoS": true}}},
		{model.PlatformOnyx, [2]map[string]bool{{"PFC": true}, nil}},
		{model.PlatformCumulus, [2]map[string]bool{{"ETS": true, "ECN": true, "Trust": true, "DSCPToTC": true, "DSCPToPriority": true, "PriorityToTC": true}, {"ETS": true, "ECN": true, "PriorityToTC": true}}},
	} {
		sw := &model.Switch{Platform: tc.platform, Ports: ports}
		for i := range sw.Ports {
			if got := switchWideOf(sw, &sw.Ports[i]); !reflect.DeepEqual(got, tc.want[i]) {
				t.Errorf("%s %s: %v, want %v", tc.platform, sw.Ports[i].Name, got, tc.want[i])
			}
		}
	}
}
