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
func Compile(cfg *dsl.Config) (*model.Fabric, hcl.Diagnostics) {
	f, src, diags := lower(cfg)
	if diags.HasErrors() {
		return nil, diags
	}
	diags = append(diags, applyPhysics(f, src)...)
	if diags.HasErrors() {
		return nil, diags
	}
	diags = append(diags, check(f, src)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return f, diags
}
