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
	switch {
	case !okA && !okB:
		return nil
	case okA && okB && wa.Field == wb.Field && !wb.exact():
		c := change(wb.Field, wa.Value, wb.Value, wb.Unit)
		if len(c) > 0 {
			c[0].Note = "model size " + docs.Thousands(a.SizeBytes) + " -> " + docs.Thousands(b.SizeBytes) + " B"
		}
		return c
	}
	return amountChange("size", a.SizeBytes, b.SizeBytes, "B")
}

// writtenPools are the written sizes of a switch's pools, by poolKey,
// with the model's size of each.
func writtenPools(sw *model.Switch) map[string]writtenPool {
	out := map[string]writtenPool{}
	for _, p := range sw.Pools {
		if w, ok := writtenPoolSize(sw, p); ok {
			out[poolKey(p)] = writtenPool{w, p.SizeBytes}
		}
	}
	return out
}

// writtenPool is a pool's written size and its model size.
type writtenPool struct {
	w    poolWrite
	size int64
}

// differs reports whether the switch is told another size: the written
// value, where both revisions write the pool with the same keyword, or
// else (the platform changed) the model's size.
func (a writtenPool) differs(b writtenPool) bool {
	if a.w.Field == b.w.Field {
		return a.w.Value != b.w.Value
	}
	return a.size != b.size
}
