package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// windowsDSCPFabric is one Windows host cabled to a Cumulus port; PORT (the
// speed among them) and NIC hold extra attributes of the port and the NIC.
const windowsDSCPFabric = `
fabric "lab" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"
  port "swp1" {
    vlans = [100]
    PORT
  }
}
host "win1" {
  os = "windows"
  nic "a" {
    NIC
    interface = "Ethernet 1"
  }
}
link {
  a      = "win1:a"
  b      = "leaf1:swp1"
  length = 3
}
`

// TestWindowsDSCPNotSettable: a Windows NIC whose driver documents no RoCE
// DSCP setting (WinOF-2, QLogic) facing a port that trusts DSCP is a
// warning; WinOF (whose script sets PriorityToDscpMappingTable), PCP
// trust and RoCE v1 are not.
func TestWindowsDSCPNotSettable(t *testing.T) {
	const winof2 = "model = \"ConnectX-4\"\n    vlan = 100"
	for _, tc := range []struct {
		name, port, nic string
		want            []string
	}{
		{"winof2, port trusts dscp", `speed = "100G"`, winof2, []string{
			`19:3: Windows RoCE DSCP not settable: NIC win1:a (ConnectX-4, driver winof2) must mark RoCE with DSCP 26 for switch port leaf1:swp1, which trusts dscp, but the Mellanox WinOF-2 User Manual, Rev 1.21, documents no setting for the DSCP of RDMA packets, so the Windows script cannot set it: RoCE leaves with the driver's own DSCP (on WinOF the priority itself, DSCP 3, Mellanox WinOF User Manual and Release Notes, Rev 5.50, section 4.1.11.7.1), which the port may map to a lossy priority. To classify this host's RoCE by what it does set, its 802.1p priority 3, set trust = "pcp" on the port and the NIC (the NIC tags VLAN 100, whose tag carries the priority); or set the DSCP by hand, check it in a captured RoCE packet and accept this warning.`,
			`  note 12:3: leaf1:swp1 trust dscp`,
		}},
		{"winof2, port trusts both", "speed = \"100G\"\n    trust = \"both\"", winof2 + "\n    trust = \"both\"", []string{
			`20:3: Windows RoCE DSCP not settable: NIC win1:a (ConnectX-4, driver winof2) must mark RoCE with DSCP 26 for switch port leaf1:swp1, which trusts both (DSCP for IP packets, which RoCE v2 is), but the Mellanox WinOF-2 User Manual, Rev 1.21, documents no setting for the DSCP of RDMA packets, so the Windows script cannot set it: RoCE leaves with the driver's own DSCP (on WinOF the priority itself, DSCP 3, Mellanox WinOF User Manual and Release Notes, Rev 5.50, section 4.1.11.7.1), which the port may map to a lossy priority. To classify this host's RoCE by what it does set, its 802.1p priority 3, set trust = "pcp" on the port and the NIC (the NIC tags VLAN 100, whose tag carries the priority); or set the DSCP by hand, check it in a captured RoCE packet and accept this warning.`,
			`  note 15:13: leaf1:swp1 trust both`,
		}},
		{"qlogic, untagged", "speed = \"25G\"\n    native_vlan = 100", "model = \"QL45212\"", []string{
			`20:3: Windows RoCE DSCP not settable: NIC win1:a (QL45212, driver qlogic) must mark RoCE with DSCP 26 for switch port leaf1:swp1, which trusts dscp, but the Demartek RoCE Deployment Guide's QLogic adapter set-up documents no setting for the DSCP of RDMA packets, so the Windows script cannot set it: RoCE leaves with the driver's own DSCP (on WinOF the priority itself, DSCP 3, Mellanox WinOF User Manual and Release Notes, Rev 5.50, section 4.1.11.7.1), which the port may map to a lossy priority. To classify this host's RoCE by what it does set, its 802.1p priority 3, give the NIC a vlan the port carries tagged and set trust = "pcp" on the port and the NIC (an untagged frame carries no priority); or set the DSCP by hand, check it in a captured RoCE packet and accept this warning.`,
			`  note 12:3: leaf1:swp1 trust dscp`,
		}},
		{"winof2, pcp on both ends", "speed = \"100G\"\n    trust = \"pcp\"", winof2 + "\n    trust = \"pcp\"", nil},
		{"winof sets the DSCP", `speed = "40G"`, "model = \"ConnectX-3 Pro\"\n    vlan = 100", nil},
		{"winof2 RoCE v1", `speed = "100G"`, winof2 + "\n    roce_mode = \"v1\"", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("PORT", tc.port, "NIC", tc.nic).Replace(windowsDSCPFabric)
			if got := warningsNamed(t, src, "Windows RoCE DSCP not settable"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
