package compiler

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// check runs the cross-device checks on the resolved model (after
// physics). Checks walk the model in its canonical order; the result is
// sorted by source range so the output is stable.
//
// The checks only read the model and add diagnostics, so the first ones
// run on two cores: those that ask the cabling's connected components
// (whose lookups compress paths, so they stay on one goroutine) beside
// the others. Each check's diagnostics keep their place in the order
// below, which is what the stable sort sees. The device-default checks
// come after all of them, because they stay silent when an earlier
// check found an error (its follow-ons would only repeat it).
func check(f *model.Fabric, src Sources) hcl.Diagnostics {
	checks := []struct {
		run        func(*checker)
		components bool
	}{
		{(*checker).checkRanges, false},
		{(*checker).checkLinks, false},
		{(*checker).checkLossless, true},
		{(*checker).checkECN, false},
		{(*checker).checkCNPClass, false},
		{(*checker).checkTransports, true},
		{(*checker).checkVendorNotes, false},
		{(*checker).checkLosslessMTU, false},
		{(*checker).checkRoCEPathMTU, false},
		{(*checker).checkSkbPriority, false},
		{(*checker).checkHeadroomCables, false},
		{(*checker).checkHeadroomMode, false},
		{(*checker).checkVLANPaths, false},
		{(*checker).checkClusterShare, false},
		{(*checker).checkPathMTUs, true},
	}
	c := newChecker(f, src)
	found := make([]hcl.Diagnostics, len(checks))
	runGroup := func(withComponents bool) {
		own := *c
		if withComponents {
			own.comp = buildComponents(f)
		}
		for i, ch := range checks {
			if ch.components == withComponents {
				own.diags = nil
				ch.run(&own)
				found[i] = own.diags
			}
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runGroup(true)
	}()
	runGroup(false)
	<-done
	for _, d := range found {
		c.diags = append(c.diags, d...)
	}
	c.checkDeviceDefaults()
	c.checkWindows()
	sortDiagnostics(c.diags)
	return c.diags
}

// checker carries the model, its sources, name indexes and the findings.
type checker struct {
	f        *model.Fabric
	src      Sources
	switches map[string]*model.Switch
	hosts    map[string]*model.Host
	diags    hcl.Diagnostics
	// comp is the cabling's connected components, for the checks that
	// ask them (check's components group); nil for the others.
	comp *components
	// flow is which links RoCE crosses (roceflow.go), built on first use.
	flow *roceFlow
}

// newChecker indexes switches and hosts by name.
func newChecker(f *model.Fabric, src Sources) *checker {
	c := &checker{f: f, src: src, switches: map[string]*model.Switch{}, hosts: map[string]*model.Host{}}
	for i := range f.Switches {
		c.switches[f.Switches[i].Name] = &f.Switches[i]
	}
	for i := range f.Hosts {
		c.hosts[f.Hosts[i].Name] = &f.Hosts[i]
	}
	return c
}

// related is another place a diagnostic points at: a label and a Sources
// path.
type related struct {
	label string
	path  []string
}

// rel builds a related place.
func rel(label string, path ...string) related { return related{label, path} }

// add records a diagnostic whose subject is the range of path; related
// places with a range different from the subject are attached with
// dsl.Also.
func (c *checker) add(sev hcl.DiagnosticSeverity, summary, detail string, path []string, rels ...related) {
	d := &hcl.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Subject: c.src.At(path...)}
	if n := instanceOf(path); n != "" {
		dsl.SetInstance(d, n)
	}
	for _, r := range rels {
		rng := c.src.At(r.path...)
		if rng == nil || (d.Subject != nil && *rng == *d.Subject) {
			continue
		}
		dsl.Also(d, r.label, *rng)
	}
	c.diags = append(c.diags, d)
}

// instanceOf names what a Sources path is about, for dsl.Collapse:
// "leaf1:swp1" for a port, "gpu01:roce0" for a NIC, the device for a
// switch or host, "" otherwise.
func instanceOf(path []string) string {
	switch {
	case len(path) >= 4 && (path[0] == "switch" && path[2] == "port" || path[0] == "host" && path[2] == "nic"):
		return path[1] + ":" + path[3]
	case len(path) >= 2 && (path[0] == "switch" || path[0] == "host"):
		return path[1]
	}
	return ""
}

// defaultNote says where an attribute of an end came from when it was
// not written: " (the EOS default, not written)", or "" when written.
// Platform defaults differ (EOS ports default to MTU 9214, Onyx and
// Cumulus to 9216; see docs/models.md), which is why a mismatch of two
// defaults needs saying.
func (c *checker) defaultNote(e end, attr string) string {
	if c.src.Has(e.path(attr)...) {
		return ""
	}
	if e.port != nil {
		return fmt.Sprintf(" (the %s default, not written)", platformTitle(e.sw.Platform))
	}
	return " (the default, not written)"
}

// errorf and warnf are add with a severity.
func (c *checker) errorf(summary, detail string, path []string, rels ...related) {
	c.add(hcl.DiagError, summary, detail, path, rels...)
}

// warnf records a warning at path, like errorf.
func (c *checker) warnf(summary, detail string, path []string, rels ...related) {
	c.add(hcl.DiagWarning, summary, detail, path, rels...)
}

// portPath and nicPath are the Sources paths of a port or NIC attribute.
func portPath(sw, port string, attr ...string) []string {
	return append([]string{"switch", sw, "port", port}, attr...)
}

// nicPath is the Sources path of a NIC attribute; see portPath.
func nicPath(host, nic string, attr ...string) []string {
	return append([]string{"host", host, "nic", nic}, attr...)
}

// end is one resolved end of a link.
type end struct {
	sw   *model.Switch
	port *model.Port
	host *model.Host
	nic  *model.NIC
}

// name is "device:port" as links write it.
func (e end) name() string {
	if e.port != nil {
		return e.sw.Name + ":" + e.port.Name
	}
	return e.host.Name + ":" + e.nic.Name
}

// path is the Sources path of the end, with an optional attribute.
func (e end) path(attr ...string) []string {
	if e.port != nil {
		return portPath(e.sw.Name, e.port.Name, attr...)
	}
	return nicPath(e.host.Name, e.nic.Name, attr...)
}

// resolve finds the port or NIC an endpoint names.
func (c *checker) resolve(ep model.Endpoint) (end, bool) {
	if ep.Kind == "switch" {
		sw := c.switches[ep.Device]
		if sw == nil {
			return end{}, false
		}
		p := sw.Port(ep.Port)
		return end{sw: sw, port: p}, p != nil
	}
	h := c.hosts[ep.Device]
	if h == nil {
		return end{}, false
	}
	n := h.NIC(ep.Port)
	return end{host: h, nic: n}, n != nil
}

// sortDiagnostics orders diagnostics by file, position and summary;
// diagnostics without a range go last in their original order.
func sortDiagnostics(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a != nil && b == nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Byte != b.Start.Byte:
			return a.Start.Byte < b.Start.Byte
		}
		return diags[i].Summary < diags[j].Summary
	})
}

// speedText renders Mb/s as the language writes speeds ("100G").
func speedText(mbps int) string {
	if mbps%1000 == 0 {
		return fmt.Sprintf("%dG", mbps/1000)
	}
	return fmt.Sprintf("%dM", mbps)
}

// intsText renders a list of numbers as "3,4" or "none".
func intsText(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ",")
}

// listText shortens a list of names to its first five and a count.
func listText(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], ", "), len(names)-5)
}
