package compiler

import (
	"fmt"
	"maps"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// lower resolves defaults and references of cfg into a model and records
// where each value came from. It collects every error it finds instead of
// stopping at the first, and leaves the physics fields (Hardware
// constants, BufferStyle, Pools, Buffer, PriorityGroups, EgressQueues,
// Headroom) for applyPhysics.
func lower(cfg *dsl.Config) (*model.Fabric, Sources, hcl.Diagnostics) {
	l := &lowering{
		cfg:       cfg,
		f:         &model.Fabric{},
		src:       NewSources(sourcesHint(cfg)),
		written:   map[string]bool{},
		badPorts:  map[string]bool{},
		badNames:  map[string]bool{},
		badSpeeds: map[string]bool{},
		meant:     map[string]bool{},

		unusableModel: map[string]bool{},

		portNotOnModel:  map[string]*hcl.Diagnostic{},
		undeclaredVLANs: map[int][]string{},
	}
	if cfg == nil {
		l.errorf(dsl.Range{}, "Empty fabric", "There is nothing to compile; declare a fabric block.")
		return l.f, l.src, l.diags
	}
	// Lowering lets go of the host and link blocks once they are lowered
	// (in a large fabric they are most of the decoded configuration), on
	// its own copy of cfg: the caller's stays whole.
	own := *cfg
	l.cfg = &own
	l.lowerFabric()
	l.lowerQoS()
	l.lowerDCQCN()
	l.lowerVLANs()
	l.lowerDevices()
	l.cfg.Hosts = nil
	l.lowerLinks()
	l.cfg.Links = nil
	l.finishPorts()
	l.finishNICs()
	l.finishRoutes()
	l.finishVLANs()
	l.checkNICSpeeds()
	l.checkDCQCNLineRate()
	l.checkAddresses()
	return l.f, l.src, l.diags
}

// sourcesHint counts the blocks whose ranges lowering cfg records:
// switches, port blocks, hosts, NICs and links (a port block declaring a
// range records more, so this is a floor). Sizing the maps up front
// spares a 4,096-switch fabric the rehashing of millions of entries.
func sourcesHint(cfg *dsl.Config) int {
	if cfg == nil {
		return 0
	}
	blocks := len(cfg.Switches) + len(cfg.Links) + hostBlocks(cfg.Hosts)
	for i := range cfg.Switches {
		blocks += len(cfg.Switches[i].Ports)
	}
	return blocks
}

// hostBlocks counts the host and NIC blocks of hosts.
func hostBlocks(hosts []dsl.Host) int {
	n := len(hosts)
	for i := range hosts {
		n += len(hosts[i].NICs)
	}
	return n
}

// lowerDevices lowers the switches and the hosts. Neither reads what
// the other lowers (a host's name is checked against the switch blocks),
// so the hosts are lowered on a goroutine of their own, into a lowering
// of their own that is joined after: the errors come in the order of
// lowering them one after the other (switches, releases, hosts).
func (l *lowering) lowerDevices() {
	h := l.forHosts()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.lowerHosts()
	}()
	l.lowerSwitches()
	l.checkReleases()
	<-done
	l.join(h)
}

// forHosts returns a lowering of l's fabric for lowering its hosts: it
// shares what lowering them only reads (the configuration, the classes
// and VLANs) and records ranges, errors and marks of its own.
func (l *lowering) forHosts() *lowering {
	return &lowering{
		cfg: l.cfg, f: l.f, src: NewSources(hostBlocks(l.cfg.Hosts)),
		written: map[string]bool{}, badPorts: map[string]bool{},
		badVLAN: l.badVLAN, badVLANBlock: l.badVLANBlock, undeclaredVLANs: map[int][]string{},
		classes: l.classes, vlans: l.vlans,
	}
}

// join takes in what the lowering h of the hosts recorded.
func (l *lowering) join(h *lowering) {
	l.diags = append(l.diags, h.diags...)
	l.src.merge(h.src)
	maps.Copy(l.written, h.written)
	maps.Copy(l.badPorts, h.badPorts)
	for id, users := range h.undeclaredVLANs {
		l.undeclaredVLANs[id] = append(l.undeclaredVLANs[id], users...)
	}
	l.hosts = h.hosts
}

