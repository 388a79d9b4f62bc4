package cumulus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConfigShowGroups: the grouping of the NVUE Command Reference's
// `nv config show` example (Cumulus Linux 5.7.0: "bond1" beside
// "bond1-3") and NVIDIA Air's exported switch configuration (Cumulus
// Linux 5.15.0: "swp2,6", VLANs "10,20,30,40").
func TestConfigShowGroups(t *testing.T) {
	bond := func(extra tree) tree {
		b := tree{"bond": tree{"lacp-bypass": "on", "mlag": tree{"enable": "on"}}, "link": tree{"mtu": 9000}, "type": "bond"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	access := func() tree { return tree{"bridge": tree{"domain": tree{"br_default": tree{"access": 10}}}} }
	in := tree{
		"bridge": tree{"domain": tree{"br_default": tree{"untagged": 1, "vlan": tree{"10": tree{}, "20": tree{}, "30": tree{}, "40": tree{}}}}},
		"interface": tree{
			"bond1": bond(tree{"bridge": tree{"domain": tree{"br_default": tree{"access": 10}}}}),
			"bond2": bond(nil), "bond3": bond(nil),
			"swp2": access(), "swp6": access(), "lo": tree{},
		},
	}
	want := tree{
		"bridge": tree{"domain": tree{"br_default": tree{"untagged": 1, "vlan": tree{"10,20,30,40": tree{}}}}},
		"interface": tree{
			"bond1-3":      tree{"bond": tree{"lacp-bypass": "on", "mlag": tree{"enable": "on"}}, "link": tree{"mtu": 9000}, "type": "bond"},
			"bond1,swp2,6": access(),
			"lo":           tree{},
		},
	}
	if d := cmp.Diff(want, configShow(in)); d != "" {
		t.Errorf("config show (-want +got):\n%s", d)
	}
	if in["interface"].(tree)["bond1"] == nil {
		t.Error("configShow changed the applied configuration")
	}
	for names, want := range map[string]string{"swp1 swp2 swp3 swp4 swp6": "swp1-4,6", "swp1s0 swp1s1": "swp1s0-1", "swp01 swp2": "swp2,swp01"} {
		if got := listNames(strings.Fields(names)); got != want {
			t.Errorf("listNames(%s) = %q, want %q", names, got, want)
		}
	}
}
