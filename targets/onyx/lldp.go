package onyx

import (
	"strings"

	"github.com/fabricc/fabricc/model"
)

// writeLLDP turns LLDP on where a port's peer takes its PFC by DCBX
// (model.Port.DCBX: a QLogic NIC in Dynamic DCBX mode) and the release
// leaves LLDP off. Onyx runs DCBX IEEE whenever LLDP runs, and "From
// version 3.8.2000, LLDP is now enabled by default" (NVIDIA Onyx User
// Manual, Link Layer Discovery Protocol (LLDP): "switch (config) #
// lldp"); before that release the PFC the port runs is never advertised
// and the NIC runs its RoCE priority without PFC. From 3.8.2000 on
// nothing is written: the line is the default there and the running
// configuration does not show it.
func writeLLDP(w *writer, sw *model.Switch) {
	if !lldpOffByDefault(sw.OSVersion) {
		return
	}
	var ports []string
	for i := range sw.Ports {
		if sw.Ports[i].DCBX {
			ports = append(ports, sw.Ports[i].Name)
		}
	}
	if len(ports) == 0 {
		return
	}
	w.section("LLDP configuration")
	w.note("LLDP, and with it DCBX IEEE, is off by default before Onyx 3.8.2000: on for the NIC on %s, which takes its PFC from the switch by DCBX", strings.Join(ports, ", "))
	w.cmd("lldp")
}

// lldpOffByDefault tells whether Onyx release v ("3.6.4006") predates
// 3.8.2000, where LLDP became on by default.
func lldpOffByDefault(v string) bool {
	return model.CompareVersions(v, "3.8.2000") < 0
}
