package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// pathMTUFabric is two leaves joined by one link, each with one host.
// leaf1 is a Cumulus SN3700 (swp1 to h1, swp31 to leaf2); leaf2 is a
// Cumulus SN3700 (swp1, swp31) or an EOS 7050CX3-32S (Ethernet1/1,
// Ethernet31/1), by L2PLATFORM, L2MODEL, L2HOST and L2UP. MODE is the
// mode line of every port, UP1 and UP2 the uplinks' mtu lines, MTU1 and
// MTU2 the NICs' mtu, NET1 and NET2 their vlan and address lines.
const pathMTUFabric = `fabric "lab" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1" {
    speed = "100G"
    MODE
    PORT1
  }
  port "swp31" {
    speed = "100G"
    MODE
    UP1
  }
}
switch "leaf2" {
  platform = "L2PLATFORM"
  model    = "L2MODEL"
  port "L2HOST" {
    speed = "100G"
    MODE
  }
  port "L2UP" {
    speed = "100G"
    MODE
    UP2
  }
}
host "h1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = MTU1
    NET1
  }
}
host "h2" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = MTU2
    NET2
  }
}
link {
  a      = "leaf1:swp1"
  b      = "h1:roce0"
  length = 2
}
link {
  a      = "leaf2:L2HOST"
  b      = "h2:roce0"
  length = 2
}
link {
  a      = "leaf1:swp31"
  b      = "leaf2:L2UP"
  length = 20
}
`

// pathMTUCase fills pathMTUFabric: routed or trunk ports, leaf2 Cumulus
// or EOS, the uplinks' and NICs' MTUs, and leaf1:swp1's mtu line.
type pathMTUCase struct {
	trunk, eos bool
	up1, up2   string
	mtu1, mtu2 string
	port1      string
}

func (tc pathMTUCase) source() string {
	r := []string{"L2PLATFORM", "cumulus", "L2MODEL", "SN3700", "L2HOST", "swp1", "L2UP", "swp31"}
	if tc.eos {
		r = []string{"L2PLATFORM", "eos", "L2MODEL", "7050CX3-32S", "L2HOST", "Ethernet1/1", "L2UP", "Ethernet31/1"}
	}
	mode, net1, net2 := `mode = "routed"`, `addresses = ["10.1.0.1/31"]`, `addresses = ["10.1.0.3/31"]`
	if tc.trunk {
		mode, net1, net2 = `vlans = [100]`, "vlan = 100\n    addresses = [\"10.0.0.1/24\"]", "vlan = 100\n    addresses = [\"10.0.0.2/24\"]"
	}
	mtuLine := func(v string) string {
		if v == "" {
			return ""
		}
		return "mtu = " + v
	}
	r = append(r, "MODE", mode, "UP1", mtuLine(tc.up1), "UP2", mtuLine(tc.up2), "PORT1", mtuLine(tc.port1),
		"MTU1", tc.mtu1, "MTU2", tc.mtu2, "NET1", net1, "NET2", net2)
	return strings.NewReplacer(r...).Replace(pathMTUFabric)
}

// pathMTUDiags compiles tc's fabric and returns the compact diagnostics
// whose summary is one of summaries; any other error fails the test.
func pathMTUDiags(t *testing.T, tc pathMTUCase, summaries ...string) []string {
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
		case containsString(summaries, d.Summary):
			mine = append(mine, d)
		case d.Severity == hcl.DiagError:
			t.Errorf("unexpected error: %s: %s", d.Summary, d.Detail)
		}
	}
	return compactDiags(mine)
}

