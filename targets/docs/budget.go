package docs

import (
	"math"

	"github.com/fabricc/fabricc/model"
)

// PoolUse is one shared buffer pool of a switch with what the switch's
// ports reserve in it.
type PoolUse struct {
	Pool model.BufferPool
	// DemandBytes is what the ports reserve in the pool today: the
	// headroom (xoff + xon) of every lossless priority group for the
	// ingress lossless pool, the lossy priority group reservations for
	// the ingress lossy pool, the egress queue reservations for the
	// egress pools.
	DemandBytes int64
	// PlannedBytes is what the pool was sized to hold besides its shared
	// part: for the ingress lossless pool the headroom at the planning
	// cable length (model.BufferBudget.HeadroomReserveBytes), otherwise
	// DemandBytes.
	PlannedBytes int64
	// PercentUsed is DemandBytes as a share of the pool's size, to one
	// decimal.
	PercentUsed float64
}

// SharedBytes is what the pool has beyond its planned reservations.
func (u PoolUse) SharedBytes() int64 { return u.Pool.SizeBytes - u.PlannedBytes }

// Pools returns every pool of sw, in the model's order (ingress first),
// with its demand. Onyx traffic pools carry the same name in both
// directions, so a pool is matched by name and direction.
func Pools(sw *model.Switch) []PoolUse {
	out := make([]PoolUse, 0, len(sw.Pools))
	for _, p := range sw.Pools {
		u := PoolUse{Pool: p, DemandBytes: demand(sw, p)}
		u.PlannedBytes = u.DemandBytes
		if p.Direction == "ingress" && p.Type == "lossless" {
			u.PlannedBytes = max(sw.Buffer.HeadroomReserveBytes, u.DemandBytes)
		}
		u.PercentUsed = percentOf(u.DemandBytes, p.SizeBytes)
		out = append(out, u)
	}
	return out
}

// demand sums the port reservations that fall into pool p.
func demand(sw *model.Switch, p model.BufferPool) int64 {
	var n int64
	for i := range sw.Ports {
		port := &sw.Ports[i]
		if p.Direction == "ingress" {
			for _, pg := range port.PriorityGroups {
				if pg.Pool == p.Name {
					n += pg.SizeBytes
				}
			}
			continue
		}
		for _, q := range port.EgressQueues {
			if q.Pool == p.Name {
				n += q.ReservedBytes
			}
		}
	}
	return n
}

// percentOf is part/whole in percent, rounded to one decimal; 0 when
// whole is not positive.
func percentOf(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return math.Round(float64(part)*1000/float64(whole)) / 10
}
