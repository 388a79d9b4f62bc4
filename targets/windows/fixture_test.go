package windows

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// smbDirect is the SMB Direct application on the RoCE priority.
func smbDirect() []model.Application {
	return []model.Application{{Kind: "smb-direct", Port: 445, Priority: modeltest.RoCEPriority}}
}

// fcNode1 is examples/demartek-lab's fc-node1: Windows Storage Server
// 2012 R2 with an HPE 640FLR-SFP28 (ConnectX-4 Lx, WinOF-2), two ports on
// VLAN 2, MTU 1500, SMB Direct.
func fcNode1() model.Host {
	nic := func(name, iface, addr, port string) model.NIC {
		return model.NIC{
			Name: name, Interface: iface, Model: "ConnectX-4 Lx", Vendor: "mellanox", Driver: "winof2",
			Transport: model.TransportRoCE, SpeedMbps: 25000, MTU: 1500, VLAN: 2,
			Addresses: []string{addr}, RoCE: modeltest.NVIDIARoCE(), Applications: smbDirect(),
			Peer: &model.Peer{Kind: "switch", Device: "sn2410", Port: port, CableMeters: 1, CableKind: "dac"},
		}
	}
	return model.Host{
		Name: "fc-node1", OS: model.OSWindows, OSVersion: "2012r2",
		NICs: []model.NIC{nic("port1", "SLOT 4 Port 1", "192.168.2.11/24", "1/1"), nic("port2", "SLOT 4 Port 2", "192.168.2.12/24", "1/2")},
	}
}

// workstation is examples/homelab-40g's workstation: Windows Server 2016
// with a ConnectX-3 Pro on WinOF, untagged, MTU 9000, cabled back to back
// to the NAS's NIC mlxen0 (no switch).
func workstation() model.Host {
	return model.Host{
		Name: "workstation", OS: model.OSWindows, OSVersion: "2016",
		NICs: []model.NIC{{
			Name: "qsfp1", Interface: "Ethernet 3", Model: "ConnectX-3 Pro", Vendor: "mellanox", Driver: "winof",
			Transport: model.TransportRoCE, SpeedMbps: 40000, MTU: 9000,
			Addresses: []string{"10.20.0.10/24"}, RoCE: modeltest.NVIDIARoCE(), Applications: smbDirect(),
			Peer: &model.Peer{Kind: "host", Device: "nas", Port: "mlxen0", CableMeters: 50, CableKind: "aoc"},
		}},
	}
}

// qlogicHost is a Windows host with the QLogic FastLinQ QL45212 of the
// Demartek RoCE Deployment Guide on VLAN 2.
func qlogicHost() model.Host {
	return model.Host{
		Name: "ql-client", OS: model.OSWindows, OSVersion: "2016",
		NICs: []model.NIC{{
			Name: "roce0", Interface: "NIC in Slot 4 Port 1", Model: "QL45212", Vendor: "qlogic", Driver: "qlogic",
			Transport: model.TransportRoCE, SpeedMbps: 25000, MTU: 1500, VLAN: 2,
			Addresses: []string{"192.168.2.61/24"}, RoCE: modeltest.NVIDIARoCE(), Applications: smbDirect(),
		}},
	}
}

// fixture returns a fabric with the nvidia-roce profile holding the given
// hosts.
func fixture(hosts ...model.Host) *model.Fabric {
	return &model.Fabric{Name: "demartek-lab", QoS: modeltest.NVIDIARoCEQoS(), VLANs: []model.VLAN{{ID: 2, Name: "roce"}}, Hosts: hosts}
}
