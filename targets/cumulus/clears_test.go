package cumulus

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestClearsComeFirst: before any port is written, the script unsets the
// per-port objects a patch or `nv set` only adds to (NVUE merges: NVUE
// Command Reference, Config Commands), each once for all the ports it
// concerns; the YAML lists the same unsets in its header, which push
// runs before the patch. What a port's mode does not use of the bridge
// is cleared; what the release does not know is not named. An
// operator's egress scheduler or congestion control profile on a fabric
// port is detached, since it overrides the default-global fabricc
// writes (rmig #2).
func TestClearsComeFirst(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(f *model.Fabric)
		want   []string
	}{
		{"trunks", nil, []string{
			"nv unset qos traffic-pool default-lossless switch-priority",
			"nv unset qos traffic-pool default-lossy switch-priority",
			"nv unset qos advance-buffer-config default-global egress-pool 1 memory-percent",
			"nv unset qos pfc default-global",
			"nv unset qos pfc pfc-sp3-100g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-25g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-100g-30m switch-priority",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 description",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 link state",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos pfc",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos mapping",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos link-pause",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos pfc-watchdog",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos egress-scheduler",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos congestion-control",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 lldp dcbx-pfc-tlv",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 bridge domain br_default access",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 bridge domain br_default vlan",
		}},
		{"access and routed ports", func(f *model.Fabric) {
			ps := f.Switches[0].Ports
			ps[0].Mode, ps[0].AccessVLAN, ps[0].TrunkVLANs, ps[0].NativeVLAN = model.ModeAccess, 200, nil, 0
			ps[3].Mode, ps[3].TrunkVLANs, ps[3].NativeVLAN = model.ModeRouted, nil, 0
		}, []string{
			"nv unset qos traffic-pool default-lossless switch-priority",
			"nv unset qos traffic-pool default-lossy switch-priority",
			"nv unset qos advance-buffer-config default-global egress-pool 1 memory-percent",
			"nv unset qos pfc default-global",
			"nv unset qos pfc pfc-sp3-100g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-25g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-100g-30m switch-priority",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 description",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 link state",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos pfc",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos mapping",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos link-pause",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos pfc-watchdog",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos egress-scheduler",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos congestion-control",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 lldp dcbx-pfc-tlv",
			"nv unset interface swp1 bridge domain br_default vlan",
			"nv unset interface swp1 bridge domain br_default untagged",
			"nv unset interface swp2,swp3,swp32 bridge domain br_default access",
			"nv unset interface swp2,swp3,swp32 bridge domain br_default vlan",
			"nv unset interface swp31 bridge domain",
		}},
		{"5.4 has the egress-scheduler and congestion-control attachments, no pfc-watchdog", func(f *model.Fabric) {
			f.Switches[0].OSVersion = "5.4.0"
		}, []string{
			"nv unset qos traffic-pool default-lossless switch-priority",
			"nv unset qos traffic-pool default-lossy switch-priority",
			"nv unset qos advance-buffer-config default-global egress-pool 1 memory-percent",
			"nv unset qos pfc default-global",
			"nv unset qos pfc pfc-sp3-100g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-25g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-100g-30m switch-priority",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 description",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 link state",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos pfc",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos mapping",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos link-pause",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos egress-scheduler",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos congestion-control",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 lldp dcbx-pfc-tlv",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 bridge domain br_default access",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 bridge domain br_default vlan",
		}},
		{"5.3 has no link-pause, pfc-watchdog, egress-scheduler or congestion-control per interface", func(f *model.Fabric) {
			f.Switches[0].OSVersion = "5.3.0"
		}, []string{
			"nv unset qos traffic-pool default-lossless switch-priority",
			"nv unset qos traffic-pool default-lossy switch-priority",
			"nv unset qos pfc default-global",
			"nv unset qos pfc pfc-sp3-100g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-25g-3m switch-priority",
			"nv unset qos pfc pfc-sp3-100g-30m switch-priority",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 description",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 link state",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos pfc",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 qos mapping",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 lldp dcbx-pfc-tlv",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 bridge domain br_default access",
			"nv unset interface swp1,swp2,swp3,swp31,swp32 bridge domain br_default vlan",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script, doc := render(t, tc.mutate)
			var unsets []string
			firstPort := -1
			for i, l := range strings.Split(script, "\n") {
				if strings.HasPrefix(l, "nv unset ") {
					if firstPort >= 0 {
						t.Errorf("line %d unsets after a port was set: %s", i+1, l)
					}
					unsets = append(unsets, l)
				}
				if strings.HasPrefix(l, "nv set interface ") && firstPort < 0 {
					firstPort = i
				}
			}
			if strings.Join(unsets, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("script unsets:\n%s\nwant:\n%s", strings.Join(unsets, "\n"), strings.Join(tc.want, "\n"))
			}
			var listed []string
			for _, l := range strings.Split(doc, "\n") {
				if p, ok := strings.CutPrefix(l, UnsetPrefix); ok {
					listed = append(listed, "nv unset "+p)
				}
			}
			if strings.Join(listed, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("YAML header lists:\n%s\nwant:\n%s", strings.Join(listed, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
