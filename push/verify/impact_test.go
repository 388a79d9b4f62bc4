package verify

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestImpactOfMixedSet classes one difference of each kind a switch or a
// host reports, with its words.
func TestImpactOfMixedSet(t *testing.T) {
	for _, tc := range []struct {
		d    Difference
		want Impact
	}{
		{Difference{Device: "leaf3", Port: "1/1", Field: "PFC priorities", Intended: "3", Actual: "none"},
			Impact{ImpactLossless, "RoCE in priority 3 may be dropped instead of paused"}},
		{Difference{Device: "leaf2", Port: "swp2", Field: "operational PFC priorities", Intended: "3,4", Actual: "4"},
			Impact{ImpactLossless, "RoCE in priority 3 may be dropped instead of paused"}},
		{Difference{Device: "leaf1", Port: "swp31", Field: "PFC priorities", Intended: "3", Actual: "3,4"},
			Impact{ImpactCongestion, "priority 4 paused too: no RoCE loss, its pauses slow the link under load"}},
		{Difference{Device: "leaf1", Field: "pool lossless", Intended: "51% priorities 3", Actual: "missing"},
			Impact{ImpactLossless, "RoCE may be dropped instead of paused"}},
		{Difference{Device: "leaf1", Field: "pool lossy", Intended: "48% priorities 0,1,2,4,5,6,7", Actual: "missing"},
			Impact{ImpactOther, "not classed by its effect on RoCE"}},
		{Difference{Device: "leaf1", Field: "egress pool 1", Intended: "infinite", Actual: "memory-percent 50"},
			Impact{ImpactLossless, "RoCE may be dropped instead of paused"}},
		{Difference{Device: "leaf2", Field: "DSCP 26 traffic class", Intended: "3", Actual: "0", Scope: ScopeSwitchWide},
			Impact{ImpactLossless, "RoCE may be dropped instead of paused"}},
		{Difference{Device: "spine1", Port: "Ethernet1/1", Field: "trust", Intended: "dscp", Actual: "pcp"},
			Impact{ImpactLossless, "RoCE may be dropped instead of paused"}},
		{Difference{Device: "leaf1", Port: "swp2", Field: "PFC profile xoff-threshold", Intended: "10000 B", Actual: "5000 B"},
			Impact{ImpactLossless, "RoCE may be dropped instead of paused"}},
		{Difference{Device: "leaf2", Port: "swp31", Field: "MTU", Intended: "9214", Actual: "1500"},
			Impact{ImpactMTU, "RoCE frames over 1500 bytes dropped"}},
		{Difference{Device: "leaf2", Port: "swp31", Field: "operational MTU", Intended: "9214", Actual: "not reported by the switch"},
			Impact{ImpactMTU, "RoCE frames over the port's MTU are dropped"}},
		{Difference{Device: "gpu09", Port: "fab0", Field: "mtu", Intended: "9000", Actual: "1500"},
			Impact{ImpactMTU, "RoCE frames over 1500 bytes dropped"}},
		{Difference{Device: "spine1", Port: "Ethernet2/1", Field: "ECN TC3", Intended: "min 150000 B max 1500000 B", Actual: "min 1536000 B max 3072000 B"},
			Impact{ImpactCongestion, "RoCE slows or is unfair under load, no loss"}},
		{Difference{Device: "gpu09", Port: "fab0", Field: "DCQCN rp_min_dec_fac", Intended: "25", Actual: "50"},
			Impact{ImpactCongestion, "RoCE slows or is unfair under load, no loss"}},
		{Difference{Device: "gpu09", Port: "ens2f0np0", Field: "ets prio-tc", Intended: "0:0 3:3", Actual: "0:1"},
			Impact{ImpactLossless, "RoCE may be dropped instead of paused"}},
		{Difference{Device: "leaf1", Port: "swp31", Field: "neighbor", Intended: "spine1 swp1", Actual: "spine2 swp1"},
			Impact{ImpactCabling, "links are not cabled, or not up, as the fabric says"}},
		{Difference{Device: "spine1", Port: "Ethernet1/1", Field: "admin state", Intended: "up", Actual: "down (shutdown)"},
			Impact{ImpactCabling, "links are not cabled, or not up, as the fabric says"}},
		{Difference{Device: "leaf1", Port: "swp1", Field: "PFC watchdog", Intended: "on", Actual: "off"},
			Impact{ImpactOther, "not classed by its effect on RoCE"}},
		{Difference{Device: "spine1", Port: "Ethernet1/1", Field: "description", Intended: "to leaf1", Actual: "x"},
			Impact{ImpactOther, "not classed by its effect on RoCE"}},
	} {
		if got := ImpactOf(tc.d); got != tc.want {
			t.Errorf("ImpactOf(%s) = %+v, want %+v", tc.d, got, tc.want)
		}
	}
}

