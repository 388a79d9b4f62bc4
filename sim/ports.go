package sim

// The front panel of every switch model the compiler's hardware table
// knows, so that a simulated switch has every port of its model, named as
// its OS names it. This table is the simulator's own, kept apart from the
// compiler's buffer table: counts and speeds from the vendors' datasheets
// (NVIDIA Spectrum SN2000, SN3000, SN4000 and SN5000 series switch
// datasheets; Arista 7050X3, 7060X and 7280R3 series datasheets; Dell
// EMC PowerSwitch S5248F-ON specification sheet).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
)

// portGroup is a run of identical cages: count ports of speedG Gb/s with
// lanes electrical lanes each (1 for SFP, 4 for QSFP, 8 for QSFP-DD/OSFP).
type portGroup struct {
	count, speedG, lanes int
}

// frontPanels maps a model (upper case) to its cages in panel order.
var frontPanels = map[string][]portGroup{
	"SN2010":         {{18, 25, 1}, {4, 100, 4}},
	"SN2100":         {{16, 100, 4}},
	"SN2410":         {{48, 25, 1}, {8, 100, 4}},
	"SN2700":         {{32, 100, 4}},
	"SN2740":         {{32, 100, 4}},
	"SN3420":         {{48, 25, 1}, {12, 100, 4}},
	"SN3700":         {{32, 200, 4}},
	"SN3700C":        {{32, 100, 4}},
	"SN3800":         {{64, 100, 4}},
	"SN4410":         {{24, 100, 4}, {8, 400, 8}},
	"SN4600":         {{64, 200, 4}},
	"SN4600C":        {{64, 100, 4}},
	"SN4700":         {{32, 400, 8}},
	"SN5400":         {{64, 400, 8}},
	"SN5600":         {{64, 800, 8}},
	"7050CX3-32S":    {{32, 100, 4}, {2, 10, 1}},
	"7050SX3-48YC8":  {{48, 25, 1}, {8, 100, 4}},
	"7050SX3-48YC12": {{48, 25, 1}, {12, 100, 4}},
	"7060CX-32S":     {{32, 100, 4}, {2, 10, 1}},
	"7280CR3-32P4":   {{32, 100, 4}, {4, 400, 8}},
	"7280CR3-32D4":   {{32, 100, 4}, {4, 400, 8}},
	"7280SR3-48YC8":  {{48, 25, 1}, {8, 100, 4}},
	"S5248F-ON":      {{48, 25, 1}, {4, 100, 4}, {2, 200, 4}},
}

// defaultModels is the model a simulator has when Options.Model is
// empty, with the OS release it reports when Options.OSVersion is empty.
var defaultModels = map[model.Platform][2]string{
	model.PlatformOnyx:    {"SN2700", "3.10.4206"},
	model.PlatformEOS:     {"7050CX3-32S", "4.32.2F"},
	model.PlatformCumulus: {"SN2700", "5.9.2"},
}

// frontPanel lists the ports of hwModel as platform p names them: Onyx
// "1/N"; EOS "EthernetN" for a single-lane cage and "EthernetN/L" for
// each lane of a multi-lane cage (lanes after the first are inactive
// until the cage is broken out, as EOS lists them); Cumulus "swpN".
func frontPanel(p model.Platform, hwModel string) ([]cli.Port, error) {
	groups, ok := frontPanels[strings.ToUpper(hwModel)]
	if !ok {
		known := make([]string, 0, len(frontPanels))
		for m := range frontPanels {
			known = append(known, m)
		}
		slices.Sort(known)
		return nil, fmt.Errorf("sim: no front panel for model %q; simulated models: %s", hwModel, strings.Join(known, ", "))
	}
	var out []cli.Port
	n := 0
	for _, g := range groups {
		for range g.count {
			n++
			out = append(out, cagePorts(p, n, g)...)
		}
	}
	return out, nil
}

// cagePorts are the port names of cage n.
func cagePorts(p model.Platform, n int, g portGroup) []cli.Port {
	switch p {
	case model.PlatformOnyx:
		return []cli.Port{{Name: fmt.Sprintf("1/%d", n), SpeedG: g.speedG}}
	case model.PlatformEOS:
		if g.lanes == 1 {
			return []cli.Port{{Name: fmt.Sprintf("Ethernet%d", n), SpeedG: g.speedG}}
		}
		var out []cli.Port
		for l := 1; l <= g.lanes; l++ {
			out = append(out, cli.Port{Name: fmt.Sprintf("Ethernet%d/%d", n, l), SpeedG: g.speedG, Inactive: l > 1})
		}
		return out
	}
	return []cli.Port{{Name: fmt.Sprintf("swp%d", n), SpeedG: g.speedG}}
}
