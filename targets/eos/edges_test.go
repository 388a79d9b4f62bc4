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
	if strings.Contains(block("Ethernet1/1"), "\n   priority-flow-control pause watchdog\n") || !strings.Contains(block("Ethernet1/1"), "\n   no priority-flow-control pause watchdog\n") {
		t.Errorf("Ethernet1/1 (watchdog off) has the watchdog line, or lacks its no form:\n%s", block("Ethernet1/1"))
	}
	if !strings.Contains(block("Ethernet2/1"), "\n   priority-flow-control pause watchdog\n") {
		t.Errorf("Ethernet2/1 (watchdog on) lacks the watchdog line:\n%s", block("Ethernet2/1"))
	}
}

// TestProfileHeadroomPerPortReading checks the reading of "ingress
// headroom" the sources support: a port-level setting of a profile applied
// to the whole platform (Arista TOI tag mmu; AVD platform.trident.mmu
// schema, no per-group headroom). The value must cover the port that needs
// the most (the sum of its lossless groups' bytes in flight), and if each
// port with a lossless group holds it, the switch holds value x ports. The
// figures are worked by hand from testFabric: lossless xoff 38912
// (Ethernet1/1), 20480 (Ethernet2/1), 47104 (Ethernet31/1); Ethernet32/1 has
// no lossless group.
func TestProfileHeadroomPerPortReading(t *testing.T) {
	f := testFabric()
	sw := &f.Switches[0]
	h, ok := ProfileHeadroomOf(sw)
	if !ok {
		t.Fatal("ProfileHeadroomOf = false on a Tomahawk switch with lossless groups")
	}
	want := ProfileHeadroom{Bytes: 47104, Port: "Ethernet31/1", LosslessPorts: 3, OwnBytes: 38912 + 20480 + 47104}
	if h != want {
		t.Errorf("ProfileHeadroomOf = %+v, want %+v", h, want)
	}
	if got := h.IfEveryLosslessPort(); got != 3*47104 {
		t.Errorf("IfEveryLosslessPort = %d, want %d", got, 3*47104)
	}

	// Two lossless groups on one port: the port needs their sum, since
	// the profile's headroom is per port, not per group.
	sw.Ports[0].PriorityGroups = append(sw.Ports[0].PriorityGroups, losslessPG3(100000, 3, 30000, 19456))
	sw.Ports[0].PriorityGroups[2].Index = 4
	h, _ = ProfileHeadroomOf(sw)
	if h.Bytes != 38912+30000 || h.Port != "Ethernet1/1" || h.LosslessPorts != 3 {
		t.Errorf("with two lossless groups on Ethernet1/1: %+v, want 68912 on Ethernet1/1 over 3 ports", h)
	}
	out := render(t, f)
	if !hasBlock(out, "    ingress headroom bytes 68912") {
		t.Errorf("profile lacks the per-port sum 68912\n--- output:\n%s", out)
	}
}

// TestProfileHeadroomOnlyWhereWritten checks that no profile headroom is
// reported where fabricc writes no "ingress headroom" line: off
// Trident/Tomahawk, on another platform, or without a lossless group.
func TestProfileHeadroomOnlyWhereWritten(t *testing.T) {
	jericho := testFabric()
	jericho.Switches[0].Hardware.ASIC = "Jericho2"
	onyx := testFabric()
	onyx.Switches[0].Platform = model.PlatformOnyx
	lossy := testFabric()
	for i := range lossy.Switches[0].Ports {
		lossy.Switches[0].Ports[i].PriorityGroups = []model.PriorityGroup{lossyPG0()}
	}
	for name, f := range map[string]*model.Fabric{"Jericho2": jericho, "onyx": onyx, "no lossless group": lossy} {
		if h, ok := ProfileHeadroomOf(&f.Switches[0]); ok {
			t.Errorf("%s: ProfileHeadroomOf = %+v, true; want false", name, h)
		}
	}
	if _, ok := ProfileHeadroomOf(nil); ok {
		t.Error("ProfileHeadroomOf(nil) = true")
	}
}

// TestHeadroomAssumptionStated checks that the configuration says what
// is assumed about "ingress headroom", what that reading reserves, and
// the command that shows the profile in effect.
func TestHeadroomAssumptionStated(t *testing.T) {
	out := render(t, testFabric())
	for _, want := range []string{
		"port level as well as a priority-group level",
		"with a no-drop priority may hold up to 47104 bytes (the need of Ethernet31/1)",
		"reserves it on every front-panel port or only on PFC ports, or takes it from a shared headroom pool.",
		// 3 ports with a lossless group x 47104; 38912 + 20480 + 47104.
		"3 x 47104 = 141312 bytes, against 106496,",
		"Check on the switch: show platform trident mmu queue status",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n--- output:\n%s", want, out)
		}
	}
	jericho := testFabric()
	jericho.Switches[0].Hardware.ASIC = "Jericho2"
	if out := render(t, jericho); strings.Contains(out, "Assumed: each port") {
		t.Errorf("Jericho2 output states a profile headroom assumption, but no profile is written:\n%s", out)
	}
}
