package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// vlanPathFabric is two Cumulus leaves, each with one host in VLAN 100
// on swp1, cabled to a spine by their swp32. LEAF1UP, LEAF2UP and SPINE
// are the VLAN lines of the uplinks and the spine's ports, ADDR1 and ADDR2
// the hosts' addresses, VLAN2 leaf2's host port VLAN; LINK2 is the link
// block of leaf2's uplink.
const vlanPathFabric = `fabric "r" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 100
}
vlan "storage" {
  id = 200
}
switch "spine1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1-2" {
    speed = "25G"
    SPINE
  }
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    mode  = "access"
    vlans = [100]
  }
  port "swp32" {
    speed = "25G"
    LEAF1UP
  }
}
switch "leaf2" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    mode  = "access"
    vlans = [VLAN2]
  }
  port "swp32" {
    speed = "25G"
    LEAF2UP
  }
}
host "srv1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    addresses = ["ADDR1"]
  }
}
host "srv2" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    addresses = ["ADDR2"]
  }
}
link {
  a      = "leaf1:swp1"
  b      = "srv1:roce0"
  length = 2
}
link {
  a      = "leaf2:swp1"
  b      = "srv2:roce0"
  length = 2
}
link {
  a      = "leaf1:swp32"
  b      = "spine1:swp1"
  length = 10
}
LINK2
`

const (
	trunk100 = `mode = "trunk"
    vlans = [100]`
	trunk200 = `mode = "trunk"
    vlans = [200]`
	native100 = `mode = "trunk"
    vlans = [200]
    native_vlan = 100`
	routed    = `mode = "routed"`
	leaf2Link = `link {
  a      = "leaf2:swp32"
  b      = "spine1:swp2"
  length = 10
}`
)

// TestVLANPaths checks the fabric-wide VLAN reachability check: a VLAN
// and subnet split by its trunks is a warning naming the islands and the
// links to carry it on, the routed design (one rack VLAN per leaf, a
// subnet each) is not, and a subnet in two VLANs is a warning.
func TestVLANPaths(t *testing.T) {
	split := `31:13: VLAN split between switches: VLAN 100 holds NICs of subnet 10.0.0.0/24 on 2 islands of switches that no link carrying VLAN 100 joins: 1. leaf1 (srv1:roce0); 2. leaf2 (srv2:roce0). Hosts in one subnet reach each other directly, by ARP, so RoCE between the islands fails. Carry VLAN 100 on both ends of leaf1:swp32 - spine1:swp1, leaf2:swp32 - spine1:swp2 (add 100 to their vlans); or, if the islands are meant to be routed apart, give each its own subnet; or, if EVPN-VXLAN stretches VLAN 100 between them, write overlay = "vxlan" in its vlan block, which checks the MTU the encapsulation needs and sets the outer DSCP where the switch takes it.`
	for _, tc := range []struct {
		name                           string
		spine, up1, up2, vlan2, a1, a2 string
		link2                          string
		want                           []string
	}{
		{"carried", trunk100, trunk100, trunk100, "100", "10.0.0.1/24", "10.0.0.2/24", leaf2Link, nil},
		{"split by trunks", trunk200, trunk200, trunk200, "100", "10.0.0.1/24", "10.0.0.2/24", leaf2Link, []string{
			split,
			"  note 53:17: srv1:roce0, VLAN 100, island 1",
			"  note 61:17: srv2:roce0, VLAN 100, island 2",
			"  note 45:13: leaf2:swp32 does not carry VLAN 100",
		}},
		// A trunk's native VLAN is carried too (untagged on both ends).
		{"carried as native VLAN", native100, native100, native100, "100", "10.0.0.1/24", "10.0.0.2/24", leaf2Link, nil},
		{"routed racks, a subnet each", routed, routed, routed, "100", "10.0.1.1/24", "10.0.2.1/24", leaf2Link, nil},
		{"routed racks, one subnet", routed, routed, routed, "100", "10.0.0.1/24", "10.0.0.2/24", leaf2Link, []string{
			strings.Replace(split, "31:13", "27:3", 1),
			"  note 50:17: srv1:roce0, VLAN 100, island 1",
			"  note 58:17: srv2:roce0, VLAN 100, island 2",
			"  note 40:3: leaf2:swp32 does not carry VLAN 100",
		}},
		// No cable joins leaf2 to the others: the network between them is
		// not in the description, and is not blamed.
		{"no cable path", trunk100, trunk100, trunk100, "100", "10.0.0.1/24", "10.0.0.2/24", "", nil},
		// One end of an uplink lacks the VLAN: the link's own error is
		// the one reported, not a split as well.
		{"link mismatch only", trunk100, trunk200, trunk100, "100", "10.0.0.1/24", "10.0.0.2/24", leaf2Link, []string{
			"31:13: Link VLAN mismatch: leaf1:swp32 carries VLAN 200 but its link peer spine1:swp1 carries VLAN 100; traffic in a VLAN one end does not carry is dropped. Carry the same VLANs on both ends.",
			"  note 17:13: spine1:swp1 VLANs 100",
		}},
		{"subnet in two VLANs", trunk100, trunk100, trunk100, "200", "10.0.0.1/24", "10.0.0.2/24", leaf2Link, []string{
			"61:17: IP subnet in two VLANs: srv2:roce0 has an address in 10.0.0.0/24 and is in VLAN 200 (through leaf2:swp1), but srv1:roce0, in the same subnet, is in VLAN 100 (through leaf1:swp1). Hosts in one subnet reach each other directly, by ARP, which no switch forwards from one VLAN to another, so these NICs cannot talk unless a router answers for the subnet. Put both in VLAN 100, or give srv2:roce0 an address in a subnet of its own VLAN.",
			"  note 53:17: srv1:roce0, VLAN 100",
			"  note 40:13: leaf2:swp1 carries VLAN 200",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("SPINE", tc.spine, "LEAF1UP", tc.up1, "LEAF2UP", tc.up2, "VLAN2", tc.vlan2,
				"ADDR1", tc.a1, "ADDR2", tc.a2, "LINK2", tc.link2).Replace(vlanPathFabric)
			f, s, diags := lowerSrc(t, src)
			if len(diags) > 0 {
				t.Fatalf("lower: %v", diags)
			}
			if d := applyPhysics(f, s); d.HasErrors() {
				t.Fatalf("physics: %v", d)
			}
			var got []string
			for _, d := range check(f, s) {
				if strings.HasPrefix(d.Summary, "VLAN split") && d.Severity != hcl.DiagWarning {
					t.Errorf("a split VLAN is a warning (an EVPN-VXLAN overlay may stretch it), got severity %v", d.Severity)
				}
				if strings.HasPrefix(d.Summary, "VLAN split") || strings.HasPrefix(d.Summary, "IP subnet") || strings.HasPrefix(d.Summary, "Link VLAN") {
					got = append(got, compactDiags([]*hcl.Diagnostic{d})...)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
