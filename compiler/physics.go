package compiler

import (
	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// applyPhysics fills hardware constants, PFC headroom, buffer pools and
// the buffer budget of every switch, in model order. A switch whose
// model is unknown is skipped (lowering reported it; nothing else can be
// computed for it). Each switch's physics reads the fabric's QoS and
// writes only that switch, so the switches are computed on every core;
// their diagnostics come out in model order.
func applyPhysics(f *model.Fabric, src Sources) hcl.Diagnostics {
	found := make([]hcl.Diagnostics, len(f.Switches))
	mtus := newLosslessMTUs(f) // the fabric's NICs, indexed once for every switch
	cores.Range(len(f.Switches), 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sw := &f.Switches[i]
			if resolveHardware(sw) { // else lowering reported the unknown model
				found[i] = switchBuffers(f, sw, src, mtus)
			}
		}
	})
	var diags hcl.Diagnostics
	for _, d := range found {
		diags = append(diags, d...)
	}
	return diags
}
