package docs

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/model"
)

// writeHostDCQCN lists the fabric's DCQCN parameters (the qos block's
// dcqcn, model.QoS.DCQCN) and says, NIC by NIC, where the host script sets
// them or why it cannot; nothing when the fabric sets none.
func writeHostDCQCN(d *doc, f *model.Fabric, h *model.Host) {
	params := f.QoS.DCQCN
	if len(params) == 0 || len(h.NICs) == 0 {
		return
	}
	d.h(2, "DCQCN parameters")
	var body rows
	for _, p := range params {
		s, _ := model.DCQCNSpecOf(p.Name)
		d.at("qos", "dcqcn", p.Name)
		body.add(d, md(p.Name), strconv.FormatInt(p.Value, 10), md(s.Unit), strconv.FormatInt(s.Default, 10),
			orDash(md(s.WinOF)), orDash(md(s.NVConfig)), md(s.Meaning))
	}
	d.at("qos", "dcqcn")
	d.p("The fabric sets these DCQCN reaction point parameters on its ConnectX-4 and later RoCE NICs; every parameter not listed keeps the firmware's value. " +
		"Names, units, ranges and defaults: " + md(model.DCQCNSource) + ", whose WinOF and NVConfig (firmware, mlxconfig) names are listed beside MLNX\\_OFED's.")
	d.table([]string{"parameter", "value", "unit", "firmware default", "WinOF", "NVConfig", "what it does"}, &body, 1, 3)
	for _, n := range h.NICs {
		d.at("host", h.Name, "nic", n.Name, "driver")
		d.also("qos", "dcqcn")
		d.line("- " + md(n.Name) + " (" + md(n.Interface) + "): " + dcqcnWhere(h, &n))
	}
	d.at()
	d.line("")
}

// dcqcnWhere says where the host script sets a NIC's DCQCN parameters, or
// why it does not.
func dcqcnWhere(h *model.Host, n *model.NIC) string {
	switch {
	case n.Transport != model.TransportRoCE:
		return "not RoCE; DCQCN does not apply."
	case !n.TakesDCQCNParams():
		return fmt.Sprintf("not set: these are ConnectX-4 and later parameters, and the %s has none of them.", md(n.Model))
	case h.OS == model.OSLinux && n.Driver == "mlnx_ofed":
		return "set and checked through MLNX\\_OFED's sysfs, /sys/class/net/" + md(n.Interface) + "/ecn/roce\\_rp/NAME (NVIDIA MLNX\\_OFED documentation, Explicit Congestion Notification)."
	case h.OS == model.OSLinux && n.Driver == "inbox":
		return "set and checked through the inbox mlx5\\_ib debugfs, /sys/kernel/debug/mlx5/PCI-DEVICE/cc\\_params/rp\\_NAME (Linux drivers/infiniband/hw/mlx5/cong.c), " +
			"which needs debugfs mounted and no kernel lockdown (kernel\\_lockdown(7)); otherwise the script fails the step and names the firmware way: mlxconfig with the NVConfig names."
	case h.OS == model.OSFreeBSD && n.Driver == "mlx5en":
		return "set and checked through mlx5ib's sysctls, sys.class.infiniband.mlx5\\_N.cong.conf.rp\\_NAME for mceN, now and in /etc/sysctl.conf (FreeBSD sys/dev/mlx5/mlx5\\_ib/mlx5\\_ib\\_cong.c); needs mlx5ib loaded."
	case h.OS == model.OSWindows:
		return "not set or checked by the script: the WinOF column of " + md(model.DCQCNSource) + " names registry keys (as DcQcnEnablePrio0-7 for the per-priority enable) " +
			"but documents no value type for them; set them by hand with the adapter vendor's tools, or in firmware with mlxconfig and the NVConfig names."
	}
	return fmt.Sprintf("not set: fabricc knows no place where the %s driver shows these parameters.", md(n.Driver))
}
