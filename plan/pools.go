package plan

import (
	"slices"
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/cumulus"
	"github.com/fabricc/fabricc/targets/docs"
	"github.com/fabricc/fabricc/targets/onyx"
)

// poolWrite is what a switch is told of a pool's size, as its renderer
// writes it: the keyword and the value.
type poolWrite struct {
	// Field is the platform's keyword ("memory-percent"), or "size"
	// for a size written in bytes.
	Field string
	// Value is the written value, as written ("48", "50.80").
	Value string
	// Unit follows the value in text: "%" or "B".
	Unit string
	// Via, for a Cumulus egress pool that keeps its traffic pool's
	// share, names that traffic pool ("traffic-pool default-lossy"):
	// Value is its written memory-percent, which the switch gives the
	// egress pool too, and nothing is written for the pool itself.
	Via string
}

// exact reports whether the size is written in bytes, so that the
// model's size is what the switch gets.
func (w poolWrite) exact() bool { return w.Unit == "B" }

// writtenPoolSize is what the configuration of sw writes for pool p
// (one of sw.Pools, matched by name and direction) of its size, and
// false where it writes none, by the renderer's own rule:
//   - Cumulus: the traffic-pool memory-percent of the first ingress
//     pool of each NVUE traffic pool, a whole percent rounded down
//     (targets/cumulus TrafficPool, PoolPercent), and from 5.4 the
//     first egress pool of each type as targets/cumulus
//     WrittenEgressPool gives it: `egress-pool N infinite`, its own
//     `memory-percent`, or its traffic pool's (cumulusEgress);
//   - Onyx: an ingress traffic pool's memory percent with two
//     decimals, or in advanced buffer mode every pool's size in bytes
//     (targets/onyx PoolSize);
//   - EOS: none (EOS sizes its pools itself; targets/eos writes them as
//     comments only).
//
// A model size change that leaves the written value as it was does not
// reach the switch.
func writtenPoolSize(sw *model.Switch, p model.BufferPool) (poolWrite, bool) {
	switch sw.Platform {
	case model.PlatformCumulus:
		if i := poolIndex(sw.Pools, p); i >= 0 {
			if _, ok := cumulus.TrafficPool(sw.Pools, i); ok {
				return poolWrite{Field: "memory-percent", Value: strconv.Itoa(cumulus.PoolPercent(p)), Unit: "%"}, true
			}
			if w, ok := cumulus.WrittenEgressPool(sw, i); ok {
				return cumulusEgress(w)
			}
		}
	case model.PlatformOnyx:
		if field, value, ok := onyx.PoolSize(sw, p); ok {
			unit := "%"
			if field == "size" {
				unit = "B"
			}
			return poolWrite{Field: field, Value: value, Unit: unit}, true
		}
	}
	return poolWrite{}, false
}

// cumulusEgress is an NVUE egress service pool's size as the switch is
// told it: `egress-pool 0 infinite true`, `egress-pool 0 memory-percent
// 45`, or, where fabricc writes neither, the traffic pool's
// memory-percent, which sizes the egress pool too (Via); false where the
// traffic pool is not written either.
func cumulusEgress(w cumulus.EgressPoolWrite) (poolWrite, bool) {
	field := w.Path() + " memory-percent"
	switch {
	case w.Infinite:
		return poolWrite{Field: w.Path() + " infinite", Value: "true"}, true
	case w.MemoryPercent > 0:
		return poolWrite{Field: field, Value: strconv.Itoa(w.MemoryPercent), Unit: "%"}, true
	case w.TrafficPercent >= 0:
		return poolWrite{Field: field, Value: strconv.Itoa(w.TrafficPercent), Unit: "%", Via: "traffic-pool " + w.TrafficPool}, true
	}
	return poolWrite{}, false
}

// viaNote says where a Cumulus egress pool's percent comes from when it
// is not written for the pool itself in one revision; "" when it is
// written in both.
func viaNote(wa, wb poolWrite) string {
	switch {
	case wa.Via == "" && wb.Via == "":
		return ""
	case wa.Via == "":
		return "no longer written: the switch gives it " + wb.Via + "'s"
	}
	return "written now, before " + wa.Via + "'s"
}

// poolIndex is the index in pools of the pool with p's name and
// direction (Onyx traffic pools share one name in both directions), or
// -1.
func poolIndex(pools []model.BufferPool, p model.BufferPool) int {
	return slices.IndexFunc(pools, func(q model.BufferPool) bool { return q.Name == p.Name && q.Direction == p.Direction })
}

// poolSizeChange is the size change of one pool from switch swa to swb
// as the switches are told it: the model's bytes where they are written
// as bytes, the written percent with the model's bytes as a note where a
// rounded percent is written, and nothing where the written value stays
// or neither revision writes one (a Cumulus egress pool that takes its
// traffic pool's share in both shows nothing: the ingress pool's line
// has the change). A pool written in one revision only
// (the platform changed) shows the model's bytes.
func poolSizeChange(swa, swb *model.Switch, a, b model.BufferPool) []Change {
	wa, okA := writtenPoolSize(swa, a)
	wb, okB := writtenPoolSize(swb, b)
	if !sizeDiffers(wa, okA, wb, okB, a.SizeBytes, b.SizeBytes) {
		return nil
	}
	if okA && okB && wa.Via != "" && wa.Via == wb.Via {
		// A Cumulus egress pool that takes its traffic pool's share in
		// both: that pool's ingress line shows the change.
		return nil
	}
	if okA && okB && wa.Field == wb.Field && !wb.exact() {
		c := change(wb.Field, wa.Value, wb.Value, wb.Unit)
		c[0].Note = "model size " + docs.Thousands(a.SizeBytes) + " -> " + docs.Thousands(b.SizeBytes) + " B"
		if via := viaNote(wa, wb); via != "" {
			c[0].Note = via + "; " + c[0].Note
		}
		return c
	}
	return amountChange("size", a.SizeBytes, b.SizeBytes, "B")
}

// sizeDiffers reports whether a pool's size as the switch is told it
// changes from wa (written when okA; model size a) to wb (okB; b): never
// when neither revision writes one; always when only one does (the
// platform changed); else the written value where both use the same
// keyword, or the model's size where they do not.
func sizeDiffers(wa poolWrite, okA bool, wb poolWrite, okB bool, a, b int64) bool {
	switch {
	case !okA && !okB:
		return false
	case okA != okB:
		return true
	case wa.Field == wb.Field:
		return wa.Value != wb.Value
	}
	return a != b
}

// writtenPool is a pool with the size the switch is told of it.
type writtenPool struct {
	pool  model.BufferPool
	write poolWrite
}

// writtenPools are a switch's pools with a written size, by poolKey,
// each with that size (writtenPoolSize).
func writtenPools(sw *model.Switch) map[string]writtenPool {
	out := map[string]writtenPool{}
	for _, p := range sw.Pools {
		if w, ok := writtenPoolSize(sw, p); ok {
			out[poolKey(p)] = writtenPool{p, w}
		}
	}
	return out
}
