package compiler

import (
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// oldIproute2 are Linux releases, by os_version, whose own iproute2 is
// older than the 5.12 the inbox host script needs, with that iproute2:
// Debian 10 (buster) ships 4.20 and Debian 11 (bullseye) 5.10
// (manpages.debian.org, package iproute2 per suite).
var oldIproute2 = map[string]string{"debian10": "4.20", "debian11": "5.10"}

// inboxIproute2 is the first iproute2 whose dcb has everything the inbox
// host script runs: `dcb app`, `dcb dcbx` and `dcb -N` (iproute2 git
// history: dcb came in v5.11.0, "dcb: Add a subtool for the DCB APP
// object", "... for the DCBX object" and "dcb: Support -N to suppress
// translation to human-readable names" in v5.12.0).
const inboxIproute2 = "5.12"

// checkInboxIproute2 warns about a Linux NIC with driver = "inbox" on a
// host whose declared release ships an iproute2 without those dcb
// commands: its host script would stop before any change.
func (l *lowering) checkInboxIproute2(h *dsl.Host, out *model.Host) {
	have, old := oldIproute2[strings.ToLower(out.OSVersion)]
	if out.OS != model.OSLinux || !old {
		return
	}
	for i := range h.NICs {
		n := &h.NICs[i]
		if n.Driver == nil || *n.Driver != "inbox" {
			continue
		}
		l.warnf(n.DriverRange.Or(n.DefRange), "Inbox driver on a release without iproute2 dcb",
			"nic %q of host %q has driver = \"inbox\", whose host script sets PFC, ETS, the DSCP map and DCBX with dcb (dcb app, dcb dcbx, dcb -N: iproute2 %s or later), but the host's os_version %q ships iproute2 %s, which has none of them, so the script stops before any change. Install iproute2 %s or later on the host (ip -V prints the installed release), or, with MLNX_OFED installed, write driver = \"mlnx_ofed\"; accept this warning if the host already has a newer iproute2.",
			n.Name, h.Name, inboxIproute2, out.OSVersion, have, inboxIproute2)
	}
}
