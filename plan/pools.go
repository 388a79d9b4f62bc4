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
}

// exact reports whether the size is written in bytes, so that the
// model's size is what the switch gets.
func (w poolWrite) exact() bool { return w.Unit == "B" }

// writtenPoolSize is what the configuration of sw writes for pool p
// (one of sw.Pools, matched by name and direction) of its size, and
// false where it writes none, by the renderer's own rule:
//   - Cumulus: the traffic-pool memory-percent of the first ingress
//     pool of each NVUE traffic pool, a whole percent rounded down
//     (targets/cumulus TrafficPool, PoolPercent);
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
				return poolWrite{"memory-percent", strconv.Itoa(cumulus.PoolPercent(p)), "%"}, true
			}
		}
	case model.PlatformOnyx:
		if field, value, ok := onyx.PoolSize(sw, p); ok {
			unit := "%"
			if field == "size" {
				unit = "B"
			}
			return poolWrite{field, value, unit}, true
		}
	}
	return poolWrite{}, false
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
// or neither revision writes one. A pool written in one revision only
// (the platform changed) shows the model's bytes.
func poolSizeChange(swa, swb *model.Switch, a, b model.BufferPool) []Change {
	wa, okA := writtenPoolSize(swa, a)
	wb, okB := writtenPoolSize(swb, b)
	if !sizeDiffers(wa, okA, wb, okB, a.SizeBytes, b.SizeBytes) {
		return nil
	}
	if okA && okB && wa.Field == wb.Field && !wb.exact() {
		c := change(wb.Field, wa.Value, wb.Value, wb.Unit)
		c[0].Note = "model size " + docs.Thousands(a.SizeBytes) + " -> " + docs.Thousands(b.SizeBytes) + " B"
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

// writtenPools are a switch's pools with a written size, by poolKey.
func writtenPools(sw *model.Switch) map[string]model.BufferPool {
	out := map[string]model.BufferPool{}
	for _, p := range sw.Pools {
		if _, ok := writtenPoolSize(sw, p); ok {
			out[poolKey(p)] = p
		}
	}
	return out
}
