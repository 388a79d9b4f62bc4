package model

import "strings"

// mlx4Models are the NVIDIA (Mellanox) adapters of the ConnectX-3 family,
// which the mlx4 drivers run; every later ConnectX runs mlx5.
var mlx4Models = map[string]bool{"ConnectX-3": true, "ConnectX-3 Pro": true}

// RunsMlx5 reports whether the NIC is an NVIDIA ConnectX-4 or later,
// which Linux runs with the mlx5 driver (inbox or MLNX_OFED alike).
func (n *NIC) RunsMlx5() bool {
	return n.Vendor == "mellanox" && !mlx4Models[n.Model]
}

// RunsMlx4 reports whether the NIC is an NVIDIA ConnectX-3 or ConnectX-3
// Pro, which the mlx4 drivers run: no CNP setting, no global traffic
// class, no link toggle on a PFC change.
func (n *NIC) RunsMlx4() bool { return mlx4Models[n.Model] }

// TakesPFCByDCBX reports whether the NIC takes its PFC settings from its
// switch port by DCBX rather than from the host: a QLogic FastLinQ NIC
// running RoCE, whose UEFI setup chooses "Dynamic" DCBX and the RoCE
// priority (Demartek RoCE Deployment Guide, QLogic adapter set-up, step
// 6), so that no host command sets its PFC.
func (n *NIC) TakesPFCByDCBX() bool {
	return strings.EqualFold(n.Vendor, "qlogic") && n.Transport == TransportRoCE
}
