package linux

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// DCQCN reaction point parameters (the qos block's dcqcn, model.QoS.DCQCN).
// MLNX_OFED's mlx5_core shows them as files under
// /sys/class/net/IF/ecn/roce_rp, named as NVIDIA's "DCQCN CC Parameters"
// table names them (MLNX_OFED column); the inbox mlx5_ib shows the same
// firmware parameters in debugfs, /sys/kernel/debug/mlx5/PCI/cc_params,
// with an rp_ prefix (Linux drivers/infiniband/hw/mlx5/cong.c,
// mlx5_ib_dbg_cc_name). Both read the firmware's value and write it
// (MODIFY_CONG_PARAMS), which lasts until the NIC resets: the script
// writes them at every run, and --check reports each difference.

// dcqcnStep says how writeDCQCNParams writes a NIC's parameters.
func dcqcnStep(f *model.Fabric, n *model.NIC) int {
	if len(f.QoS.DCQCN) == 0 || !n.TakesDCQCNParams() {
		return cnpNone
	}
	switch n.Driver {
	case driverOFED:
		return cnpSysfs
	case driverInbox:
		return cnpDebugfs
	}
	return cnpNone
}

// writeDCQCNParams writes the fabric's DCQCN parameters on n, where its
// driver has them; the values are whole numbers the compiler checked
// against model.DCQCNSpecs.
func writeDCQCNParams(b *script, f *model.Fabric, n *model.NIC) {
	params := f.QoS.DCQCN
	switch dcqcnStep(f, n) {
	case cnpSysfs:
		b.At("qos", "dcqcn")
		b.WriteString("\tif capable \"$ifc\" \"DCQCN parameters sysfs (ecn/roce_rp)\" \"MLNX_OFED's mlx5_core creates /sys/class/net/$ifc/ecn/roce_rp\" test -d \"/sys/class/net/$ifc/ecn/roce_rp\"; then\n")
		for _, p := range params {
			s, _ := model.DCQCNSpecOf(p.Name)
			b.At("qos", "dcqcn", p.Name)
			fmt.Fprintf(b, "\t\tdcqcn_sysfs \"$ifc\" %s %s %d\n", s.Point, s.Name, p.Value)
		}
		b.At("qos", "dcqcn")
		b.WriteString("\tfi\n")
	case cnpDebugfs:
		b.At("qos", "dcqcn")
		if cnpStep(n) == cnpNone {
			// The CNP step, which every inbox ConnectX RoCE NIC has,
			// mounts debugfs otherwise.
			b.WriteString("\tdebugfs_mount \"$ifc\"\n")
		}
		b.WriteString("\tif capable \"$ifc\" \"DCQCN parameters (mlx5 debugfs cc_params)\" \"$(dcqcn_fix \"$ifc\")\" cc_params_ready \"$ifc\"; then\n")
		for _, p := range params {
			s, _ := model.DCQCNSpecOf(p.Name)
			b.At("qos", "dcqcn", p.Name)
			fmt.Fprintf(b, "\t\tdcqcn_debugfs \"$ifc\" %s %d\n", s.CCParam, p.Value)
		}
		b.At("qos", "dcqcn")
		b.WriteString("\tfi\n")
	}
}

// dcqcnFeatures are the prelude blocks the host's DCQCN parameter steps
// call.
func dcqcnFeatures(f *model.Fabric, h *model.Host) feature {
	var u feature
	for i := range h.NICs {
		switch dcqcnStep(f, &h.NICs[i]) {
		case cnpSysfs:
			u |= useDCQCNSys | useCapable
		case cnpDebugfs:
			u |= useDCQCNDbg | useCNPDebugfs | useCapable
		}
	}
	return u
}

// validateDCQCN refuses a parameter the compiler would not have let
// through: an unknown name or a value out of its range.
func validateDCQCN(f *model.Fabric) error {
	if err := model.CheckDCQCN(f.QoS.DCQCN); err != nil {
		return fmt.Errorf("linux: %w", err)
	}
	return nil
}
