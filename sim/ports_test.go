package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/model"
)

// TestFrontPanelsFollowTheHardwareTable checks every model of the
// compiler's hardware table on every platform it runs: the simulator has
// one port per cage (one per lane on EOS multi-lane cages, on every line
// card of a modular chassis), the last front-panel port named as the
// platform names it, at the cage's speed.
func TestFrontPanelsFollowTheHardwareTable(t *testing.T) {
	for _, row := range compiler.Models().Switches {
		for _, pl := range row.Platforms {
			p := model.Platform(strings.Fields(pl)[0])
			t.Run(row.Name+"/"+string(p), func(t *testing.T) {
				ports, err := frontPanel(p, strings.ToLower(row.Name))
				if err != nil {
					t.Fatal(err)
				}
				want, lastName, lastSpeed := 0, "", 0
				for _, g := range row.Ports {
					n := (g.Last - g.First + 1) * max(1, g.LastSlot-g.FirstSlot+1)
					lastSpeed = g.Lanes * g.LaneGbps
					switch {
					case p == model.PlatformEOS && g.LastSlot > 0:
						want += n * g.Lanes
						lastName = fmt.Sprintf("Ethernet%d/%d/1", g.LastSlot, g.Last)
					case p == model.PlatformEOS && g.Lanes > 1:
						want += n * g.Lanes
						lastName = fmt.Sprintf("Ethernet%d/1", g.Last)
					case p == model.PlatformEOS:
						want += n
						lastName = fmt.Sprintf("Ethernet%d", g.Last)
					case p == model.PlatformOnyx:
						want += n
						lastName = fmt.Sprintf("1/%d", g.Last)
					default:
						want += n
						lastName = fmt.Sprintf("swp%d", g.Last)
					}
				}
				if len(ports) != want {
					t.Errorf("%d ports, want %d", len(ports), want)
				}
				found := false
				for _, port := range ports {
					if port.Name == lastName {
						found = true
						if port.SpeedG != lastSpeed || port.Inactive {
							t.Errorf("%s: speed %dG inactive %v, want %dG active", port.Name, port.SpeedG, port.Inactive, lastSpeed)
						}
					}
				}
				if !found {
					t.Errorf("no port %s", lastName)
				}
			})
		}
	}
	if _, err := frontPanel(model.PlatformEOS, "7999"); err == nil || !strings.Contains(err.Error(), "simulated models: 7050CX3-32S") {
		t.Errorf("unknown model: %v", err)
	}
}
