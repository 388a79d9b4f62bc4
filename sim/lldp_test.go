package sim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
	"github.com/fabricc/fabricc/sim/cli"
)

// TestLLDPNeighborCommands: each simulated switch answers its platform's
// neighbor command (the one fabricc verify sends) with the neighbors it
// was given, in the OS's shape, and fabricc's parser reads them back:
// a switch by interface name, a host as lldpd sends by default.
func TestLLDPNeighborCommands(t *testing.T) {
	spine := cli.Neighbor{SystemName: "spine1", ChassisID: "02:00:00:00:00:01", PortID: "Ethernet1/1"}
	host := cli.Neighbor{SystemName: "gpu01.lab.example.net", ChassisID: "02:00:00:00:00:02", PortID: "02:00:00:00:00:02",
		PortIDMAC: true, PortDescription: "ens1f0np0", SystemDescription: "Linux"}
	for _, tc := range []struct {
		p          model.Platform
		def        func() any
		a, b, none string
		mac        string // the host's MAC as the OS prints it
	}{
		{model.PlatformEOS, func() any { return "arista_eos" }, "Ethernet1/1", "Ethernet2/1", "Ethernet3/1", "0200.0000.0002"},
		{model.PlatformOnyx, func() any { return onyxDef(t) }, "1/1", "1/2", "1/3", "02:00:00:00:00:02"},
		{model.PlatformCumulus, func() any { return cumulusDef(t) }, "swp1", "swp2", "swp3", "02:00:00:00:00:02"},
	} {
		t.Run(string(tc.p), func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: tc.p, Neighbors: map[string][]cli.Neighbor{tc.a: {spine}, tc.b: {host}}})
			drv := mustOpen(t, d, tc.def())
			v := push.Vendors[tc.p]
			got, err := v.ParseNeighbors(cmd(t, drv, v.Neighbors))
			if err != nil {
				t.Fatal(err)
			}
			want := verify.Neighbors{
				tc.a: {{SystemName: "spine1", PortID: "Ethernet1/1"}},
				tc.b: {{SystemName: "gpu01.lab.example.net", PortID: tc.mac, PortIDMAC: true, PortDescription: "ens1f0np0"}},
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("neighbors (-want +got):\n%s", d)
			}
		})
	}
}

// TestEOSLLDPNeighborsList: `show lldp neighbors | json` is the list form
// arista.eos's eos_facts and napalm read (port, neighborDevice,
// neighborPort), a MAC address in EOS's dotted form.
func TestEOSLLDPNeighborsList(t *testing.T) {
	d := startWith(t, sim.Options{Platform: model.PlatformEOS, Neighbors: map[string][]cli.Neighbor{
		"Ethernet2/1": {{SystemName: "gpu01", PortID: "0c:42:a1:00:00:01", PortIDMAC: true}},
		"Ethernet1/1": {{SystemName: "leaf1", PortID: "swp31"}},
	}})
	drv := mustOpen(t, d, "arista_eos")
	got := path(t, jsonOf(t, drv, "show lldp neighbors | json"), "lldpNeighbors")
	want := []any{
		map[string]any{"port": "Ethernet1/1", "neighborDevice": "leaf1", "neighborPort": "swp31", "ttl": 120.0},
		map[string]any{"port": "Ethernet2/1", "neighborDevice": "gpu01", "neighborPort": "0c42.a100.0001", "ttl": 120.0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("lldpNeighbors (-want +got):\n%s", d)
	}
}

// TestOnyxNoLLDPNeighbors: without neighbors Onyx says so in "Lines".
func TestOnyxNoLLDPNeighbors(t *testing.T) {
	d := startWith(t, sim.Options{Platform: model.PlatformOnyx})
	drv := mustOpen(t, d, onyxDef(t))
	got := jsonOf(t, drv, "show lldp interfaces ethernet remote | json-print")
	want := []any{map[string]any{"Lines": []any{"", "No lldp remote information.", ""}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestLabNeighbors: a lab switch's neighbors are its cables' far ends as
// each advertises itself; Miscable swaps two ports' and HideNeighbor
// takes one away.
func TestLabNeighbors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "golden", "multivendor-clos", "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	spine1 := f.Switch("spine1")
	got := sim.LabNeighbors(f, spine1)
	if n := got["Ethernet1/1"]; len(n) != 1 || n[0].SystemName != "leaf1" || n[0].PortID != "swp31" || n[0].PortDescription != "swp31" {
		t.Errorf("Ethernet1/1 (to Cumulus leaf1 swp31): %+v", n)
	}
	if n := got["Ethernet3/1"]; len(n) != 1 || n[0].SystemName != "leaf3" || n[0].PortID != "Eth1/31" {
		t.Errorf("Ethernet3/1 (to Onyx leaf3 1/31): %+v", n)
	}
	leaf1 := sim.LabNeighbors(f, f.Switch("leaf1"))
	if n := leaf1["swp1"]; len(n) != 1 || n[0].SystemName != "gpu01."+sim.LabDomain || !n[0].PortIDMAC || n[0].PortDescription != "ens1f0np0" {
		t.Errorf("swp1 (to host gpu01 roce0): %+v", n)
	}
	if n := leaf1["swp31"]; len(n) != 1 || n[0].SystemName != "spine1" || n[0].PortID != "Ethernet1/1" {
		t.Errorf("swp31 (to EOS spine1): %+v", n)
	}
	o := sim.Options{Neighbors: leaf1}
	o.Miscable("swp31", "swp32")
	o.HideNeighbor("swp1")
	if o.Neighbors["swp31"][0].SystemName != "spine2" || o.Neighbors["swp32"][0].SystemName != "spine1" || o.Neighbors["swp1"] != nil {
		t.Errorf("after Miscable and HideNeighbor: %+v", o.Neighbors)
	}
}

// TestNVUELLDPTable: `nv show interface lldp` prints the NVUE Command
// Reference's table (Show Commands, LLDP), one row per neighbor, and its
// JSON form holds only the interfaces with neighbors, as napalm's NVUE
// Cumulus driver reads it.
func TestNVUELLDPTable(t *testing.T) {
	d := startWith(t, sim.Options{Platform: model.PlatformCumulus, Neighbors: map[string][]cli.Neighbor{
		"swp1": {{SystemName: "spine1", PortID: "Ethernet1/1"}},
		"swp2": {{SystemName: "gpu01", PortID: "02:00:00:00:00:02", PortIDMAC: true, PortDescription: "ens1f0np0"}},
	}})
	drv := mustOpen(t, d, cumulusDef(t))
	want := "Interface  Speed  Type  Remote Host      Remote Port\n" +
		"---------  -----  ----  -----------      -----------\n" +
		"swp1       100G   swp   spine1           Ethernet1/1\n" +
		"swp2       100G   swp   gpu01            02:00:00:00:00:02\n"
	if got := cmd(t, drv, "nv show interface lldp"); got != strings.TrimSuffix(want, "\n") {
		t.Errorf("nv show interface lldp:\n%s\nwant:\n%s", got, want)
	}
	got, err := push.Vendors[model.PlatformCumulus].ParseNeighbors(cmd(t, drv, "nv show interface lldp -o json"))
	if err != nil || len(got) != 2 || got["swp1"][0].SystemName != "spine1" {
		t.Errorf("nv show interface lldp -o json: %v, %v", got, err)
	}
}
