package compiler

import (
	"fmt"
	"math"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// wholePercentPools makes the pools of a Cumulus switch hold their
// reservations after NVUE's rounding. NVUE takes a pool's memory-percent
// as a whole number, and the traffic pools must sum to 100 or less
// (Cumulus Linux 5.9 User Guide, Quality of Service, "Flow Control
// Buffers" and "Advanced Buffer Tuning"), so fabricc writes each share
// rounded down (targets/cumulus PoolPercent). When the shared remainder
// is below 1 % of the buffer, rounding down can cut into a pool's
// reservations, the headroom fabricc planned among them. Then the pool
// is rounded up instead: the ingress lossless pool takes the bytes from
// the ingress lossy pool (the two traffic pools keep their sum), the
// egress lossy pool, the only egress pool with a percent (the lossless
// one is infinite), grows alone. res holds the reservations of the
// ingress lossless, ingress lossy, egress lossless and egress lossy
// pools. It returns an error when a pool still does not hold its
// reservations.
func wholePercentPools(sw *model.Switch, names poolNames, res [4]int64) *hcl.Diagnostic {
	total := sw.Buffer.TotalBytes
	if sw.Platform != model.PlatformCumulus || total <= 0 {
		return nil
	}
	in, inLossy, egLossy := poolIndex(sw.Pools, names.inLossless, "ingress"), poolIndex(sw.Pools, names.inLossy, "ingress"), poolIndex(sw.Pools, names.egLossy, "egress")
	if in >= 0 && inLossy >= 0 {
		if grow := roundUpBytes(sw.Pools[in], res[0], total); grow > 0 {
			resize(&sw.Pools[in], grow, total)
			resize(&sw.Pools[inLossy], -grow, total)
		}
	}
	if egLossy >= 0 {
		resize(&sw.Pools[egLossy], roundUpBytes(sw.Pools[egLossy], res[3], total), total)
	}
	for _, c := range []struct {
		i   int
		res int64
	}{{in, res[0]}, {inLossy, res[1]}, {egLossy, res[3]}} {
		if c.i < 0 {
			continue
		}
		if got := wholePercentBytes(sw.Pools[c.i], total); got < c.res {
			return wholePercentError(sw, sw.Pools[c.i], c.res, got)
		}
	}
	return nil
}

// poolIndex is the index of the pool name in direction dir, or -1.
func poolIndex(pools []model.BufferPool, name, dir string) int {
	for i, p := range pools {
		if p.Name == name && p.Direction == dir {
			return i
		}
	}
	return -1
}

// wholePercentBytes is the buffer a pool gets at its share rounded down
// to a whole percent, as targets/cumulus writes it.
func wholePercentBytes(p model.BufferPool, total int64) int64 {
	return int64(math.Floor(p.Percent)) * total / 100
}

// roundUpBytes is how much p must grow so that its share, rounded down
// to a whole percent, still holds need: 0 when it already does, else the
// bytes up to the next whole percent that does.
func roundUpBytes(p model.BufferPool, need, total int64) int64 {
	if wholePercentBytes(p, total) >= need {
		return 0
	}
	pct := (need*100 + total - 1) / total // the whole percent that holds need
	size := (pct*total + 99) / 100
	if size <= p.SizeBytes {
		return 0
	}
	return size - p.SizeBytes
}

// resize changes a pool's size by delta bytes and its share with it.
func resize(p *model.BufferPool, delta, total int64) {
	if delta == 0 {
		return
	}
	*p = pool(p.Name, p.Direction, p.Type, p.SizeBytes+delta, total, p.Priorities)
}

// wholePercentError reports a pool that its whole-percent share cannot
// hold. A shared remainder of 2 % of the buffer always suffices: the
// ingress lossless pool rounded up takes less than 1 % from the lossy
// one, whose rounding down loses less than 1 % more.
func wholePercentError(sw *model.Switch, p model.BufferPool, need, got int64) *hcl.Diagnostic {
	b := sw.Buffer
	enough := (2*b.TotalBytes + 99) / 100
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Buffer pool too small after whole-percent rounding",
		Detail: fmt.Sprintf("Switch %q (%s, %s, %d bytes of usable buffer) runs Cumulus Linux, whose pools take a whole memory-percent summing to 100 or less: pool %q (%s %s) must hold %d bytes of reservations, but the %d %% it can get gives %d bytes. Only %d bytes of the buffer are left shared, and each pool loses up to 1 %% of the buffer to the rounding: leave at least 2 %% (%d bytes) shared, %d bytes more, with a shorter planning_length in qos { headroom { } } (at least the longest lossless cable), a lower small_packet_percent, fewer lossless classes or lossless ports, or a smaller port MTU.",
			sw.Name, sw.Hardware.Model, sw.Hardware.ASIC, b.TotalBytes, p.Name, p.Direction, p.Type, need, int64(math.Floor(p.Percent)), got, b.SharedBytes, enough, enough-b.SharedBytes),
	}
}
