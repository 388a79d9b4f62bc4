package docs

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/eos"
	"github.com/fabricc/fabricc/targets/onyx"
)

// Unconfigured says, for a switch whose configuration carries no
// per-port PFC headroom from fabricc, who sizes it instead and how to
// read it on the switch; zero for a switch where fabricc writes each
// lossless group's numbers (Onyx advanced buffers, Cumulus NVUE PFC
// profiles) or one platform-wide value from them (EOS MMU queue
// profile). On such a switch fabricc's headroom numbers are its own
// computation, for comparison: a recabled port moves them, not the
// switch.
type Unconfigured struct {
	// Who is the sentence that says who sizes the headroom:
	// "Onyx sizes per-port headroom itself in traffic-pool mode".
	Who string
	// check is what to read on the switch after a recable, "%s" for
	// the port's name.
	check string
}

// Check is what to read on the switch for port after a recable.
func (u Unconfigured) Check(port string) string {
	if strings.Contains(u.check, "%s") {
		return fmt.Sprintf(u.check, port)
	}
	return u.check
}

// HeadroomUnconfigured returns what Unconfigured says for sw, and false
// when fabricc configures the headroom.
//
//   - Onyx in traffic-pool mode (MLNX-OS 3.6.5000 and later): fabricc
//     writes the traffic pools only; targets/onyx notes "Onyx computes
//     per-port headroom itself in traffic-pool mode".
//   - Cumulus Linux with qos.headroom.mode "platform": the PFC profiles
//     carry the cable-length only (targets/cumulus WrittenPFCBuffer).
//   - EOS on an ASIC without a user MMU queue profile (Jericho): fabricc
//     writes no buffer command (targets/eos writeBuffers).
func HeadroomUnconfigured(sw *model.Switch) (Unconfigured, bool) {
	if sw == nil || !hasLosslessPG(sw) {
		return Unconfigured{}, false
	}
	switch {
	case sw.Platform == model.PlatformOnyx && sw.BufferStyle == onyx.StyleTrafficPool:
		return Unconfigured{
			Who:   "Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later",
			check: "on the switch: show buffers details interfaces ethernet %s",
		}, true
	case sw.Platform == model.PlatformCumulus && sw.HeadroomLeftToSwitch:
		// Show command: NVUE Command Reference, Show Commands, QoS
		// (XON/XOFF thresholds and headroom per priority group, 5.4+).
		return Unconfigured{
			Who:   "Cumulus Linux derives each port's headroom from its cable-length (qos headroom mode \"platform\")",
			check: "on the switch: nv show interface %s qos buffer",
		}, true
	case sw.Platform == model.PlatformEOS:
		if _, ok := eos.ProfileHeadroomOf(sw); ok {
			return Unconfigured{}, false
		}
		return Unconfigured{
			Who:   "EOS sizes PFC headroom itself on " + orDash(sw.Hardware.ASIC) + ", which has no MMU queue profile",
			check: "what EOS reports for %s on the switch",
		}, true
	}
	return Unconfigured{}, false
}

// ComputedNote is the sentence a plan gives beside the headroom numbers
// of port on a switch fabricc does not configure them on.
func (u Unconfigured) ComputedNote(port string) string {
	return "fabricc's computed values for comparison, not configured: " + u.Who + "; after a recable check the switch's own headroom, " + u.Check(port)
}

// hasLosslessPG reports whether a port of sw has a lossless priority
// group.
func hasLosslessPG(sw *model.Switch) bool {
	for i := range sw.Ports {
		for _, pg := range sw.Ports[i].PriorityGroups {
			if pg.Lossless {
				return true
			}
		}
	}
	return false
}
