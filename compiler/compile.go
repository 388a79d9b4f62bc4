// Package compiler turns a decoded fabric (package dsl) into the checked
// model (package model): it resolves defaults and profiles, expands port
// ranges, computes PFC headroom and buffer pools from physics, and runs the
// cross-device checks that no vendor tool makes before deployment.
package compiler

import (
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// Compile lowers cfg into a model and checks it. It returns the model only
// when there are no errors; warnings come back with it.
//
// Warnings the fabric block acknowledges (`accept` blocks) are left out
// and listed in the model's Accepted.
func Compile(cfg *dsl.Config) (*model.Fabric, hcl.Diagnostics) {
	f, _, diags := CompileSources(cfg)
	return f, diags
}

// CompileSkipped is Compile that also says which later phases did not
// run because an earlier one reported errors ("" when every phase ran),
// so that validate can say the fabric may hold more problems than it
// lists.
func CompileSkipped(cfg *dsl.Config) (*model.Fabric, hcl.Diagnostics, string) {
	f, _, diags, skipped := compileSources(cfg)
	return f, diags, skipped
}

// CompileSources is Compile that also returns where each value of the
// model was written (see Sources), for `fabricc explain`.
func CompileSources(cfg *dsl.Config) (*model.Fabric, Sources, hcl.Diagnostics) {
	f, src, diags, _ := compileSources(cfg)
	return f, src, diags
}

// compileSources is CompileSources with the phases skipped (compile).
func compileSources(cfg *dsl.Config) (*model.Fabric, Sources, hcl.Diagnostics, string) {
	// Only the fabric block is read after lowering, so the rest of cfg
	// (most of a large fabric's memory) can be freed while the physics
	// and the checks run.
	var fb *dsl.Fabric
	if cfg != nil {
		fb = cfg.Fabric
	}
	f, src, diags, skipped := compile(cfg)
	diags = applyAccepts(fb, f, diags)
	if diags.HasErrors() {
		return nil, Sources{}, diags, skipped
	}
	return f, src, diags, ""
}

// The phases a compile skips, by where it stopped (CompileSkipped).
const (
	skippedAfterPhysics  = "the cross-device checks"
	skippedAfterLowering = "headroom and buffers, " + skippedAfterPhysics
	// SkippedUndecoded names every phase of the compiler, none of which
	// runs on a fabric that does not decode.
	SkippedUndecoded = "ports, links, VLANs, QoS, " + skippedAfterLowering
)

// compile runs the phases, stopping after the first with errors (the
// later ones would report what follows from them), and says which it
// skipped.
func compile(cfg *dsl.Config) (*model.Fabric, Sources, hcl.Diagnostics, string) {
	f, src, diags := lower(cfg)
	if diags.HasErrors() {
		return nil, src, diags, skippedAfterLowering
	}
	diags = append(diags, applyPhysics(f, src)...)
	if diags.HasErrors() {
		return nil, src, diags, skippedAfterPhysics
	}
	diags = append(diags, check(f, src)...)
	return f, src, diags, ""
}
