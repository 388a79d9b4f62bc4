package explain

import (
	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/hashicorp/hcl/v2"
)

// Load loads and compiles the fabric at path as `fabricc build` does
// (one diagnostic per mistake, dsl.Collapse), keeping the sources. The
// Build is nil when the diagnostics hold errors.
func Load(path string, opts dsl.Options) (*Build, map[string]*hcl.File, hcl.Diagnostics) {
	cfg, files, diags := dsl.Load(path, opts)
	if diags.HasErrors() {
		return nil, files, dsl.Collapse(diags, files)
	}
	f, src, cdiags := compiler.CompileSources(cfg)
	diags = dsl.Collapse(append(diags, cdiags...), files)
	if diags.HasErrors() {
		return nil, files, diags
	}
	return &Build{Fabric: f, Sources: src, Warnings: artifacts.WarningDiagnostics(diags)}, files, diags
}
