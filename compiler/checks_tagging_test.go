package compiler

import (
	"fmt"
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
			`20:3: Link trust mismatch: srv1:roce0 trusts dscp (the default, not written) but its switch port leaf1:swp1 trusts pcp; the two ends classify the same packets into different priorities. Use the same trust on both ends: trust = "pcp" in the nic block, or trust = "dscp" in the port block.`,
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
		{"tagged on routed port", "mode  = \"routed\"", "vlan      = 100\n    gateway   = \"10.0.0.254\"", []string{
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

// uplinkFabric is the user's EOS leaf cabled to an Onyx leaf; A and B are
// the mode and VLAN lines of the two uplink ports.
const uplinkFabric = `fabric "mine" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 20
}
vlan "stor" {
  id = 30
}
switch "leafa" {
  platform = "eos"
  model    = "7050SX3-48YC8"
  port "Ethernet49/1" {
    speed = "100G"
    mtu   = 9214
    A
  }
}
switch "leafb" {
  platform = "onyx"
  model    = "SN2410"
  port "1/49" {
    speed = "100G"
    mtu   = 9214
    B
  }
}
link {
  a      = "leafa:Ethernet49/1"
  b      = "leafb:1/49"
  length = 100
  cable  = "fibre"
}
`

// TestSwitchSwitchTagging: two cabled switch ports must send each VLAN
// they both carry the same way, tagged or untagged, besides carrying
// the same VLANs; a mode that differs is named as the mistake.
func TestSwitchSwitchTagging(t *testing.T) {
	const trunk20 = "mode  = \"trunk\"\n    vlans = [20]"
	const trunk2030 = "mode  = \"trunk\"\n    vlans = [20, 30]"
	const access20 = "mode  = \"access\"\n    vlans = [20]"
	untagged := func(at, u, how, tg, there string, note string) []string {
		return []string{
			at + `: Link VLAN tagging mismatch: ` + u + ` sends VLAN 20 untagged (` + how + `) but its link peer ` + tg + ` sends VLAN 20 tagged (a trunk listing it in vlans). The untagged frames reach ` + tg + `, which ` + there + `: VLAN 20 does not cross the link as one VLAN. Send VLAN 20 the same way on both ends: tagged on both (mode = "trunk" with 20 in vlans, not as native_vlan) or untagged on both (mode = "access" with vlans = [20], or native_vlan = 20 on a trunk).`,
			note,
		}
	}
	for _, tc := range []struct {
		name, a, b string
		want       []string
	}{
		{"both trunks", trunk2030, trunk2030, nil},
		{"both access", access20, access20, nil},
		{"both trunks with the same native VLAN", trunk2030 + "\n    native_vlan = 20", trunk2030 + "\n    native_vlan = 20", nil},
		{"native VLAN listed on one end only", trunk2030 + "\n    native_vlan = 20", "mode  = \"trunk\"\n    vlans = [30]\n    native_vlan = 20", nil},
		{"trunk against access", trunk20, access20, untagged("27:13", "leafb:1/49", "an access port in VLAN 20", "leafa:Ethernet49/1", "has no native_vlan, so they are not in VLAN 20 there",
			"  note 18:13: leafa:Ethernet49/1 sends VLAN 20 tagged")},
		// The access end's mode is the mistake: VLAN 30, which only the
		// trunk carries, is not blamed on the lists as well.
		{"two-VLAN trunk against access", trunk2030, access20, untagged("27:13", "leafb:1/49", "an access port in VLAN 20", "leafa:Ethernet49/1", "has no native_vlan, so they are not in VLAN 20 there",
			"  note 18:13: leafa:Ethernet49/1 sends VLAN 20 tagged")},
		{"native VLAN on one trunk only", trunk2030 + "\n    native_vlan = 20", trunk2030, untagged("19:19", "leafa:Ethernet49/1", "a trunk whose native_vlan is 20", "leafb:1/49", "has no native_vlan, so they are not in VLAN 20 there",
			"  note 29:13: leafb:1/49 sends VLAN 20 tagged")},
		{"different native VLANs", trunk2030 + "\n    native_vlan = 20", trunk2030 + "\n    native_vlan = 30", []string{
			untagged("19:19", "leafa:Ethernet49/1", "a trunk whose native_vlan is 20", "leafb:1/49", "puts them in its native VLAN 30", "")[0],
			"  note 29:13: leafb:1/49 sends VLAN 20 tagged",
			`30:19: Link VLAN tagging mismatch: leafb:1/49 sends VLAN 30 untagged (a trunk whose native_vlan is 30) but its link peer leafa:Ethernet49/1 sends VLAN 30 tagged (a trunk listing it in vlans). The untagged frames reach leafa:Ethernet49/1, which puts them in its native VLAN 20: VLAN 30 does not cross the link as one VLAN. Send VLAN 30 the same way on both ends: tagged on both (mode = "trunk" with 30 in vlans, not as native_vlan) or untagged on both (mode = "access" with vlans = [30], or native_vlan = 30 on a trunk).`,
			"  note 18:13: leafa:Ethernet49/1 sends VLAN 30 tagged",
		}},
		{"trunk VLAN lists differ", trunk2030, trunk20, []string{
			`18:13: Link VLAN mismatch: leafa:Ethernet49/1 carries VLANs 20,30 but its link peer leafb:1/49 carries VLAN 20; traffic in a VLAN one end does not carry is dropped. Carry the same VLANs on both ends.`,
			"  note 28:13: leafb:1/49 VLANs 20",
		}},
		{"trunk against routed", trunk20, "mode  = \"routed\"", []string{
			`18:13: Link VLAN mismatch: leafa:Ethernet49/1 carries VLAN 20 but its link peer leafb:1/49 carries no VLAN (a routed port); traffic in a VLAN one end does not carry is dropped. Carry the same VLANs on both ends.`,
			"  note 24:3: leafb:1/49 VLANs none",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkSrc(t, strings.NewReplacer("A", tc.a, "B", tc.b).Replace(uplinkFabric))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestMTUAcrossVendors: the two ends of a link are compared in one unit,
// the IP MTU, converted from each device's own mtu by what it counts
// (model.PortMTU, model.NICMTU). EOS, Onyx and Cumulus Linux all count
// the IP MTU, so EOS 9214 against Onyx 9214 is equal, and on routed
// ports their defaults (9214, 9216) are not; the fix names the value
// both take. Between switchports the EOS mtu limits no bridged frame,
// so the defaults are fine, and only a peer below the EOS end's mtu is
// an error.
func TestMTUAcrossVendors(t *testing.T) {
	trunk := "mode  = \"trunk\"\n    vlans = [20]"
	routed := `mode  = "routed"`
	for _, tc := range []struct {
		name, a, b string
		mtuA, mtuB string // "" leaves the default
		want       []string
	}{
		{"EOS 9214 and Onyx 9214", trunk, trunk, "9214", "9214", nil},
		{"EOS and Onyx default trunks", trunk, trunk, "", "", nil},
		{"two EOS-sized trunks apart", trunk, trunk, "9000", "", nil},
		{"EOS and Onyx default routed ports", routed, routed, "", "", []string{
			`14:3: Link MTU mismatch: leafa:Ethernet49/1 has IP MTU 9214 (the EOS default, not written) but its link peer leafb:1/49 has IP MTU 9216 (the Onyx default, not written); IP packets larger than the smaller MTU are dropped. Set the same IP MTU on both ends: mtu = 9214 on leafb:1/49, the largest both platforms take.`,
			`  note 22:3: leafb:1/49 MTU 9216`,
		}},
		{"routed ports both below the largest", routed, routed, "9000", "8000", []string{
			`16:13: Link MTU mismatch: leafa:Ethernet49/1 has IP MTU 9000 but its link peer leafb:1/49 has IP MTU 8000; IP packets larger than the smaller MTU are dropped. Set the same IP MTU on both ends: mtu = 9214 on leafa:Ethernet49/1 and mtu = 9214 on leafb:1/49, the largest both platforms take; or mtu = 8000 on leafa:Ethernet49/1, to keep the smaller.`,
			`  note 25:13: leafb:1/49 MTU 8000`,
		}},
		{"Onyx trunk below the EOS mtu", trunk, trunk, "9214", "9000", []string{
			`26:13: Link MTU mismatch: leafb:1/49 has IP MTU 9000 but its link peer leafa:Ethernet49/1, an EOS trunk port, has IP MTU 9214. EOS applies its mtu to routed traffic only and bridges frames up to its fixed L2 MTU (9234 bytes), so IP packets of up to 9214 bytes reach leafb:1/49, which drops those above 9000. Set mtu = 9216 on leafb:1/49, the largest Onyx takes (or at least 9214).`,
			`  note 16:13: leafa:Ethernet49/1 MTU 9214`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(uplinkFabric, "    mtu   = 9214\n", "X1", 1)
			src = strings.Replace(src, "    mtu   = 9214\n", "X2", 1)
			for i, m := range []string{tc.mtuA, tc.mtuB} {
				line := ""
				if m != "" {
					line = "    mtu   = " + m + "\n"
				}
				src = strings.Replace(src, fmt.Sprintf("X%d", i+1), line, 1)
			}
			src = strings.NewReplacer("A", tc.a, "B", tc.b).Replace(src)
			got := checkSrc(t, src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
	// A host's MTU is the IP MTU too: 9216 does not fit an EOS port's
	// 9214, and the message says both in that unit.
	src := strings.NewReplacer("PORT", "mode  = \"access\"\n    vlans = [100]", "NIC", "mtu       = 9216", `platform = "cumulus"`, `platform = "eos"`, `model    = "SN2410"`, `model    = "7050SX3-48YC8"`, `"swp1"`, `"Ethernet1"`, `leaf1:swp1`, `leaf1:Ethernet1`).Replace(taggingFabric)
	want := []string{
		`23:17: Host MTU above switch port MTU: srv1:roce0 has IP MTU 9216 but its switch port leaf1:Ethernet1 has IP MTU 9214 (the EOS default, not written), so the port drops the host's largest IP packets. Lower the NIC MTU or raise the port MTU.`,
		`  note 11:3: leaf1:Ethernet1 MTU 9214`,
	}
	if got := checkSrc(t, src); !reflect.DeepEqual(got, want) {
		t.Errorf("host above EOS port:\n%s\nwant:\n%s", joinLines(got), joinLines(want))
	}
}
