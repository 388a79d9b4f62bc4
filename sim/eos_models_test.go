package sim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
	targeteos "github.com/fabricc/fabricc/targets/eos"
)

// eosModelFabric is two switches of an Arista model cabled port to port:
// the first port of every port group at the group's fastest speed and,
// where the group offers it and has a second port, that port at 100G
// (the lane count a 100G port takes differs by cage). It returns the
// fabric's HCL.
func eosModelFabric(row compiler.SwitchModelInfo) string {
	var ports, links strings.Builder
	for _, g := range row.Ports {
		name := func(n int) string {
			switch {
			case g.FirstSlot > 0:
				return fmt.Sprintf("Ethernet%d/%d/1", g.FirstSlot, n)
			case g.Lanes > 1:
				return fmt.Sprintf("Ethernet%d/1", n)
			}
			return fmt.Sprintf("Ethernet%d", n)
		}
		speeds := map[string]string{name(g.First): g.Speeds[len(g.Speeds)-1].Speed}
		for _, s := range g.Speeds {
			if s.Speed == "100G" && g.Last > g.First {
				speeds[name(g.First+1)] = "100G"
			}
		}
		for p, speed := range speeds {
			fmt.Fprintf(&ports, "  port %q {\n    speed = %q\n    mode = \"routed\"\n  }\n", p, speed)
			fmt.Fprintf(&links, "link {\n  a = \"a:%s\"\n  b = \"b:%s\"\n  length = 3\n}\n", p, p)
		}
	}
	var b strings.Builder
	b.WriteString("fabric \"models\" {}\nqos { profile = \"nvidia-roce\" }\n")
	for _, sw := range []string{"a", "b"} {
		fmt.Fprintf(&b, "switch %q {\n  platform = \"eos\"\n  model = %q\n%s}\n", sw, "DCS-"+row.Name, ports.String())
	}
	b.WriteString(links.String())
	return b.String()
}

// TestEOSEveryModelAccepted (review reos, finding 6): the configuration
// targets/eos renders for every Arista model of the hardware table is
// accepted whole by a simulator of that model, whose grammar takes only
// the model's ASIC family's lines (uc-tx-queue and the MMU profile on
// Trident and Tomahawk, tx-queue on Jericho), and the running-config
// shows the family's queue keyword and, where written, the applied
// profile.
func TestEOSEveryModelAccepted(t *testing.T) {
	for _, row := range compiler.Models().Switches {
		if row.Vendor != "arista" {
			continue
		}
		t.Run(row.Name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(eosModelFabric(row)), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, _, diags := dsl.Load(dir, dsl.Options{})
			if diags.HasErrors() {
				t.Fatalf("load: %s", diags.Error())
			}
			f, diags := compiler.Compile(cfg)
			if diags.HasErrors() {
				t.Fatalf("compile: %s", diags.Error())
			}
			sw := &f.Switches[0]
			files, err := targeteos.Render(f, sw)
			if err != nil {
				t.Fatal(err)
			}
			d := startWith(t, sim.Options{Platform: model.PlatformEOS, Model: row.Name})
			configs(t, mustOpen(t, d, "arista_eos"), configLines(string(files[0].Data), "!")...)
			run := d.Running()
			keyword := targeteos.TxQueueKeyword(sw.Hardware)
			if want := "\n   " + keyword + " 3\n"; !strings.Contains(run, want) {
				t.Errorf("running-config lacks %q:\n%s", want, run)
			}
			mmu := strings.Contains(run, "platform trident mmu queue profile fabricc apply\n")
			if mmu != sw.Hardware.HasEOSMMUProfile() {
				t.Errorf("%s (%s): MMU profile applied %v, want %v", row.Name, row.ASIC, mmu, sw.Hardware.HasEOSMMUProfile())
			}
		})
	}
}
