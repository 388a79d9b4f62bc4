package model

// DriverQoS is what a host NIC's driver stack lets the host classify and
// set: the one place the compiler's checks and the host documents take
// it from, as MTUMeaning is for MTUs.
type DriverQoS struct {
	// PCPOnly: the NIC classifies the frames it receives by their 802.1Q
	// PCP only. It has no DSCP trust, so its trust is pcp whatever is
	// written, and an untagged frame, which carries no PCP, lands in
	// priority 0.
	PCPOnly bool
	// Unset names what fabricc models for the NIC but the driver has no
	// setting for ("trust", "DSCP map", "ETS", "DCQCN"); the host script
	// leaves those alone and the host document says so.
	Unset []string
	// Source is the public document or code that establishes it.
	Source string
}

// driverQoS is DriverQoS by host OS and driver, for the drivers that
// differ from the rest; a driver not listed classifies by whichever field
// its trust says and has every setting the host scripts write:
//
//   - FreeBSD mlx4en (ConnectX-3, ConnectX-3 Pro): its per-interface
//     sysctls are the per-priority pause masks rx_ppp and tx_ppp and no
//     trust, DSCP-to-priority map, ETS or congestion-control node
//     (FreeBSD sys/dev/mlx4/mlx4_en/mlx4_en_netdev.c, the hw.mlxenN.conf
//     tree); the NIC classifies by PCP.
//
// Left as they are, for want of a public source either way or because one
// says otherwise:
//
//   - FreeBSD mlx5en: trust is settable, dev.mce.N.conf.qos.trust_state
//     "1:PCP 2:DSCP 3:BOTH" with the dscp_N_M_prio map (FreeBSD
//     sys/dev/mlx5/mlx5_en/mlx5_en_ethtool.c, conf.qos node).
//   - Windows WinOF (ConnectX-3): documents DSCP-based PFC, with
//     RxUntaggedMapToLossless mapping all untagged received traffic to
//     the lossless queue (Mellanox WinOF User Manual and Release Notes,
//     Rev 5.50, section 4.1.11.7), so an untagged frame does not fall to
//     priority 0 there.
//   - Linux mlx4 (ConnectX-3 under MLNX_OFED or the inbox driver): the
//     trust state is the QPTS register, added for mlx5 (Linux kernel
//     commit "net/mlx5: QPTS and QPDPM register firmware command
//     support"); no public source found says whether mlnx_qos --trust
//     dscp works on a ConnectX-3, so it is not marked PCP only.
var driverQoS = map[OS]map[string]DriverQoS{
	OSFreeBSD: {
		"mlx4en": {
			PCPOnly: true,
			Unset:   []string{"trust", "DSCP map", "ETS", "DCQCN"},
			Source:  "its only QoS sysctls are the pause masks rx_ppp and tx_ppp, FreeBSD sys/dev/mlx4/mlx4_en/mlx4_en_netdev.c",
		},
	},
}

// NICDriverQoS returns what the driver of a NIC on os classifies by and
// lets the host set; the zero value for a driver with no limits known.
func NICDriverQoS(os OS, driver string) DriverQoS {
	return driverQoS[os][driver]
}

// Unsettable reports whether the driver has no setting for what
// ("trust", "DSCP map", "ETS", "DCQCN").
func (d DriverQoS) Unsettable(what string) bool {
	for _, u := range d.Unset {
		if u == what {
			return true
		}
	}
	return false
}
