package verify

import (
	"github.com/fabricc/fabricc/model"
)

// The NVUE paths of the VXLAN tunnel DSCP actions targets/cumulus writes
// on a VTEP (renderVXLANDSCP): `nv set nve vxlan encapsulation dscp
// action copy` and `nv set nve vxlan decapsulation dscp action
// preserve` (Cumulus Linux user guide, Network Virtualization, "VXLAN
// Tunnel DSCP Operations"; NVUE Command Reference, Set and Unset
// Commands, VXLAN).
const (
	nvueEncapDSCP = "nve vxlan encapsulation dscp action"
	nvueDecapDSCP = "nve vxlan decapsulation dscp action"
)

// nvueVXLANDSCPDefault is what a switch runs where neither action is
// set: "The default setting is derive" for both (the user guide's "VXLAN
// Tunnel DSCP Operations"), and `nv show nve vxlan` on a switch that set
// neither shows `decapsulation dscp action derive` and `encapsulation
// dscp action derive`, operational and applied (NVUE Command Reference,
// Show Commands, VXLAN). `nv config show` lists only what was set (the
// reference's Config Commands: `--all` adds the defaults).
const nvueVXLANDSCPDefault = "derive"

// vxlanDSCPActions are the VXLAN tunnel DSCP actions targets/cumulus
// writes on a VTEP, in its order: the path, NVUE's object under `nve
// vxlan`, the action and why RoCE needs it, the reason a difference
// gives.
var vxlanDSCPActions = []struct{ path, object, action, why string }{
	{nvueEncapDSCP, "encapsulation", "copy", "the underlay classifies a VXLAN packet by its outer DSCP alone, and only copy makes that the host's DSCP; " +
		"derive, NVUE's default, takes it from the switch priority, so RoCE can lose its lossless class across the overlay"},
	{nvueDecapDSCP, "decapsulation", "preserve", "the far VTEP then hands the receiving host RoCE with the DSCP its sender set, by which a NIC that trusts DSCP picks its lossless priority; " +
		"derive, NVUE's default, rewrites the inner DSCP from the switch priority"},
}

// nvueVXLANDSCP reads the VXLAN tunnel DSCP actions the configuration
// sets, by path; a path it leaves unset is not in the map (the switch
// runs nvueVXLANDSCPDefault). Never nil: an NVUE read-back always has
// them to compare. The object model is the command's path, as `nv show
// nve vxlan` prints it (NVUE Command Reference, Show Commands, VXLAN:
// "decapsulation / dscp / action derive", "encapsulation / dscp /
// action derive") and the patch targets/cumulus writes holds it
// (`nve: vxlan: encapsulation: dscp: action: copy`).
func nvueVXLANDSCP(root obj) map[string]string {
	out := map[string]string{}
	vxlan := child(root, "nve", "vxlan")
	for _, a := range vxlanDSCPActions {
		if v := str(child(vxlan, a.object, "dscp")["action"]); v != "" {
			out[a.path] = v
		}
	}
	return out
}

// expectVXLANDSCP is the VXLAN tunnel DSCP actions targets/cumulus
// writes on sw: both on a Cumulus switch that is a VTEP, a switch that
// carries a VLAN with an overlay (model.Fabric.OverlayVLANs); nil on
// every other switch, whose actions are not compared.
func expectVXLANDSCP(f *model.Fabric, sw *model.Switch) map[string]string {
	if sw.Platform != model.PlatformCumulus || len(f.OverlayVLANs(sw)) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, a := range vxlanDSCPActions {
		out[a.path] = a.action
	}
	return out
}

// compareVXLANDSCP reports each VXLAN tunnel DSCP action want has that
// got runs otherwise, once for the switch, in vxlanDSCPActions order, with the reason RoCE needs
// the intended one; nothing when either side has none to compare (not
// a VTEP, not NVUE).
func compareVXLANDSCP(device string, want, got map[string]string) []Difference {
	if want == nil || got == nil {
		return nil
	}
	var out []Difference
	for _, a := range vxlanDSCPActions {
		intended, wanted := want[a.path]
		if !wanted {
			continue
		}
		actual, set := got[a.path]
		if !set {
			actual = nvueVXLANDSCPDefault
		}
		if actual == intended {
			continue
		}
		if !set {
			actual += " (not set: NVUE's default)"
		}
		if intended == a.action {
			intended += " (" + a.why + ")"
		}
		out = append(out, Difference{Device: device, Field: a.path, Intended: intended, Actual: actual, Scope: ScopeSwitchWide})
	}
	return out
}
