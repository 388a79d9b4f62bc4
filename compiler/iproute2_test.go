package compiler

import (
	"reflect"
	"testing"
)

// TestInboxIproute2: a Linux NIC with driver = "inbox" on a host whose
// os_version is Debian 10 or 11 is warned about at its driver: their
// iproute2 (4.20, 5.10: manpages.debian.org) has no dcb app, dcb dcbx or
// dcb -N, which the inbox host script needs (iproute2 5.12), so the
// script would stop before any change. MLNX_OFED, a newer release and an
// unknown one are not warned about.
func TestInboxIproute2(t *testing.T) {
	host := func(osVersion, driver string) string {
		return edit("", "  os = \"linux\"\n", "  os = \"linux\"\n  os_version = \""+osVersion+"\"\n",
			"    model     = \"ConnectX-6 Dx\"\n", "    model     = \"ConnectX-6 Dx\"\n    driver    = \""+driver+"\"\n")
	}
	const debian11 = "22:17: Inbox driver on a release without iproute2 dcb: nic \"roce0\" of host \"gpu01\" has driver = \"inbox\", whose host script sets PFC, ETS, the DSCP map and DCBX with dcb (dcb app, dcb dcbx, dcb -N: iproute2 5.12 or later), but the host's os_version \"debian11\" ships iproute2 5.10, which has none of them, so the script stops before any change. Install iproute2 5.12 or later on the host (ip -V prints the installed release), or, with MLNX_OFED installed, write driver = \"mlnx_ofed\"; accept this warning if the host already has a newer iproute2."
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"debian11 inbox", host("debian11", "inbox"), []string{debian11}},
		{"debian10 inbox", host("Debian10", "inbox"), []string{
			"22:17: Inbox driver on a release without iproute2 dcb: nic \"roce0\" of host \"gpu01\" has driver = \"inbox\", whose host script sets PFC, ETS, the DSCP map and DCBX with dcb (dcb app, dcb dcbx, dcb -N: iproute2 5.12 or later), but the host's os_version \"Debian10\" ships iproute2 4.20, which has none of them, so the script stops before any change. Install iproute2 5.12 or later on the host (ip -V prints the installed release), or, with MLNX_OFED installed, write driver = \"mlnx_ofed\"; accept this warning if the host already has a newer iproute2."}},
		{"debian11 MLNX_OFED", host("debian11", "mlnx_ofed"), nil},
		{"debian12 inbox", host("debian12", "inbox"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, diags := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(diags, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(diags), joinLines(tc.want))
			}
		})
	}
}
