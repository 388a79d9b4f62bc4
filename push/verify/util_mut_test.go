package verify

import (
	"slices"
	"testing"
)

// Tests that pin the list readers of util.go where a one-token mutation
// (review mutants4) left every earlier test passing.

// TestExpandListIsASet: the VLAN, priority and DSCP lists a switch
// prints ("switchport trunk allowed vlan 10,20-22" on EOS, Onyx's
// "traffic-class 3 bind switch-priority 3 4" and "allowed-vlan add 10")
// are sets: a value named twice, in a range and on its own, or added to
// a list that has it, is there once, in ascending order.
func TestExpandListIsASet(t *testing.T) {
	if got, want := expandList("20-22,21,10"), []int{10, 20, 21, 22}; !slices.Equal(got, want) {
		t.Errorf(`expandList("20-22,21,10") = %v, want %v`, got, want)
	}
	if got, want := addSorted([]int{10, 20}, 10), []int{10, 20}; !slices.Equal(got, want) {
		t.Errorf("addSorted([10 20], 10) = %v, want %v", got, want)
	}
}

// TestExpandListSkipsWhatIsNotANumber: a word of the list that is not a
// number or a range of numbers ("none" of an Onyx trunk narrowed to no
// VLAN, a range with a bad end) names no value, not VLAN or priority 0.
func TestExpandListSkipsWhatIsNotANumber(t *testing.T) {
	for _, s := range []string{"none", "0-x", "x-3", "all"} {
		if got := expandList(s); got != nil {
			t.Errorf("expandList(%q) = %v, want nothing", s, got)
		}
	}
	if got, want := expandList("none 5"), []int{5}; !slices.Equal(got, want) {
		t.Errorf(`expandList("none 5") = %v, want %v`, got, want)
	}
}

// TestExpandListRangeBound: a range is read up to 4096 values, the whole
// 12-bit VLAN ID space (IEEE 802.1Q: VIDs 0-4095), so a hostile or
// corrupt range ("1-2000000000") cannot exhaust memory, and no range a
// switch prints is cut.
func TestExpandListRangeBound(t *testing.T) {
	all := expandList("0-4095")
	if len(all) != 4096 || all[0] != 0 || all[4095] != 4095 {
		t.Fatalf(`expandList("0-4095") has %d values, want 0..4095`, len(all))
	}
	if got := expandList("0-2000000000"); len(got) != 4096 || got[len(got)-1] != 4095 {
		t.Errorf(`expandList("0-2000000000") has %d values ending at %d, want 4096 ending at 4095`, len(got), got[len(got)-1])
	}
}
