package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// wholePercentSwitch is a Cumulus switch of 1,000,000 bytes whose
// shared remainder (10,000 B) is below 1 %: the ingress lossless pool
// (96.6 %) holds 965,000 B of headroom, which 96 % (960,000 B) does not.
func wholePercentSwitch(lossyIngressRes int64) (*model.Switch, [4]int64) {
	names := namesFor("profile")
	sw := &model.Switch{Name: "leaf1", Platform: model.PlatformCumulus,
		Hardware: model.Hardware{Model: "SN2410", ASIC: "Spectrum"},
		Buffer:   model.BufferBudget{TotalBytes: 1000000, SharedBytes: 10000}}
	sw.Pools = []model.BufferPool{
		pool(names.inLossy, "ingress", "lossy", 24000, 1000000, []int{0}),
		pool(names.inLossless, "ingress", "lossless", 966000, 1000000, []int{3}),
		pool(names.egLossy, "egress", "lossy", 15000, 1000000, []int{0}),
		pool(names.egLossless, "egress", "lossless", 1000000, 1000000, []int{3}),
	}
	return sw, [4]int64{965000, lossyIngressRes, 3000, 12000}
}

// TestWholePercentRoundsUp: a pool whose share
// rounded down to a whole percent no longer holds its reservations is
// rounded up; the ingress lossless pool takes the point from the
// ingress lossy pool, the egress lossy pool grows alone.
func TestWholePercentRoundsUp(t *testing.T) {
	sw, res := wholePercentSwitch(10000)
	if d := wholePercentPools(sw, namesFor("profile"), res); d != nil {
		t.Fatalf("unexpected error: %s", d.Detail)
	}
	var got []float64
	for _, p := range sw.Pools {
		got = append(got, p.Percent)
	}
	// 96.6 -> 97 (970,000 B), 2.4 -> 2.0 (the 4,000 B it gave), 1.5 -> 2 (12,000 B need 2 %).
	if want := []float64{2, 97, 2, 100}; !cmp.Equal(want, got) {
		t.Errorf("percents %v, want %v", got, want)
	}
	if sw.Pools[1].SizeBytes != 970000 || sw.Pools[0].SizeBytes != 20000 || sw.Pools[2].SizeBytes != 20000 {
		t.Errorf("sizes %d %d %d, want 20000 970000 20000", sw.Pools[0].SizeBytes, sw.Pools[1].SizeBytes, sw.Pools[2].SizeBytes)
	}
	onyx, res := wholePercentSwitch(10000)
	onyx.Platform = model.PlatformOnyx // two decimals: no whole-percent rounding
	if d := wholePercentPools(onyx, namesFor("profile"), res); d != nil || onyx.Pools[1].Percent != 96.6 {
		t.Errorf("Onyx pools changed: %v, %v", d, onyx.Pools[1])
	}
}

// TestWholePercentTooSmall: when the ingress lossy pool, after giving
// the lossless pool its point, cannot hold its own reservations at a
// whole percent, the switch is refused, naming the pool, the bytes and
// the fix.
func TestWholePercentTooSmall(t *testing.T) {
	sw, res := wholePercentSwitch(21000)
	d := wholePercentPools(sw, namesFor("profile"), res)
	if d == nil {
		t.Fatal("no error")
	}
	want := `Switch "leaf1" (SN2410, Spectrum, 1000000 bytes of usable buffer) runs Cumulus Linux, whose pools take a whole memory-percent summing to 100 or less: pool "lossy-default-ingress" (ingress lossy) must hold 21000 bytes of reservations, but the 2 % it can get gives 20000 bytes. Only 10000 bytes of the buffer are left shared, and each pool loses up to 1 % of the buffer to the rounding: leave at least 2 % (20000 bytes) shared, 10000 bytes more, with a shorter planning_length in qos { headroom { } } (at least the longest lossless cable), a lower small_packet_percent, fewer lossless classes or lossless ports, or a smaller port MTU.`
	if d.Summary != "Buffer pool too small after whole-percent rounding" || d.Detail != want {
		t.Errorf("got %s:\n%s\nwant:\n%s", d.Summary, d.Detail, want)
	}
}
