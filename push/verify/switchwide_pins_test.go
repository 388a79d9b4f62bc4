package verify

import (
	"slices"
	"testing"
)

// Tests that pin SwitchWideChanges where hand mutation testing (review
// mutants2) changed a decision with no test failing.

// TestSwitchWidePinsPortMissingOnOneSide: a fabric port the switch did
// not have before the push (a port the push configures first) or does
// not have after it says nothing of the switch-wide settings; the next
// port that both reads have says them.
func TestSwitchWidePinsPortMissingOnOneSide(t *testing.T) {
	want, before, after := NewState(), NewState(), NewState()
	want.Port("Ethernet1/1")
	want.Port("Ethernet2/1")
	before.Port("Ethernet2/1").PFC = []int{3}
	after.Port("Ethernet1/1").PFC = []int{3, 4}
	after.Port("Ethernet2/1").PFC = []int{3, 4}
	if got := SwitchWideChanges(want, before, after); !slices.Equal(got, []string{"PFC priorities 3 -> 3,4"}) {
		t.Errorf("changes %q", got)
	}
}

// TestSwitchWidePinsUnreadDSCPMap: a DSCP map one read could not take
// (nil: the platform's map was not read) is no change of every DSCP
// value to "none".
func TestSwitchWidePinsUnreadDSCPMap(t *testing.T) {
	want, before, after := NewState(), NewState(), NewState()
	want.Port("swp1")
	before.Port("swp1")
	after.Port("swp1").DSCPToTC = map[int]int{26: 3}
	if got := SwitchWideChanges(want, before, after); got != nil {
		t.Errorf("changes %q, want none", got)
	}
}

// TestSwitchWidePinsFirstChangedPort: the change is read from the first
// port whose settings moved, not from the first port: EOS PFC priorities
// are per interface (`priority-flow-control priority N no-drop`, Arista
// EOS User Manual, Data Center Bridging), so a fabric port without PFC
// can come first and say nothing.
func TestSwitchWidePinsFirstChangedPort(t *testing.T) {
	want, before, after := NewState(), NewState(), NewState()
	for _, s := range []*State{want, before, after} {
		s.Port("Ethernet1/1")
	}
	want.Port("Ethernet2/1")
	before.Port("Ethernet2/1").PFC = []int{3}
	after.Port("Ethernet2/1").PFC = []int{3, 4}
	if got := SwitchWideChanges(want, before, after); !slices.Equal(got, []string{"PFC priorities 3 -> 3,4"}) {
		t.Errorf("changes %q", got)
	}
}
