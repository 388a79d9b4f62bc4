package cumulus

import (
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// change is a behaviour of NVUE that the simulator models and that one
// Cumulus Linux release changed (releases).
type change int

const (
	// advanceBuffer: the objects `qos advance-buffer-config` and
	// `qos link-pause`.
	advanceBuffer change = iota
	// pfcWatchdog: the objects `qos pfc-watchdog` and an interface's
	// `qos pfc-watchdog`.
	pfcWatchdog
	// cliPagination: the objects `system cli pagination`.
	cliPagination
	// autoSaveByDefault: `nv config apply` also saves to startup.yaml
	// unless auto save is turned off.
	autoSaveByDefault
	// egressServicePool: the egress service pools' keyword is
	// `egress-service-pool`, no longer `egress-pool`.
	egressServicePool
	// enabledKeywords: `qos roce state enabled|disabled`, `lldp
	// dcbx-pfc-tlv enabled|disabled` and a bond's `mlag state` replace
	// `enable on|off` and `on|off`, and ECN/RED take `enabled|disabled`
	// instead of `enable|disable`. PFC and link-pause tx/rx and the
	// interface PFC watchdog state stay `enable|disable` (schema.go).
	enabledKeywords
	changes // how many changes there are
)

// releases is the first Cumulus Linux release of each change, the one
// table every release-dependent behaviour of the simulator reads
// (since). Sources:
//   - advanceBuffer 5.4, pfcWatchdog 5.6, cliPagination 5.9: the
//     "Version History" of each command in the NVUE Command Reference,
//     Set and Unset Commands, QoS and System Configuration;
//   - autoSaveByDefault 5.9: NVUE Command Reference, Config Commands,
//     `nv config apply`: "In Cumulus Linux 5.9 and later, auto save is
//     on by default"; Cumulus Linux 5.9 user guide, NVUE CLI, "Auto Save";
//   - egressServicePool 5.11: Cumulus Linux 5.11 What's New, "Changed
//     NVUE Commands"; the 5.9 user guide, Quality of Service, "Advanced
//     Buffer Tuning" still has `egress-pool`;
//   - enabledKeywords 5.15: Cumulus Linux 5.15 "New and Changed NVUE
//     Commands", tab "On/Off" (`nv set qos roce enable on|off` -> `nv
//     set qos roce state enabled|disabled`, `lldp dcbx-pfc-tlv on|off`
//     -> `enabled|disabled`, `bond mlag enable on|off` -> `state`);
//     ECN/RED: the NVUE Command Reference, Set and Unset Commands, QoS
//     writes `ecn enabled` and `red enabled` where the 5.x command lists
//     have `ecn (enable|disable)`; the 5.15 list does not name them, so
//     their cut-off at 5.15 is the reading of both pages, unconfirmed on
//     a 5.15 switch.
var releases = [changes]string{
	advanceBuffer:     "5.4",
	pfcWatchdog:       "5.6",
	cliPagination:     "5.9",
	autoSaveByDefault: "5.9",
	egressServicePool: "5.11",
	enabledKeywords:   "5.15",
}

// since reports whether release version has change c (releases).
func since(version string, c change) bool { return cli.VersionAtLeast(version, releases[c]) }

// releaseChanges is the set of changes release version has: releases
// with the same set behave the same and share one schema (schemaFor).
type releaseChanges [changes]bool

// changesOf is the releaseChanges of release version.
func changesOf(version string) releaseChanges {
	var rc releaseChanges
	for c := range rc {
		rc[c] = since(version, change(c))
	}
	return rc
}

// templateChange is the change that brought a template's objects into
// NVUE, and false for a template every 5.x release has.
func templateChange(t string) (change, bool) {
	switch {
	case strings.HasPrefix(t, "system cli pagination"):
		return cliPagination, true
	case strings.Contains(t, "pfc-watchdog"):
		return pfcWatchdog, true
	case strings.Contains(t, "advance-buffer-config"), strings.Contains(t, "link-pause"):
		return advanceBuffer, true
	case strings.HasSuffix(t, "dcbx-pfc-tlv {enabled|disabled}"),
		strings.HasSuffix(t, "ecn|red {enabled|disabled}"),
		strings.HasSuffix(t, "qos roce state {enabled|disabled}"):
		return enabledKeywords, true
	case strings.Contains(t, "mlag state"):
		// NVUE Command Reference, MLAG: "In Cumulus Linux 5.14 and
		// earlier, you specify enable on or enable off instead of state
		// enabled or state disabled".
		return enabledKeywords, true
	}
	return 0, false
}

// templateRetired is the change that took a template's keywords out of
// NVUE (the 5.15 renames: `qos roce enable on|off`, `dcbx-pfc-tlv
// on|off`, ECN/RED `enable|disable`), and false for a template every
// later release still has.
func templateRetired(t string) (change, bool) {
	switch {
	case strings.HasSuffix(t, "dcbx-pfc-tlv {on|off}"),
		strings.HasSuffix(t, "ecn|red {enable|disable}"),
		strings.HasSuffix(t, "qos roce enable {on|off}"):
		return enabledKeywords, true
	}
	return 0, false
}
