// Package explain says what produced one line of an artifact: the model
// elements the renderer wrote it from (targets.SourceMap), the HCL ranges
// whose values flowed into them (compiler.Sources), and for derived
// numbers the derivation with its inputs: a PFC headroom with the cable,
// MTU, speed and ASIC constants it was computed from, a pool size with
// the buffer budget, an ECN threshold with its class.
//
// It reads the model and the sources only; `fabricc explain` builds the
// fabric again to get both, and checks that the artifact on disk is what
// that build gives.
package explain

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/hashicorp/hcl/v2"
)

// Explanation is what produced one line of an artifact.
type Explanation struct {
	// File is the artifact as named on the command line; Line counts
	// from 1; Text is the line itself.
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	// Fixed is true for fixed text: a comment or boilerplate that does
	// not depend on the fabric. Elements is then empty.
	Fixed    bool      `json:"fixed_text"`
	Elements []Element `json:"elements"`
}

// Element is one model element a line came from.
type Element struct {
	// Path is the element's path (targets.Element), e.g. ["switch",
	// "leaf1", "port", "swp3", "pg", "3"].
	Path []string `json:"path"`
	// What says in words what it is: "switch leaf1, port swp3, priority
	// group 3 (lossless, priorities 3)".
	What string `json:"what"`
	// Sources are the HCL ranges its values were written at.
	Sources []Source `json:"sources"`
	// Derivation shows how a derived number was computed; nil for values
	// written as they are.
	Derivation *Derivation `json:"derivation,omitempty"`
}

// Source is one place in the fabric's HCL.
type Source struct {
	// What names what is written there: "port block", "mtu", "cable
	// length of the link".
	What  string        `json:"what"`
	Range dsl.JSONRange `json:"range"`
	// Written is false when the value itself is not written and the
	// range is the block holding it (its default applies).
	Written bool `json:"written"`
	// Computed is true when the value is written there as an expression
	// (a variable, a function call, arithmetic) rather than a literal:
	// the range is where it is computed, and the literal it comes from
	// may be elsewhere (a local, a for_each collection).
	Computed bool `json:"computed,omitempty"`
	// Default is the value that applies when it is not written (Written
	// false), where explain knows it.
	Default string `json:"default,omitempty"`
}

// Derivation is how a number was computed.
type Derivation struct {
	// Name says what was computed ("PFC headroom", "pool size").
	Name string `json:"name"`
	// Formula names the algorithm and its public source.
	Formula string `json:"formula,omitempty"`
	// Configured says whether the switch's configuration carries the
	// result: "no: ..." on a switch that sizes its headroom itself
	// (docs.HeadroomUnconfigured), where the numbers are fabricc's
	// computed values, for comparison; empty elsewhere.
	Configured string `json:"configured,omitempty"`
	// Inputs are the values the computation took, each with where it
	// comes from.
	Inputs []Term `json:"inputs"`
	// Steps are the intermediate and final results.
	Steps []Term `json:"steps"`
}

// Term is one named value of a derivation.
type Term struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// From says where an input comes from when that is not a range: "the
	// hardware table of the switch model", "default".
	From string `json:"from,omitempty"`
	// Source is the HCL range an input was written at.
	Source *Source `json:"source,omitempty"`
}

// Build is what explain needs of a compiled fabric.
type Build struct {
	Fabric  *model.Fabric
	Sources compiler.Sources
	// Warnings are the build's warnings in the order fabric.md lists
	// them (warning/<i> elements).
	Warnings hcl.Diagnostics
}

// Line explains line n (from 1) of file, rendered with its source map.
// name is how the file is shown.
func (b *Build) Line(name string, file targets.File, n int) (*Explanation, error) {
	lines := splitLines(file.Data)
	if n < 1 || n > len(lines) {
		return nil, fmt.Errorf("%s has %d lines; there is no line %d", name, len(lines), n)
	}
	if file.Map == nil || len(file.Map.Lines) != len(lines) {
		return nil, fmt.Errorf("%s: the renderer recorded no source map for it (a fabricc bug)", name)
	}
	ex := &Explanation{File: name, Line: n, Text: lines[n-1], Elements: []Element{}}
	for _, e := range file.Map.Line(n) {
		el, err := b.Element(e.Parts())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		ex.Elements = append(ex.Elements, el)
	}
	ex.Fixed = len(ex.Elements) == 0
	return ex, nil
}

// splitLines splits data into lines without their line ends; a last line
// without a newline counts.
func splitLines(data []byte) []string {
	var out []string
	start := 0
	for i, c := range data {
		if c == '\n' {
			out = append(out, string(data[start:i]))
			start = i + 1
		}
	}
	if start < len(data) {
		out = append(out, string(data[start:]))
	}
	return out
}

// Element resolves the element with the given path into its description,
// sources and derivation.
func (b *Build) Element(path []string) (Element, error) {
	el := Element{Path: path, Sources: []Source{}}
	var err error
	switch {
	case len(path) == 1 && path[0] == "fabric":
		el.What = "fabric " + strconv.Quote(b.Fabric.Name)
		b.add(&el, "fabric block", "fabric")
	case len(path) >= 1 && path[0] == "qos":
		err = b.qos(&el, path)
	case len(path) == 2 && path[0] == "vlan":
		err = b.vlan(&el, path[1])
	case len(path) >= 2 && path[0] == "switch":
		err = b.switchElement(&el, path)
	case len(path) >= 2 && path[0] == "host":
		err = b.hostElement(&el, path)
	case len(path) == 2 && path[0] == "warning":
		err = b.warning(&el, path[1])
	default:
		err = fmt.Errorf("unknown model element %v", path)
	}
	return el, err
}

// warning resolves warning/<i>.
func (b *Build) warning(el *Element, index string) error {
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || i >= len(b.Warnings) {
		return fmt.Errorf("the build has no warning %s", index)
	}
	d := b.Warnings[i]
	el.What = "warning: " + d.Summary
	if d.Subject != nil {
		el.Sources = append(el.Sources, Source{What: "where the warning points", Range: jsonRange(*d.Subject), Written: true})
	}
	for _, r := range dsl.RelatedOf(d) {
		el.Sources = append(el.Sources, Source{What: r.Label, Range: jsonRange(r.Range), Written: true})
	}
	return nil
}

// vlan resolves vlan/<id>.
func (b *Build) vlan(el *Element, id string) error {
	for _, v := range b.Fabric.VLANs {
		if strconv.Itoa(v.ID) == id {
			el.What = "VLAN " + id
			if v.Name != "" {
				el.What += " " + strconv.Quote(v.Name)
			}
			b.add(el, "vlan block", "vlan", id)
			b.addExact(el, "id", "vlan", id, "id")
			return nil
		}
	}
	return fmt.Errorf("the fabric has no VLAN %s", id)
}
