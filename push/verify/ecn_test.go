package verify

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// ecnFabric is fabric(port) on platform, its RoCE class and its default
// class marking at NVIDIA's 150000/1500000 B, as the nvidia-roce
// profile's do (golden/multivendor-clos): the thresholds of the
// tolerance's comment.
func ecnFabric(port string, platform model.Platform) (*model.Fabric, *model.Switch) {
	f, sw := fabric(port)
	for _, i := range []int{0, 1} {
		f.QoS.Classes[i].ECN = &model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 100}
	}
	sw.Platform = platform
	return f, sw
}

// Read-backs of the ECN of traffic classes 0 and 3: TC0 as fabricc
// writes 150000/1500000 B, TC3 with the thresholds given.
func onyxECN(min, max string) *State {
	return mustOnyx(strings.Replace(onyxRunning, "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500",
		"interface ethernet 1/1 traffic-class 0 congestion-control ecn minimum-absolute 147 maximum-absolute 1465\n"+
			"interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute "+min+" maximum-absolute "+max, 1))
}

func eosECN(min, max string) *State {
	s := strings.Replace(eosRunning, "minimum-threshold 150 kbytes maximum-threshold 1500 kbytes",
		"minimum-threshold "+min+" bytes maximum-threshold "+max+" bytes", 1)
	return mustEOS(strings.Replace(s, "      bandwidth percent 50\n   uc-tx-queue 6",
		"      bandwidth percent 50\n      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100\n   uc-tx-queue 6", 1))
}

