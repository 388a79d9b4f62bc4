package plan

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// routedHCL is a leaf with routed ports and three Linux hosts on them,
// each NIC a /31 whose other address is the leaf's (RFC 3021), and r3's
// a /32 that reaches the leaf by its IPv6 link-local address (RFC 5549).
// Each host's script routes the other NICs' subnets through its own NIC
// (model.NICRoute.Prefixes).
const routedHCL = `fabric "routed" {}

qos {
  profile = "nvidia-roce"
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1-3" {
    speed = "100G"
    mode  = "routed"
  }
}

host "r1" {
  os = "linux"

  nic "rail1" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9216
    addresses = ["10.30.0.1/31"]
  }
}

host "r2" {
  os = "linux"

  nic "rail1" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9216
    addresses = ["10.30.0.3/31"]
  }
}

host "r3" {
  os = "linux"

  nic "rail1" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9216
    addresses = ["10.30.9.1/32"]
    gateway   = "fe80::1"
  }
}

link {
  a      = "leaf1:swp1"
  b      = "r1:rail1"
  length = 3
}

link {
  a      = "leaf1:swp2"
  b      = "r2:rail1"
  length = 3
}

link {
  a      = "leaf1:swp3"
  b      = "r3:rail1"
  length = 3
}
`

// withoutRoutedHost removes host name and its link to leaf1's port.
func withoutRoutedHost(t *testing.T, name, port string) string {
	t.Helper()
	return withoutHost(t, routedHCL, name, port)
}

// TestPlanNICRoutes: the plan compares what a routed NIC's script
// writes from the model: its gateway, its own table's route and the
// main-table prefixes the compiler derives from the other NICs of its
// rail. A gateway change alone changes the host's script; removing a
// host changes the scripts of the hosts whose prefixes held its subnet,
// named as the cause, each with the command that deletes the route an
// earlier run wrote to the prefix that goes (ip-route(8)).
func TestPlanNICRoutes(t *testing.T) {
	for _, tc := range []struct {
		name string
		head string
		want []string
	}{
		{"gateway", edit(t, routedHCL, `gateway   = "fe80::1"`, `gateway   = "fe80::2"`), []string{
			"Fabric \"routed\": 1 device changes (r3).\nHosts to run their script: 1 (r3).\n",
			"r3 (host)\n" +
				"  rail1: gateway fe80::1 -> fe80::2, so route via fe80::1 from 10.30.9.1 (table 1001, rule 1001) -> via fe80::2 from 10.30.9.1 (table 1001, rule 1001)\n" +
				"  script changes: run it\n",
		}},
		{"host removed", withoutRoutedHost(t, "r2", "swp2"), []string{
			"Hosts to run their script: 2 (r1, r3).\n",
			// 10.30.0.0/30 held r1's and r2's /31s; r1's own subnet
			// needs no route of the main table's.
			"r1 (host)\n" +
				"  rail1: main routes 10.30.0.0/30, 10.30.9.1/32 -> 10.30.9.1/32 (if the main table still routes 10.30.0.0/30 here once the script ran, delete it: ip -4 route del 10.30.0.0/30 dev ens1f0np0), because of the subnets on its rail: host r2 removed\n" +
				"  script changes: run it\n",
			"r3 (host)\n" +
				"  rail1: main routes 10.30.0.0/30 -> 10.30.0.0/31 (if the main table still routes 10.30.0.0/30 here once the script ran, delete it: ip -4 route del 10.30.0.0/30 dev ens1f0np0), because of the subnets on its rail: host r2 removed\n" +
				"  script changes: run it\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := planText(t, routedHCL, tc.head)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("plan lacks\n%s\nin:\n%s", w, got)
				}
			}
		})
	}
}

