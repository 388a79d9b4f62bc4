package plan

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/onyx"
)

// addedH3 cables a third Linux host to leaf1:swp3 with a 5 m cable.
const addedH3 = `
host "h3" {
  os         = "linux"
  os_version = "ubuntu22.04"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    speed     = "100G"
    mtu       = 9000
    addresses = ["10.0.10.13/24"]
  }
}

link {
  a      = "leaf1:swp3"
  b      = "h3:roce0"
  length = 5
}
`

// withPort3 adds port swp3 to leaf1 (before swp2).
func withPort3(t *testing.T, text string) string {
	return edit(t, text, "  port \"swp2\" {", "  port \"swp3\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [10]\n  }\n\n  port \"swp2\" {")
}

// TestPlanPoolsAsWritten: a pool's size is compared as the switch is
// told it. On Cumulus NVUE takes a whole memory-percent (rounded down),
// so a port added to a large buffer moves the model's pool bytes but not
// the written value: no size on the pool lines, and no "pool sizes
// change" in the impact. Onyx traffic pools take a percent with two
// decimals of the model's one: where it moves, the line gives it with
// the model's bytes as a note. Onyx egress pools, which it does not
// write, show no size; a Cumulus egress pool shows the percent the
// switch gives it, as the renderer decides it (rdocs #2): its own
// `egress-pool 0 memory-percent` where that differs from its traffic
// pool's, else the traffic pool's, and a written percent that goes is a
// pool size change (the egress pool shrinks to the traffic pool's); a
// traffic pool's change that the egress pool follows shows once, on the
// ingress pool's line.
// Onyx's advanced buffer mode writes bytes, and EOS no pool size at all.
func TestPlanPoolsAsWritten(t *testing.T) {
	sn4700 := func(t *testing.T) string {
		return edit(t, baseHCL(t), `model      = "SN2700"`, `model      = "SN4700"`)
	}
	onyx4700 := func(t *testing.T) string {
		return edit(t, sn4700(t), `platform   = "cumulus"`, `platform   = "onyx"`, `os_version = "5.9.2"`, `os_version = "3.10.4206"`,
			`"swp1"`, `"1/1"`, `"swp2"`, `"1/2"`, `leaf1:swp1`, `leaf1:1/1`, `leaf1:swp2`, `leaf1:1/2`)
	}
	onyxAdvanced := func(t *testing.T) string {
		return edit(t, baseHCL(t), `platform   = "cumulus"`, `platform   = "onyx"`, `os_version = "5.9.2"`, `os_version = "3.6.4006"`,
			`"swp1"`, `"1/1"`, `"swp2"`, `"1/2"`, `leaf1:swp1`, `leaf1:1/1`, `leaf1:swp2`, `leaf1:1/2`)
	}
	eos := func(t *testing.T) string {
		return edit(t, baseHCL(t), `platform   = "cumulus"`, `platform   = "eos"`, `os_version = "5.9.2"`, `os_version = "4.32.2F"`, `model      = "SN2700"`, `model      = "7050CX3-32S"`,
			`"swp1"`, `"Ethernet1/1"`, `"swp2"`, `"Ethernet2/1"`, `leaf1:swp1`, `leaf1:Ethernet1/1`, `leaf1:swp2`, `leaf1:Ethernet2/1`, "mtu   = 9216", "mtu   = 9214")
	}
	slower := func(port string) func(t *testing.T, base string) string {
		return func(t *testing.T, base string) string {
			return edit(t, base, "port \""+port+"\" {\n    speed = \"100G\"", "port \""+port+"\" {\n    speed = \"50G\"",
				"speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]", "speed     = \"50G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]")
		}
	}
	// accessPorts adds access ports swp3-<last> to leaf1; more ports
	// move the lossy pools' shares.
	accessPorts := func(last int) func(t *testing.T) string {
		return func(t *testing.T) string { return withPorts(t, baseHCL(t), "swp3-"+strconv.Itoa(last)) }
	}
	onePortMore := func(last int) func(t *testing.T, base string) string {
		return func(t *testing.T, _ string) string { return accessPorts(last + 1)(t) }
	}
	tests := []struct {
		name string
		base func(t *testing.T) string
		head func(t *testing.T, base string) string
		want string // leaf1's section
	}{
		{"Cumulus egress pool: a written percent goes, the traffic pool's stays", accessPorts(8), onePortMore(8), `leaf1 (switch)
  swp9: added: 100G access VLAN 10, PFC 3, so PG3 in flight after PAUSE 76,800 B (for 5 m: the port has no cable), PG3 buffer 96,256 B
  ingress lossy pool: demand 81,920 -> 92,160 B (+10,240 B, used 1.3 % -> 1.5 %), because of the port changes above
  ingress lossless pool: demand 768,000 -> 864,256 B (+96,256 B, used 10.2 % -> 11.4 %), because of the port changes above
  egress lossy pool: egress-pool 0 memory-percent 45 -> 44 % (no longer written: the switch gives it traffic-pool default-lossy's; model size 6,319,744 -> 6,238,098 B), demand 147,456 -> 165,888 B (+18,432 B, used 2.3 % -> 2.7 %), because of the port changes above
  egress lossless pool: demand 12,000 -> 13,500 B (+1,500 B, used 0.1 %), because of the port changes above
  buffer budget: headroom planned 1,359,872 -> 1,529,856 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on swp9): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
`},
		{"Cumulus egress pool: written in both, beside the traffic pool", accessPorts(10), onePortMore(10), `leaf1 (switch)
  swp11: added: 100G access VLAN 10, PFC 3, so PG3 in flight after PAUSE 76,800 B (for 5 m: the port has no cable), PG3 buffer 96,256 B
  ingress lossy pool: memory-percent 43 -> 42 % (model size 6,074,532 -> 5,984,694 B), demand 102,400 -> 112,640 B (+10,240 B, used 1.7 % -> 1.9 %), because of the port changes above
  ingress lossless pool: demand 960,512 -> 1,056,768 B (+96,256 B, used 12.5 % -> 13.7 %), because of the port changes above
  egress lossy pool: egress-pool 0 memory-percent 44 -> 43 % (model size 6,156,452 -> 6,074,806 B), demand 184,320 -> 202,752 B (+18,432 B, used 3 % -> 3.3 %), because of the port changes above
  egress lossless pool: demand 15,000 -> 16,500 B (+1,500 B, used 0.1 %), because of the port changes above
  buffer budget: headroom planned 1,699,840 -> 1,869,824 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on swp11): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
`},
		{"Cumulus egress pool: the traffic pool's percent moves it, shown once", accessPorts(6), onePortMore(6), `leaf1 (switch)
  swp7: added: 100G access VLAN 10, PFC 3, so PG3 in flight after PAUSE 76,800 B (for 5 m: the port has no cable), PG3 buffer 96,256 B
  ingress lossy pool: memory-percent 46 -> 45 % (model size 6,433,884 -> 6,344,046 B), demand 61,440 -> 71,680 B (+10,240 B, used 1 % -> 1.1 %), because of the port changes above
  ingress lossless pool: demand 575,488 -> 671,744 B (+96,256 B, used 7.8 % -> 9 %), because of the port changes above
  egress lossy pool: demand 110,592 -> 129,024 B (+18,432 B, used 1.7 % -> 2 %), because of the port changes above
  egress lossless pool: demand 9,000 -> 10,500 B (+1,500 B, used 0.1 %), because of the port changes above
  buffer budget: headroom planned 1,019,904 -> 1,189,888 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on swp7): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
`},
		{"Onyx advanced buffer mode: sizes in bytes", onyxAdvanced, slower("1/1"), `leaf1 (switch)
  1/1: speed 100G -> 50G, lanes 4 -> 2, so PG3 in flight after PAUSE 75,776 -> 44,032 B, PG3 buffer 95,232 -> 63,488 B
  ingress lossy pool: size 6,793,236 -> 6,828,052 B, because of the port changes above
  ingress lossless pool: size 7,112,724 -> 7,077,908 B, demand 190,464 -> 158,720 B (-31,744 B, used 2.7 % -> 2.2 %), because of the port changes above
  egress lossy pool: size 6,809,620 -> 6,844,436 B, because of the port changes above
  buffer budget: headroom planned 339,968 -> 270,336 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on 1/1): no public NVIDIA Onyx statement was found on whether this interrupts traffic; plan it for a maintenance window
  impact: link flap on 1/1 (speed 100G -> 50G, lanes 4 -> 2): the link goes down and trains again at both ends
`},
		{"EOS: no pool size is written", eos, slower("Ethernet1/1"), `leaf1 (switch)
  Ethernet1/1: speed 100G -> 50G, lanes 4 -> 2, so PG3 in flight after PAUSE 147,456 -> 82,944 B, PG3 buffer 166,912 -> 102,400 B
  ingress lossless pool: demand 332,800 -> 268,288 B (-64,512 B, used 2 % -> 1.6 %), because of the port changes above
  buffer budget: headroom planned 632,832 -> 493,568 B, because of the port changes above
  impact: reprograms the buffer (priority-group or queue reservations change on Ethernet1/1, pool sizes stay): no public Arista EOS statement was found on whether this interrupts traffic; plan it for a maintenance window
  impact: link flap on Ethernet1/1 (speed 100G -> 50G, lanes 4 -> 2): the link goes down and trains again at both ends
`},
		{"Cumulus SN4700: a port added leaves memory-percent as it was", sn4700, func(t *testing.T, base string) string { return withPort3(t, base) + addedH3 }, `leaf1 (switch)
  swp3: added: 100G access VLAN 10, to h3:roce0, cable 5 m dac, PFC 3, so PG3 in flight after PAUSE 112,640 B, PG3 buffer 132,096 B
  ingress lossy pool: demand 20,480 -> 30,720 B (+10,240 B, used 0.1 %), because of the port changes above
  ingress lossless pool: demand 262,144 -> 394,240 B (+132,096 B, used 0.9 % -> 1.3 %), because of the port changes above
  egress lossy pool: demand 36,864 -> 55,296 B (+18,432 B, used 0.1 % -> 0.2 %), because of the port changes above
  egress lossless pool: demand 3,000 -> 4,500 B (+1,500 B, used 0 %), because of the port changes above
  buffer budget: headroom planned 487,424 -> 731,136 B, because of the port changes above
  impact: reprograms the buffer (priority-group or queue reservations change on swp3, pool sizes stay): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
`},
		{"Onyx traffic pools SN4700: a port added", onyx4700, func(t *testing.T, base string) string {
			return edit(t, base, "  port \"1/2\" {", "  port \"1/3\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [10]\n  }\n\n  port \"1/2\" {") +
				strings.ReplaceAll(addedH3, "leaf1:swp3", "leaf1:1/3")
		}, `leaf1 (switch)
  1/3: added: 100G access VLAN 10, to h3:roce0, cable 5 m dac, PFC 3, so PG3 in flight after PAUSE 112,640 B, PG3 buffer 132,096 B (fabricc's computed values for comparison, not configured: Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later; after a recable check the switch's own headroom, on the switch: show buffers details interfaces ethernet 1/3)
  ingress lossy pool: memory percent 49.60 -> 49.40 % (model size 30,155,292 -> 30,028,590 B), demand 20,480 -> 30,720 B (+10,240 B, used 0.1 %), because of the port changes above
  ingress lossless pool: memory percent 50.40 -> 50.50 % (model size 30,622,236 -> 30,729,006 B), demand 262,144 -> 394,240 B (+132,096 B, used 0.9 % -> 1.3 %), because of the port changes above (the demand counts fabricc's computed headroom, not a configured one: Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later)
  egress lossy pool: demand 36,864 -> 55,296 B (+18,432 B, used 0.1 % -> 0.2 %), because of the port changes above
  egress lossless pool: demand 3,000 -> 4,500 B (+1,500 B, used 0 %), because of the port changes above
  buffer budget: headroom planned 487,424 -> 731,136 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes change): no public NVIDIA Onyx statement was found on whether this interrupts traffic; plan it for a maintenance window
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base(t)
			p := Compare(compileHCL(t, base), compileHCL(t, tc.head(t, base)))
			var b bytes.Buffer
			if err := WriteText(&b, p); err != nil {
				t.Fatal(err)
			}
			got := section(b.String(), "leaf1 (switch)")
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// withPorts adds access ports spec ("swp3-8") in VLAN 10 to leaf1,
// before swp2.
func withPorts(t *testing.T, text, spec string) string {
	return edit(t, text, "  port \"swp2\" {", "  port \""+spec+"\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"access\"\n    vlans = [10]\n  }\n\n  port \"swp2\" {")
}

// section is the part of a text plan from the line title to the next
// blank line, with its newline.
func section(text, title string) string {
	i := strings.Index(text, "\n"+title+"\n")
	if i < 0 {
		return ""
	}
	s := text[i+1:]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j+1]
	}
	return s
}

// TestPlanAddedPort: an added port shows what it gets, as a cable change
// shows it: its cable, PFC priorities and each lossless priority
// group's bytes in flight after PAUSE and buffer; a port without a
// cable says what length its headroom assumes. In JSON the values have
// "none" before them and their amount after.
func TestPlanAddedPort(t *testing.T) {
	tests := []struct {
		name string
		head func(t *testing.T, base string) string
		want string // swp3's line
	}{
		{"cabled", func(t *testing.T, base string) string { return withPort3(t, base) + addedH3 },
			"swp3: added: 100G access VLAN 10, to h3:roce0, cable 5 m dac, PFC 3, so PG3 in flight after PAUSE 76,800 B, PG3 buffer 96,256 B"},
		{"no cable", withPort3,
			"swp3: added: 100G access VLAN 10, PFC 3, so PG3 in flight after PAUSE 76,800 B (for 5 m: the port has no cable), PG3 buffer 96,256 B"},
		{"PFC off", func(t *testing.T, base string) string {
			return edit(t, withPort3(t, base), "vlans = [10]\n  }\n\n  port \"swp2\"", "vlans = [10]\n    pfc   = false\n  }\n\n  port \"swp2\"")
		}, "swp3: added: 100G access VLAN 10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := baseHCL(t)
			p := Compare(compileHCL(t, base), compileHCL(t, tc.head(t, base)))
			var b bytes.Buffer
			if err := WriteText(&b, p); err != nil {
				t.Fatal(err)
			}
			var got string
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(l, "  swp3: ") {
					got = strings.TrimPrefix(l, "  ")
				}
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	base := baseHCL(t)
	p := Compare(compileHCL(t, base), compileHCL(t, withPort3(t, base)+addedH3))
	it := p.Devices[0].Items[0]
	if got, want := mustJSON(t, it.Effects[0]), `{"field":"PG3 in flight after PAUSE","before":"none","after":"76,800","unit":"B","after_value":76800}`; got != want {
		t.Errorf("JSON effect:\ngot  %s\nwant %s", got, want)
	}
	if got, want := mustJSON(t, it.Changes[1:]), `[{"field":"cable","before":"none","after":"5 m dac"},{"field":"PFC","before":"none","after":"3"}]`; got != want {
		t.Errorf("JSON changes:\ngot  %s\nwant %s", got, want)
	}
}

// TestWrittenPoolSizeFollowsRenderers: the size plan compares is the one
// the renderer writes. Cumulus writes one NVUE traffic pool per type from
// the first ingress pool of that type only, so a second ingress lossless
// pool has no written size; an egress pool has none either. Onyx traffic
// pools write an ingress pool's percent with two decimals, advanced
// buffer mode every pool's bytes.
func TestWrittenPoolSizeFollowsRenderers(t *testing.T) {
	pools := []model.BufferPool{
		{Name: "first", Direction: "ingress", Type: "lossless", SizeBytes: 4000, Percent: 40.5},
		{Name: "second", Direction: "ingress", Type: "lossless", SizeBytes: 2000, Percent: 20.2},
		{Name: "first", Direction: "egress", Type: "lossless", SizeBytes: 1000, Percent: 10},
	}
	nvue := &model.Switch{Platform: model.PlatformCumulus, Pools: pools}
	traffic := &model.Switch{Platform: model.PlatformOnyx, BufferStyle: onyx.StyleTrafficPool, Pools: pools}
	advanced := &model.Switch{Platform: model.PlatformOnyx, BufferStyle: onyx.StyleAdvanced, Pools: pools}
	tests := []struct {
		name string
		sw   *model.Switch
		pool int
		want string // "" for none written
	}{
		{"Cumulus first ingress", nvue, 0, "memory-percent 40 %"},
		{"Cumulus second ingress of the type", nvue, 1, ""},
		{"Cumulus egress", nvue, 2, ""},
		{"Onyx traffic pool ingress", traffic, 1, "memory percent 20.20 %"},
		{"Onyx traffic pool egress", traffic, 2, ""},
		{"Onyx advanced egress", advanced, 2, "size 1000 B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, ok := writtenPoolSize(tc.sw, pools[tc.pool])
			got := ""
			if ok {
				got = w.Field + " " + w.Value + " " + w.Unit
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
