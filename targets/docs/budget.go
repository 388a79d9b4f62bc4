package docs

import (
	"fmt"
	"math"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/eos"
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

// eosProfileNote says, for an EOS switch whose configuration carries an
// MMU queue profile with an "ingress headroom" line, how that one
// platform-wide value compares with the per-port headroom the budget
// counts, what fabricc assumes EOS does with it and how to check it; ""
// for every other switch. The reading and its sources are those of
// eos.ProfileHeadroom (Arista TOI tag "mmu": ingress settings "at both a
// port level as well as a priority-group level"; AVD schema
// platform.trident.mmu.queue_profiles[].ingress.headroom, profile applied
// to the platform).
func eosProfileNote(sw *model.Switch) string {
	h, ok := eos.ProfileHeadroomOf(sw)
	if !ok {
		return ""
	}
	return fmt.Sprintf("EOS MMU queue profile of %s: one ingress headroom for the whole platform, %s, the need of %s; "+
		"the budget counts each port's own headroom instead. "+
		"Assumed: the value is per port (a port-level setting: Arista TOI, tag mmu; AVD platform.trident.mmu schema) "+
		"and each port with a no-drop priority may hold up to it. If each of the %d ports with a lossless group reserves it, "+
		"that is %s against %s of their own bytes in flight. "+
		"Not documented: whether EOS reserves it on every front-panel port or only on PFC ports, or takes it from a shared headroom pool. "+
		"Check on the switch: `%s`.",
		md(sw.Name), Bytes(h.Bytes), md(h.Port), h.LosslessPorts, Bytes(h.IfEveryLosslessPort()), Bytes(h.OwnBytes), eos.ShowMMUCommand)
}
