package windows

import "github.com/fabricc/fabricc/model"

// nvidiaDSCP is the NVIDIA RoCE profile's DSCP map: DSCP 26 -> priority
// 3 (RoCE), DSCP 48 -> priority 6 (CNP), every other DSCP -> priority 0.
func nvidiaDSCP() []int {
	m := make([]int, 64)
	m[26] = 3
	m[48] = 6
	return m
}

// otherDSCP lists the DSCP values of the default class.
func otherDSCP() []int {
	var out []int
	for d := 0; d < 64; d++ {
		if d != 26 && d != 48 {
			out = append(out, d)
		}
	}
	return out
}

// fixtureQoS is the NVIDIA RoCE profile as the compiler resolves it for
// examples/demartek-lab: default TC0 (priorities 0,1,2,4,5,7) and roce TC3
// (priority 3, lossless, DSCP 26) share ETS 50/50, cnp TC6 (priority 6,
// DSCP 48) is strict.
func fixtureQoS() model.QoS {
	return model.QoS{
		Profile: "nvidia-roce",
		Classes: []model.Class{
			{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0,
				DSCP: otherDSCP(), ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
			{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: []int{26}, MarkDSCP: 26,
				Lossless: true, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50},
				ECN: &model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}},
			{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: []int{48}, MarkDSCP: 48,
				CNP: true, ETS: model.ETS{Mode: model.ETSStrict}},
		},
		DSCPToPriority: nvidiaDSCP(),
		PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
		PFCPriorities:  []int{3},
		RoCEClass:      "roce",
		CNPClass:       "cnp",
		Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 1024, SmallPacketPercent: 50},
	}
}

// nicETS is the per-TC ETS the compiler gives every NIC for fixtureQoS.
func nicETS() []model.ETS {
	ets := make([]model.ETS, 8)
	for i := range ets {
		ets[i] = model.ETS{Mode: model.ETSWRR}
	}
	ets[0].BandwidthPercent = 50
	ets[3].BandwidthPercent = 50
	ets[6] = model.ETS{Mode: model.ETSStrict}
	return ets
}

// fixtureRoCE is the RoCE contract of fixtureQoS as a NIC carries it.
func fixtureRoCE() model.RoCE {
	return model.RoCE{
		Mode: "v2", UDPPort: 4791, Priority: 3, DSCP: 26, TOS: 104,
		CNPPriority: 6, CNPDSCP: 48, PFCPriorities: []int{3}, Trust: model.TrustDSCP,
		ECNPriorities: []int{3}, ETS: nicETS(),
	}
}

// smbDirect is the SMB Direct application on the RoCE priority.
func smbDirect() []model.Application {
	return []model.Application{{Kind: "smb-direct", Port: 445, Priority: 3}}
}

// fcNode1 is examples/demartek-lab's fc-node1: Windows Storage Server
// 2012 R2 with an HPE 640FLR-SFP28 (ConnectX-4 Lx, WinOF-2), two ports on
// VLAN 2, MTU 1500, SMB Direct.
func fcNode1() model.Host {
	nic := func(name, iface, addr string) model.NIC {
		return model.NIC{
			Name: name, Interface: iface, Model: "ConnectX-4 Lx", Vendor: "mellanox", Driver: "winof2",
			Transport: model.TransportRoCE, SpeedMbps: 25000, MTU: 1500, VLAN: 2,
			Addresses: []string{addr}, RoCE: fixtureRoCE(), Applications: smbDirect(),
		}
	}
	return model.Host{
		Name: "fc-node1", OS: model.OSWindows, OSVersion: "2012r2",
		NICs: []model.NIC{nic("port1", "SLOT 4 Port 1", "192.168.2.11/24"), nic("port2", "SLOT 4 Port 2", "192.168.2.12/24")},
	}
}

// workstation is examples/homelab-40g's workstation: Windows Server 2016
// with a ConnectX-3 Pro on WinOF, untagged, MTU 9000.
func workstation() model.Host {
	return model.Host{
		Name: "workstation", OS: model.OSWindows, OSVersion: "2016",
		NICs: []model.NIC{{
			Name: "qsfp1", Interface: "Ethernet 3", Model: "ConnectX-3 Pro", Vendor: "mellanox", Driver: "winof",
			Transport: model.TransportRoCE, SpeedMbps: 40000, MTU: 9000,
			Addresses: []string{"10.20.0.10/24"}, RoCE: fixtureRoCE(), Applications: smbDirect(),
		}},
	}
}

// qlogicHost is a Windows host with the QLogic FastLinQ QL45212 of seed
// 001 on VLAN 2.
func qlogicHost() model.Host {
	return model.Host{
		Name: "ql-client", OS: model.OSWindows, OSVersion: "2016",
		NICs: []model.NIC{{
			Name: "roce0", Interface: "NIC in Slot 4 Port 1", Model: "QL45212", Vendor: "qlogic", Driver: "qlogic",
			Transport: model.TransportRoCE, SpeedMbps: 25000, MTU: 1500, VLAN: 2,
			Addresses: []string{"192.168.2.61/24"}, RoCE: fixtureRoCE(), Applications: smbDirect(),
		}},
	}
}

// fixture returns a fabric holding the given hosts.
func fixture(hosts ...model.Host) *model.Fabric {
	return &model.Fabric{Name: "demartek-lab", QoS: fixtureQoS(), VLANs: []model.VLAN{{ID: 2, Name: "roce"}}, Hosts: hosts}
}