// TestPlanRemovedRoutedLeftovers: a routed NIC that no script sets any
// more keeps its rule, its table's route and its main-table routes
// (ip-rule(8), ip-route(8): they stay until deleted), and the plan's
// note lists them with the commands, ahead of the address (deleting an
// interface's last address drops its routes but not the rule). On a
// removed host no script runs again, so they stay; on a host that stays,
// its script runs again, and the note gives the commands for what is
// still there after that.
func TestPlanRemovedRoutedLeftovers(t *testing.T) {
	const keep = "PFC 3, trust dscp, RoCE ToS 106, global traffic class 106, MTU 9216"
	const roce = "set default_roce_tos of its RDMA device back to 0 (configfs rdma_cm, /sys/kernel/config/rdma_cm/<device>/ports/1/default_roce_tos; rdma link show names the device of "
	t.Run("host removed", func(t *testing.T) {
		want := "  rail1: removed: ConnectX-6 Dx 100G, to leaf1:swp2 (no script of the fabric sets ens1f0np0 any more, so its " + keep +
			", address 10.30.0.3/31, rule 1001, routing table 1001 and main routes 10.30.0.0/30, 10.30.9.1/32 stay; clear them on the host: " +
			"mlnx_qos -i ens1f0np0 --pfc 0,0,0,0,0,0,0,0 --trust pcp; ip -4 rule del priority 1001; ip -4 route flush table 1001; " +
			"ip -4 route del 10.30.0.0/30 dev ens1f0np0; ip -4 route del 10.30.9.1/32 dev ens1f0np0; ip addr del 10.30.0.3/31 dev ens1f0np0; " +
			"ip link set dev ens1f0np0 mtu 1500; " + roce + "ens1f0np0); " + mlnxTClassClear + ")\n"
		want = "r2 (host, removed)\n" +
			"  removed: linux, 1 NIC (its NICs keep the script's settings, and a copy installed with --install re-applies them at every boot: on the host run the previous build's r2.linux.sh --uninstall, " +
			"which disables and removes fabricc-host-settings.service and /usr/local/sbin/fabricc-host-settings and leaves the settings in force; then clear each NIC as below)\n" + want
		if got := hostSection(t, planText(t, routedHCL, withoutRoutedHost(t, "r2", "swp2")), "r2"); got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("NIC removed from a host that stays", func(t *testing.T) {
		rail2 := "\n\n  nic \"rail2\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens2f0np0\"\n    mtu       = 9216\n    addresses = [\"10.30.1.1/31\"]\n  }\n"
		r1 := "    addresses = [\"10.30.0.1/31\"]\n  }\n"
		base := edit(t, routedHCL, `port "swp1-3"`, `port "swp1-4"`, r1, r1+rail2) +
			"\nlink {\n  a      = \"leaf1:swp4\"\n  b      = \"r1:rail2\"\n  length = 3\n}\n"
		head := withoutLink(t, edit(t, base, rail2, "\n"), "swp4")
		want := "r1 (host)\n" +
			"  rail2: removed: ConnectX-6 Dx 100G, to leaf1:swp4 (no script of the fabric sets ens2f0np0 any more, so its " + keep +
			" and address 10.30.1.1/31 stay; clear them on the host: mlnx_qos -i ens2f0np0 --pfc 0,0,0,0,0,0,0,0 --trust pcp; ip addr del 10.30.1.1/31 dev ens2f0np0; " +
			"ip link set dev ens2f0np0 mtu 1500; " + roce + "ens2f0np0); " + mlnxTClassClear +
			"; if its rule 1002 or routing table 1002 are still there once the host's script ran, delete them: ip -4 rule del priority 1002; ip -4 route flush table 1002)\n" +
			"  script changes: run it\n"
		if got := hostSection(t, planText(t, base, head), "r1"); got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	})
}

// overlayHCL is two Cumulus leaves with a host each in access VLAN 100
// and routed uplinks to a spine; OVERLAY is the vlan block's overlay
// line.
const overlayHCL = `fabric "evpn" {}

qos {
  profile = "nvidia-roce"
}

vlan "tenant" {
  id = 100
  OVERLAY
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mode  = "access"
    vlans = [100]
  }

  port "swp31" {
    speed = "100G"
    mode  = "routed"
  }
}

switch "leaf2" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mode  = "access"
    vlans = [100]
  }

  port "swp31" {
    speed = "100G"
    mode  = "routed"
  }
}

switch "spine1" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1-2" {
    speed = "100G"
    mode  = "routed"
  }
}

host "h1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.2.0.1/24"]
  }
}

host "h2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.2.0.2/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "h1:roce0"
  length = 2
}

link {
  a      = "leaf2:swp1"
  b      = "h2:roce0"
  length = 2
}

link {
  a      = "leaf1:swp31"
  b      = "spine1:swp1"
  length = 20
}

link {
  a      = "leaf2:swp31"
  b      = "spine1:swp2"
  length = 20
}
`

// TestPlanVLANOverlay: adding overlay = "vxlan" to a VLAN is a
// fabric-wide change, and each switch that carries the VLAN becomes a
// VTEP for it, which on Cumulus Linux gets the VXLAN DSCP lines
// (targets/cumulus renderVXLANDSCP); the spine, which does not carry
// it, does not change. Before, the plan said "No changes".
func TestPlanVLANOverlay(t *testing.T) {
	base := strings.Replace(overlayHCL, "OVERLAY", "", 1)
	head := strings.Replace(overlayHCL, "OVERLAY", `overlay = "vxlan"`, 1)
	leaf := " (switch)\n  VTEP for VLANs none -> 100 (push writes nv set nve vxlan encapsulation dscp action copy and nv set nve vxlan decapsulation dscp action preserve, " +
		"which keep the host's DSCP in the outer header and the inner one), because of VLAN 100 overlay none -> vxlan\n"
	got := planText(t, base, head)
	for _, w := range []string{
		"Fabric \"evpn\": 2 devices change (leaf1, leaf2); 1 fabric-wide change.\n",
		"fabric-wide\n  VLAN 100: overlay none -> vxlan\n\n",
		"\nleaf1" + leaf, "\nleaf2" + leaf,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("plan lacks\n%s\nin:\n%s", w, got)
		}
	}
	// Taken away again, the leaves are VTEPs no more.
	back := planText(t, head, base)
	if w := "\nleaf1 (switch)\n  VTEP for VLANs 100 -> none, because of VLAN 100 overlay vxlan -> none\n"; !strings.Contains(back, w) {
		t.Errorf("plan lacks\n%s\nin:\n%s", w, back)
	}
}

// TestPlanRouteNotesPerOS: a prefix a Windows host no longer routes is
// removed by its script if the script recorded adding it; for one it did
// not record, the note gives the commands that delete it: Remove-NetRoute
// from both stores New-NetRoute saved it in (Microsoft Learn,
// Remove-NetRoute, -PolicyStore). A FreeBSD host's script removes
// its own fabricc_ rc.conf route and the live route, and the note says so.
func TestPlanRouteNotesPerOS(t *testing.T) {
	base := edit(t, routedHCL, "host \"r1\" {\n  os = \"linux\"", "host \"r1\" {\n  os = \"freebsd\"")
	base = edit(t, base, "    interface = \"ens1f0np0\"\n    mtu       = 9216\n    addresses = [\"10.30.0.1/31\"]", "    interface = \"mce0\"\n    mtu       = 9216\n    addresses = [\"10.30.0.1/31\"]")
	base = edit(t, base, "host \"r2\" {\n  os = \"linux\"", "host \"r2\" {\n  os = \"windows\"")
	base = edit(t, base, "    interface = \"ens1f0np0\"\n    mtu       = 9216\n    addresses = [\"10.30.0.3/31\"]", "    interface = \"SLOT 3 Port 1\"\n    mtu       = 9216\n    addresses = [\"10.30.0.3/31\"]")
	got := planText(t, base, withoutHost(t, base, "r3", "swp3"))
	for _, w := range []string{
		"r1 (host)\n" +
			"  rail1: main routes 10.30.0.0/30, 10.30.9.1/32 -> 10.30.0.0/30 (the script removes its route to 10.30.9.1/32 (the live route and its rc.conf fabricc_ entry) when it runs), because of the subnets on its rail: host r3 removed\n",
		"r2 (host)\n" +
			"  rail1: main routes 10.30.0.0/30, 10.30.9.1/32 -> 10.30.0.0/30 (the script removes the route it recorded adding; if the main table still routes 10.30.9.1/32 here once the script ran, delete it: Remove-NetRoute -InterfaceAlias 'SLOT 3 Port 1' -DestinationPrefix '10.30.9.1/32' -PolicyStore ActiveStore -Confirm:$false; Remove-NetRoute -InterfaceAlias 'SLOT 3 Port 1' -DestinationPrefix '10.30.9.1/32' -PolicyStore PersistentStore -Confirm:$false), because of the subnets on its rail: host r3 removed\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("plan lacks\n%s\nin:\n%s", w, got)
		}
	}
}

// TestWindowsNoteCountsRoutes: the Windows note says "the routes" when
// the head drops more than one prefix, "the route" for one.
func TestWindowsNoteCountsRoutes(t *testing.T) {
	h := &model.Host{Name: "w1", OS: model.OSWindows}
	nic := func(ps ...string) *model.NIC {
		return &model.NIC{Name: "a", Interface: "SLOT 3 Port 1", Route: &model.NICRoute{Gateway: "10.0.0.1", Prefixes: ps}}
	}
	for _, tc := range []struct {
		base []string
		want string
	}{
		{[]string{"10.1.0.0/24", "10.2.0.0/24"}, "the script removes the route it recorded adding; if the main table still routes 10.2.0.0/24 here"},
		{[]string{"10.1.0.0/24", "10.2.0.0/24", "10.3.0.0/24"}, "the script removes the routes it recorded adding; if the main table still routes 10.2.0.0/24 or 10.3.0.0/24 here"},
	} {
		c := prefixChange(h, nic(tc.base...), nic("10.1.0.0/24"))
		if len(c) != 1 || !strings.HasPrefix(c[0].Note, tc.want) {
			t.Errorf("%v -> 10.1.0.0/24: %+v, want a note starting %q", tc.base, c, tc.want)
		}
	}
}
