package push

import (
	"regexp"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestAllOrNothingConfirmsBeforeTheWindowEnds: --parallel 1 and a
// 4-second confirm window. Every switch verifies in time and the gate
// opens; the switches then confirm one at a time, each taking a slot
// back first, and the first to get it saves slowly (its save answers
// after 5 s, on both the EOS and the NVUE switch, whichever goes
// first). The switch queued behind it must still confirm before its
// window ends: a switch whose window ran out while it queued for a slot
// has been rolled back by the switch itself while the others keep the
// change, which the gate exists to prevent.
func TestAllOrNothingConfirmsBeforeTheWindowEnds(t *testing.T) {
	t.Parallel()
	slowSave := func(cmd string) sim.Faults {
		return sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(cmd), Kind: sim.FaultSlow, Delay: 5 * time.Second}}
	}
	fl := startFleet(t, map[model.Platform]sim.Faults{
		model.PlatformEOS:     slowSave(`^write memory$`),
		model.PlatformCumulus: slowSave(`^nv config save$`),
	})
	for i := range fl.targets {
		fl.targets[i].Device.CommandTimeout = 10 * time.Second
	}
	rep := fl.run(t, Options{Parallel: 1, ConfirmWindow: 4 * time.Second})
	for _, d := range rep.Devices {
		if d.Status != StatusChanged {
			t.Errorf("%s: status %s, rolled back %v, error %q; want changed", d.Device, d.Status, d.RolledBack, d.Error)
		}
	}
}
