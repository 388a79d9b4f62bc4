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
