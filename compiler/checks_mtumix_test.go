package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// mtuMixFabric has three NICs in VLAN 100 on one leaf: lin1 (Linux, MTU
// 9000, 10.0.0.1/24), win2 (Windows, MTU WINMTU, address WINADDR) and
// lin3 (Linux, MTU LIN3MTU, 10.0.0.3/24).
const mtuMixFabric = `fabric "lab" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1-3" {
    speed = "25G"
    vlans = [100]
  }
}
host "lin1" {
  os = "linux"
  nic "a" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}
host "win2" {
  os = "windows"
  nic "a" {
    model     = "ConnectX-5"
    interface = "SLOT 3 Port 1"
    mtu       = WINMTU
    vlan      = 100
    addresses = ["WINADDR"]
  }
}
host "lin3" {
  os = "linux"
  nic "a" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = LIN3MTU
    vlan      = 100
    addresses = ["10.0.0.3/24"]
  }
}
link {
  a      = "lin1:a"
  b      = "leaf1:swp1"
  length = 2
}
link {
  a      = "win2:a"
  b      = "leaf1:swp2"
  length = 2
}
link {
  a      = "lin3:a"
  b      = "leaf1:swp3"
  length = 2
}
`

// TestSubnetMTUs: NICs of one subnet and VLAN with different MTUs are a
// warning at the NIC whose MTU differs from the subnet's first NIC's,
// once for each MTU, with a note for a Windows NIC at 9014; NICs of one
// MTU, or in different subnets, are not.
func TestSubnetMTUs(t *testing.T) {
	const why = ` Hosts of one subnet send each other packets directly, up to their own MTU, with no router between them to say the packet is too big, so a packet above the smaller MTU (UDP, ICMP; TCP agrees on the smaller segment by its MSS option) may be dropped by the receiving NIC; RoCE is unaffected while the RoCE path MTUs agree.`
	const fix = ` Give every NIC of the subnet the same mtu, or accept this warning.`
	const winNote = ` The 9014 of NIC win2:a is the *JumboPacket frame size Windows guides give, the 14-byte Ethernet header included (IP MTU 9000); a nic's mtu is the IP MTU, so mtu = 9000 is what those guides mean.`
	for _, tc := range []struct {
		name, winMTU, winAddr, lin3MTU string
		want                           []string
	}{
		{"Windows 9014 beside Linux 9000", "9014", "10.0.0.2/24", "9000", []string{
			`31:17: NICs of one subnet with different MTUs: NIC win2:a has MTU 9014 and an address in 10.0.0.0/24, in VLAN 100, but NIC lin1:a, in the same subnet and VLAN, has MTU 9000.` + why + winNote + fix,
			`  note 21:17: lin1:a MTU 9000`,
		}},
		{"two MTUs other than the first, one warning each", "9014", "10.0.0.2/24", "1500", []string{
			`31:17: NICs of one subnet with different MTUs: NIC win2:a has MTU 9014 and an address in 10.0.0.0/24, in VLAN 100, but NIC lin1:a, in the same subnet and VLAN, has MTU 9000.` + why + winNote + fix,
			`  note 21:17: lin1:a MTU 9000`,
			`41:17: NICs of one subnet with different MTUs: NIC lin3:a has MTU 1500 and an address in 10.0.0.0/24, in VLAN 100, but NIC lin1:a, in the same subnet and VLAN, has MTU 9000.` + why + fix,
			`  note 21:17: lin1:a MTU 9000`,
		}},
		{"one MTU", "9000", "10.0.0.2/24", "9000", nil},
		{"Windows in a subnet of its own", "9014", "10.0.1.2/24", "9000", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("WINMTU", tc.winMTU, "WINADDR", tc.winAddr, "LIN3MTU", tc.lin3MTU).Replace(mtuMixFabric)
			if got := warningsNamed(t, src, "NICs of one subnet with different MTUs"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// warningsNamed lowers and checks the fabric src and returns, compacted,
// its diagnostics with the given summary; an error of any kind fails
// the test.
func warningsNamed(t *testing.T, src, summary string) []string {
	t.Helper()
	f, src2, diags := lowerSrc(t, src)
	if len(diags) > 0 {
		t.Fatalf("lower: %v", diags)
	}
	if d := applyPhysics(f, src2); d.HasErrors() {
		t.Fatalf("physics: %v", d)
	}
	var mine hcl.Diagnostics
	for _, d := range check(f, src2) {
		if d.Severity == hcl.DiagError {
			t.Errorf("unexpected error: %s: %s", d.Summary, d.Detail)
		}
		if d.Summary == summary {
			mine = append(mine, d)
		}
	}
	return compactDiags(mine)
}
