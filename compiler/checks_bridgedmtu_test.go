package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// bridgedMTUFabric has two Cumulus leaves joined by a trunk of IP MTU
// TRUNKMTU that carries VLAN 100, and a Linux NIC of MTU 9000 in VLAN 100
// on each leaf (H2LEAF: the second NIC's leaf).
const bridgedMTUFabric = `fabric "lab" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1-2" {
    speed = "25G"
    vlans = [100]
  }
  port "swp49" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
    mtu   = TRUNKMTU
  }
}
switch "leaf2" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    vlans = [100]
  }
  port "swp49" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
    mtu   = TRUNKMTU
  }
}
host "h1" {
  os = "linux"
  nic "a" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}
host "h2" {
  os = "linux"
  nic "a" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.2/24"]
  }
}
link {
  a      = "h1:a"
  b      = "leaf1:swp1"
  length = 2
}
link {
  a      = "h2:a"
  b      = "H2LEAF:swp1"
  length = 2
}
link {
  a      = "leaf1:swp49"
  b      = "leaf2:swp49"
  length = 3
}
`

// TestBridgedMTUs: a trunk between two leaves whose MTU is below the
// hosts' of a VLAN it bridges, with the VLAN's NICs on both leaves, is a
// warning at each end (a bridge drops the larger frames and sends no
// ICMP, RFC 1191); a trunk at the hosts' MTU, or a VLAN whose NICs are
// all on one leaf, is not. A trunk below RoCE's packets has the error
// of its own, not this warning.
func TestBridgedMTUs(t *testing.T) {
	const text = `Bridged switch link MTU below host MTU: Switch port leaf%s:swp49 has IP MTU 5000 and bridges VLAN 100 to another switch, but NIC h1:a in VLAN 100 has IP MTU 9000, and hosts of one VLAN send each other packets up to their own MTU (TCP takes its segment size from the two NICs' MTUs). A bridge drops a frame above its port's MTU and sends no ICMP "fragmentation needed" (only a router does, RFC 1191), so large transfers between hosts on either side of this link stall while small ones pass; RoCE's packets (path MTU 4,096 B) fit. Set mtu = 9000 or more on leaf%s:swp49 and its link peer, or give the VLAN's NICs mtu = 5000 or less.`
	for _, tc := range []struct {
		name, trunk, leaf string
		want              []string
	}{
		{"trunk below the hosts", "5000", "leaf2", []string{
			"19:13: " + strings.ReplaceAll(text, "%s", "1"), "  note 41:17: h1:a MTU 9000",
			"33:13: " + strings.ReplaceAll(text, "%s", "2"), "  note 41:17: h1:a MTU 9000",
		}},
		{"trunk at the hosts' MTU", "9000", "leaf2", nil},
		{"every NIC on one leaf", "5000", "leaf1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("TRUNKMTU", tc.trunk, "H2LEAF", tc.leaf).Replace(bridgedMTUFabric)
			if tc.leaf == "leaf1" {
				src = strings.Replace(src, `b      = "leaf1:swp1"
  length = 2
}
link {
  a      = "h2:a"
  b      = "leaf1:swp1"`, `b      = "leaf1:swp1"
  length = 2
}
link {
  a      = "h2:a"
  b      = "leaf1:swp2"`, 1)
			}
			if got := warningsNamed(t, src, "Bridged switch link MTU below host MTU"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
