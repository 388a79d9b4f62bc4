package compiler

import (
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// check runs the cross-device checks on the resolved model. (Being
// written: see the checks work.)
func check(f *model.Fabric, src Sources) hcl.Diagnostics {
	return nil
}
