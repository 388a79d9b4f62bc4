package compiler

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

func TestResolveHardware(t *testing.T) {
	tests := []struct {
		model    string
		platform model.Platform
		asic     string
		buffer   int64
		cell     int
	}{
		{"SN2410", model.PlatformOnyx, "Spectrum", 16 << 20, 96},
		{"sn2700", model.PlatformCumulus, "Spectrum", 16 << 20, 96},
		{"SN3700", model.PlatformCumulus, "Spectrum-2", 42 << 20, 144},
		{"SN4600C", model.PlatformOnyx, "Spectrum-3", 64 << 20, 144},
		{"SN4700", model.PlatformCumulus, "Spectrum-3", 64 << 20, 144},
		{"SN5600", model.PlatformCumulus, "Spectrum-4", 160 << 20, 192},
		{"7050CX3-32S", model.PlatformEOS, "Trident3", 32 << 20, 256},
		{"7060CX-32S", model.PlatformEOS, "Tomahawk", 16 << 20, 208},
		{"7280CR3-32P4", model.PlatformEOS, "Jericho2", 16 << 20, 256},
		{"7060X6-64PE", model.PlatformEOS, "Tomahawk5", 157 << 20, 254},
		{"DCS-7060X6-64PE", model.PlatformEOS, "Tomahawk5", 157 << 20, 254},
		{"7808R3", model.PlatformEOS, "Jericho2", 16 << 20, 256},
		{"S5248F-ON", model.PlatformCumulus, "Trident3", 32 << 20, 256},
	}
	for _, tt := range tests {
		sw := &model.Switch{Name: "s", Platform: tt.platform, Hardware: model.Hardware{Model: tt.model}}
		if !resolveHardware(sw) {
			t.Fatalf("%s: not resolved", tt.model)
		}
		h := sw.Hardware
		if h.ASIC != tt.asic || h.BufferBytes != tt.buffer || h.CellBytes != tt.cell ||
			h.PipelineLatencyBytes != 19456 || h.MACPHYDelayBytes != 819 || h.Source == "" {
			t.Errorf("%s: got %+v", tt.model, h)
		}
	}
	if resolveHardware(&model.Switch{Hardware: model.Hardware{Model: "SN241"}}) {
		t.Error("an unknown model resolved")
	}
}

// hwSwitch is a fabric with one switch of the given platform, model and
// os_version line (may be empty) and one port block.
func hwSwitch(platform, mdl, extra, spec, speed string) string {
	return fmt.Sprintf("fabric \"lab\" {}\n\nswitch \"s1\" {\n  platform = %q\n  model    = %q\n%s  port %q {\n    speed = %q\n  }\n}\n", platform, mdl, extra, spec, speed)
}

