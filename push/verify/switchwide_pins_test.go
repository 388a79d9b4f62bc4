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
