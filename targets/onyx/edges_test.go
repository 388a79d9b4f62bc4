package onyx

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestValidateRefuses checks each of validate's limits with the exact
// diagnostic: a value Onyx would reject, or a string that would break
// out of its quoted CLI form, must stop the render before any line is
// written.
func TestValidateRefuses(t *testing.T) {
	tests := []struct {
		name   string
		style  string
		change func(f *model.Fabric)
		want   string
	}{
		// A traffic pool of 0 % holds nothing: Onyx needs 0 < percent <= 100.
		{"pool of 0 percent", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[1].Percent = 0 },
			`onyx: switch "leaf1": pool "roce" is 0.0% of the buffer; Onyx needs 0 < percent <= 100`},
		{"pool above 100 percent", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[1].Percent = 100.5 },
			`onyx: switch "leaf1": pool "roce" is 100.5% of the buffer; Onyx needs 0 < percent <= 100`},
		// A VLAN name is written in double quotes (vlan 2 name "roce"); a
		// quote inside would end the string and the rest would be parsed
		// as CLI words.
		{"quote in vlan name", StyleTrafficPool, func(f *model.Fabric) { f.VLANs[0].Name = `ro"ce` },
			`onyx: switch "leaf1": VLAN 2 name "ro\"ce" holds '"' at character 3, which a switch CLI reads as syntax (quote, escape, help or pipe); change it`},
		{"help character in vlan name", StyleTrafficPool, func(f *model.Fabric) { f.VLANs[1].Name = "stor?" },
			`VLAN 10 name "stor?" holds '?' at character 5`},
		// Spectrum has priority groups 0-7 (iPort.pg0 .. iPort.pg7).
		{"priority group 8", StyleAdvanced, func(f *model.Fabric) { f.Switches[0].Ports[0].PriorityGroups[1].Index = 8 },
			`onyx: switch "leaf1": port "1/1": priority group 8 is outside 0-7`},
		{"egress queue 8", StyleAdvanced, func(f *model.Fabric) { f.Switches[0].Ports[0].EgressQueues[0].TrafficClass = 8 },
			`port "1/1": egress queue 8 is outside 0-7`},
		// ECN thresholds of 0 KB would mark from an empty queue.
		{"ecn min 0", StyleTrafficPool, func(f *model.Fabric) { f.QoS.Classes[1].ECN.MinBytes = 0 },
			`onyx: switch "leaf1": class "roce" has ECN thresholds 0..1500000 bytes; want 0 < min <= max`},
		// shared alpha takes 1/128 .. 64 or inf (powers of two).
		{"egress alpha 3", StyleAdvanced, func(f *model.Fabric) { f.Switches[0].Ports[0].EgressQueues[0].SharedAlpha = "3" },
			`port "1/1": egress queue 3 has shared alpha "3"; want one of 1/128..64 or inf`},
		// advanced mode: pool <name> size <bytes> type dynamic|static.
		{"advanced pool mode", StyleAdvanced, func(f *model.Fabric) { f.Switches[0].Pools[0].Mode = "elastic" },
			`onyx: switch "leaf1": pool "iPool0" has mode "elastic"; want dynamic or static`},
		// "traffic pool <name> type lossless": a space or quote in the
		// name would split it into CLI words.
		{"space in traffic pool name", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[1].Name = "roce pool" },
			`onyx: switch "leaf1": pool name "roce pool" is not a valid Onyx traffic pool name (1-20 characters, no spaces or quotes)`},
		{"quote in traffic pool name", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[1].Name = `ro"ce` },
			`pool name "ro\"ce" is not a valid Onyx traffic pool name`},
		{"tab in traffic pool name", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[1].Name = "ro\tce" },
			`pool name "ro\tce" is not a valid Onyx traffic pool name`},
		{"empty traffic pool name", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[1].Name = "" },
			`pool name "" is not a valid Onyx traffic pool name`},
		{"pool direction", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[0].Direction = "both" },
			`pool "lossy-default" has direction "both"; want ingress or egress`},
		{"pool type", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Pools[0].Type = "shared" },
			`pool "lossy-default" has type "shared"; want lossless or lossy`},
		{"ets mode", StyleTrafficPool, func(f *model.Fabric) { f.QoS.Classes[0].ETS.Mode = "dwrr" },
			`class "default" has ETS mode "dwrr"; want strict or wrr`},
		{"pfc priority 8", StyleTrafficPool, func(f *model.Fabric) { f.Switches[0].Ports[0].PFCPriorities = []int{8} },
			`port "1/1": PFC priorities contain 8; priorities are 0-7`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixture(tt.style)
			tt.change(f)
			_, err := Render(f, &f.Switches[0])
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestAdvancedPoolNamesKeepDirection checks that model pool names are
// kept only when every pool already has the name advanced buffer mode
// requires for its direction: iPoolN for ingress, ePoolN for egress. An
// egress pool called iPool2 would make "pool iPool2 ..." an ingress pool
// on the switch and its egress-buffer maps would point at it.
func TestAdvancedPoolNamesKeepDirection(t *testing.T) {
	f := fixture(StyleAdvanced)
	sw := &f.Switches[0]
	sw.Pools[3].Name = "iPool2" // egress, lossless
	for i := range sw.Ports {
		for j := range sw.Ports[i].EgressQueues {
			sw.Ports[i].EgressQueues[j].Pool = "iPool2"
		}
	}
	got := lineSet(render(t, f))
	for _, w := range []string{
		"pool iPool0 size 5242880 type dynamic",
		"pool iPool1 size 5242880 type dynamic",
		"pool ePool0 size 5242880 type dynamic",
		"# model egress pool iPool2 is Onyx pool ePool1",
		"pool ePool1 size 12582912 type dynamic",
		"interface ethernet 1/1 egress-buffer ePort.tc3 map pool ePool1 reserved 4096 shared alpha inf",
	} {
		if !got[w] {
			t.Errorf("missing line %q", w)
		}
	}
	for _, w := range []string{
		"pool iPool2 size 12582912 type dynamic",
		"interface ethernet 1/1 egress-buffer ePort.tc3 map pool iPool2 reserved 4096 shared alpha inf",
	} {
		if got[w] {
			t.Errorf("unexpected line %q", w)
		}
	}
}

// TestWatchdogOffNoModelNote checks that with the switch's watchdog off
// no comment claims the model's watchdog timers.
func TestWatchdogOffNoModelNote(t *testing.T) {
	f := fixture(StyleTrafficPool)
	f.Switches[0].PFCWatchdog.Enabled = false
	out := render(t, f)
	if strings.Contains(out, "# PFC watchdog: model action") {
		t.Errorf("watchdog note written with the watchdog off:\n%s", out)
	}
}
