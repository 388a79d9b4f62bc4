package push

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestAllOrNothingDeviceTimeoutWhileWaiting: the Onyx switch, verified,
// waits at the gate (it has no confirm window to end its wait) while the
// NVUE switch's apply is slow, and reaches its device timeout there. Its
// report must say so, as every other device timeout does ("device
// timeout reached ..."), not "context deadline exceeded".
func TestAllOrNothingDeviceTimeoutWhileWaiting(t *testing.T) {
	t.Parallel()
	fl := startFleet(t, map[model.Platform]sim.Faults{model.PlatformCumulus: {Stage: &sim.StageFault{
		At: regexp.MustCompile(`^nv config apply --confirm \S+ -y`), Kind: sim.FaultSlow, Delay: 8 * time.Second}}})
	onyx := -1
	for i, tg := range fl.targets {
		switch tg.Switch.Platform {
		case model.PlatformOnyx:
			onyx = i
		case model.PlatformCumulus:
			// The slow apply outlasts the Onyx switch's device timeout
			// rather than failing first on its own command timeout:
			// since push reads every switch before it stages, the
			// NVUE apply starts late enough for its 5 s command
			// timeout to end it before the Onyx switch waits 6 s.
			fl.targets[i].Device.CommandTimeout = 12 * time.Second
		}
	}
	// Long enough for the Onyx switch to read, stage, apply and verify
	// before it waits, short of the NVUE apply's 8 s.
	fl.targets[onyx].Device.DeviceTimeout = 6 * time.Second
	rep := fl.run(t, Options{})
	d := rep.Devices[onyx]
	if d.Status != StatusFailed || !d.RolledBack || d.Error != "device timeout reached while waiting for the other switches to verify" {
		t.Errorf("%s: status %s, rolled back %v, error %q; want failed, rolled back, the device timeout named", d.Device, d.Status, d.RolledBack, d.Error)
	}
	for i, d := range rep.Devices {
		if strings.Contains(d.Error, "context deadline exceeded") {
			t.Errorf("%s: error %q", d.Device, d.Error)
		}
		if got := fl.labs[i].sim.Running(); got != fl.before[i] {
			t.Errorf("%s not as before the push:\n%s", d.Device, lineDiff(fl.before[i], got))
		}
	}
}
