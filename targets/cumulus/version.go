package cumulus

import (
	"fmt"
	"strconv"
	"strings"
)

// release is a Cumulus Linux major.minor release.
type release struct{ major, minor int }

// atLeast reports whether r is the same as or newer than o.
func (r release) atLeast(o release) bool {
	if r.major != o.major {
		return r.major > o.major
	}
	return r.minor >= o.minor
}

// String prints the release as "5.9".
func (r release) String() string { return fmt.Sprintf("%d.%d", r.major, r.minor) }

// Feature releases, from the "Version History" of each command in NVIDIA's
// NVUE reference (CumulusNetworks/docs content/nvue-reference/
// Set-and-Unset-Commands/QoS.md).
var (
	// sinceQoSProfiles: qos mapping|pfc|congestion-control|egress-queue-mapping|
	// egress-scheduler|traffic-pool and `interface <if> qos mapping|pfc profile`.
	sinceQoSProfiles = release{5, 3}
	// sinceAdvanceBuffer: qos advance-buffer-config and the per-interface
	// link-pause profile.
	sinceAdvanceBuffer = release{5, 4}
	// sincePortSchedulerECN: `interface <if> qos egress-scheduler profile`
	// and `interface <if> qos congestion-control profile` ("Introduced in
	// Cumulus Linux 5.4.0").
	sincePortSchedulerECN = release{5, 4}
	// sincePFCWatchdog: qos pfc-watchdog and interface <if> qos pfc-watchdog.
	sincePFCWatchdog = release{5, 6}
	// sinceServicePool: advance-buffer-config's ingress-pool and
	// egress-pool became ingress-service-pool and egress-service-pool
	// (Cumulus Linux 5.11 What's New, "Changed NVUE Commands").
	sinceServicePool = release{5, 11}
	// sinceAutoSave: `nv config apply` also saves startup.yaml (5.9 and
	// later); older releases need `nv config save`.
	sinceAutoSave = release{5, 9}
)

// dialect holds the keywords that changed between 5.x releases. This table
// is the only place that knows them. Sources: the NVUE Command Reference,
// Set and Unset Commands, QoS (the revision that documents the 5.16 and
// 5.17 commands) and LLDP, and the Cumulus Linux 5.15 "New and Changed
// NVUE Commands" list, tab "On/Off".
type dialect struct {
	from release
	// enable/disable are the state enum of PFC tx/rx, link pause tx/rx
	// and an interface's PFC watchdog, the same in every release: the
	// QoS reference writes `nv set qos pfc default-global tx enable`,
	// `rx enable`, `nv set qos link-pause my_pause_ports tx enable` and
	// `nv set interface swp1 qos pfc-watchdog state enable` ("The default
	// setting is disable"), and the 5.15 change list renames none of
	// them.
	enable, disable string
	// ecnOn/ecnOff are the state enum of ECN marking and RED on a
	// congestion-control traffic class: `enable`/`disable` up to 5.14
	// (Cumulus Linux 5.9 user guide, Quality of Service, ECN; the 5.x
	// `nv list-commands` pages: "ecn (enable|disable)"), `enabled`/
	// `disabled` in the QoS reference (`... traffic-class 4,5,7 ecn
	// enabled`, `... red enabled`). The 5.15 change list does not name
	// ECN or RED, so that 5.15 is the first release taking `enabled`
	// here (it is the release of the other on/off renames) is fabricc's
	// reading of the two pages, not confirmed on a 5.15 switch.
	ecnOn, ecnOff string
	// on is the value that turns an LLDP TLV on: `nv set interface swp1
	// lldp dcbx-pfc-tlv on` up to 5.14, `enabled` from 5.15 (NVUE Command
	// Reference, Set and Unset Commands, LLDP: "In Cumulus Linux 5.14 and
	// earlier, you specify on or off"; the 5.15 change list:
	// "dcbx-pfc-tlv on|off" -> "enabled|disabled").
	on string
}

// dialects is ordered oldest first.
var dialects = []dialect{
	{from: release{5, 0}, enable: "enable", disable: "disable", ecnOn: "enable", ecnOff: "disable", on: "on"},
	{from: release{5, 15}, enable: "enable", disable: "disable", ecnOn: "enabled", ecnOff: "disabled", on: "enabled"},
}

// keywords describes the dialect's state keywords for the file's header:
// "enable/disable", and the ECN/RED words where they differ.
func (d dialect) keywords() string {
	s := d.enable + "/" + d.disable
	if d.ecnOn != d.enable {
		s += ", ECN/RED " + d.ecnOn + "/" + d.ecnOff
	}
	return s
}

// target is what the renderer knows about the switch's release.
type target struct {
	rel release
	dialect
}

// parseRelease reads "5.9.1" (or "5.9") from Switch.OSVersion.
func parseRelease(s string) (release, error) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) < 2 {
		return release{}, fmt.Errorf("os_version %q is not a Cumulus Linux release such as \"5.9.1\"", s)
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || major < 0 || minor < 0 {
		return release{}, fmt.Errorf("os_version %q is not a Cumulus Linux release such as \"5.9.1\"", s)
	}
	return release{major, minor}, nil
}

// newTarget checks that the release has NVUE QoS and picks its dialect.
func newTarget(osVersion string) (target, error) {
	rel, err := parseRelease(osVersion)
	if err != nil {
		return target{}, err
	}
	if !rel.atLeast(sinceQoSProfiles) {
		return target{}, fmt.Errorf("Cumulus Linux %s has no NVUE QoS profiles (they arrived in %s); declare os_version 5.3 or later, or configure QoS through the qos_features.conf files by hand", rel, sinceQoSProfiles)
	}
	t := target{rel: rel}
	for _, d := range dialects {
		if rel.atLeast(d.from) {
			t.dialect = d
		}
	}
	return t, nil
}

// egressPool is the advance-buffer-config keyword of the egress service
// pools in the target's release.
func (t target) egressPool() string {
	if t.rel.atLeast(sinceServicePool) {
		return "egress-service-pool"
	}
	return "egress-pool"
}

// HasPortPFCWatchdog reports whether a switch running osVersion has the
// per-port PFC watchdog, `nv set interface <interface-id> qos
// pfc-watchdog` (NVUE Command Reference, Set and Unset Commands, QoS:
// "Introduced in Cumulus Linux 5.6.0"); false for a version that is no
// Cumulus Linux release, which has no such command to suggest.
func HasPortPFCWatchdog(osVersion string) bool {
	rel, err := parseRelease(osVersion)
	return err == nil && rel.atLeast(sincePFCWatchdog)
}
