package dsl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// localsState evaluates locals in dependency order.
type localsState struct {
	ctx    *hcl.EvalContext
	attrs  map[string]*hcl.Attribute
	values map[string]cty.Value
	// visiting is the current evaluation path, for cycle reports.
	visiting []string
	onPath   map[string]bool
	diags    hcl.Diagnostics
}

// evalLocals evaluates every attribute of the locals blocks, each after
// the locals it refers to, and publishes them as local.NAME in ctx. A
// local that fails is set to an unknown value so its users do not repeat
// the error.
func evalLocals(ctx *hcl.EvalContext, blocks []*hcl.Block) hcl.Diagnostics {
	s := &localsState{
		ctx:    ctx,
		attrs:  map[string]*hcl.Attribute{},
		values: map[string]cty.Value{},
		onPath: map[string]bool{},
	}
	var order []string
	for _, b := range blocks {
		attrs, d := b.Body.JustAttributes()
		s.diags = append(s.diags, d...)
		for _, a := range sortedAttrs(attrs) {
			if prev, ok := s.attrs[a.Name]; ok {
				s.diags = append(s.diags, duplicateLocal(a, prev))
				continue
			}
			s.attrs[a.Name] = a
			order = append(order, a.Name)
		}
	}
	if len(order) > MaxLocals {
		r := s.attrs[order[MaxLocals]].NameRange
		s.diags = append(s.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many locals",
			Detail: fmt.Sprintf("A fabric has at most %d locals; fabricc stops here. Group values into maps or lists.", MaxLocals), Subject: &r})
		return s.diags
	}
	for _, name := range order {
		s.eval(name)
	}
	ctx.Variables["local"] = cty.ObjectVal(s.values)
	return s.diags
}

// duplicateLocal is the error for local a defined again after prev.
func duplicateLocal(a, prev *hcl.Attribute) *hcl.Diagnostic {
	r := a.NameRange
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Duplicate local value",
		Detail:   fmt.Sprintf("Local %q is already defined at %s; each local is defined once across all files.", a.Name, prev.NameRange),
		Subject:  &r,
	}
	return Also(d, fmt.Sprintf("local %q first defined here", a.Name), prev.NameRange)
}

// eval evaluates one local after its dependencies.
func (s *localsState) eval(name string) {
	if _, done := s.values[name]; done {
		return
	}
	if s.onPath[name] {
		s.reportCycle(name)
		return
	}
	a := s.attrs[name]
	if len(s.visiting) >= MaxLocalsDepth {
		r := a.NameRange
		s.diags = append(s.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Locals chain too long",
			Detail: fmt.Sprintf("local.%s is reached through a chain of more than %d locals that each refer to the next; fabricc stops there. Compute the value in fewer steps.", name, MaxLocalsDepth), Subject: &r})
		s.values[name] = cty.DynamicVal
		return
	}
	s.onPath[name] = true
	s.visiting = append(s.visiting, name)
	for _, dep := range localRefs(a.Expr) {
		if _, ok := s.attrs[dep]; ok {
			s.eval(dep)
		}
	}
	s.visiting = s.visiting[:len(s.visiting)-1]
	delete(s.onPath, name)
	if _, done := s.values[name]; done {
		return // set to unknown by a cycle report
	}
	s.ctx.Variables["local"] = cty.ObjectVal(s.values)
	val, d := a.Expr.Value(s.ctx)
	s.diags = append(s.diags, d...)
	if d.HasErrors() {
		val = cty.DynamicVal
	}
	s.values[name] = val
}

// reportCycle reports the cycle that returns to name, naming every local
// in it, and marks them all unknown.
func (s *localsState) reportCycle(name string) {
	start := 0
	for i, n := range s.visiting {
		if n == name {
			start = i
		}
	}
	cycle := append([]string(nil), s.visiting[start:]...)
	first := s.attrs[cycle[0]]
	r := first.NameRange
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cycle in locals",
		Detail: fmt.Sprintf("These locals refer to each other in a circle: %s -> local.%s. Break the circle by computing one of them without the others.",
			"local."+strings.Join(cycle, " -> local."), cycle[0]),
		Subject: &r,
	}
	for _, n := range cycle[1:] {
		Also(d, fmt.Sprintf("local %q is part of the cycle", n), s.attrs[n].NameRange)
	}
	s.diags = append(s.diags, d)
	for _, n := range cycle {
		s.values[n] = cty.DynamicVal
	}
}

// localRefs returns the local names expr refers to, in order.
func localRefs(expr hcl.Expression) []string {
	var out []string
	for _, tr := range expr.Variables() {
		if tr.RootName() != "local" || len(tr) < 2 {
			continue
		}
		if attr, ok := tr[1].(hcl.TraverseAttr); ok {
			out = append(out, attr.Name)
		}
	}
	return out
}