// TestSortByImpact orders a mixed set lossless first, then by switch in
// natural order, then port, keeping a port's differences in their order.
func TestSortByImpact(t *testing.T) {
	diffs := []Difference{
		{Device: "leaf2", Field: "DSCP 26 traffic class", Intended: "3", Actual: "0", Scope: ScopeSwitchWide},
		{Device: "leaf2", Port: "swp31", Field: "MTU", Intended: "9214", Actual: "1500"},
		{Device: "leaf2", Port: "swp31", Field: "operational MTU", Intended: "9214", Actual: "1500"},
		{Device: "leaf10", Port: "swp1", Field: "description", Intended: "a", Actual: "b"},
		{Device: "leaf3", Port: "1/1", Field: "PFC priorities", Intended: "3", Actual: "none"},
		{Device: "spine1", Port: "Ethernet1/1", Field: "trust", Intended: "dscp", Actual: "pcp"},
		{Device: "spine1", Port: "Ethernet2/1", Field: "ECN TC3", Intended: "min 150000 B max 1500000 B", Actual: "min 1536000 B max 3072000 B"},
		{Device: "leaf2", Port: "swp10", Field: "neighbor", Intended: "spine1", Actual: "spine2"},
		{Device: "leaf2", Port: "swp9", Field: "neighbor", Intended: "spine2", Actual: "spine1"},
	}
	SortByImpact(diffs)
	var got []string
	for _, d := range diffs {
		got = append(got, d.String())
	}
	want := []string{
		"leaf2 (switch-wide) DSCP 26 traffic class: intended 3, actual 0",
		"leaf3 1/1 PFC priorities: intended 3, actual none",
		"spine1 Ethernet1/1 trust: intended dscp, actual pcp",
		"leaf2 swp31 MTU: intended 9214, actual 1500",
		"leaf2 swp31 operational MTU: intended 9214, actual 1500",
		"spine1 Ethernet2/1 ECN TC3: intended min 150000 B max 1500000 B, actual min 1536000 B max 3072000 B",
		"leaf2 swp9 neighbor: intended spine2, actual spine1",
		"leaf2 swp10 neighbor: intended spine1, actual spine2",
		"leaf10 swp1 description: intended a, actual b",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sorted:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDifferenceJSONImpact: the JSON keeps every field as it was and adds
// the impact after them.
func TestDifferenceJSONImpact(t *testing.T) {
	b, err := json.Marshal(Difference{Device: "leaf2", Port: "swp31", Field: "MTU", Intended: "9214", Actual: "1500"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"device":"leaf2","port":"swp31","field":"MTU","intended":"9214","actual":"1500","impact":{"class":"mtu","text":"RoCE frames over 1500 bytes dropped"}}`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", b, want)
	}
	var back Difference
	if err := json.Unmarshal(b, &back); err != nil || back.Field != "MTU" || back.Actual != "1500" {
		t.Errorf("read back %+v, %v", back, err)
	}
}
