package linux

import "github.com/fabricc/fabricc/model"

// fixtureQoS is the nvidia-roce profile as the compiler resolves it:
// DSCP 26 -> priority 3 -> TC3 lossless WRR 50 %, DSCP 48 -> priority 6 ->
// TC6 strict (CNPs), everything else -> priority 0 -> TC0 WRR 50 %.
func fixtureQoS() model.QoS {
	d2p := make([]int, 64)
	d2p[26], d2p[48] = 3, 6
	return model.QoS{
		Profile: "nvidia-roce",
		Classes: []model.Class{
			{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0, MarkDSCP: 0,
				ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
			{Name: "roce", Priority: 3, Priorities: []int{3}, TrafficClass: 3, DSCP: []int{26}, MarkDSCP: 26, Lossless: true,
				ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}},
			{Name: "cnp", Priority: 6, Priorities: []int{6}, TrafficClass: 6, DSCP: []int{48}, MarkDSCP: 48, CNP: true,
				ETS: model.ETS{Mode: model.ETSStrict}},
		},
		DSCPToPriority: d2p,
		PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
		PFCPriorities:  []int{3},
		RoCEClass:      "roce",
		CNPClass:       "cnp",
	}
}

// fixtureRoCE is the NIC side of the profile.
func fixtureRoCE() model.RoCE {
	ets := make([]model.ETS, 8)
	for i := range ets {
		ets[i] = model.ETS{Mode: model.ETSWRR}
	}
	ets[0].BandwidthPercent, ets[3].BandwidthPercent = 50, 50
	ets[6] = model.ETS{Mode: model.ETSStrict}
	return model.RoCE{Mode: "v2", UDPPort: 4791, Priority: 3, DSCP: 26, TOS: 104, CNPPriority: 6, CNPDSCP: 48,
		PFCPriorities: []int{3}, Trust: model.TrustDSCP, ECNPriorities: []int{3}, ETS: ets}
}

// fixtureNIC returns a NIC of the given driver.
func fixtureNIC(name, ifc, modelName, vendor, driver string, vlan int, addr string) model.NIC {
	return model.NIC{Name: name, Interface: ifc, Model: modelName, Vendor: vendor, Driver: driver,
		Transport: model.TransportRoCE, SpeedMbps: 100000, MTU: 1500, VLAN: vlan,
		Addresses: []string{addr}, RoCE: fixtureRoCE(),
		Applications: []model.Application{{Kind: "iser", Port: 3260, Priority: 3}}}
}

// fixture is the demartek-lab Linux side: an MLNX_OFED ConnectX-4 iSER
// target on VLAN 2 (p9p1.2, seed 001), a QLogic initiator, and an inbox
// ConnectX-5 storage host without VLAN.
func fixture() *model.Fabric {
	return &model.Fabric{
		Name: "demartek-lab",
		QoS:  fixtureQoS(),
		Hosts: []model.Host{
			{Name: "iser-target", OS: model.OSLinux, OSVersion: "rhel7", NICs: []model.NIC{
				fixtureNIC("roce0", "p9p1", "ConnectX-4", "mellanox", "mlnx_ofed", 2, "192.168.2.41/24")}},
			{Name: "iser-initiator", OS: model.OSLinux, OSVersion: "rhel7", NICs: []model.NIC{
				fixtureNIC("roce0", "p4p1", "QL45212", "qlogic", "qede", 2, "192.168.2.51/24")}},
			{Name: "stor1", OS: model.OSLinux, OSVersion: "ubuntu22.04", Tuning: true, NICs: []model.NIC{
				fixtureNIC("roce0", "ens2f0np0", "ConnectX-5", "mellanox", "inbox", 0, "10.0.1.10/24")}},
		},
	}
}
