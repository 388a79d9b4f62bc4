package plan

import (
	"math"
	"strconv"

	"github.com/fabricc/fabricc/model"
)

// mlx5MaxCableMeters is the length from which mlx5 ignores a cable
// length (Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c,
// mlx5e_dcbnl_ieee_setpfc, MLX5E_MAX_CABLE_LENGTH), so the Linux script
// sets none.
const mlx5MaxCableMeters = 1000

// scriptCable is the cable length, in whole metres rounded up, that
// host h's script gives NIC n, and what takes it; 0 when the script
// sets none. It follows the host renderers:
//   - Linux (targets/linux writeCableLen, writeMlnxQos): a NIC with PFC
//     and a cable shorter than 1000 m, except QLogic qede, whose DCB runs
//     in its firmware: `mlnx_qos --cable_len` under MLNX_OFED,
//     otherwise iproute2's `dcb pfc set ... delay`, which mlx5 takes as
//     the cable length;
//   - FreeBSD (targets/freebsd mlx5Settings): an mlx5en NIC with a
//     cable, the loader tunable dev.mce.N.conf.qos.cable_length
//     (mlx5en(4));
//   - Windows: none.
func scriptCable(h *model.Host, n *model.NIC) (int, string) {
	if n.Peer == nil || n.Peer.CableMeters <= 0 {
		return 0, ""
	}
	m := int(math.Ceil(n.Peer.CableMeters))
	switch h.OS {
	case model.OSLinux:
		if len(n.RoCE.PFCPriorities) == 0 || n.Driver == "qede" || m >= mlx5MaxCableMeters {
			return 0, ""
		}
		if n.Driver == "mlnx_ofed" {
			return m, "mlnx_qos --cable_len"
		}
		return m, "dcb pfc delay"
	case model.OSFreeBSD:
		if n.Driver == "mlx5en" {
			return m, "conf.qos.cable_length"
		}
	}
	return 0, ""
}

// scriptSettings are the values a host's script sets that the plan
// knows and that the NIC lines do not show as the script writes them:
// each NIC's cable length in whole metres ("roce0 cable length 3 -> 30
// m", with what takes it as the note). A NIC of one revision only is
// not listed: its line says it is added or removed.
func scriptSettings(a, b *model.Host) []Change {
	var out []Change
	for i := range b.NICs {
		nb := &b.NICs[i]
		na := a.NIC(nb.Name)
		if na == nil {
			continue
		}
		ma, toolA := scriptCable(a, na)
		mb, toolB := scriptCable(b, nb)
		if ma == mb {
			continue
		}
		c := Change{Field: nb.Name + " cable length", Before: metresOrNone(ma), After: metresOrNone(mb), Unit: "m", Note: toolB}
		if ma > 0 {
			v := int64(ma)
			c.BeforeValue = &v
		}
		if mb > 0 {
			v := int64(mb)
			c.AfterValue = &v
		} else {
			c.Note = toolA + ": not set, the NIC keeps the last length"
		}
		out = append(out, c)
	}
	return out
}

// metresOrNone is "5", or "none" for 0.
func metresOrNone(m int) string {
	if m == 0 {
		return "none"
	}
	return strconv.Itoa(m)
}
