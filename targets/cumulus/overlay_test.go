package cumulus

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"gopkg.in/yaml.v3"
)

// TestVXLANDSCP: a switch carrying a VLAN with overlay "vxlan" copies
// the inner DSCP to the outer header and preserves the inner one on
// decapsulation (Cumulus Linux user guide, VXLAN Tunnel DSCP
// Operations: both default to derive), in the script and the patch; a
// switch whose overlay VLAN it does not carry, or a fabric without one,
// gets neither.
func TestVXLANDSCP(t *testing.T) {
	lines := []string{
		"nv set nve vxlan encapsulation dscp action copy",
		"nv set nve vxlan decapsulation dscp action preserve",
	}
	overlay := func(id int) func(f *model.Fabric) {
		return func(f *model.Fabric) {
			for i := range f.VLANs {
				if f.VLANs[i].ID == id {
					f.VLANs[i].Overlay = model.OverlayVXLAN
				}
			}
		}
	}
	t.Run("VTEP", func(t *testing.T) {
		script, doc := render(t, overlay(200))
		for _, l := range lines {
			if !strings.Contains(script, "\n"+l+"\n") {
				t.Errorf("script lacks %q:\n%s", l, script)
			}
		}
		if !strings.Contains(script, "# VXLAN outer DSCP: VLAN 200 has overlay vxlan, and this switch is a VTEP for it\n") {
			t.Errorf("script lacks the section naming VLAN 200:\n%s", script)
		}
		var parsed []map[string]any
		if err := yaml.Unmarshal([]byte(doc), &parsed); err != nil {
			t.Fatalf("YAML does not parse: %v", err)
		}
		set := parsed[0]["set"]
		if got := lookup(t, set, "nve", "vxlan", "encapsulation", "dscp", "action"); got != "copy" {
			t.Errorf("encapsulation dscp action = %#v, want copy", got)
		}
		if got := lookup(t, set, "nve", "vxlan", "decapsulation", "dscp", "action"); got != "preserve" {
			t.Errorf("decapsulation dscp action = %#v, want preserve", got)
		}
	})
	for name, mutate := range map[string]func(*model.Fabric){
		"no overlay": nil,
		// VLAN 300 has the overlay, but no port of leaf01 carries it.
		"overlay VLAN not carried": func(f *model.Fabric) {
			f.VLANs = append(f.VLANs, model.VLAN{ID: 300, Overlay: model.OverlayVXLAN})
		},
	} {
		t.Run(name, func(t *testing.T) {
			script, doc := render(t, mutate)
			if strings.Contains(script, "nv set nve") || strings.Contains(doc, "nve:") {
				t.Errorf("a switch that is no VTEP got VXLAN settings:\n%s", script)
			}
		})
	}
}
