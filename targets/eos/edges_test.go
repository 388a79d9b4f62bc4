package eos

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestECNLineLimits checks the AVD schema limits of "random-detect ecn":
// thresholds 1-256000000 with minimum below maximum, and
// max-mark-probability 1-100. Each out-of-range model value is refused
// with its diagnostic rather than written as a line EOS rejects.
func TestECNLineLimits(t *testing.T) {
	tests := []struct {
		name string
		ecn  model.ECN
		want string // "" means accepted
	}{
		{"min equals max", model.ECN{MinBytes: 150000, MaxBytes: 150000, MarkProbabilityPercent: 100},
			"ECN thresholds 150000..150000 bytes: need 1 <= minimum < maximum"},
		{"min 0", model.ECN{MinBytes: 0, MaxBytes: 150000, MarkProbabilityPercent: 100},
			"ECN thresholds 0..150000 bytes: need 1 <= minimum < maximum"},
		{"probability 101", model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 101},
			"ECN mark probability 101%: EOS max-mark-probability is 1-100"},
		{"probability 100", model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 100}, ""},
		{"maximum above the limit", model.ECN{MinBytes: 150000, MaxBytes: 256000001, MarkProbabilityPercent: 100},
			"ECN maximum threshold 256000001 bytes is above the EOS limit 256000000"},
		{"maximum at the limit", model.ECN{MinBytes: 150000, MaxBytes: 256000000, MarkProbabilityPercent: 100}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ecnLine(&tt.ecn)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("ecnLine = %v, want no error", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("ecnLine error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestMMUProfileTakesLargest checks that the system-wide MMU queue
// profile reserves, for each priority group and queue, the largest size
// any port needs: a smaller value would leave that port short.
func TestMMUProfileTakesLargest(t *testing.T) {
	f := testFabric()
	sw := &f.Switches[0]
	sw.Ports[1].PriorityGroups[0].SizeBytes = 20480   // Ethernet2/1 pg0; the others hold 10240
	sw.Ports[2].EgressQueues[2].ReservedBytes = 12288 // Ethernet31/1 queue 6; the others hold 9216
	out := render(t, f)
	for _, want := range []string{
		"    ingress priority-group 0 reserved bytes 20480",
		"    egress unicast queue 6 reserved bytes 12288",
	} {
		if !hasBlock(out, want) {
			t.Errorf("output lacks %q\n--- output:\n%s", want, out)
		}
	}
	for _, bad := range []string{"    ingress priority-group 0 reserved bytes 10240", "    egress unicast queue 6 reserved bytes 9216"} {
		if hasBlock(out, bad) {
			t.Errorf("output has %q, the smaller port's size", bad)
		}
	}
}

// TestMMUThresholdRange checks that an alpha EOS does not take (the MMU
// profile threshold is 1/128 .. 8) is left out with a comment, and one
// it takes is written.
func TestMMUThresholdRange(t *testing.T) {
	for _, tt := range []struct{ alpha, want string }{
		{"16", "    ! ingress priority-group 0: model alpha 16 is not an EOS threshold (1/128 .. 8); left at the EOS default"},
		{"1/128", "    ingress priority-group 0 threshold 1/128"},
		{"8", "    ingress priority-group 0 threshold 8"},
	} {
		f := testFabric()
		for i := range f.Switches[0].Ports {
			f.Switches[0].Ports[i].PriorityGroups[0].SharedAlpha = tt.alpha
		}
		out := render(t, f)
		if !hasBlock(out, tt.want) {
			t.Errorf("alpha %s: output lacks %q", tt.alpha, tt.want)
		}
		if tt.alpha == "16" && strings.Contains(out, "ingress priority-group 0 threshold 16") {
			t.Errorf("alpha 16 written as an EOS threshold")
		}
	}
}

// TestPerPortWatchdog checks that the per-port PFC watchdog line is
// written only on ports the model covers.
func TestPerPortWatchdog(t *testing.T) {
	f := testFabric()
	f.Switches[0].Ports[0].PFCWatchdog = false
	out := render(t, f)
	block := func(name string) string {
		i := strings.Index(out, "\ninterface "+name+"\n")
		if i < 0 {
			t.Fatalf("no interface %s", name)
		}
		rest := out[i+1:]
		if j := strings.Index(rest, "\n!\n"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	if strings.Contains(block("Ethernet1/1"), "priority-flow-control pause watchdog") {
		t.Errorf("Ethernet1/1 (watchdog off) has the watchdog line:\n%s", block("Ethernet1/1"))
	}
	if !strings.Contains(block("Ethernet2/1"), "\n   priority-flow-control pause watchdog\n") {
		t.Errorf("Ethernet2/1 (watchdog on) lacks the watchdog line:\n%s", block("Ethernet2/1"))
	}
}
