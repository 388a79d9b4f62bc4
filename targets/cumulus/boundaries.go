package cumulus

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
		out = append(out, Boundary{d.from.String(), "state keywords " + d.enable + "/" + d.disable + " instead of " + dialects[0].enable + "/" + dialects[0].disable + ", " + d.on + " instead of " + dialects[0].on})
	}
	return out
}
