package docs

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestOverlaySection: a VLAN with overlay "vxlan" gets a "VXLAN overlay"
// section listing each switch that carries it (a VTEP), with the NVUE
// lines fabricc writes on Cumulus and the by-hand commands and manual on
// EOS and Onyx; a switch not carrying it is not listed, and a fabric
// without an overlay has no section.
func TestOverlaySection(t *testing.T) {
	access := func(v int) []model.Port { return []model.Port{{Name: "p1", Mode: model.ModeAccess, AccessVLAN: v}} }
	f := &model.Fabric{Name: "o", VLANs: []model.VLAN{{ID: 100, Name: "tenant", Overlay: model.OverlayVXLAN}, {ID: 200, Name: "local"}}}
	f.Switches = []model.Switch{
		{Name: "c1", Platform: model.PlatformCumulus, Ports: access(100)},
		{Name: "e1", Platform: model.PlatformEOS, Ports: access(100)},
		{Name: "o1", Platform: model.PlatformOnyx, Ports: access(100)},
		{Name: "c2", Platform: model.PlatformCumulus, Ports: access(200)},
	}
	doc, err := RenderFabric(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc.Data)
	for _, want := range []string{
		"### VXLAN overlay\n\nVLAN 100 has overlay = \"vxlan\": EVPN-VXLAN",
		"Each VTEP adds 50 B to a host's IP packet",
		"They assume an IPv4 underlay: an IPv6 one adds 20 B more.",
		"| c1 | cumulus | 100 | fabricc writes `nv set nve vxlan encapsulation dscp action copy`",
		"and `nv set nve vxlan decapsulation dscp action preserve`",
		"| e1 | eos | 100 | by hand: ",
		"`vxlan qos dscp propagation encapsulation` (the outer DSCP is the host's) and `vxlan qos dscp to traffic-class decapsulation`",
		"| o1 | onyx | 100 | by hand: the NVIDIA Onyx User Manual, chapter \"VXLAN\", documents no setting of the outer DSCP",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("fabric.md lacks %q", want)
		}
	}
	section := text[strings.Index(text, "### VXLAN overlay"):]
	section = section[:strings.Index(section, "\n## ")]
	if strings.Contains(section, "| c2 |") {
		t.Error("c2 carries no overlay VLAN but is listed as a VTEP")
	}
	f.VLANs[0].Overlay = ""
	doc, err = RenderFabric(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc.Data), "VXLAN overlay") {
		t.Error("a fabric without an overlay has a VXLAN overlay section")
	}
}
