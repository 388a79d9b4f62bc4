package model

// FirmwareCNPDSCP and FirmwareCNPPriority are how a ConnectX NIC marks
// its DCQCN congestion notification packets until told otherwise: the
// firmware defaults CNP_DSCP_P1 48 and CNP_802P_PRIO_P1 6 (mlxconfig),
// the marking NVIDIA's switch RoCE defaults give their strict CNP class
// (NVIDIA Onyx User Manual, RoCE Commands, `show roce`: "6 6 CNP
// Strict"; NVIDIA Cumulus Linux User Guide, RDMA over Converged Ethernet
// - RoCE, "Default RoCE Mode Configuration").
const (
	FirmwareCNPDSCP     = 48
	FirmwareCNPPriority = 6
)

// FirmwareCNP reports whether r marks CNPs as the ConnectX firmware does
// by default (FirmwareCNPDSCP, FirmwareCNPPriority).
func (r RoCE) FirmwareCNP() bool {
	return r.CNPDSCP == FirmwareCNPDSCP && r.CNPPriority == FirmwareCNPPriority
}

// OnyxECNKB is an ECN threshold of bytes as Onyx is told it: in KB (1024
// B; "value (in KBs)", mellanox.onyx onyx_traffic_class), rounded up so
// the threshold is never below the model's.
func OnyxECNKB(bytes int64) int64 { return (bytes + 1023) / 1024 }
