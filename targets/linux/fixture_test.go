package linux

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// fixtureNIC returns a NIC of the given driver carrying the nvidia-roce
// host contract (modeltest.NVIDIARoCE).
func fixtureNIC(name, ifc, modelName, vendor, driver string, vlan int, addr string) model.NIC {
	return model.NIC{Name: name, Interface: ifc, Model: modelName, Vendor: vendor, Driver: driver,
		Transport: model.TransportRoCE, SpeedMbps: 100000, MTU: 1500, VLAN: vlan,
		Addresses: []string{addr}, RoCE: modeltest.NVIDIARoCE(),
		Applications: []model.Application{{Kind: "iser", Port: 3260, Priority: modeltest.RoCEPriority}}}
}

// fixture is the demartek-lab Linux side with the nvidia-roce profile: an
// MLNX_OFED ConnectX-4 iSER target on VLAN 2 (p9p1.2 as in the Demartek
// RoCE Deployment Guide, "Linux: Deploying iSER over RoCE"), a QLogic
// initiator, and an inbox ConnectX-5 storage host without VLAN.
func fixture() *model.Fabric {
	return &model.Fabric{
		Name: "demartek-lab",
		QoS:  modeltest.NVIDIARoCEQoS(),
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
