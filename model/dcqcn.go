package model

import (
	"fmt"
	"math"
)

// DCQCNParam is one DCQCN parameter the fabric sets on its ConnectX NICs,
// named as MLNX_OFED's sysfs names it (DCQCNSpec.Name).
type DCQCNParam struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// DCQCNSpec describes one DCQCN parameter of a ConnectX-4 or later NIC: its
// names for each driver, its unit and the values the NIC takes.
type DCQCNSpec struct {
	// Name is MLNX_OFED's: the file under /sys/class/net/IF/ecn/Point/
	// and the name written in the dcqcn block.
	Name string
	// Point is the sysfs directory, roce_rp (reaction point: the sender)
	// or roce_np (notification point: the receiver).
	Point string
	// CCParam is the name in the inbox Linux mlx5_ib debugfs cc_params
	// (Linux drivers/infiniband/hw/mlx5/cong.c, mlx5_ib_dbg_cc_name) and
	// in FreeBSD mlx5ib's sysctl node cong.conf (FreeBSD
	// sys/dev/mlx5/mlx5_ib/mlx5_ib.h, MLX5_IB_CONG_PARAMS).
	CCParam string
	// WinOF and NVConfig are the same parameter's WinOF registry key and
	// firmware (mlxconfig) name in DCQCNSource, "" where it gives none.
	WinOF, NVConfig string
	// Unit says what the number counts.
	Unit string
	// Min and Max bound the value; LineRate also bounds it by each NIC's
	// speed in Mb/s.
	Min, Max int64
	LineRate bool
	// Default is the firmware's value, which fabricc leaves in place for
	// a parameter not written.
	Default int64
	// Meaning says what the parameter does, in a few words.
	Meaning string
}

// DCQCNSource is the public document of the names, units, ranges and
// defaults of DCQCNSpecs.
const DCQCNSource = `NVIDIA "DCQCN CC Parameters" (DOCA SDK documentation; ConnectX-4 and later)`

// DCQCNSpecs are the DCQCN parameters a fabric can set, in the order the
// dcqcn block, the model and the host scripts list them. Each name, unit,
// range and default is DCQCNSource's; rpg_min_dec_fac starts at 1, as
// FreeBSD's mlx5ib describes it ("[1 .. 100]", sys/dev/mlx5/mlx5_ib/
// mlx5_ib.h), where NVIDIA's table starts at 0. The rate increase
// parameters (rpg_time_reset, rpg_byte_reset, rpg_threshold, rpg_ai_rate,
// rpg_hai_rate, rpg_max_rate), rpg_gd and the notification point's
// min_time_between_cnps are left out until their ranges are sourced; the
// CNP marking (cnp_dscp, cnp_802p_prio) is the NIC's cnp_dscp and
// cnp_priority, and the per-priority enable follows the lossless classes
// (RoCE.ECNPriorities).
var DCQCNSpecs = []DCQCNSpec{
	{Name: "dce_tcp_g", Point: "roce_rp", CCParam: "rp_dce_tcp_g", WinOF: "DcQcnDceAlphaG", NVConfig: "DCE_TCP_G", Unit: "fixed point, 10 fraction bits (1024 = 1)", Min: 0, Max: 1023, Default: 1019,
		Meaning: "weight of the old alpha in each alpha update"},
	{Name: "dce_tcp_rtt", Point: "roce_rp", CCParam: "rp_dce_tcp_rtt", WinOF: "DcQcnDceAlphaUpdatePeriod", NVConfig: "DCE_TCP_RTT", Unit: "µs", Min: 1, Max: 131071, Default: 1,
		Meaning: "time between two alpha updates"},
	{Name: "initial_alpha_value", Point: "roce_rp", CCParam: "rp_initial_alpha_value", WinOF: "DcQcnInitialAlphaValue", NVConfig: "INITIAL_ALPHA_VALUE", Unit: "fixed point, 10 fraction bits (1024 = 1)", Min: 1, Max: 1023, Default: 1023,
		Meaning: "alpha of a flow at its first CNP"},
	{Name: "rate_to_set_on_first_cnp", Point: "roce_rp", CCParam: "rp_rate_to_set_on_first_cnp", WinOF: "DcQcnRateToSetOnFirstCnp", NVConfig: "RATE_TO_SET_ON_FIRST_CNP", Unit: "Mb/s", Min: 0, Max: math.MaxUint32, LineRate: true, Default: 0,
		Meaning: "rate a flow drops to at its first CNP; 0 keeps the line rate"},
	{Name: "rpg_min_dec_fac", Point: "roce_rp", CCParam: "rp_min_dec_fac", WinOF: "DcQcnMinDecFac", NVConfig: "RPG_MIN_DEC_FAC", Unit: "%", Min: 1, Max: 100, Default: 50,
		Meaning: "largest share of the rate one CNP can take away"},
	{Name: "rpg_min_rate", Point: "roce_rp", CCParam: "rp_min_rate", WinOF: "DcQcnMinRate", NVConfig: "RPG_MIN_RATE", Unit: "Mb/s", Min: 1, Max: math.MaxUint32, LineRate: true, Default: 1,
		Meaning: "lowest rate a flow is limited to"},
	{Name: "rate_reduce_monitor_period", Point: "roce_rp", CCParam: "rp_rate_reduce_monitor_period", Unit: "µs", Min: 1, Max: math.MaxUint32, Default: 4,
		Meaning: "least time between two rate reductions of a flow"},
}

// DCQCNSpecOf returns the spec of the parameter named name.
func DCQCNSpecOf(name string) (DCQCNSpec, bool) {
	for _, s := range DCQCNSpecs {
		if s.Name == name {
			return s, true
		}
	}
	return DCQCNSpec{}, false
}

// TakesDCQCNParams reports whether the NIC has the DCQCN parameters of
// DCQCNSpecs: a Mellanox (NVIDIA) ConnectX-4 or later running RoCE.
// ConnectX-3 (mlx4) has none of them.
func (n *NIC) TakesDCQCNParams() bool {
	return n.Vendor == "mellanox" && n.Transport == TransportRoCE && !n.RunsMlx4()
}

// CheckDCQCN returns an error naming the first parameter of params that
// is unknown or out of its range (the compiler refuses both), for the
// host scripts, which write the values into root shell lines.
func CheckDCQCN(params []DCQCNParam) error {
	for _, p := range params {
		s, ok := DCQCNSpecOf(p.Name)
		if !ok {
			return fmt.Errorf("qos dcqcn has an unknown parameter %q", p.Name)
		}
		if p.Value < s.Min || p.Value > s.Max {
			return fmt.Errorf("qos dcqcn %s = %d is out of its range %d-%d", p.Name, p.Value, s.Min, s.Max)
		}
	}
	return nil
}
