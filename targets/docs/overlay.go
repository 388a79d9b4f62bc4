package docs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// overlayDSCP says, per platform, what keeps the host's DSCP in the
// outer header of a VXLAN packet, which is all the underlay classifies:
// the lines fabricc writes, or the document to follow by hand.
var overlayDSCP = map[model.Platform]string{
	model.PlatformCumulus: "fabricc writes `nv set nve vxlan encapsulation dscp action copy` (the outer DSCP is the host's; the default, `derive`, takes it from the switch priority) and `nv set nve vxlan decapsulation dscp action preserve` (the inner DSCP stays the host's) (Cumulus Linux user guide, VXLAN Tunnel DSCP Operations).",
	model.PlatformEOS:     "by hand: fabricc does not write the VTEP's `interface Vxlan1`. Arista's EOS User Manual, \"VXLAN DSCP Mapping\", documents `vxlan qos dscp propagation encapsulation` (the outer DSCP is the host's) and `vxlan qos dscp to traffic-class decapsulation` (the traffic class comes from the outer DSCP) under `interface Vxlan1`, on the 7050X3 platforms it lists; the core ports must trust DSCP, which fabricc writes on routed ports.",
	model.PlatformOnyx:    "by hand: the NVIDIA Onyx User Manual, chapter \"VXLAN\", documents no setting of the outer DSCP of an NVE tunnel; check on a spine port (a capture, or the per-priority counters) that the encapsulated RoCE arrives with the host's DSCP before relying on the lossless class across the overlay.",
}

// writeOverlay describes the VLANs with an overlay: the switches that
// are VTEPs for them, the MTU the checks held the underlay to, and per
// platform how the outer header keeps the host's DSCP.
func writeOverlay(d *doc, f *model.Fabric) {
	var ids []string
	for _, v := range f.VLANs {
		if v.Overlay != "" {
			ids = append(ids, strconv.Itoa(v.ID))
		}
	}
	if len(ids) == 0 {
		return
	}
	d.at()
	d.h(3, "VXLAN overlay")
	d.p(fmt.Sprintf("VLAN %s %s overlay = \"vxlan\": EVPN-VXLAN, whose EVPN, VTEP and underlay routing fabricc does not write, stretches %s between the switches that carry %s. "+
		"Each VTEP adds %d B to a host's IP packet (inner Ethernet header, VXLAN, UDP and outer IPv4 header, RFC 7348 §5); the checks held every underlay port of those switches, and its far end, to the largest NIC MTU of the VLAN plus %d B. "+
		"They assume an IPv4 underlay: an IPv6 one adds 20 B more.",
		strings.Join(ids, ", "), hasHave(len(ids)), itThem(len(ids)), itThem(len(ids)), model.VXLANOverheadIPv4, model.VXLANOverheadIPv4))
	var body rows
	for i := range f.Switches {
		sw := &f.Switches[i]
		vtep := f.OverlayVLANs(sw)
		if len(vtep) == 0 {
			continue
		}
		d.at("switch", sw.Name)
		body.add(d, md(sw.Name), string(sw.Platform), joinIDs(vtep), overlayDSCP[sw.Platform])
	}
	d.table([]string{"VTEP", "platform", "VLANs", "outer DSCP"}, &body)
}

// joinIDs joins VLAN ids with ", ".
func joinIDs(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ", ")
}

// hasHave is "has" for one, "have" for more.
func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// itThem is "it" for one, "them" for more.
func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