// TestSwitchHardwareChecks pins the model, platform, port and speed
// checks of lowering, message for message (line 5 is model, 6 the extra
// line or the port label, then speed).
func TestSwitchHardwareChecks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"ok", hwSwitch("cumulus", "SN5600", "", "swp1s0-1", "400G"), nil},
		{"unknown model", hwSwitch("onyx", "SN241", "", "1/1", "25G"), []string{
			`5:14: Unknown switch model: switch "s1" has model "SN241", which fabricc has no hardware data for. Did you mean "SN2410"? Known models: 7050CX3-32S, 7050SX3-48YC12, 7050SX3-48YC8, 7060CX-32S, 7060X6-64PE, 7280CR3-32D4, 7280CR3-32P4, 7280CR3-96, 7280CR3K-32D4, 7280CR3K-32P4, 7280CR3K-96, 7280DR3-24, 7280DR3K-24, 7280PR3-24, 7280PR3K-24, 7280SR3-48YC8, 7280SR3K-48YC8, 7804R3, 7808R3, S5248F-ON, SN2010, SN2100, SN2410, SN2700, SN2740, SN3420, SN3700, SN3700C, SN3800, SN4410, SN4600, SN4600C, SN4700, SN5400, SN5600 (see ` + "`fabricc models`" + `).`}},
		// AVD's platform key names a family, not a model.
		{"avd family name", hwSwitch("eos", "7800R3", "", "Ethernet3/1/1", "400G"), []string{
			`5:14: Unknown switch model: switch "s1" has model "7800R3", which fabricc has no hardware data for. "7800R3" is an Arista platform family (the name Arista AVD's ` + "`platform`" + ` key takes), not a model: write the model, 7804R3 or 7808R3. Known models: 7050CX3-32S, 7050SX3-48YC12, 7050SX3-48YC8, 7060CX-32S, 7060X6-64PE, 7280CR3-32D4, 7280CR3-32P4, 7280CR3-96, 7280CR3K-32D4, 7280CR3K-32P4, 7280CR3K-96, 7280DR3-24, 7280DR3K-24, 7280PR3-24, 7280PR3K-24, 7280SR3-48YC8, 7280SR3K-48YC8, 7804R3, 7808R3, S5248F-ON, SN2010, SN2100, SN2410, SN2700, SN2740, SN3420, SN3700, SN3700C, SN3800, SN4410, SN4600, SN4600C, SN4700, SN5400, SN5600 (see ` + "`fabricc models`" + `).`}},
		{"onyx on spectrum-4", hwSwitch("onyx", "SN5600", "", "1/1", "400G"), []string{
			`5:14: Platform does not run on this model: switch "s1" declares platform "onyx" on its SN5600 (nvidia, Spectrum-4), which runs cumulus. Models that run onyx: SN2010, SN2100, SN2410, SN2700, SN2740, SN3420, SN3700, SN3700C, SN3800, SN4410, SN4600, SN4600C, SN4700. Fix the platform or the model.`,
			"  note 4:14: platform onyx"}},
		{"onyx on arista", hwSwitch("onyx", "7050CX3-32S", "", "1/1", "100G"), []string{
			`5:14: Platform does not run on this model: switch "s1" declares platform "onyx" on its 7050CX3-32S (arista, Trident3), which runs eos. Models that run onyx: SN2010, SN2100, SN2410, SN2700, SN2740, SN3420, SN3700, SN3700C, SN3800, SN4410, SN4600, SN4600C, SN4700. Fix the platform or the model.`,
			"  note 4:14: platform onyx"}},
		// The S5248F-ON runs Cumulus Linux only before 5.0 and fabricc
		// needs 5.3: one error at the model, whatever os_version says,
		// and no advice to change os_version that the other would refuse.
		{"cumulus 5 on dell", hwSwitch("cumulus", "S5248F-ON", "", "swp1", "25G"), []string{
			`5:14: Model not supported on this platform: switch "s1" is a S5248F-ON, which runs Cumulus Linux only before release 5.0, and fabricc configures Cumulus Linux 5.3 or later: no release runs both, so fabricc cannot configure this switch. Pick a model that runs cumulus 5.3 or later: SN2010, SN2100, SN2410, SN2700, SN2740, SN3420, SN3700, SN3700C, SN3800, SN4410, SN4600, SN4600C, SN4700, SN5400, SN5600.`,
			"  note 4:14: platform cumulus"}},
		{"cumulus 4 on dell", hwSwitch("cumulus", "S5248F-ON", "  os_version = \"4.4.5\"\n", "swp1", "25G"), []string{
			`5:14: Model not supported on this platform: switch "s1" is a S5248F-ON, which runs Cumulus Linux only before release 5.0, and fabricc configures Cumulus Linux 5.3 or later: no release runs both, so fabricc cannot configure this switch. Pick a model that runs cumulus 5.3 or later: SN2010, SN2100, SN2410, SN2700, SN2740, SN3420, SN3700, SN3700C, SN3800, SN4410, SN4600, SN4600C, SN4700, SN5400, SN5600.`,
			"  note 4:14: platform cumulus"}},
		{"port beyond the model", hwSwitch("cumulus", "SN2700", "", "swp31-34", "100G"), []string{
			`6:8: Port not on this model: switch "s1": the SN2700 has no port swp33; its ports are swp1-32 (QSFP28). The same holds for 1 more ports of "swp31-34": swp34.`}},
		{"eos multi-lane port without lane", hwSwitch("eos", "7280CR3-32D4", "", "Ethernet33-34", "400G"), []string{
			`6:8: Port not on this model: switch "s1": port 33 of the 7280CR3-32D4 is a QSFP-DD cage with 8 lanes, and EOS names such a port by its first lane: write Ethernet33/1. The same holds for 1 more ports of "Ethernet33-34": Ethernet34.`}},
		{"eos sfp with lane", hwSwitch("eos", "7050SX3-48YC8", "", "Ethernet5/1", "25G"), []string{
			`6:8: Port not on this model: switch "s1": port 5 of the 7050SX3-48YC8 is a single-lane SFP28 cage and cannot be split: write Ethernet5.`}},
		{"800G on SN3700", hwSwitch("cumulus", "SN3700", "", "swp1-2", "800G"), []string{
			`7:13: Port speed not supported: switch "s1": ports swp1-32 of the SN3700 are QSFP56 cages (4 x 50G lanes on Spectrum-2), which run 10G, 25G, 40G, 50G, 100G and 200G, not 800G.`}},
		{"400G on SN2700", hwSwitch("onyx", "SN2700", "", "1/1", "400G"), []string{
			`7:13: Port speed not supported: switch "s1": ports 1/1-1/32 of the SN2700 are QSFP28 cages (4 x 25G lanes on Spectrum), which run 10G, 25G, 40G, 50G and 100G, not 400G.`}},
		{"100G on an SFP28", hwSwitch("cumulus", "SN2410", "", "swp1", "100G"), []string{
			`7:13: Port speed not supported: switch "s1": ports swp1-48 of the SN2410 are SFP28 cages (1 x 25G lanes on Spectrum), which run 1G, 10G and 25G, not 100G.`}},
		{"split port at full width", hwSwitch("cumulus", "SN2700", "", "swp1s0", "100G"), []string{
			`7:13: Port speed not supported: switch "s1": swp1s0 is a split port, but at this speed it takes all 4 lanes of the QSFP28 cage: name it swp1.`}},
		{"split beyond the cage", hwSwitch("onyx", "SN2700", "", "1/1/3", "50G"), []string{
			`7:13: Port speed not supported: switch "s1": 1/1/3 would take lanes 5-6 of a 4-lane QSFP28 cage.`}},
		{"eos lane misaligned", hwSwitch("eos", "7050CX3-32S", "", "Ethernet1/2", "50G"), []string{
			`7:13: Port speed not supported: switch "s1": Ethernet1/2 starts at lane 2, but a 2-lane port of a QSFP28 cage starts at lane 1 or 3.`}},
		// A modular chassis names its ports by line card slot (EthernetS/N/M).
		{"7808R3 line card ports", hwSwitch("eos", "7808R3", "", "Ethernet3/1/1-3/36/1", "400G"), nil},
		{"7808R3 100G on two lanes", hwSwitch("eos", "7808R3", "", "Ethernet10/36/3", "100G"), nil},
		{"7808R3 port without slot", hwSwitch("eos", "7808R3", "", "Ethernet1/1", "400G"), []string{
			`6:8: Port not on this model: switch "s1": the 7808R3 is a modular chassis, and EOS names its ports by line card slot, port and lane (EthernetS/N/M, e.g. Ethernet3/1/1): Ethernet1/1 has no slot; its ports are EthernetS/1/1-S/36/1 (line card slot S: 3-10) (QSFP-DD).`}},
		{"7804R3 slot beyond the chassis", hwSwitch("eos", "7804R3", "", "Ethernet7/1/1", "400G"), []string{
			`6:8: Port not on this model: switch "s1": Ethernet7/1/1 is in slot 7, but the line cards of the 7804R3 are in slots 3-6 (slots 1 and 2 hold the supervisors).`}},
		{"7808R3 port beyond the line card", hwSwitch("eos", "7808R3", "", "Ethernet3/37/1", "400G"), []string{
			`6:8: Port not on this model: switch "s1": the 7808R3 has no port Ethernet3/37/1; its ports are EthernetS/1/1-S/36/1 (line card slot S: 3-10) (QSFP-DD).`}},
		{"7808R3 lane missing", hwSwitch("eos", "7808R3", "", "Ethernet3/1", "400G"), []string{
			`6:8: Port not on this model: switch "s1": the 7808R3 is a modular chassis, and EOS names its ports by line card slot, port and lane (EthernetS/N/M, e.g. Ethernet3/1/1): Ethernet3/1 has no slot; its ports are EthernetS/1/1-S/36/1 (line card slot S: 3-10) (QSFP-DD).`}},
		{"fixed switch with a slot", hwSwitch("eos", "7060X6-64PE", "", "Ethernet3/1/1", "800G"), []string{
			`6:8: Port not on this model: switch "s1": the 7060X6-64PE is a fixed switch, so Ethernet3/1/1, a line card port (EthernetS/N/M), does not exist; its ports are Ethernet1/1-64/1 (OSFP), Ethernet65-66 (SFP+).`}},
		{"7060X6 800G", hwSwitch("eos", "DCS-7060X6-64PE", "", "Ethernet1/1-64/1", "800G"), nil},
		{"7060X6 SFP+ at 25G", hwSwitch("eos", "7060X6-64PE", "", "Ethernet65", "25G"), []string{
			`7:13: Port speed not supported: switch "s1": ports Ethernet65-66 of the 7060X6-64PE are SFP+ cages (1 x 10G lanes on Tomahawk5), which run 1G and 10G, not 25G.`}},
		{"sub index beyond lanes", hwSwitch("cumulus", "SN2700", "", "swp1s4", "25G"), []string{
			`6:8: Port not on this model: switch "s1": port 1 of the SN2700 is a QSFP28 cage with 4 lanes, so swp1s4 does not exist.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, tt.src)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}

// TestPortLanes pins the lane count of a port per model and speed: the
// fewest lanes that carry the speed, or the lanes written.
func TestPortLanes(t *testing.T) {
	tests := []struct {
		platform model.Platform
		model    string
		port     string
		speed    int
		written  int
		want     int
		problem  string
	}{
		{model.PlatformCumulus, "SN5600", "swp1", 800000, 0, 8, ""},
		{model.PlatformCumulus, "SN5600", "swp1s1", 400000, 0, 4, ""},
		{model.PlatformCumulus, "SN5600", "swp1", 400000, 8, 8, ""},
		{model.PlatformCumulus, "SN5400", "swp1", 400000, 0, 4, ""},
		{model.PlatformOnyx, "SN4700", "1/1", 400000, 0, 8, ""},
		{model.PlatformOnyx, "SN4700", "1/1/2", 200000, 0, 4, ""},
		{model.PlatformEOS, "7280CR3-32D4", "Ethernet33/1", 400000, 0, 8, ""},
		{model.PlatformEOS, "7050CX3-32S", "Ethernet1/1", 100000, 0, 4, ""},
		{model.PlatformEOS, "7050CX3-32S", "Ethernet1/3", 50000, 0, 2, ""},
		{model.PlatformEOS, "7060X6-64PE", "Ethernet1/1", 800000, 0, 8, ""},
		{model.PlatformEOS, "7060X6-64PE", "Ethernet1/5", 400000, 0, 4, ""},
		{model.PlatformEOS, "7060X6-64PE", "Ethernet1/8", 100000, 0, 1, ""},
		{model.PlatformEOS, "7808R3", "Ethernet3/1/1", 400000, 0, 8, ""},
		{model.PlatformEOS, "7808R3", "Ethernet10/2/5", 200000, 0, 4, ""},
		{model.PlatformEOS, "7808R3", "Ethernet10/2/3", 200000, 0, 4, "Ethernet10/2/3 starts at lane 3, but a 4-lane port of a QSFP-DD cage starts at lane 1 or 5"},
		{model.PlatformCumulus, "SN3700", "swp1", 100000, 0, 2, ""},
		{model.PlatformCumulus, "SN3700", "swp1", 100000, 4, 4, ""},
		{model.PlatformCumulus, "SN2700", "swp1", 40000, 0, 4, ""},
		{model.PlatformCumulus, "SN2410", "swp1", 25000, 0, 1, ""},
		{model.PlatformCumulus, "SN3700", "swp1", 200000, 2, 0, "200G on ports swp1-32 of the SN3700 (QSFP56) runs on 4 lanes, not 2"},
	}
	for _, tt := range tests {
		row, _ := lookupHardware(tt.model)
		got, problem := portLanes(tt.platform, tt.model, row, tt.port, tt.speed, tt.written)
		if got != tt.want || problem != tt.problem {
			t.Errorf("%s %s %s at %s (lanes %d): got %d %q, want %d %q", tt.platform, tt.model, tt.port, speedText(tt.speed), tt.written, got, problem, tt.want, tt.problem)
		}
	}
}

func TestBufferStyle(t *testing.T) {
	tests := []struct {
		platform model.Platform
		version  string
		want     string
	}{
		{model.PlatformOnyx, "3.6.5000", "traffic-pool"},
		{model.PlatformOnyx, "3.6.8190", "traffic-pool"},
		{model.PlatformOnyx, "3.10.4006", "traffic-pool"},
		{model.PlatformOnyx, "3.6.4006", "advanced"},
		{model.PlatformOnyx, "3.5.1016", "advanced"},
		{model.PlatformOnyx, "", "traffic-pool"},
		{model.PlatformEOS, "4.32.1F", "profile"},
		{model.PlatformCumulus, "5.9.1", "profile"},
	}
	for _, tt := range tests {
		if got := bufferStyle(tt.platform, tt.version); got != tt.want {
			t.Errorf("bufferStyle(%s, %q) = %q, want %q", tt.platform, tt.version, got, tt.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"3.6.5000", "3.6.5000", 0},
		{"3.6.10000", "3.6.5000", 1}, // a string compare would say -1
		{"3.6.4999", "3.6.5000", -1},
		{"3.10", "3.6.5000", 1},
		{"4.32.1F", "4.32.1", 0},
		{"3.6", "3.6.0", 0},
	}
	for _, tt := range tests {
		if got := model.CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("model.CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestUnsupportedModelListed: the catalog (`fabricc models`,
// docs/models.md) marks a model whose platform runs only in releases
// fabricc does not configure, and says why; every other model's
// platforms are usable.
func TestUnsupportedModelListed(t *testing.T) {
	const why = "runs Cumulus Linux only before 5.0; fabricc configures Cumulus Linux 5.3 or later"
	for _, sw := range Models().Switches {
		want, wantWhy := []string(nil), ""
		if sw.Name == "S5248F-ON" {
			want, wantWhy = []string{"cumulus (not usable)"}, why
		}
		for _, p := range sw.Platforms {
			if strings.Contains(p, "not usable") && want == nil {
				t.Errorf("%s: platform %q is marked not usable", sw.Name, p)
			}
		}
		if want != nil && !reflect.DeepEqual(sw.Platforms, want) || sw.Unsupported != wantWhy {
			t.Errorf("%s: platforms %q, unsupported %q; want %q, %q", sw.Name, sw.Platforms, sw.Unsupported, want, wantWhy)
		}
	}
	row, _ := lookupHardware("S5248F-ON")
	if got, want := row.platformList(), "cumulus ("+why+")"; got != want {
		t.Errorf("S5248F-ON platforms in messages %q, want %q", got, want)
	}
}

// TestUsableBuffer: a model keeps its datasheet total and the usable
// part the budget carves, SONiC's egress_lossless_pool_size where one is
// public (Spectrum 13945824 B, Spectrum-2 35966016 B, Spectrum-3 60817392
// B in the SN4600C template, Spectrum-4 158229504 B in the SN5600
// template), the total elsewhere.
func TestUsableBuffer(t *testing.T) {
	for _, tc := range []struct {
		model         string
		total, usable int64
	}{
		{"SN2700", 16 << 20, 13945824},
		{"SN3700", 42 << 20, 35966016},
		{"SN4600C", 64 << 20, 60817392},
		{"SN4700", 64 << 20, 60817392},
		{"SN5400", 160 << 20, 158229504},
		{"SN5600", 160 << 20, 158229504},
		{"7060CX-32S", 16 << 20, 16 << 20},
	} {
		sw := model.Switch{Platform: model.PlatformCumulus, Hardware: model.Hardware{Model: tc.model}}
		if !resolveHardware(&sw) {
			t.Fatalf("%s: not in the hardware table", tc.model)
		}
		if sw.Hardware.BufferBytes != tc.total || sw.Hardware.UsableBufferBytes != tc.usable {
			t.Errorf("%s: buffer %d, usable %d; want %d, %d", tc.model, sw.Hardware.BufferBytes, sw.Hardware.UsableBufferBytes, tc.total, tc.usable)
		}
	}
}

// TestAristaDCSPrefix (review reos, finding 7): an Arista model written
// with the "DCS-" prefix EOS's `show version` prints resolves to the
// model without it; the prefix before a name that is no Arista model
// stays unknown.
func TestAristaDCSPrefix(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"DCS-7280CR3-32D4", "7280CR3-32D4"},
		{"dcs-7050cx3-32s", "7050CX3-32S"},
		{" DCS-7060CX-32S ", "7060CX-32S"},
		{"DCS-SN2700", "DCS-SN2700"},
		{"7050CX3-32S", "7050CX3-32S"},
	} {
		if got := canonicalModel(tt.name); got != tt.want {
			t.Errorf("canonicalModel(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	sw := &model.Switch{Name: "s", Platform: model.PlatformEOS, Hardware: model.Hardware{Model: "DCS-7280CR3-32D4"}}
	if !resolveHardware(sw) || sw.Hardware.Model != "7280CR3-32D4" || sw.Hardware.ASIC != "Jericho2" {
		t.Errorf("DCS-7280CR3-32D4 resolved to %+v", sw.Hardware)
	}
	f, _ := mustLower(t, hwSwitch("eos", "DCS-7280CR3-32D4", "", "Ethernet33/1", "100G"))
	if p := f.Switches[0].Ports[0]; p.Lanes != 2 {
		t.Errorf("DCS-7280CR3-32D4 Ethernet33/1 at 100G: %d lanes, want 2 (the model's 50G-lane cage)", p.Lanes)
	}
}

// TestAristaFamily: the family names Arista AVD's platform key uses
// ("7050X3", "7280R3", "7800R3", "7060X6") list the table's models of
// the family; a model or another vendor's name is no family.
func TestAristaFamily(t *testing.T) {
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"7050X3", []string{"7050CX3-32S", "7050SX3-48YC12", "7050SX3-48YC8"}},
		{"7280r3", []string{"7280CR3-32D4", "7280CR3-32P4", "7280CR3-96", "7280CR3K-32D4", "7280CR3K-32P4", "7280CR3K-96", "7280DR3-24", "7280DR3K-24", "7280PR3-24", "7280PR3K-24", "7280SR3-48YC8", "7280SR3K-48YC8"}},
		{"DCS-7800R3", []string{"7804R3", "7808R3"}},
		{"7060X6", []string{"7060X6-64PE"}},
		{"7060X", []string{"7060CX-32S"}},
		{"7808R3", nil},
		{"SN2700", nil},
		{"", nil},
	} {
		if got := aristaFamily(tt.name); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("aristaFamily(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
