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
	// enabledKeywords: the state enums of PFC tx/rx, link-pause,
	// ECN/RED and the PFC watchdog are `enabled|disabled`, no longer
	// `enable|disable`.
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
//   - enabledKeywords 5.15: the NVUE Command Reference's current QoS
//     pages (`enabled|disabled`) against the Cumulus Linux 5.9 user
//     guide, Quality of Service ("nv set qos pfc default-global tx
//     enable"), the boundary fabricc renders by (targets/cumulus
//     version.go), not confirmed on hardware.
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
	case strings.Contains(t, "mlag state"):
		// NVUE Command Reference, MLAG: "In Cumulus Linux 5.14 and
		// earlier, you specify enable on or enable off instead of state
		// enabled or state disabled".
		return enabledKeywords, true
	}
	return 0, false
}
