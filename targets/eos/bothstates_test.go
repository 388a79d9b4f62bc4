package eos

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// txQueueBlock returns the lines of the first `uc-tx-queue tc` block of
// out (the fixture is a Tomahawk switch: TxQueueKeyword).
func txQueueBlock(t *testing.T, out string, tc string) []string {
	t.Helper()
	i := strings.Index(out, "\n   uc-tx-queue "+tc+"\n")
	if i < 0 {
		t.Fatalf("no uc-tx-queue %s in\n%s", tc, out)
	}
	var lines []string
	for _, l := range strings.Split(out[i+1:], "\n")[1:] {
		if !strings.HasPrefix(l, "      ") {
			break
		}
		lines = append(lines, l)
	}
	return lines
}

// TestTxQueueECNBothStates: a push merges into the running
// configuration, so a tx-queue's ECN lines are written in both states. A
// class that marks gets the counter and the thresholds; a class that does
// not gets their no-forms, so marking left by an earlier push stops.
func TestTxQueueECNBothStates(t *testing.T) {
	marking := []string{
		"      no priority",
		"      bandwidth percent 50",
		"      bandwidth guaranteed percent 1",
		"      random-detect ecn count",
		"      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100",
	}
	cleared := []string{
		"      no priority",
		"      bandwidth percent 50",
		"      bandwidth guaranteed percent 1",
		"      no random-detect ecn count",
		"      no random-detect ecn minimum-threshold",
	}
	for _, tt := range []struct {
		name string
		ecn  bool
		want []string
	}{
		{"RoCE class marks", true, marking},
		{"RoCE class without ECN", false, cleared},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			if !tt.ecn {
				f.QoS.Classes[1].ECN = nil // the RoCE class, TC3
			}
			got := txQueueBlock(t, render(t, f), "3")
			if !slices.Equal(got, tt.want) {
				t.Errorf("tx-queue 3:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestMMUProfileEveryIndex: the MMU queue profile holds ingress priority
// groups and egress unicast queues 0-7 (AVD schema), and each of their
// settings is written in both states, so a group or queue an earlier
// fabric used and this one does not returns to EOS's default.
func TestMMUProfileEveryIndex(t *testing.T) {
	f := testFabric()
	// No port has priority group 0 any more, nor egress queue 6.
	for i := range f.Switches[0].Ports {
		p := &f.Switches[0].Ports[i]
		p.PriorityGroups = slices.DeleteFunc(p.PriorityGroups, func(pg model.PriorityGroup) bool { return pg.Index == 0 })
		p.EgressQueues = slices.DeleteFunc(p.EgressQueues, func(q model.EgressQueue) bool { return q.TrafficClass == 6 })
	}
	out := render(t, f)
	for _, tt := range []struct{ name, block string }{
		{"group 0 no longer used", `
    no ingress priority-group 0 reserved
    no ingress priority-group 0 threshold
    no ingress priority-group 1 reserved`},
		{"lossless group 3: threshold, reservation left to EOS", `
    no ingress priority-group 3 reserved
    ingress priority-group 3 threshold 1/2`},
		{"queue 6 no longer used", `
    no egress unicast queue 6 reserved
    no egress unicast queue 6 threshold
    no egress unicast queue 7 reserved
    no egress unicast queue 7 threshold
!`},
	} {
		if !hasBlock(out, tt.block) {
			t.Errorf("%s: output lacks\n%s", tt.name, tt.block)
		}
	}
	for _, what := range []string{"ingress priority-group", "egress unicast queue"} {
		for i := range 8 {
			for _, setting := range []string{"reserved", "threshold"} {
				key := fmt.Sprintf("%s %d %s", what, i, setting)
				n := 0
				for _, l := range strings.Split(out, "\n") {
					l = strings.TrimPrefix(strings.TrimSpace(l), "no ")
					if l == key || strings.HasPrefix(l, key+" ") {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%s: %d lines, want 1", key, n)
				}
			}
		}
	}
}

// TestMMUProfileNoLosslessGroup: without a lossless group the profile
// clears the headroom an earlier fabric set.
func TestMMUProfileNoLosslessGroup(t *testing.T) {
	f := testFabric()
	for i := range f.Switches[0].Ports {
		p := &f.Switches[0].Ports[i]
		p.PriorityGroups = slices.DeleteFunc(p.PriorityGroups, func(pg model.PriorityGroup) bool { return pg.Lossless })
	}
	out := render(t, f)
	if !hasBlock(out, "platform trident mmu queue profile fabricc\n    no ingress headroom\n    ingress priority-group 0 reserved bytes 10240") {
		t.Errorf("profile does not clear the headroom:\n%s", out)
	}
}

// TestProfileSettings checks the settings push verification expects
// from the profile: exactly the lines written with a value.
func TestProfileSettings(t *testing.T) {
	f := testFabric()
	got := ProfileSettings(&f.Switches[0])
	want := map[string]string{
		"ingress headroom":                   "bytes 47104",
		"ingress priority-group 0 reserved":  "bytes 10240",
		"ingress priority-group 0 threshold": "8",
		"ingress priority-group 3 threshold": "1/2",
		"egress unicast queue 0 reserved":    "bytes 9216",
		"egress unicast queue 0 threshold":   "8",
		"egress unicast queue 3 reserved":    "bytes 1500",
		"egress unicast queue 6 reserved":    "bytes 9216",
		"egress unicast queue 6 threshold":   "8",
	}
	if !maps.Equal(got, want) {
		t.Errorf("ProfileSettings = %v\nwant %v", got, want)
	}
	f.Switches[0].Hardware.ASIC = "Jericho2"
	if got := ProfileSettings(&f.Switches[0]); got != nil {
		t.Errorf("ProfileSettings on Jericho2 = %v, want nil", got)
	}
}

// TestSplitProfileLine checks how a profile line is split into setting
// and value, in fabricc's form and in the forms EOS and AVD also allow.
func TestSplitProfileLine(t *testing.T) {
	for _, tt := range []struct {
		line, setting, value string
		ok                   bool
	}{
		{"    ingress priority-group 3 threshold 1/2", "ingress priority-group 3 threshold", "1/2", true},
		{"    egress unicast queue 0 reserved bytes 9216", "egress unicast queue 0 reserved", "bytes 9216", true},
		{"   egress unicast queue 0 reserved 9216", "egress unicast queue 0 reserved", "bytes 9216", true},
		{"ingress priority-group 1 reserved cells 40", "ingress priority-group 1 reserved", "cells 40", true},
		{"ingress headroom bytes 47104", "ingress headroom", "bytes 47104", true},
		{"    no ingress priority-group 1 reserved", "", "", false},
		{"    ! egress unicast queue 3: lossless on some ports", "", "", false},
		{"ingress priority-group 1 reserved", "", "", false},
	} {
		s, v, ok := SplitProfileLine(tt.line)
		if s != tt.setting || v != tt.value || ok != tt.ok {
			t.Errorf("SplitProfileLine(%q) = %q, %q, %v; want %q, %q, %v", tt.line, s, v, ok, tt.setting, tt.value, tt.ok)
		}
	}
}
