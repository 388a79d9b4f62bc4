// Package openconfig renders every switch of a fabric, whatever its
// platform, as OpenConfig configuration in RFC 7951 JSON
// ("<switch>.openconfig.json"), the form a gNMI Set carries, a gnmic set
// request file ("<switch>.openconfig-set.json", setrequest.go) that
// applies it with the replaces and deletes an update cannot do, and a
// sidecar note ("<switch>.openconfig.md") listing the intent OpenConfig
// cannot carry and how to apply the files.
//
// The JSON is built with the ygot structs generated into the oc
// subpackage and holds:
//
//	/interfaces           name, type, description, enabled, MTU (frame; none
//	                      on EOS), port speed, 802.3x flow control,
//	                      switched-vlan (access/trunk/native); routed
//	                      ports: subinterface 0 with IPv4 enabled (and the
//	                      EOS IP MTU), no switched-vlan
//	/network-instances    the "default" instance with the fabric's VLANs
//	/qos/queues           one queue per class, named after it, queue-id =
//	                      traffic class
//	/qos/forwarding-groups one per class, named after it -> its queue
//	/qos/classifiers      "dscp-ipv4" and "dscp-ipv6": a term per class
//	                      matching its DSCP set -> its forwarding group
//	/qos/scheduler-policies "ets": sequence 0 strict (input weight = traffic
//	                      class, higher serves first), sequence 1 WRR
//	                      (weight = bandwidth percent)
//	/qos/queue-management-profiles "<class>-ecn": WRED with enable-ecn,
//	                      thresholds in bytes, max-drop-probability-percent
//	                      = mark probability
//	/qos/interfaces       per port: the classifiers on input (ports that
//	                      trust DSCP), the scheduler policy and the ECN
//	                      profiles of the ECN queues on output
//
// The structure follows the openconfig/featureprofiles QoS tests (DP-1.x:
// classifier terms with ipv4/ipv6 dscp-set and target-group, forwarding
// group output-queue, scheduler sequence 0 STRICT and sequence 1 weighted,
// qos/interfaces input classifiers and output queues).
//
// Every tree is checked with the generated Validate (leafrefs included)
// before it is written; a tree that fails is a renderer error. Render
// writes the bytes ygot.EmitJSON writes for Build's tree (sorted keys, so
// the same model always gives the same bytes) without building and
// validating the whole tree per switch: the fabric-wide part and each
// port shape are validated once (fast.go).
//
// The interface mtu is the Ethernet frame without FCS, as OpenConfig
// counts it (ocMTU). A trunk port without VLANs is refused (OpenConfig
// reads a missing trunk-vlans as every VLAN).
//
// OpenConfig has no PFC, PFC watchdog or headroom model (none anywhere in
// openconfig/public release/models, and no vendor augmentation is among
// the models fabricc generates from) and no 802.1p classifier match, so
// PFC priorities, the PFC watchdog, headroom, buffers, PCP trust and the
// priority maps go to the sidecar note with the model's values (README.md
// lists the models and revisions checked).
package openconfig

import (
	"fmt"

	"github.com/openconfig/ygot/ygot"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/openconfig/oc"
)

// Target is the renderer name recorded in every File this package writes.
const Target = "openconfig"

// Render renders the OpenConfig JSON and the sidecar note of one switch.
// It returns an error naming the switch, port or value OpenConfig cannot
// hold, or the schema path Validate rejected.
func Render(f *model.Fabric, sw *model.Switch) ([]targets.File, error) {
	return renderFiles(f, sw, false)
}

// RenderMapped is Render with each file's source map (targets.SourceMap):
// the JSON is read back and each line named by the node it belongs to
// (see jsonElements).
func RenderMapped(f *model.Fabric, sw *model.Switch) ([]targets.File, error) {
	return renderFiles(f, sw, true)
}

// noteSize sizes the next note's buffer (targets.SizeHint).
var noteSize targets.SizeHint

// renderFiles renders both files, with their source maps when mapped.
func renderFiles(f *model.Fabric, sw *model.Switch, mapped bool) ([]targets.File, error) {
	if f == nil || sw == nil {
		return nil, fmt.Errorf("openconfig: nothing to render: fabric or switch is nil")
	}
	s := sharedPart(f)
	ports := byName(sw.Ports)
	data, err := s.renderJSON(f, sw, ports)
	if err != nil {
		return nil, fmt.Errorf("openconfig: switch %q: %w", sw.Name, err)
	}
	set := s.setJSON(f, sw, ports)
	note := writeNote(f, sw, noteSize.NewText(mapped))
	noteSize.Done(note.Len())
	files := []targets.File{
		{Name: sw.Name + ".openconfig.json", Target: Target, Mode: 0o644, Data: data},
		{Name: sw.Name + ".openconfig.md", Target: Target, Mode: 0o644, Data: note.Bytes(), Map: note.SourceMap()},
		{Name: setRequestName(sw), Target: Target, Mode: 0o644, Data: set},
	}
	if mapped {
		if files[0].Map, err = targets.MapJSON(data, jsonElements(sw)); err != nil {
			return nil, fmt.Errorf("openconfig: switch %q: %w", sw.Name, err)
		}
		if files[2].Map, err = targets.MapJSON(set, setElements(sw)); err != nil {
			return nil, fmt.Errorf("openconfig: switch %q: %w", sw.Name, err)
		}
	}
	return files, nil
}

// Build returns the OpenConfig tree of one switch, validated against the
// schema.
func Build(f *model.Fabric, sw *model.Switch) (*oc.Device, error) {
	d := &oc.Device{}
	for i := range sw.Ports {
		if err := addInterface(d, sw.Platform, &sw.Ports[i]); err != nil {
			return nil, fmt.Errorf("port %q: %w", sw.Ports[i].Name, err)
		}
	}
	if err := addVLANs(d, f.VLANs); err != nil {
		return nil, err
	}
	if err := addQoS(d, &f.QoS, sw.Ports); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("the OpenConfig tree does not validate against the YANG schema (a fabricc bug or a value OpenConfig rejects): %w", err)
	}
	return d, nil
}

// Emit writes d as indented RFC 7951 JSON with module-qualified top-level
// names, ending in a newline.
func Emit(d *oc.Device) ([]byte, error) {
	s, err := ygot.EmitJSON(d, &ygot.EmitJSONConfig{
		Format:        ygot.RFC7951,
		Indent:        "  ",
		RFC7951Config: &ygot.RFC7951JSONConfig{AppendModuleName: true},
	})
	if err != nil {
		return nil, fmt.Errorf("emit RFC 7951 JSON: %w", err)
	}
	return []byte(s + "\n"), nil
}
