package freebsd

import (
	"math"

	"github.com/fabricc/fabricc/model"
)

// CableLength is the cable length, in whole meters rounded up, that n's
// script gives an mlx5en NIC as the loader tunable
// dev.mce.N.conf.qos.cable_length (mlx5en(4)), from which the NIC sizes
// its own PFC headroom, and the setting's name; 0 when it sets none.
// fabricc plan names it when it changes.
func CableLength(n *model.NIC) (int, string) {
	if n.Driver != driverMlx5 || n.Peer == nil || n.Peer.CableMeters <= 0 {
		return 0, ""
	}
	return int(math.Ceil(n.Peer.CableMeters)), "conf.qos.cable_length"
}
