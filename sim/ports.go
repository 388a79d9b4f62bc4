package sim

// The front panel of a simulated switch is the compiler's hardware table
// (compiler.SwitchModel: port groups, cages, lanes and lane rates from
// the vendors' datasheets), so the simulators and the compiler's port
// checks never disagree on which ports a model has.

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
)

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
// until the cage is broken out, as EOS lists them), "EthernetS/N/L" on
// the line card in slot S of a modular chassis; Cumulus "swpN". A
// port's native speed is its cage's lanes times the fastest lane rate
// the cage and the ASIC run.
func frontPanel(p model.Platform, hwModel string) ([]cli.Port, error) {
	row, ok := compiler.SwitchModel(hwModel)
	if !ok {
		var known []string
		for _, s := range compiler.Models().Switches {
			known = append(known, s.Name)
		}
		return nil, fmt.Errorf("sim: no front panel for model %q; simulated models: %s", hwModel, strings.Join(known, ", "))
	}
	var out []cli.Port
	for _, g := range row.Ports {
		for slot := g.FirstSlot; slot <= g.LastSlot; slot++ {
			for n := g.First; n <= g.Last; n++ {
				out = append(out, cardPorts(p, slot, cagePorts(p, n, g.Lanes, g.Lanes*g.LaneGbps))...)
			}
		}
	}
	return out, nil
}

// cardPorts names ports on the line card in slot of a modular chassis
// as EOS does, EthernetS/N/M; slot 0 (a fixed switch) leaves them as
// they are.
func cardPorts(p model.Platform, slot int, ports []cli.Port) []cli.Port {
	if slot == 0 || p != model.PlatformEOS {
		return ports
	}
	for i := range ports {
		ports[i].Name = fmt.Sprintf("Ethernet%d/%s", slot, strings.TrimPrefix(ports[i].Name, "Ethernet"))
	}
	return ports
}

// cagePorts are the port names of cage n with lanes lanes of speedG
// Gb/s in all.
func cagePorts(p model.Platform, n, lanes, speedG int) []cli.Port {
	switch p {
	case model.PlatformOnyx:
		return []cli.Port{{Name: fmt.Sprintf("1/%d", n), SpeedG: speedG}}
	case model.PlatformEOS:
		if lanes == 1 {
			return []cli.Port{{Name: fmt.Sprintf("Ethernet%d", n), SpeedG: speedG}}
		}
		var out []cli.Port
		for l := 1; l <= lanes; l++ {
			out = append(out, cli.Port{Name: fmt.Sprintf("Ethernet%d/%d", n, l), SpeedG: speedG, Inactive: l > 1})
		}
		return out
	}
	return []cli.Port{{Name: fmt.Sprintf("swp%d", n), SpeedG: speedG}}
}
