package compiler

import (
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// applyPhysics fills hardware constants, PFC headroom, buffer pools and
// the buffer budget of every switch, in model order. A switch whose
// model is unknown is skipped (lowering reported it; nothing else can be
// computed for it).
func applyPhysics(f *model.Fabric, src Sources) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i := range f.Switches {
		sw := &f.Switches[i]
		if !resolveHardware(sw) {
			continue // lowering reported the unknown model
		}
		diags = append(diags, switchBuffers(f, sw, src)...)
	}
	return diags
}
