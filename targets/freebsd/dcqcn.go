package freebsd

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// dcqcnSettings are the fabric's DCQCN parameters (the qos block's dcqcn,
// model.QoS.DCQCN) as mlx5ib's congestion sysctls of an mlx5en RoCE NIC,
// sys.class.infiniband.mlx5_<unit>.cong.conf.rp_<name> (FreeBSD
// sys/dev/mlx5/mlx5_ib/mlx5_ib.h, MLX5_IB_CONG_PARAMS: rp_dce_tcp_g,
// rp_min_dec_fac, ...), or none. The values are whole numbers the
// compiler checked against model.DCQCNSpecs.
func dcqcnSettings(f *model.Fabric, n *model.NIC, unit string) []setting {
	if n.Driver != driverMlx5 || !n.TakesDCQCNParams() {
		return nil
	}
	var out []setting
	for _, p := range f.QoS.DCQCN {
		s, ok := model.DCQCNSpecOf(p.Name)
		if !ok {
			continue // the compiler refuses it; validate reports it
		}
		out = append(out, setting{cnpBase(unit) + s.CCParam, fmt.Sprint(p.Value), fromDCQCN + p.Name})
	}
	return out
}

// writeDCQCNParams sets the NIC's DCQCN parameters through mlx5ib's
// congestion sysctls, now and in sysctl.conf, as writeCNP sets the CNP
// marking: mlx5_ib_cong_params_handler writes a changed value to the
// firmware (MODIFY_CONG_PARAMS) and refuses it (EPERM) where the firmware
// does not allow congestion control changes (cc_modify_allowed).
func writeDCQCNParams(b *text, n *model.NIC, p *nicPlan) {
	if len(p.dcqcn) == 0 {
		return
	}
	b.At("qos", "dcqcn")
	b.WriteString("\t# DCQCN parameters of the fabric (qos dcqcn; NVIDIA \"DCQCN CC Parameters\").\n")
	fmt.Fprintf(b, "\tif sysctl_stops %s; then\n", p.dcqcn[0].name)
	fmt.Fprintf(b, "\t\tunavailable %s 'DCQCN parameters' 'mlx5ib congestion sysctls' 'kldload mlx5ib, or set them in firmware with mlxconfig (the NVConfig names of NVIDIA \"DCQCN CC Parameters\")'\n", n.Interface)
	b.WriteString("\telse\n")
	for _, s := range p.dcqcn {
		b.at(s)
		fmt.Fprintf(b, "\t\tensure %s %s %s \"$(sysctl_get %s)\" sysctl %s=%s\n", n.Interface, s.name, s.value, s.name, s.name, s.value)
		fmt.Fprintf(b, "\t\tensure %s %s '%s' \"$(conf_get %s %s)\" conf_set %s %s '%s'\n", sysctlConf, s.name, s.value, sysctlConf, s.name, sysctlConf, s.name, s.value)
	}
	b.At("qos", "dcqcn")
	b.WriteString("\tfi\n")
}
