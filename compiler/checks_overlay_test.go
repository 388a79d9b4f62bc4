package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// overlayFabric is two Cumulus leaves with a host each in access VLAN
// 100 (one subnet) and routed uplinks to a spine, as EVPN-VXLAN builds
// it. OVERLAY is the vlan block's overlay line, MTU the NICs' mtu, UP1
// leaf1:swp31's and SP1 spine1:swp1's mtu lines.
const overlayFabric = `fabric "evpn" {}
qos {
  profile = "nvidia-roce"
}
vlan "tenant" {
  id = 100
  OVERLAY
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    mode  = "access"
    vlans = [100]
  }
  port "swp31" {
    speed = "100G"
    mode  = "routed"
    UP1
  }
}
switch "leaf2" {
  platform = "cumulus"
  model    = "SN3700"
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
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    mode  = "routed"
    SP1
  }
  port "swp2" {
    speed = "100G"
    mode  = "routed"
  }
}
host "h1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = MTU
    addresses = ["10.2.0.1/24"]
  }
}
host "h2" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = MTU
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

// overlayCase fills overlayFabric.
type overlayCase struct {
	overlay, mtu, up1, sp1 string
}

func (tc overlayCase) source() string {
	line := func(attr, v string) string {
		if v == "" {
			return ""
		}
		return attr + " = " + v
	}
	return strings.NewReplacer("OVERLAY", line("overlay", tc.overlay), "MTU", tc.mtu,
		"UP1", line("mtu", tc.up1), "SP1", line("mtu", tc.sp1)).Replace(overlayFabric)
}

// overlayDiags compiles tc's fabric and returns the compact diagnostics
// of the overlay MTU error and the split warning; any other error fails
// the test.
func overlayDiags(t *testing.T, tc overlayCase) []string {
	t.Helper()
	f, src, diags := lowerSrc(t, tc.source())
	if len(diags) > 0 {
		t.Fatalf("lower: %v", diags)
	}
	if d := applyPhysics(f, src); d.HasErrors() {
		t.Fatalf("physics: %v", d)
	}
	var mine hcl.Diagnostics
	for _, d := range check(f, src) {
		switch {
		case d.Summary == "Underlay MTU below VXLAN packets" || d.Summary == "VLAN split between switches":
			mine = append(mine, d)
		case d.Severity == hcl.DiagError:
			t.Errorf("unexpected error: %s: %s", d.Summary, d.Detail)
		}
	}
	return compactDiags(mine)
}

// TestOverlayMTUs: a VLAN with overlay "vxlan" raises no split warning;
// the underlay ports of its switches (and their far ends) below its
// largest NIC's IP MTU + 50 B (RFC 7348 §5, IPv4 underlay) are one error
// at the overlay naming each port, the NIC, both sizes and the fixes.
func TestOverlayMTUs(t *testing.T) {
	const why = `VLAN 100 has overlay "vxlan", so its switches carry its hosts' frames in VXLAN over the underlay, which adds 50 B to each IP packet (the inner Ethernet header, VXLAN, UDP and an outer IPv4 header, RFC 7348 §5; fabricc assumes an IPv4 underlay, an IPv6 one adds 20 B more). `
	const lost = ` VTEPs do not fragment VXLAN packets (RFC 7348 §4.3), so each larger packet is dropped without a trace while small ones, and RoCE at a smaller path MTU, pass. `
	for _, tc := range []struct {
		name string
		overlayCase
		want []string
	}{
		{"NICs at 9000 fit the 9216 uplinks", overlayCase{overlay: `"vxlan"`, mtu: "9000"}, nil},
		{"without the overlay the split is a warning", overlayCase{mtu: "9216"}, []string{
			`17:3: VLAN split between switches: VLAN 100 holds NICs of subnet 10.2.0.0/24 on 2 islands of switches that no link carrying VLAN 100 joins: 1. leaf1 (h1:roce0); 2. leaf2 (h2:roce0). Hosts in one subnet reach each other directly, by ARP, so RoCE between the islands fails. Carry VLAN 100 on both ends of leaf1:swp31 - spine1:swp1, leaf2:swp31 - spine1:swp2 (add 100 to their vlans); or, if the islands are meant to be routed apart, give each its own subnet; or, if EVPN-VXLAN stretches VLAN 100 between them, write overlay = "vxlan" in its vlan block, which checks the MTU the encapsulation needs and sets the outer DSCP where the switch takes it.`,
			`  note 55:17: h1:roce0, VLAN 100, island 1`,
			`  note 64:17: h2:roce0, VLAN 100, island 2`,
			`  note 31:3: leaf2:swp31 does not carry VLAN 100`,
		}},
		{"NICs at 9216: no uplink takes 9266", overlayCase{overlay: `"vxlan"`, mtu: "9216"}, []string{
			`7:13: Underlay MTU below VXLAN packets: ` + why + `NIC h1:roce0 has IP MTU 9216, so its packets cross the underlay as IP packets of up to 9,266 B, but these underlay ports, on the switch links joining its VTEPs leaf1 and leaf2, are below that: leaf1:swp31, IP MTU 9216 (the Cumulus Linux default, not written); spine1:swp1, IP MTU 9216 (the Cumulus Linux default, not written); leaf2:swp31, IP MTU 9216 (the Cumulus Linux default, not written); spine1:swp2, IP MTU 9216 (the Cumulus Linux default, not written).` + lost +
				`Give the NICs of VLAN 100 mtu = 9166 or less (the switches take no larger mtu).`,
			`  note 54:17: h1:roce0 MTU 9216`,
			`  note 17:3: leaf1:swp31 MTU 9216`,
			`  note 39:3: spine1:swp1 MTU 9216`,
			`  note 31:3: leaf2:swp31 MTU 9216`,
			`  note 44:3: spine1:swp2 MTU 9216`,
		}},
		{"one uplink at 9000", overlayCase{overlay: `"vxlan"`, mtu: "9000", up1: "9000", sp1: "9000"}, []string{
			`7:13: Underlay MTU below VXLAN packets: ` + why + `NIC h1:roce0 has IP MTU 9000, so its packets cross the underlay as IP packets of up to 9,050 B, but these underlay ports, on the switch links joining its VTEPs leaf1 and leaf2, are below that: leaf1:swp31, IP MTU 9000; spine1:swp1, IP MTU 9000.` + lost +
				`Set mtu = 9050 or more on leaf1:swp31 and spine1:swp1 (IP MTU 9050), or give the NICs of VLAN 100 mtu = 8950 or less.`,
			`  note 54:17: h1:roce0 MTU 9000`,
			`  note 20:11: leaf1:swp31 MTU 9000`,
			`  note 42:11: spine1:swp1 MTU 9000`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := overlayDiags(t, tc.overlayCase)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// threeTierFabric is the overlay VLAN 100 on leaf1 and leaf2 (hosts at
// MTU 9000) under a 3-tier underlay: leaf1 - spine1 - super1 - spine2 -
// leaf2, every leaf and spine port at 9216 and super1's ports, and the
// spines' ports to it, at SUPER. lab1 - lab2, cabled to each other
// only, have routed ports at 1500: no VXLAN packet reaches them.
const threeTierFabric = `fabric "evpn" {}
qos {
  profile = "nvidia-roce"
}
vlan "tenant" {
  id      = 100
  overlay = "vxlan"
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN3700"
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
  platform = "cumulus"
  model    = "SN3700"
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
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    mode  = "routed"
  }
  port "swp32" {
    speed = "100G"
    mode  = "routed"
    mtu   = SUPER
  }
}
switch "spine2" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    mode  = "routed"
  }
  port "swp32" {
    speed = "100G"
    mode  = "routed"
    mtu   = SUPER
  }
}
switch "super1" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1-2" {
    speed = "100G"
    mode  = "routed"
    mtu   = SUPER
  }
}
switch "lab1" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    mode  = "routed"
    mtu   = 1500
  }
}
switch "lab2" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    mode  = "routed"
    mtu   = 1500
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
  b      = "spine2:swp1"
  length = 20
}
link {
  a      = "spine1:swp32"
  b      = "super1:swp1"
  length = 20
}
link {
  a      = "spine2:swp32"
  b      = "super1:swp2"
  length = 20
}
link {
  a      = "lab1:swp1"
  b      = "lab2:swp1"
  length = 2
}
`

// TestOverlayMTUsBeyondTheFirstHop: the VXLAN packets between leaf1 and
// leaf2 cross spine1 - super1 - spine2, two hops from either VTEP, so
// those ports at 9000 under hosts at 9000 (packets of 9050 B) are the
// error; lab1 - lab2 at 1500, which no chain of links joins to a VTEP,
// is never named.
func TestOverlayMTUsBeyondTheFirstHop(t *testing.T) {
	for _, tc := range []struct {
		super string
		want  []string
	}{
		{"9216", nil},
		{"9000", []string{
			`7:13: Underlay MTU below VXLAN packets: VLAN 100 has overlay "vxlan", so its switches carry its hosts' frames in VXLAN over the underlay, which adds 50 B to each IP packet (the inner Ethernet header, VXLAN, UDP and an outer IPv4 header, RFC 7348 §5; fabricc assumes an IPv4 underlay, an IPv6 one adds 20 B more). NIC h1:roce0 has IP MTU 9000, so its packets cross the underlay as IP packets of up to 9,050 B, but these underlay ports, on the switch links joining its VTEPs leaf1 and leaf2, are below that: spine1:swp32, IP MTU 9000; super1:swp1, IP MTU 9000; spine2:swp32, IP MTU 9000; super1:swp2, IP MTU 9000. VTEPs do not fragment VXLAN packets (RFC 7348 §4.3), so each larger packet is dropped without a trace while small ones, and RoCE at a smaller path MTU, pass. Set mtu = 9050 or more on spine1:swp32, super1:swp1, spine2:swp32 and super1:swp2 (IP MTU 9050), or give the NICs of VLAN 100 mtu = 8950 or less.`,
			`  note 93:17: h1:roce0 MTU 9000`,
			`  note 45:13: spine1:swp32 MTU 9000`,
			`  note 67:13: super1:swp1 MTU 9000`,
			`  note 58:13: spine2:swp32 MTU 9000`,
			`  note 67:13: super1:swp2 MTU 9000`,
		}},
	} {
		src := strings.ReplaceAll(threeTierFabric, "SUPER", tc.super)
		f, s, diags := lowerSrc(t, src)
		if len(diags) > 0 {
			t.Fatalf("lower: %v", diags)
		}
		if d := applyPhysics(f, s); d.HasErrors() {
			t.Fatalf("physics: %v", d)
		}
		var mine hcl.Diagnostics
		for _, d := range check(f, s) {
			if d.Severity == hcl.DiagError {
				mine = append(mine, d)
			}
		}
		if got := compactDiags(mine); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("super-spine links at %s: diagnostics:\n%s\nwant:\n%s", tc.super, joinLines(got), joinLines(tc.want))
		}
	}
}

// TestVLANOverlayValue: an overlay other than "vxlan" is an error at it
// listing the one known value, with a suggestion for a near miss.
func TestVLANOverlayValue(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{`"VXLAN"`, `7:13: Invalid VLAN overlay: vlan "tenant" has overlay "VXLAN", which is not known; write "vxlan" (EVPN-VXLAN between the leaves' VTEPs stretches the VLAN across routed uplinks), or leave overlay out for a VLAN the fabric's own links carry. Did you mean "vxlan"?`},
		{`"gre"`, `7:13: Invalid VLAN overlay: vlan "tenant" has overlay "gre", which is not known; write "vxlan" (EVPN-VXLAN between the leaves' VTEPs stretches the VLAN across routed uplinks), or leave overlay out for a VLAN the fabric's own links carry.`},
	} {
		_, _, diags := lowerSrc(t, overlayCase{overlay: tc.value, mtu: "9000"}.source())
		if len(diags) != 1 || diags[0] != tc.want {
			t.Errorf("overlay %s: diagnostics:\n%s\nwant:\n%s", tc.value, joinLines(diags), tc.want)
		}
	}
}
