package plan

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// windowsHost adds a Windows host on leaf1:swp3 to the base fabric.
const windowsHost = `
host "w1" {
  os         = "windows"
  os_version = "2022"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "Ethernet 4"
    speed     = "100G"
    mtu       = 9000
    addresses = ["10.0.10.13/24"]
  }
}

link {
  a      = "leaf1:swp3"
  b      = "w1:roce0"
  length = 2
}
`

// withWindows is the base fabric with w1 and its port.
func withWindows(t *testing.T) string {
	return edit(t, baseHCL(t), "  port \"swp2\" {", "  port \"swp3\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [10]\n  }\n\n  port \"swp2\" {") + windowsHost
}

// TestPlanImpact: changes that may interrupt traffic while applied are
// marked per device, with the platform's public statement (NVIDIA's for
// Cumulus Linux) or the lack of one, and counted in the summary; a change
// that interrupts nothing (ETS weights) is not.
func TestPlanImpact(t *testing.T) {
	cumulus := " (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)"
	onyx := func(t *testing.T) string {
		return edit(t, baseHCL(t), `platform   = "cumulus"`, `platform   = "onyx"`, `os_version = "5.9.2"`, `os_version = "3.10.4206"`,
			`"swp1"`, `"1/1"`, `"swp2"`, `"1/2"`, `leaf1:swp1`, `leaf1:1/1`, `leaf1:swp2`, `leaf1:1/2`)
	}
	twoVLANs := func(t *testing.T) string {
		return edit(t, baseHCL(t), "vlan \"compute\" {\n  id = 10\n}", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"storage\" {\n  id = 20\n}",
			"mode  = \"trunk\"\n    vlans = [10]", "mode  = \"trunk\"\n    vlans = [10, 20]")
	}
	tests := []struct {
		name    string
		base    func(t *testing.T) string
		edits   []string
		device  string
		want    []string // the device's impact lines
		summary string
	}{
		{"speed change on Cumulus: buffer and link", baseHCL, []string{"port \"swp1\" {\n    speed = \"100G\"", "port \"swp1\" {\n    speed = \"50G\"",
			"speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]", "speed     = \"50G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]"}, "leaf1", []string{
			"impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on swp1): momentary packet loss on the whole switch possible" + cumulus,
			"impact: link flap on swp1 (speed 100G -> 50G, lanes 4 -> 2): the link goes down and trains again at both ends",
		}, `Fabric "plan-test": 2 devices change (leaf1, h1); 1 switch with disruptive changes.`},
		{"PFC priorities on Cumulus", baseHCL, []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    priorities = [4]\n    dscp       = [26, 24, 25, 27, 28, 29, 30, 31, 32]\n  }\n"}, "leaf1", []string{
			"impact: reprograms the buffer (priority-group or queue reservations change on 2 ports (swp1, swp2), pool sizes stay): momentary packet loss on the whole switch possible" + cumulus,
			"impact: PFC priorities change on 2 ports (swp1, swp2): momentary packet loss possible" + cumulus,
		}, `Fabric "plan-test": 3 devices change (leaf1, h1, h2); 3 fabric-wide changes; 1 switch and 2 hosts with disruptive changes.`},
		{"PFC priorities on a Linux ConnectX-6 Dx: link flap", baseHCL, []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    priorities = [4]\n    dscp       = [26, 24, 25, 27, 28, 29, 30, 31, 32]\n  }\n"}, "h1", []string{
			"impact: link flap on roce0 (PFC 3 -> 3, 4): the mlx5 driver takes the link down and up once when the script sets the new PFC priorities, and the RDMA connections through it reset (Linux mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc)",
		}, `Fabric "plan-test": 3 devices change (leaf1, h1, h2); 3 fabric-wide changes; 1 switch and 2 hosts with disruptive changes.`},
		{"speed change on Onyx: no public statement", onyx, []string{"port \"1/1\" {\n    speed = \"100G\"", "port \"1/1\" {\n    speed = \"50G\"",
			"speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]", "speed     = \"50G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]"}, "leaf1", []string{
			"impact: re-carves the shared buffer (pool sizes change): no public NVIDIA Onyx statement was found on whether this interrupts traffic; plan it for a maintenance window",
			"impact: link flap on 1/1 (speed 100G -> 50G, lanes 4 -> 2): the link goes down and trains again at both ends",
		}, `Fabric "plan-test": 2 devices change (leaf1, h1); 1 switch with disruptive changes.`},
		{"ETS weights: nothing disruptive", baseHCL, []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    bandwidth = 60\n  }\n\n  class \"default\" {\n    bandwidth = 40\n  }\n"}, "leaf1", nil,
			`Fabric "plan-test": 3 devices change (leaf1, h1, h2); 2 fabric-wide changes.`},
		{"trunk narrowed: VLAN impact", twoVLANs, []string{"vlans = [10, 20]", "vlans = [10]"}, "leaf1", []string{
			"impact: swp2: no longer carries VLAN 20: its traffic through the port stops",
		}, `Fabric "plan-test": 1 device changes (leaf1); 1 switch with disruptive changes.`},
		{"trunk widened: nothing disruptive", twoVLANs, []string{"vlans = [10, 20]", "vlans = [10, 20, 30]", "id = 20\n}", "id = 20\n}\n\nvlan \"backup\" {\n  id = 30\n}"}, "leaf1", nil,
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.`},
		{"access port made a trunk: VLAN impact", baseHCL, []string{"mode  = \"access\"\n    vlans = [10]", "mode  = \"trunk\"\n    vlans = [10]\n    native_vlan = 10"}, "leaf1", []string{
			"impact: swp1: switchport mode access -> trunk: the VLAN membership is replaced, and traffic through the port stops until the new mode and VLANs are set",
		}, `Fabric "plan-test": 1 device changes (leaf1); 1 switch with disruptive changes.`},
		{"Windows MTU: adapter restart", withWindows, []string{"mtu       = 9000\n    addresses = [\"10.0.10.13/24\"]", "mtu       = 4200\n    addresses = [\"10.0.10.13/24\"]"}, "w1", []string{
			"impact: the script restarts the adapter of roce0 (MTU 9000 -> 4200): its link goes down once and the connections through it are interrupted",
		}, `Fabric "plan-test": 1 device changes (w1); 1 host with disruptive changes.`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base(t)
			p := Compare(compileHCL(t, base), compileHCL(t, edit(t, base, tc.edits...)))
			if got := summary(p); got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
			var got, kinds []string
			for _, d := range p.Devices {
				if d.Name == tc.device {
					got = deviceTail(d)
					for _, i := range d.Impact {
						kinds = append(kinds, i.Kind)
					}
				}
			}
			// The JSON's impact list has one entry of each kind.
			if want := impactKinds(tc.want); strings.Join(kinds, ",") != want {
				t.Errorf("impact kinds %v, want %s", kinds, want)
			}
			var impacts []string
			for _, l := range got {
				if strings.HasPrefix(l, "impact: ") {
					impacts = append(impacts, l)
				}
			}
			if strings.Join(impacts, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("impact of %s:\n%s\nwant:\n%s", tc.device, strings.Join(impacts, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// impactKinds is the kinds the impact lines name, in order.
func impactKinds(lines []string) string {
	var out []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "impact: re-carves"), strings.HasPrefix(l, "impact: reprograms the buffer"):
			out = append(out, "buffer")
		case strings.HasPrefix(l, "impact: link flap"):
			out = append(out, "link")
		case strings.HasPrefix(l, "impact: PFC"):
			out = append(out, "pfc")
		case strings.Contains(l, ": no longer carries VLAN"), strings.Contains(l, ": switchport mode "):
			out = append(out, "vlan")
		case strings.HasPrefix(l, "impact: the script restarts"):
			out = append(out, "adapter-restart")
		}
	}
	return strings.Join(out, ",")
}

// TestLinuxPFCImpact: only an mlx5 NIC (ConnectX-4 and later) whose PFC
// priorities change flaps; ConnectX-3 (mlx4) and QLogic set PFC without
// a toggle that fabricc knows of, and an unchanged set sends nothing.
func TestLinuxPFCImpact(t *testing.T) {
	host := func(nicModel, vendor string, pfc ...int) *model.Host {
		return &model.Host{Name: "h", OS: model.OSLinux, NICs: []model.NIC{{Name: "roce0", Model: nicModel, Vendor: vendor, RoCE: model.RoCE{PFCPriorities: pfc}}}}
	}
	tests := []struct {
		name   string
		a, b   *model.Host
		impact bool
	}{
		{"ConnectX-6 Dx, 3 -> 4", host("ConnectX-6 Dx", "mellanox", 3), host("ConnectX-6 Dx", "mellanox", 4), true},
		{"ConnectX-4 Lx, none -> 3", host("ConnectX-4 Lx", "mellanox"), host("ConnectX-4 Lx", "mellanox", 3), true},
		{"ConnectX-6 Dx, unchanged", host("ConnectX-6 Dx", "mellanox", 3), host("ConnectX-6 Dx", "mellanox", 3), false},
		{"ConnectX-3 Pro (mlx4), 3 -> 4", host("ConnectX-3 Pro", "mellanox", 3), host("ConnectX-3 Pro", "mellanox", 4), false},
		{"QLogic, 3 -> 4", host("QL45212", "qlogic", 3), host("QL45212", "qlogic", 4), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := hostImpact(tc.a, tc.b)
			if (len(got) > 0) != tc.impact {
				t.Errorf("impact %v, want one: %v", got, tc.impact)
			}
			if tc.impact && (got[0].Kind != "link" || len(got[0].Subjects) != 1 || got[0].Subjects[0] != "roce0") {
				t.Errorf("impact %+v, want kind link on roce0", got[0])
			}
		})
	}
}