func nvueRead(t *testing.T, min, max string) *State {
	doc := strings.Replace(nvueJSON, `"0": {"ecn": "disable"}, "3": {"min-threshold": 153600, "max-threshold": 1536000`,
		`"0": {"min-threshold": 150000, "max-threshold": 1500000, "probability": 100, "ecn": "enable", "red": "disable"}, `+
			`"3": {"min-threshold": `+min+`, "max-threshold": `+max, 1)
	s, err := ParseNVUE([]byte(strings.Replace(doc, `"probability": 100, "ecn": "enable"}}}}`, `"probability": 100, "ecn": "enable", "red": "disable"}}}}`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// diffLines are Compare's differences, one String a line.
func diffLines(f *model.Fabric, sw *model.Switch, got *State) string {
	var out []string
	for _, d := range Compare("sw1", Expect(f, sw), got) {
		out = append(out, d.String())
	}
	return strings.Join(out, "\n")
}

// TestCompareECNWithinTolerance: thresholds just above the model's, as
// a switch holds them, pass Compare, and ones beyond the tolerance are a
// difference; neither panics. go-cmp was handed the asymmetric tolerance check
// as a Comparer and panicked ("non-deterministic or non-symmetric
// function detected") on every value between want + 1 KiB and the
// tolerance's top: Onyx's 150/1500 KB of NVIDIA's RoCE guides, the
// Spectrum-4 159744 B that Cumulus programs for 150000 B.
func TestCompareECNWithinTolerance(t *testing.T) {
	for _, tc := range []struct {
		name, port string
		platform   model.Platform
		got        *State
		want       string
	}{
		{"onyx 150/1500 KB", "1/1", model.PlatformOnyx, onyxECN("150", "1500"), ""},
		{"onyx 160 KB, beyond", "1/1", model.PlatformOnyx, onyxECN("160", "1500"),
			"sw1 1/1 ECN TC3: intended min 150000 B max 1500000 B, actual min 163840 B max 1536000 B"},
		{"cumulus Spectrum-4 cells", "swp1", model.PlatformCumulus, nvueRead(t, "159744", "1500160"), ""},
		{"cumulus 162000 B, beyond", "swp1", model.PlatformCumulus, nvueRead(t, "162000", "1500160"),
			"sw1 (switch-wide) ECN TC3: intended min 150000 B max 1500000 B, actual min 162000 B max 1500160 B"},
		{"eos 160000/1600000 B", "Ethernet1/1", model.PlatformEOS, eosECN("160000", "1600000"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := ecnFabric(tc.port, tc.platform)
			if got := diffLines(f, sw, tc.got); got != tc.want {
				t.Errorf("differences:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestCompareOnyxCongestionMode: Onyx's `congestion-control red` drops
// early where the fabric marks, and `both` drops the packets that are
// not ECN-capable: each is a difference of the mode, however close the
// thresholds. verify read the thresholds alone and passed both.
func TestCompareOnyxCongestionMode(t *testing.T) {
	for mode, want := range map[string]string{
		"ecn":  "",
		"red":  "sw1 1/1 ECN TC3 mode: intended ecn, actual red",
		"both": "sw1 1/1 ECN TC3 mode: intended ecn, actual both",
	} {
		f, sw := ecnFabric("1/1", model.PlatformOnyx)
		got := mustOnyx(strings.Replace(onyxRunning, "traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500",
			"traffic-class 3 congestion-control "+mode+" minimum-absolute 147 maximum-absolute 1465", 1))
		f.QoS.Classes[0].ECN = nil // TC0 does not mark in onyxRunning
		if d := diffLines(f, sw, got); d != want {
			t.Errorf("congestion-control %s: differences\n%s\nwant\n%s", mode, d, want)
		}
	}
	// A traffic class missing on one side says its mode.
	f, sw := ecnFabric("1/1", model.PlatformOnyx)
	got := mustOnyx(strings.Replace(onyxRunning, "traffic-class 3 congestion-control ecn", "traffic-class 0 congestion-control red", 1))
	f.QoS.Classes[0].ECN = nil
	if d, want := diffLines(f, sw, got), "sw1 1/1 ECN TC0: intended (none), actual min 150KB max 1500KB mode red\n"+
		"sw1 1/1 ECN TC3: intended min 150000 B max 1500000 B, actual (none)"; d != want {
		t.Errorf("differences\n%s\nwant\n%s", d, want)
	}
}

// TestCompareECNThresholdUnits: a threshold the switch gives in a unit
// that is no byte count is a difference shown in that unit: EOS's
// segments (buffer cells of a size Arista does not publish), its
// latency-based microseconds and milliseconds, Onyx's relative
// thresholds (a percentage). EOS's were read as bytes, so 150000
// segments verified as 150000 B.
func TestCompareECNThresholdUnits(t *testing.T) {
	eos := func(min, max string) *State {
		return mustEOS(strings.Replace(eosRunning, "minimum-threshold 150 kbytes maximum-threshold 1500 kbytes", "minimum-threshold "+min+" maximum-threshold "+max, 1))
	}
	const intended = ": intended min 150000 B max 1500000 B, actual "
	for _, tc := range []struct {
		name, port string
		platform   model.Platform
		got        *State
		want       string
	}{
		{"eos segments", "Ethernet1/1", model.PlatformEOS, eos("150000 segments", "1500000 segments"),
			"sw1 Ethernet1/1 ECN TC3" + intended + "min 150000 segments max 1500000 segments"},
		{"eos microseconds", "Ethernet1/1", model.PlatformEOS, eos("320 microseconds", "480 microseconds"),
			"sw1 Ethernet1/1 ECN TC3" + intended + "min 320 microseconds max 480 microseconds"},
		{"eos milliseconds", "Ethernet1/1", model.PlatformEOS, eos("1 milliseconds", "2 milliseconds"),
			"sw1 Ethernet1/1 ECN TC3" + intended + "min 1 milliseconds max 2 milliseconds"},
		{"eos kbytes and mbytes", "Ethernet1/1", model.PlatformEOS, eos("147 kbytes", "1 mbytes"),
			"sw1 Ethernet1/1 ECN TC3" + intended + "min 150528 B max 1048576 B"},
		{"onyx relative", "1/1", model.PlatformOnyx,
			mustOnyx(strings.Replace(onyxRunning, "minimum-absolute 150 maximum-absolute 1500", "minimum-relative 10 maximum-relative 50", 1)),
			"sw1 1/1 ECN TC3" + intended + "min 10 percent max 50 percent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := ecnFabric(tc.port, tc.platform)
			f.QoS.Classes[0].ECN = nil // TC0 does not mark in eosRunning, onyxRunning
			if got := diffLines(f, sw, tc.got); got != tc.want {
				t.Errorf("differences:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestCompareECNProbabilityAndRED: the marking probability (EOS
// max-mark-probability, NVUE probability) is compared exactly, and so
// is NVUE's per-traffic-class red, which drops what is not ECN-capable
// on the lossless queue; default-global's unset probability and red are
// NVUE's factory 100 and disable. verify compared the thresholds alone:
// a hundredfold cut in marking, or red enable on the RoCE class,
// verified.
func TestCompareECNProbabilityAndRED(t *testing.T) {
	eos := func(from, to string) *State { return mustEOS(strings.Replace(eosRunning, from, to, 1)) }
	nvue := func(tc3 string) *State {
		s, err := ParseNVUE([]byte(strings.Replace(nvueJSON, `"3": {"min-threshold": 153600, "max-threshold": 1536000, "probability": 100, "ecn": "enable"}`, `"3": {`+tc3+`}`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const marks = `"min-threshold": 150000, "max-threshold": 1500000, "ecn": "enable"`
	for _, tc := range []struct {
		name, port string
		platform   model.Platform
		got        *State
		want       string
	}{
		{"eos probability 100", "Ethernet1/1", model.PlatformEOS, eos("", ""), ""},
		{"eos probability 1", "Ethernet1/1", model.PlatformEOS, eos("max-mark-probability 100", "max-mark-probability 1"),
			"sw1 Ethernet1/1 ECN TC3 probability: intended 100, actual 1"},
		{"eos no probability keyword", "Ethernet1/1", model.PlatformEOS, eos(" max-mark-probability 100", ""),
			"sw1 Ethernet1/1 ECN TC3 probability: intended 100, actual not set (the switch's default)"},
		{"eos probability then weight", "Ethernet1/1", model.PlatformEOS, eos("max-mark-probability 100", "max-mark-probability 20 weight 0"),
			"sw1 Ethernet1/1 ECN TC3 probability: intended 100, actual 20"},
		{"nvue as fabricc writes it", "swp1", model.PlatformCumulus, nvue(marks + `, "probability": 100, "red": "disable"`), ""},
		{"nvue factory probability and red", "swp1", model.PlatformCumulus, nvue(marks), ""},
		{"nvue probability 1, red enable", "swp1", model.PlatformCumulus, nvue(marks + `, "probability": 1, "red": "enable"`),
			"sw1 (switch-wide) ECN TC3 probability: intended 100, actual 1\n" +
				"sw1 (switch-wide) ECN TC3 red: intended disable, actual enable"},
		{"nvue red enabled, the later releases' word", "swp1", model.PlatformCumulus, nvue(marks + `, "red": "enabled"`),
			"sw1 (switch-wide) ECN TC3 red: intended disable, actual enable"},
		{"onyx has no probability", "1/1", model.PlatformOnyx,
			mustOnyx(strings.Replace(onyxRunning, "minimum-absolute 150 maximum-absolute 1500", "minimum-absolute 147 maximum-absolute 1465", 1)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := ecnFabric(tc.port, tc.platform)
			f.QoS.Classes[0].ECN = nil // TC0 marks in none of the read-backs
			if got := diffLines(f, sw, tc.got); got != tc.want {
				t.Errorf("differences:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestThresholdText (review mrr 7): one formatter writes every size and
// ECN threshold: its own unit first, then KB where the caller asks
// (sizeText: a whole number of KB other than 0; ecnPair: all four
// thresholds whole KB, so both sides read in one unit), else bytes.
func TestThresholdText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{thresholdText(150000, "segments", true), "150000 segments"},
		{thresholdText(153600, "", true), "150KB"},
		{thresholdText(153600, "", false), "153600 B"},
		{sizeText(153600), "150KB"},
		{sizeText(153601), "153601 B"},
		{sizeText(0), "0 B"},
		{ecnText(ECN{MinBytes: 153600, MaxBytes: 1500000}), "min 150KB max 1500000 B"},
		{ecnText(ECN{MinBytes: 10, MaxBytes: 50, MinUnit: "percent", MaxUnit: "percent", Mode: "red"}), "min 10 percent max 50 percent mode red"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		want, got  ecnRange
		wantText   string
		actualText string
	}{
		{ecnRange{Min: 150528, Max: 1500160}, ecnRange{Min: 153600, Max: 1536000}, "min 147KB max 1465KB", "min 150KB max 1500KB"},
		{ecnRange{Min: 150000, Max: 1500000}, ecnRange{Min: 153600, Max: 1536000}, "min 150000 B max 1500000 B", "min 153600 B max 1536000 B"},
		{ecnRange{Min: 150000, Max: 1500000}, ecnRange{Min: 320, Max: 480, MinUnit: "microseconds", MaxUnit: "microseconds"},
			"min 150000 B max 1500000 B", "min 320 microseconds max 480 microseconds"},
		{ecnRange{}, ecnRange{Min: 1024, Max: 2048}, "min 0KB max 0KB", "min 1KB max 2KB"},
	} {
		if w, g := ecnPair(tc.want, tc.got); w != tc.wantText || g != tc.actualText {
			t.Errorf("ecnPair(%v, %v) = %q, %q; want %q, %q", tc.want, tc.got, w, g, tc.wantText, tc.actualText)
		}
	}
}
