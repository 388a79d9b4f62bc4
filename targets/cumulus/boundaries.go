package cumulus

import "strings"

// Boundary is a Cumulus Linux release from which the NVUE file fabricc
// renders for a switch changes: a file built for a release before it
// does not fit a switch running it or later, and the other way round.
type Boundary struct {
	// Release is the first release of the change ("5.6").
	Release string
	// What says what changes there.
	What string
}

// Boundaries lists the releases at which the rendered file changes,
// oldest first: the feature releases of version.go and the first
// release of each keyword dialect after the first. `fabricc push` refuses
// a switch whose release is on the other side of one from os_version.
func Boundaries() []Boundary {
	out := []Boundary{
		{sinceQoSProfiles.String(), "NVUE QoS profiles"},
		{sinceAdvanceBuffer.String(), "qos advance-buffer-config and link-pause profiles"},
		{sincePFCWatchdog.String(), "qos pfc-watchdog"},
		{sinceAutoSave.String(), "auto save at nv config apply"},
		{sinceServicePool.String(), "advance-buffer-config egress-service-pool instead of egress-pool"},
	}
	for _, d := range dialects[1:] {
		out = append(out, Boundary{d.from.String(), dialectChange(dialects[0], d)})
	}
	return out
}

// dialectChange says which keywords d writes instead of old's.
func dialectChange(old, d dialect) string {
	var parts []string
	if d.enable != old.enable {
		parts = append(parts, "state keywords "+d.enable+"/"+d.disable+" instead of "+old.enable+"/"+old.disable)
	}
	if d.ecnOn != old.ecnOn {
		parts = append(parts, "ECN/RED "+d.ecnOn+"/"+d.ecnOff+" instead of "+old.ecnOn+"/"+old.ecnOff)
	}
	if d.on != old.on {
		parts = append(parts, "dcbx-pfc-tlv "+d.on+" instead of "+old.on)
	}
	return strings.Join(parts, ", ")
}