// lowering is the state of one lower call.
type lowering struct {
	cfg   *dsl.Config
	f     *model.Fabric
	src   Sources
	diags hcl.Diagnostics
	// instance names the switch, port, host, NIC or link being lowered,
	// for the errors recorded meanwhile (dsl.SetInstance).
	instance string
	// written records which optional attributes were set in the source
	// (keys as in Sources), for defaults decided after the links are known.
	written map[string]bool

	// badPorts marks switches with a port block that failed and devices
	// declared twice; it keeps follow-on errors out.
	badPorts map[string]bool
	// cabled holds every switch port and NIC a link ends on, by the
	// address of its Peer field (one per end), and where that link names
	// it: a second link to it is an error, and a NIC named by a link that
	// failed gets no follow-on error.
	cabled map[**model.Peer]dsl.Range
	// overrides is the link overrides being applied (overrides.go).
	overrides linkOverrides
	// badNames marks "switch/port" names the switch model has no port
	// for (their speed is not checked again), and the right spelling of
	// a misspelt one (a link to it is no follow-on error).
	badNames map[string]bool
	// meant marks "host/nic" NICs that a link end naming no NIC most
	// likely meant (its error's suggestion): they get no follow-on error.
	meant map[string]bool
	// broken lists the link ends whose errors may account for a NIC no
	// link cables (see brokenEnd).
	broken []brokenEnd
	// unusableModel marks switches whose model runs their platform only
	// in releases fabricc does not configure: their os_version is not
	// checked against fabricc's releases again.
	unusableModel map[string]bool
	// badSpeeds marks "switch/port" whose speed the model cannot run;
	// a NIC taking that speed gets no follow-on error.
	badSpeeds map[string]bool
	// portNotOnModel is each switch's first "Port not on this model"
	// error; links to undeclared ports of the switch join it.
	portNotOnModel map[string]*hcl.Diagnostic
	// badVLAN is the first "Duplicate VLAN id" or "Invalid VLAN id"
	// error, and badVLANBlock names its vlan block in its words ("the
	// duplicate", `vlan "s"`); undeclaredVLANs collects the VLANs used
	// but not declared after it, for its detail.
	badVLAN         *hcl.Diagnostic
	badVLANBlock    string
	undeclaredVLANs map[int][]string

	classes  map[string]*model.Class
	vlans    map[int]bool
	switches map[string]*model.Switch
	hosts    map[string]*model.Host
}

// errorf records an error at r and returns it so callers can add related
// places with dsl.Also.
func (l *lowering) errorf(r dsl.Range, summary, detail string, args ...any) *hcl.Diagnostic {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(detail, args...),
	}
	if !r.Empty() {
		d.Subject = r.Ptr()
	}
	if l.instance != "" {
		dsl.SetInstance(d, l.instance)
	}
	l.diags = append(l.diags, d)
	return d
}

// failedSince reports whether an error (not a warning) was recorded
// after the first n diagnostics.
func (l *lowering) failedSince(n int) bool { return l.diags[n:].HasErrors() }

// within makes name the instance of the errors recorded until the
// returned function restores the previous one:
//
//	defer l.within(sw.Name)()
func (l *lowering) within(name string) func() {
	prev := l.instance
	l.instance = name
	return func() { l.instance = prev }
}

// also adds a related place to d unless r is empty (a value from a
// built-in default has no place).
func also(d *hcl.Diagnostic, label string, r dsl.Range) {
	if !r.Empty() {
		dsl.Also(d, label, r.HCL())
	}
}

// lowerFabric copies the fabric block's name and description.
func (l *lowering) lowerFabric() {
	fb := l.cfg.Fabric
	if fb == nil {
		l.errorf(dsl.Range{}, "Missing fabric block", `Declare the fabric with a block such as fabric "lab" {}.`)
		return
	}
	l.f.Name = fb.Name
	if fb.Description != nil {
		l.f.Description = *fb.Description
	}
	l.src.Set(fb.DefRange, "fabric")
	l.src.Set(fb.DescriptionRange, "fabric", "description")
}
