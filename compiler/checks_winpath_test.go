package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// winPathFabric is a Windows host on leaf1 whose port and NIC trust PCP,
// a chain of links leaf1 - spine1 - leaf2 in VLAN 100 whose ports trust
// TRUST, and a Linux RoCE NIC tagging VLAN 100 on LINPORT (leaf2:swp1,
// or leaf1:swp2 beside the Windows NIC). EXTRA adds blocks.
const winPathFabric = `fabric "lab" {}
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
    trust = "pcp"
  }
  port "swp49" {
    speed = "100G"
    vlans = [100]
    TRUST
  }
}
switch "spine1" {
  platform = "cumulus"
  model    = "SN2700"
  port "swp1" {
    speed = "100G"
    vlans = [100]
    TRUST
  }
  port "swp2" {
    speed = "100G"
    vlans = [100]
    TRUST
  }
}
switch "leaf2" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1-2" {
    speed = "25G"
    vlans = [100]
    trust = "pcp"
  }
  port "swp49" {
    speed = "100G"
    vlans = [100]
    TRUST
  }
}
host "win1" {
  os = "windows"
  nic "a" {
    model     = "ConnectX-4 Lx"
    interface = "Ethernet 1"
    vlan      = 100
    trust     = "pcp"
    addresses = ["10.0.0.1/24"]
  }
}
host "lin2" {
  os = "linux"
  nic "a" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    vlan      = 100
    trust     = "pcp"
    addresses = ["10.0.0.2/24"]
  }
}
link {
  a      = "win1:a"
  b      = "leaf1:swp1"
  length = 3
}
link {
  a      = "lin2:a"
  b      = "LINPORT"
  length = 3
}
link {
  a      = "leaf1:swp49"
  b      = "spine1:swp1"
  length = 3
}
link {
  a      = "leaf2:swp49"
  b      = "spine1:swp2"
  length = 3
}
EXTRA`

// winPathSecond is a second Windows host, on leaf1 beside the first.
const winPathSecond = `host "win2" {
  os = "windows"
  nic "a" {
    model     = "QL45212"
    interface = "Ethernet 1"
    vlan      = 100
    trust     = "pcp"
    addresses = ["10.0.0.3/24"]
  }
}
link {
  a      = "win2:a"
  b      = "leaf1:swp2"
  length = 3
}
`

// TestWindowsDSCPPastFirstHop: a Windows NIC whose driver sets no RoCE
// DSCP (WinOF-2, QLogic) is classified by PCP at its own port, but every
// link port on the way to the VLAN's other RoCE NICs that trusts DSCP
// classifies it by the driver's DSCP: a warning at each such port, once
// however many NICs cross it, and none at the ports the traffic leaves by.
func TestWindowsDSCPPastFirstHop(t *testing.T) {
	const dscp = `trust = "dscp"`
	spine := func(name, peer, nics string) string {
		return `switch port ` + name + `, cabled to ` + peer + `, trusts dscp and so classifies by DSCP the RoCE of ` + nics + `, whose driver documents no setting for the DSCP of RDMA packets (see the warning windows-roce-dscp-not-settable): that RoCE reaches this port with the driver's own DSCP, since fabricc configures no DSCP remark from the switch priority, and this port may map it to a lossy priority even where the NIC's own switch port classifies it by PCP. Set trust = "pcp" on ` + name + ` and ` + peer + `, with every RoCE sender on the VLAN tagging its priority (a NIC with a vlan; Windows and Linux NICs then also trust = "pcp" on their own ports); or set the DSCP by hand, check it in a captured RoCE packet at this port and accept this warning.`
	}
	const win1 = "NIC win1:a (ConnectX-4 Lx, driver winof2, DSCP 26 of VLAN 100)"
	const both = "NICs win1:a (ConnectX-4 Lx, driver winof2, DSCP 26 of VLAN 100), win2:a (QL45212, driver qlogic, DSCP 26 of VLAN 100)"
	for _, tc := range []struct {
		name, trust, linport, extra string
		want                        []string
	}{
		{"winof2 through a DSCP spine", dscp, "leaf2:swp1", "", []string{
			`28:13: Windows RoCE DSCP not settable past the first hop: ` + spine("spine1:swp1", "leaf1:swp49", win1),
			`  note 19:13: leaf1:swp49 trust dscp`,
			`47:13: Windows RoCE DSCP not settable past the first hop: ` + spine("leaf2:swp49", "spine1:swp2", win1),
			`  note 33:13: spine1:swp2 trust dscp`,
		}},
		{"two NICs, one warning a port", dscp, "leaf2:swp1", winPathSecond, []string{
			`28:13: Windows RoCE DSCP not settable past the first hop: ` + spine("spine1:swp1", "leaf1:swp49", both),
			`  note 19:13: leaf1:swp49 trust dscp`,
			`47:13: Windows RoCE DSCP not settable past the first hop: ` + spine("leaf2:swp49", "spine1:swp2", both),
			`  note 33:13: spine1:swp2 trust dscp`,
		}},
		{"links trust pcp", `trust = "pcp"`, "leaf2:swp1", "", nil},
		{"no RoCE peer past the links", dscp, "leaf1:swp2", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("TRUST", tc.trust, "LINPORT", tc.linport, "EXTRA", tc.extra).Replace(winPathFabric)
			if got := warningsNamed(t, src, "Windows RoCE DSCP not settable past the first hop"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
