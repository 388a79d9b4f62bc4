package plan

import (
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/cumulus"
	"github.com/fabricc/fabricc/targets/eos"
	"github.com/fabricc/fabricc/targets/onyx"
)

// A port the fabric no longer describes keeps what an earlier push set
// on it, on every platform: push merges into the running configuration
// and changes only the ports the fabric describes (EOS: a configure
// session without `rollback clean-config`; Onyx: only the rendered lines
// the switch lacks are sent; Cumulus Linux: `nv config patch`). Its PFC,
// the buffer reservations that go with it and its PFC watchdog stay
// while the pools are sized without it. The notes below name what
// stays per platform and the lines that take it off, in the words each
// renderer writes for a fabric port without that setting, so that
// clearing a port by hand and pushing it back in agree.

// portLeftNote follows a removed port: what stays on the switch and
// how to clear it there (portClear).
func portLeftNote(sw *model.Switch, p *model.Port) string {
	s := "push leaves the port as it is on the switch, its PFC and headroom included: clear it there"
	if cmds := portClear(sw, p); cmds != "" {
		s += ", " + cmds
	}
	return s + ", or keep the port in the fabric with shutdown = true"
}

// portClear is how the port's lossless settings come off on its
// switch's platform; "" when it has none there.
func portClear(sw *model.Switch, p *model.Port) string {
	switch sw.Platform {
	case model.PlatformEOS:
		return eosPortClear(p)
	case model.PlatformOnyx:
		return onyxPortClear(sw, p)
	case model.PlatformCumulus:
		return cumulusPortClear(sw, p)
	}
	return ""
}

// eosPortClear: `no priority-flow-control` and each lossless priority
// back to `drop`, the no-form and the other value of the interface
// lines `priority-flow-control on` and `priority-flow-control priority N
// no-drop` (Arista EOS User Manual, Quality of Service, "Priority Flow
// Control"; Intel Gaudi documentation, "Arista Switch L2 Configuration
// Example", shows both lines), and where the port ran the PFC watchdog
// (eos.WatchdogArmed) `no priority-flow-control pause watchdog`, the
// line the renderer writes for a port without it (EOS's rule that `no`
// removes a command; README, "EOS lines and their public sources":
// no public sample of the no-form was found).
func eosPortClear(p *model.Port) string {
	var lines []string
	if len(p.PFCPriorities) > 0 {
		lines = append(lines, "no priority-flow-control")
		for _, prio := range p.PFCPriorities {
			lines = append(lines, "priority-flow-control priority "+strconv.Itoa(prio)+" drop")
		}
	}
	if eos.WatchdogArmed(p) {
		lines = append(lines, "no priority-flow-control pause watchdog")
	}
	if len(lines) == 0 {
		return ""
	}
	return "on EOS with interface " + p.Name + ", then " + andList(lines)
}

// onyxPortClear: `no dcb priority-flow-control mode force`, the
// no-form of what the mellanox.onyx Ansible module onyx_pfc_interface
// sends to enable PFC (`interface ethernet 1/17 dcb
// priority-flow-control mode on`; Onyx enables PFC per priority
// switch-wide, so the port only leaves it); `no pfc-wd` where the port
// ran the watchdog, the line the renderer writes for a port without it;
// and in advanced buffer mode (MLNX-OS before 3.6.5000) each priority
// group's and egress queue's binding, `no ingress-buffer iPort.pgN` and
// `no egress-buffer ePort.tcN`, the no-form of the renderer's
// `ingress-buffer iPort.pgN ...` and `egress-buffer ePort.tcN ...`
// lines that push's rollback sends (push/onyx.go, onyxNegations; no
// public sample of these no-forms was found). In traffic-pool mode Onyx
// sizes a port's buffers itself from its PFC, so there are no buffer
// lines to remove.
func onyxPortClear(sw *model.Switch, p *model.Port) string {
	prefix := "interface ethernet " + p.Name + " "
	var lines []string
	if len(p.PFCPriorities) > 0 {
		lines = append(lines, prefix+"no dcb priority-flow-control mode force")
	}
	if p.PFCWatchdog {
		lines = append(lines, prefix+"no pfc-wd")
	}
	if sw.BufferStyle == onyx.StyleAdvanced {
		for _, pg := range p.PriorityGroups {
			lines = append(lines, prefix+"no ingress-buffer iPort.pg"+strconv.Itoa(pg.Index))
		}
		for _, q := range p.EgressQueues {
			lines = append(lines, prefix+"no egress-buffer ePort.tc"+strconv.Itoa(q.TrafficClass))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "on Onyx with " + andList(lines)
}

// cumulusPortClear: the port's PFC profile, which holds its headroom
// too, unset, and its PFC watchdog where it had one (NVUE Command
// Reference, `nv unset interface <interface-id> qos pfc` and `qos
// pfc-watchdog`; the renderer sets the watchdog on a port with PFC on a
// switch whose watchdog is on, from Cumulus Linux 5.6, the release that
// introduced the per-port watchdog: an older release has no such
// command to unset), then applied.
func cumulusPortClear(sw *model.Switch, p *model.Port) string {
	if len(p.PFCPriorities) == 0 {
		return ""
	}
	lines := []string{"nv unset interface " + p.Name + " qos pfc"}
	if p.PFCWatchdog && sw.PFCWatchdog.Enabled && cumulus.HasPortPFCWatchdog(sw.OSVersion) {
		lines = append(lines, "nv unset interface "+p.Name+" qos pfc-watchdog")
	}
	return "on Cumulus Linux with " + andList(append(lines, "nv config apply"))
}

// andList is "a", "a and b" or "a, b and c".
func andList(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
