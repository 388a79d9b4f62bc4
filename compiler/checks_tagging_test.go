package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// taggingFabric is one Cumulus port cabled to one Linux NIC; PORT holds
// the port's mode and VLAN lines and NIC the NIC's extra lines.
const taggingFabric = `fabric "r" {}
qos {
  profile = "nvidia-roce"
}
vlan "s" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    PORT
  }
}
host "srv1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    addresses = ["10.0.0.1/24"]
    NIC
  }
}
link {
  a      = "leaf1:swp1"
  b      = "srv1:roce0"
  length = 2
}
vlan "t" {
  id = 200
}
`

// checkSrc lowers src, runs physics and the checks, and returns the
// errors in the compact form of lowerSrc; lowering and physics must be
// clean.
func checkSrc(t *testing.T, src string) []string {
	t.Helper()
	f, s, diags := lowerSrc(t, src)
	if len(diags) > 0 {
		t.Fatalf("lower: %v", diags)
	}
	if d := applyPhysics(f, s); d.HasErrors() {
		t.Fatalf("physics: %v", d)
	}
	return compactDiags(errorsOnly(check(f, s)))
}

// access is the port lines of an access port in VLAN 100.
const access = "mode  = \"access\"\n    vlans = [100]"

// TestPCPTrustUntagged: a port that classifies a NIC's RoCE by PCP while
// the NIC sends it untagged.
func TestPCPTrustUntagged(t *testing.T) {
	for _, tc := range []struct {
		name, port, nic string
		want            []string
	}{
		{"RoCE v2, DSCP trust", access, "", nil},
		{"RoCE v1 untagged, PCP by default", access, `roce_mode = "v1"`, []string{
			`19:3: PCP trust toward untagged NIC: srv1:roce0 sends RoCE untagged (it has no vlan), but switch port leaf1:swp1 trusts pcp (the default toward a RoCE v1 NIC, not written). An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the port puts the NIC's RoCE in its default priority 0 instead of priority 3; priority 0 has no PFC, so RoCE would be dropped under congestion. Give the NIC a vlan that the port carries tagged (mode = "trunk" with that VLAN in vlans), or use roce_mode = "v2" with trust = "dscp" on both ends.`,
			`  note 11:3: leaf1:swp1 trust pcp`,
			`  note 23:17: srv1:roce0 roce_mode v1`,
		}},
		{"PCP trust written on both ends", access + "\n    trust = \"pcp\"", `trust = "pcp"`, []string{
			`20:3: PCP trust toward untagged NIC: srv1:roce0 sends RoCE untagged (it has no vlan), but switch port leaf1:swp1 trusts pcp. An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the port puts the NIC's RoCE in its default priority 0 instead of priority 3; priority 0 has no PFC, so RoCE would be dropped under congestion. Give the NIC a vlan that the port carries tagged (mode = "trunk" with that VLAN in vlans), or use trust = "dscp" on both ends.`,
			`  note 15:13: leaf1:swp1 trust pcp`,
		}},
		{"trust both toward untagged RoCE v1", access + "\n    trust = \"both\"", "roce_mode = \"v1\"\n    trust     = \"both\"", []string{
			`20:3: PCP trust toward untagged NIC: srv1:roce0 sends RoCE untagged (it has no vlan), but switch port leaf1:swp1 trusts both (DSCP for IP packets, PCP for the rest, and RoCE v1 has no IP header). An untagged frame carries no PCP (PCP is a field of the 802.1Q VLAN tag), so the port puts the NIC's RoCE in its default priority 0 instead of priority 3; priority 0 has no PFC, so RoCE would be dropped under congestion. Give the NIC a vlan that the port carries tagged (mode = "trunk" with that VLAN in vlans), or use roce_mode = "v2" with trust = "dscp" on both ends.`,
			`  note 15:13: leaf1:swp1 trust both`,
			`  note 24:17: srv1:roce0 roce_mode v1`,
		}},
		// RoCE v2 is an IP packet: trust both classifies it by DSCP.
		{"trust both toward untagged RoCE v2", access + "\n    trust = \"both\"", `trust = "both"`, nil},
		{"RoCE v1 tagged on a trunk", "mode  = \"trunk\"\n    vlans = [100]", "roce_mode = \"v1\"\n    vlan      = 100", nil},
		// Trusts that differ are the trust mismatch, reported alone.
		{"PCP trust on the port only", access + "\n    trust = \"pcp\"", "", []string{
			`20:3: Link trust mismatch: srv1:roce0 trusts dscp but its switch port leaf1:swp1 trusts pcp; the two ends classify the same packets into different priorities. Use the same trust on both ends.`,
			`  note 15:13: leaf1:swp1 trust pcp`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkSrc(t, strings.NewReplacer("PORT", tc.port, "NIC", tc.nic).Replace(taggingFabric))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestTagging: a NIC's tagging against what its switch port sends and
// takes (access and native VLANs untagged, other trunk VLANs tagged).
func TestTagging(t *testing.T) {
	const trunk = "mode  = \"trunk\"\n    vlans = [100]"
	for _, tc := range []struct {
		name, port, nic string
		want            []string
	}{
		{"untagged on access", access, "", nil},
		{"tagged on trunk", trunk, "vlan      = 100", nil},
		{"untagged on trunk with native VLAN", trunk + "\n    native_vlan = 100", "", nil},
		{"untagged on trunk without native VLAN", trunk, "", []string{
			`19:3: Untagged NIC on trunk port without native VLAN: srv1:roce0 sends untagged frames (it has no vlan), but switch port leaf1:swp1 is a trunk without native_vlan, which forwards only frames tagged with VLANs 100 and drops every frame the NIC sends. Give the NIC a vlan the trunk carries (100), or give the port a native_vlan for the NIC's untagged frames.`,
			`  note 14:13: leaf1:swp1 trunk VLANs 100, no native_vlan`,
		}},
		{"tagged on access port", access, "vlan      = 100", []string{
			`23:17: Tagged NIC on untagged VLAN: srv1:roce0 tags its traffic with VLAN 100, but switch port leaf1:swp1 sends VLAN 100 untagged (an access port), so the switch's frames reach the NIC without a tag and the host does not deliver them to its VLAN 100 interface: address resolution and RDMA connections fail. Remove the NIC's vlan, or make the port mode = "trunk" with vlans = [100].`,
			`  note 13:13: leaf1:swp1 sends VLAN 100 untagged`,
		}},
		{"tagged with the native VLAN", trunk + "\n    native_vlan = 100", "vlan      = 100", []string{
			`24:17: Tagged NIC on untagged VLAN: srv1:roce0 tags its traffic with VLAN 100, but switch port leaf1:swp1 sends VLAN 100 untagged (a trunk whose native_vlan it is), so the switch's frames reach the NIC without a tag and the host does not deliver them to its VLAN 100 interface: address resolution and RDMA connections fail. Remove the NIC's vlan, or remove native_vlan from the port so that it carries VLAN 100 tagged.`,
			`  note 15:19: leaf1:swp1 sends VLAN 100 untagged`,
		}},
		{"other VLAN on access port", access, "vlan      = 200", []string{
			`23:17: VLAN not allowed on switch port: srv1:roce0 tags its traffic with VLAN 200, but switch port leaf1:swp1 (access) carries VLANs 100. An access port carries one VLAN, untagged: remove the NIC's vlan to send untagged frames into VLAN 100, or make the port mode = "trunk" with VLAN 200 in its vlans.`,
			`  note 14:13: leaf1:swp1 VLANs 100`,
		}},
		{"other VLAN on trunk", trunk, "vlan      = 200", []string{
			`23:17: VLAN not allowed on switch port: srv1:roce0 tags its traffic with VLAN 200, but switch port leaf1:swp1 (trunk) carries VLANs 100. Add VLAN 200 to the port's vlans or change the NIC's vlan.`,
			`  note 14:13: leaf1:swp1 VLANs 100`,
		}},
		{"tagged on routed port", "mode  = \"routed\"", "vlan      = 100", []string{
			`22:17: VLAN not allowed on switch port: srv1:roce0 tags its traffic with VLAN 100, but switch port leaf1:swp1 (routed) carries VLANs none. A routed port carries no VLAN: remove the NIC's vlan, or make the port mode = "trunk" with VLAN 100 in its vlans.`,
			`  note 11:3: leaf1:swp1 VLANs none`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkSrc(t, strings.NewReplacer("PORT", tc.port, "NIC", tc.nic).Replace(taggingFabric))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
