package compiler

import (
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// lower resolves defaults and references of cfg into a model and records
// where each value came from. (Being written: see the lowering work.)
func lower(cfg *dsl.Config) (*model.Fabric, Sources, hcl.Diagnostics) {
	return &model.Fabric{}, Sources{}, nil
}
