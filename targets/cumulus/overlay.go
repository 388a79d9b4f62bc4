package cumulus

import (
	"strconv"

	"github.com/fabricc/fabricc/model"
)

// renderVXLANDSCP keeps the host's DSCP through the VXLAN tunnel on a
// switch that is a VTEP for a VLAN with overlay "vxlan" (and writes
// nothing on the others). Cumulus Linux derives the outer DSCP of an
// encapsulated packet from the switch priority by default, and on
// decapsulation derives the inner one the same way; the underlay
// classifies the outer header only. `copy` takes the outer DSCP from the
// inner IP header, and `preserve` leaves the inner DSCP as the host sent
// it, so RoCE keeps its lossless class on the spines and past the far
// VTEP (Cumulus Linux 5.x user guide, Network Virtualization, "VXLAN
// Tunnel DSCP Operations"; NVUE Command Reference, Set and Unset
// Commands, VXLAN: `nv set nve vxlan encapsulation dscp action`,
// `nv set nve vxlan decapsulation dscp action`).
func renderVXLANDSCP(p *plan, f *model.Fabric, sw *model.Switch) {
	ids := f.OverlayVLANs(sw)
	if len(ids) == 0 {
		return
	}
	p.at()
	for _, id := range ids {
		p.also("vlan", strconv.Itoa(id))
	}
	what := "VLAN " + joinInts(ids) + " has"
	if len(ids) > 1 {
		what = "VLANs " + joinInts(ids) + " have"
	}
	p.sectionf("VXLAN outer DSCP: %s overlay vxlan, and this switch is a VTEP for it", what)
	p.commentf("the outer DSCP defaults to derive (from the switch priority) and the underlay classifies the outer header only;")
	p.commentf("copy the host's DSCP into it, and keep the inner DSCP on decapsulation (Cumulus Linux user guide, VXLAN Tunnel DSCP Operations)")
	p.set("nve vxlan encapsulation dscp action", "copy")
	p.set("nve vxlan decapsulation dscp action", "preserve")
}
