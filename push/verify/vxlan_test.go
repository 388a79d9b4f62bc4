package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// The difference lines of a VTEP whose VXLAN tunnel DSCP actions are not
// the ones targets/cumulus writes, as verify prints them.
const (
	encapDerive = "sw1 (switch-wide) nve vxlan encapsulation dscp action: intended copy (the underlay classifies a VXLAN packet by its outer DSCP alone, " +
		"and only copy makes that the host's DSCP; derive, NVUE's default, takes it from the switch priority, so RoCE can lose its lossless class across the overlay), actual derive"
	decapCopy = "sw1 (switch-wide) nve vxlan decapsulation dscp action: intended preserve (the far VTEP then hands the receiving host RoCE with the DSCP its sender set, " +
		"by which a NIC that trusts DSCP picks its lossless priority; derive, NVUE's default, rewrites the inner DSCP from the switch priority), actual copy"
)

// TestNVUEVXLANDSCP: on a Cumulus switch that is a VTEP (it carries a
// VLAN with overlay "vxlan"), verify reads `nve vxlan encapsulation|
// decapsulation dscp action` from `nv config show -o json` and reports
// an action other than copy and preserve, naming the switch, the path,
// both values and why RoCE needs the intended one; an action left unset
// is NVUE's default, derive (Cumulus Linux user guide, VXLAN Tunnel DSCP
// Operations). On a switch that is no VTEP any action is silent.
func TestNVUEVXLANDSCP(t *testing.T) {
	const keep = `"nve": {"vxlan": {"encapsulation": {"dscp": {"action": "copy"}}, "decapsulation": {"dscp": {"action": "preserve"}}}},`
	const derive = `"nve": {"vxlan": {"encapsulation": {"dscp": {"action": "derive"}}, "decapsulation": {"dscp": {"action": "preserve"}}}},`
	const decapCopied = `"nve": {"vxlan": {"encapsulation": {"dscp": {"action": "copy"}}, "decapsulation": {"dscp": {"action": "copy"}}}},`
	const encapSet = `"nve": {"vxlan": {"encapsulation": {"dscp": {"action": "set", "value": 26}}, "decapsulation": {"dscp": {"action": "preserve"}}}},`
	unset := []string{
		strings.Replace(encapDerive, "actual derive", "actual derive (not set: NVUE's default)", 1),
		strings.Replace(decapCopy, "actual copy", "actual derive (not set: NVUE's default)", 1),
	}
	for _, tc := range []struct {
		name    string
		nve     string
		overlay int // the VLAN with overlay "vxlan"; 100 is the port's
		want    []string
	}{
		{"VTEP with copy and preserve", keep, 100, nil},
		{"VTEP with derive set by hand", derive, 100, []string{encapDerive}},
		{"VTEP with decapsulation copy", decapCopied, 100, []string{decapCopy}},
		{"VTEP with a set outer DSCP", encapSet, 100, []string{strings.Replace(encapDerive, "actual derive", "actual set", 1)}},
		{"VTEP with neither set", "", 100, unset},
		{"no VTEP: derive set", derive, 0, nil},
		{"no VTEP: neither set", "", 0, nil},
		{"no VTEP: the overlay VLAN is not on its ports", derive, 200, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sw := fabric("swp1")
			sw.Platform = model.PlatformCumulus
			switch tc.overlay {
			case 100:
				f.VLANs[0].Overlay = model.OverlayVXLAN
			case 200: // in the fabric, on none of the switch's ports
				f.VLANs = append(f.VLANs, model.VLAN{ID: 200, Name: "other", Overlay: model.OverlayVXLAN})
			}
			doc := strings.Replace(nvueJSON, `"qos": {`, tc.nve+`"qos": {`, 1)
			if tc.nve != "" && doc == nvueJSON {
				t.Fatal("the fixture did not change")
			}
			got, err := ParseNVUE([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, d := range Compare("sw1", Expect(f, sw), got) {
				if d.Field != "VLAN 200" { // the fixture has no VLAN 200: not the point here
					lines = append(lines, d.String())
				}
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("differences\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestVXLANDSCPOtherPlatforms: fabricc writes no tunnel DSCP action on
// EOS or Onyx (the VTEP's `interface Vxlan1` and Onyx's NVE are the
// operator's), so Expect wants none there, and an NVUE read-back always
// holds the actions to compare, the unset ones missing.
func TestVXLANDSCPOtherPlatforms(t *testing.T) {
	f, sw := fabric("Ethernet1")
	f.VLANs[0].Overlay = model.OverlayVXLAN
	for _, p := range []model.Platform{model.PlatformEOS, model.PlatformOnyx} {
		sw.Platform = p
		if w := Expect(f, sw).VXLANDSCP; w != nil {
			t.Errorf("%s VTEP: intended tunnel DSCP actions %v, want none", p, w)
		}
	}
	sw.Platform = model.PlatformCumulus
	want := map[string]string{"nve vxlan encapsulation dscp action": "copy", "nve vxlan decapsulation dscp action": "preserve"}
	if w := Expect(f, sw).VXLANDSCP; len(w) != 2 || w["nve vxlan encapsulation dscp action"] != "copy" || w["nve vxlan decapsulation dscp action"] != "preserve" {
		t.Errorf("cumulus VTEP: intended %v, want %v", w, want)
	}
	got, err := ParseNVUE([]byte(nvueJSON))
	if err != nil {
		t.Fatal(err)
	}
	if got.VXLANDSCP == nil || len(got.VXLANDSCP) != 0 {
		t.Errorf("NVUE read-back without nve: %#v, want an empty map", got.VXLANDSCP)
	}
}