// TestRoCEHops: a link between two switches whose MTU is below the
// largest RoCE packet of the fabric (RoCE path MTU + 96 B, iboe_get_mtu)
// is an error at its first end below, naming both ends when both are,
// the NIC and the mtu to set; an EOS switchport, which bridges up to its
// fixed L2 MTU, is left out.
func TestRoCEHops(t *testing.T) {
	const why = ` RoCE packets are up to 4,192 B, and any RoCE NIC's traffic may cross any link between the fabric's switches. The port drops each larger packet; RoCE does no path MTU discovery (its path MTU comes from the NICs' MTUs only), so connections come up and small messages pass while every larger transfer retries until it fails, with no error anywhere.`
	const iboe = ` runs RoCE at a path MTU of 4,096 B (Linux ib_core, iboe_get_mtu: the largest of 256-4096 B not above the NIC's MTU less 96 B of RoCE headers), so its`
	for _, tc := range []struct {
		name string
		pathMTUCase
		want []string
	}{
		{"uplinks at 4096 with NICs at 9000", pathMTUCase{up1: "4096", up2: "4096", mtu1: "9000", mtu2: "9000"}, []string{
			`19:11: Switch link MTU below RoCE packets: On the link between switch ports leaf1:swp31 and leaf2:swp31, leaf1:swp31 has IP MTU 4096 and its link peer leaf2:swp31 has IP MTU 4096, but NIC h1:roce0 has MTU 9000 and` + iboe + why +
				` Set mtu = 4192 or more on leaf1:swp31 and on leaf2:swp31 (IP MTU 9216, the largest both ends take, is usual), or give every RoCE NIC of the fabric mtu = 4191 or less, for a RoCE path MTU of 2,048 B.`,
			`  note 40:17: h1:roce0 MTU 9000`,
			`  note 32:11: leaf2:swp31 MTU 4096`,
		}},
		{"uplinks at 1500, the widest NIC named", pathMTUCase{up1: "1500", up2: "1500", mtu1: "4100", mtu2: "9000"}, []string{
			`19:11: Switch link MTU below RoCE packets: On the link between switch ports leaf1:swp31 and leaf2:swp31, leaf1:swp31 has IP MTU 1500 and its link peer leaf2:swp31 has IP MTU 1500, but NIC h2:roce0 has MTU 9000 and` + iboe + why +
				` Set mtu = 4192 or more on leaf1:swp31 and on leaf2:swp31 (IP MTU 9216, the largest both ends take, is usual), or give every RoCE NIC of the fabric mtu = 2143 or less, for a RoCE path MTU of 1,024 B.`,
			`  note 49:17: h2:roce0 MTU 9000`,
			`  note 32:11: leaf2:swp31 MTU 1500`,
		}},
		{"uplinks at 4192 carry path MTU 4096", pathMTUCase{up1: "4192", up2: "4192", mtu1: "4200", mtu2: "4200", port1: "4200"}, nil},
		{"uplinks at 4096 carry path MTU 2048", pathMTUCase{up1: "4096", up2: "4096", mtu1: "4100", mtu2: "4191"}, nil},
		{"Cumulus trunk below, EOS trunk peer left out", pathMTUCase{trunk: true, eos: true, up1: "4000", up2: "4000", mtu1: "9000", mtu2: "9000"}, []string{
			`19:11: Switch link MTU below RoCE packets: On the link between switch ports leaf1:swp31 and leaf2:Ethernet31/1, leaf1:swp31 has IP MTU 4000 and its link peer leaf2:Ethernet31/1 has IP MTU 4000, but NIC h1:roce0 has MTU 9000 and` + iboe + why +
				` Set mtu = 4192 or more on leaf1:swp31 (IP MTU 9214, the largest both ends take, is usual), or give every RoCE NIC of the fabric mtu = 4191 or less, for a RoCE path MTU of 2,048 B.`,
			`  note 40:17: h1:roce0 MTU 9000`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pathMTUDiags(t, tc.pathMTUCase, "Switch link MTU below RoCE packets")
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestRoutedNICMTUs: a NIC below its routed switch port's MTU is a
// warning when another NIC of the fabric has a larger MTU, naming both
// MTUs, that NIC and the two fixes; NICs of one MTU below the port
// default (9000 against 9216) are not, nor is a NIC at its port's MTU.
func TestRoutedNICMTUs(t *testing.T) {
	const summary = "Routed NIC MTU below port"
	const why = ` The port and the NIC are the two ends of one IP link, so the switch routes packets of up to 9216 B from NIC h1:roce0 (MTU 9216) to the NIC, which drops those above 9000 B; the switch sends no ICMP "fragmentation needed" for them (it sends one only for a packet above its own MTU), so UDP and ICMP of that size are lost without a trace. TCP agrees on the smaller segment by its MSS option, and RoCE takes its path MTU from the NICs' MTUs.`
	for _, tc := range []struct {
		name string
		pathMTUCase
		want []string
	}{
		{"defaults: every NIC at 9000", pathMTUCase{mtu1: "9000", mtu2: "9000"}, nil},
		{"a NIC at 9216 routes to one at 9000", pathMTUCase{mtu1: "9216", mtu2: "9000"}, []string{
			`49:17: Routed NIC MTU below port: NIC h2:roce0 has IP MTU 9000 but its routed switch port leaf2:swp1 has IP MTU 9216 (the Cumulus Linux default, not written).` + why +
				` Set mtu = 9000 on leaf2:swp1 (its IP MTU, the NIC's), or mtu = 9216 on the NIC, or accept this warning.`,
			`  note 25:3: leaf2:swp1 MTU 9216`,
		}},
		{"the port at the NIC's MTU", pathMTUCase{mtu1: "8000", mtu2: "9000", port1: "8000"}, nil},
		{"switchports are the subnet check's", pathMTUCase{trunk: true, mtu1: "9216", mtu2: "9000"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pathMTUDiags(t, tc.pathMTUCase, summary)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
