package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// baseHCL is the base revision every test edits.
func baseHCL(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "base", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// compileHCL compiles one fabric file's text.
func compileHCL(t *testing.T, text string) *model.Fabric {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, diags := dsl.Load(dir, dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("compile: %v", diags)
	}
	return f
}

// edit applies old -> new replacements, each of which must match.
func edit(t *testing.T, text string, pairs ...string) string {
	t.Helper()
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(text, pairs[i]) {
			t.Fatalf("edit: %q not in the base fabric", pairs[i])
		}
		text = strings.ReplaceAll(text, pairs[i], pairs[i+1])
	}
	return text
}

func TestPlanText(t *testing.T) {
	base := baseHCL(t)
	tests := []struct {
		name  string
		edits []string
		want  string
	}{
		{"no change", nil, `No changes: fabric "plan-test" means the same in both revisions.
`},
		{"cable 3 m -> 30 m", []string{"length = 3\n", "length = 30\n"}, `Fabric "plan-test": 2 devices change (leaf1, h1); 1 switch with disruptive changes.
Hosts to run their script: 1 (h1).

leaf1 (switch)
  swp1: cable 3 m dac -> 30 m aoc, so PG3 in flight after PAUSE 75,776 -> 82,944 B, PG3 buffer 95,232 -> 102,400 B
  ingress lossless pool: demand 190,464 -> 197,632 B (+7,168 B, used 2.7 % -> 2.8 %), because of the port changes above
  impact: reprograms the buffer (priority-group or queue reservations change on swp1, pool sizes stay): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)

h1 (host)
  roce0: cable 3 m dac -> 30 m aoc
  script changes: roce0 cable length 3 -> 30 m (mlnx_qos --cable_len); run it
`},
		{"VLAN added to a trunk", []string{
			"vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"storage\" {\n  id = 20\n}\n",
			"mode  = \"trunk\"\n    vlans = [10]", "mode  = \"trunk\"\n    vlans = [10, 20]",
		}, `Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.

fabric-wide
  VLAN 20: added: name storage

leaf1 (switch)
  VLANs 10 -> 10, 20, because of VLAN 20 added: name storage
  swp2: VLANs 10 -> 10, 20
`},
		// Fabric-wide changes that no port or NIC input shows: every
		// switch configures the classes and declares every VLAN.
		{"class ECN minimum", []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    ecn {\n      min = \"200KB\"\n    }\n  }\n"},
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.

fabric-wide
  class roce: ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %

leaf1 (switch)
  TC3 ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %, because of class roce ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %
`},
		{"unused VLAN added", []string{"vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"spare\" {\n  id = 200\n}\n"},
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.

fabric-wide
  VLAN 200: added: name spare

leaf1 (switch)
  VLANs 10 -> 10, 200, because of VLAN 200 added: name spare
`},
		{"VLAN renamed", []string{"vlan \"compute\" {", "vlan \"gpu\" {"},
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change.

fabric-wide
  VLAN 10: name compute -> gpu

leaf1 (switch)
  VLAN 10 name compute -> gpu, because of VLAN 10 name compute -> gpu
`},
		{"ETS bandwidths", []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    bandwidth = 60\n  }\n\n  class \"default\" {\n    bandwidth = 40\n  }\n"},
			`Fabric "plan-test": 3 devices change (leaf1, h1, h2); 2 fabric-wide changes.
Hosts to run their script: 2 (h1, h2).

fabric-wide
  class default: ETS WRR 50 % -> WRR 40 %
  class roce: ETS WRR 50 % -> WRR 60 %

leaf1 (switch)
  ETS TC0 45 %, TC3 50 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 % -> TC0 35 %, TC3 60 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 %, because of the fabric-wide changes above

h1 (host)
  roce0: ETS TC0 50 %, TC3 50 %, TC6 strict -> TC0 40 %, TC3 60 %, TC6 strict, because of the fabric-wide changes above
  script changes: run it

h2 (host)
  roce0: ETS TC0 50 %, TC3 50 %, TC6 strict -> TC0 40 %, TC3 60 %, TC6 strict, because of the fabric-wide changes above
  script changes: run it
`},
		{"class priorities and DSCP", []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    priorities = [4]\n    dscp       = [26, 24, 25, 27, 28, 29, 30, 31, 32]\n  }\n"},
			`Fabric "plan-test": 3 devices change (leaf1, h1, h2); 3 fabric-wide changes; 1 switch and 2 hosts with disruptive changes.
Hosts to run their script: 2 (h1, h2).

fabric-wide
  qos: PFC priorities 3 -> 3, 4
  class default: priorities 0-2, 4, 5, 7 -> 0-2, 5, 7, DSCP 0-23, 32-47, 56-63 -> 0-23, 33-47, 56-63
  class roce: priorities 3 -> 3, 4, DSCP 24-31 -> 24-32

leaf1 (switch)
  TC0 priorities 0-2, 4, 5, 7 -> 0-2, 5, 7, TC3 priorities 3 -> 3, 4, priority 0 DSCP 0-23, 32-47, 56-63 -> 0-23, 33-47, 56-63, priority 3 DSCP 24-31 -> 24-32, because of the fabric-wide changes above
  swp1: PFC 3 -> 3, 4, so PG0 priorities 0-2, 4-7 -> 0-2, 5-7, PG3 priorities 3 -> 3, 4
  swp2: PFC 3 -> 3, 4, so PG0 priorities 0-2, 4-7 -> 0-2, 5-7, PG3 priorities 3 -> 3, 4
  impact: reprograms the buffer (priority-group or queue reservations change on 2 ports (swp1, swp2), pool sizes stay): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
  impact: PFC priorities change on 2 ports (swp1, swp2): momentary packet loss possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)

h1 (host)
  roce0: PFC 3 -> 3, 4, because of the fabric-wide changes above
  impact: link flap on roce0 (PFC 3 -> 3, 4): the mlx5 driver takes the link down and up once when the script sets the new PFC priorities, and the RDMA connections through it reset (Linux mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc)
  script changes: run it

h2 (host)
  roce0: PFC 3 -> 3, 4, because of the fabric-wide changes above
  impact: link flap on roce0 (PFC 3 -> 3, 4): the mlx5 driver takes the link down and up once when the script sets the new PFC priorities, and the RDMA connections through it reset (Linux mlx5 en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc)
  script changes: run it
`},
		{"platform cumulus -> onyx", []string{
			"platform   = \"cumulus\"", "platform   = \"onyx\"",
			"os_version = \"5.9.2\"", "os_version = \"3.10.4206\"",
			"swp1", "1/1", "swp2", "1/2",
		}, `Fabric "plan-test": 3 devices change (leaf1, h1, h2); 1 switch with disruptive changes.
Hosts to run their script: none (only documents change).

leaf1 (switch)
  platform cumulus 5.9.2 -> onyx 3.10.4206, buffer configuration profile -> traffic-pool
  ETS TC0 45 %, TC3 50 %, TC6 strict; TC1, 2, 4, 5, 7 idle at 1 % -> TC0 50 %, TC3 50 %, TC6 strict, because of the switch changes above
  swp1 -> 1/1: the same cable, on the port as the new platform names it
  swp2 -> 1/2: the same cable, on the port as the new platform names it
  ingress lossy pool: name lossy-default-ingress -> lossy-default, because of the switch changes above
  ingress lossless pool: name roce-lossless-ingress -> roce-lossless, because of the switch changes above
  egress lossy pool: name lossy-default-egress -> lossy-default, because of the switch changes above
  egress lossless pool: name roce-lossless-egress -> roce-lossless, because of the switch changes above
  impact: replaced: cumulus -> onyx on SN2700: its operating system is replaced, so every link of the switch is down while it is installed; push it after the install, once its inventory entry says platform onyx (push refuses a switch whose inventory platform is not the fabric's)

h1 (host)
  roce0: peer leaf1:swp1 -> leaf1:1/1
  script unchanged, only its document changes: nothing to run

h2 (host)
  roce0: peer leaf1:swp2 -> leaf1:1/2
  script unchanged, only its document changes: nothing to run
`},
		{"model SN2700 -> SN3700", []string{"model      = \"SN2700\"", "model      = \"SN3700\""}, `Fabric "plan-test": 1 device changes (leaf1); 1 switch with disruptive changes.

leaf1 (switch)
  model SN2700 -> SN3700, ASIC Spectrum -> Spectrum-2, buffer 16,777,216 -> 44,040,192 B, cell 96 -> 144 B
  swp1: lanes 4 -> 2, so PG3 in flight after PAUSE 75,776 -> 111,616 B, PG3 buffer 95,232 -> 131,072 B
  swp2: lanes 4 -> 2, so PG3 in flight after PAUSE 75,776 -> 111,616 B, PG3 buffer 95,232 -> 131,072 B
  ingress lossy pool: memory-percent 48 -> 49 % (model size 6,793,236 -> 17,729,604 B), used 0.3 % -> 0.1 %, because of the port changes above
  ingress lossless pool: memory-percent 51 -> 50 % (model size 7,112,724 -> 18,196,548 B), demand 190,464 -> 262,144 B (+71,680 B, used 2.7 % -> 1.4 %), because of the port changes above
  egress lossy pool: used 0.5 % -> 0.2 %, because of the port changes above
  buffer budget: headroom planned 339,968 -> 487,424 B, because of the port changes above
  impact: replaced: SN2700 -> SN3700: another switch, so every link is down while it is swapped; push it after the new switch is racked: pushed to the old one, its pools and headroom would be sized for the new one's buffer
`},
		{"speed and lanes 100G/4 -> 50G/2", []string{
			"port \"swp1\" {\n    speed = \"100G\"", "port \"swp1\" {\n    speed = \"50G\"",
			"speed     = \"100G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]", "speed     = \"50G\"\n    mtu       = 9000\n    addresses = [\"10.0.10.11/24\"]",
		}, `Fabric "plan-test": 2 devices change (leaf1, h1); 1 switch with disruptive changes.
Hosts to run their script: 1 (h1).

leaf1 (switch)
  swp1: speed 100G -> 50G, lanes 4 -> 2, so PG3 in flight after PAUSE 75,776 -> 44,032 B, PG3 buffer 95,232 -> 63,488 B
  ingress lossy pool: memory-percent 48 -> 49 % (model size 6,793,236 -> 6,828,052 B), because of the port changes above
  ingress lossless pool: memory-percent 51 -> 50 % (model size 7,112,724 -> 7,077,908 B), demand 190,464 -> 158,720 B (-31,744 B, used 2.7 % -> 2.2 %), because of the port changes above
  buffer budget: headroom planned 339,968 -> 270,336 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on swp1): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
  impact: link flap on swp1 (speed 100G -> 50G, lanes 4 -> 2): the link goes down and trains again at both ends

h1 (host)
  roce0: speed 100G -> 50G
  script changes: run it
`},
		{"headroom policy", []string{"profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n  headroom {\n    small_packet_percent = 50\n  }\n"},
			`Fabric "plan-test": 1 device changes (leaf1); 1 fabric-wide change; 1 switch with disruptive changes.

fabric-wide
  qos: small packets 100 -> 50 %

leaf1 (switch)
  swp1: PG3 in flight after PAUSE 75,776 -> 43,008 B, PG3 buffer 95,232 -> 62,464 B, because of qos small packets 100 -> 50 %
  swp2: PG3 in flight after PAUSE 75,776 -> 43,008 B, PG3 buffer 95,232 -> 62,464 B, because of qos small packets 100 -> 50 %
  ingress lossy pool: memory-percent 48 -> 49 % (model size 6,793,236 -> 6,861,844 B), because of the port changes above
  ingress lossless pool: memory-percent 51 -> 50 % (model size 7,112,724 -> 7,044,116 B), demand 190,464 -> 124,928 B (-65,536 B, used 2.7 % -> 1.8 %), because of the port changes above
  buffer budget: headroom planned 339,968 -> 202,752 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes and priority-group or queue reservations change on 2 ports (swp1, swp2)): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)
`},
		{"host and port removed", []string{
			"  port \"swp2\" {\n    speed = \"100G\"\n    mtu   = 9216\n    mode  = \"trunk\"\n    vlans = [10]\n  }\n", "",
			"host \"h2\" {", "host \"h2\" {\n  tuning = true",
			"link {\n  a      = \"leaf1:swp2\"\n  b      = \"h2:roce0\"\n  length = 2\n}\n", "",
		}, `Fabric "plan-test": 2 devices change (leaf1, h2); 1 switch with disruptive changes.
Hosts to run their script: 1 (h2).

leaf1 (switch)
  swp2: removed: 100G trunk VLAN 10, to h2:roce0 (push leaves the port as it is on the switch, its PFC and headroom included: clear it there, on Cumulus Linux with nv unset interface swp2 qos pfc, nv unset interface swp2 qos pfc-watchdog and nv config apply, or keep the port in the fabric with shutdown = true)
  ingress lossy pool: memory-percent 48 -> 49 % (model size 6,793,236 -> 6,883,074 B), demand 20,480 -> 10,240 B (-10,240 B, used 0.3 % -> 0.1 %), because of the port changes above
  ingress lossless pool: memory-percent 51 -> 50 % (model size 7,112,724 -> 7,042,818 B), demand 190,464 -> 95,232 B (-95,232 B, used 2.7 % -> 1.4 %), because of the port changes above
  egress lossy pool: demand 36,864 -> 18,432 B (-18,432 B, used 0.5 % -> 0.3 %), because of the port changes above
  egress lossless pool: demand 3,000 -> 1,500 B (-1,500 B, used 0 %), because of the port changes above
  buffer budget: headroom planned 339,968 -> 169,984 B, because of the port changes above
  impact: re-carves the shared buffer (pool sizes change): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)

h2 (host)
  tuning off -> on
  roce0: peer leaf1:swp2 -> none, cable 2 m dac -> none
  script changes: roce0 cable length 2 m -> none (mlnx_qos --cable_len: not set, the NIC keeps the last length); run it
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			head := edit(t, base, tc.edits...)
			p := Compare(compileHCL(t, base), compileHCL(t, head))
			var b bytes.Buffer
			if err := WriteText(&b, p); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tc.want)
			}
			if p.Changed() != (tc.edits != nil) {
				t.Errorf("Changed() = %v", p.Changed())
			}
		})
	}
}

// TestPlanFabricChangesReachEverySwitch: a class or VLAN change lists
// every switch, whatever its platform and ports: every switch's
// OpenConfig holds every class and VLAN, so even a switch with no port
// in service or none at all changes.
func TestPlanFabricChangesReachEverySwitch(t *testing.T) {
	base := baseHCL(t) + `
switch "onyx-down" {
  platform   = "onyx"
  model      = "SN2700"
  os_version = "3.10.4206"

  port "1/1" {
    speed    = "100G"
    mtu      = 9216
    mode     = "routed"
    shutdown = true
  }
}

switch "eos-bare" {
  platform   = "eos"
  model      = "7050CX3-32S"
  os_version = "4.32.2F"
}
`
	head := edit(t, base, "profile = \"nvidia-roce\"\n", "profile = \"nvidia-roce\"\n\n  class \"roce\" {\n    ecn {\n      min = \"200KB\"\n    }\n  }\n",
		"vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"spare\" {\n  id = 200\n}\n")
	var b bytes.Buffer
	if err := WriteText(&b, Compare(compileHCL(t, base), compileHCL(t, head))); err != nil {
		t.Fatal(err)
	}
	device := func(name string) string {
		return "\n" + name + ` (switch)
  TC3 ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %, because of class roce ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %
  VLANs 10 -> 10, 200, because of VLAN 200 added: name spare
`
	}
	want := `Fabric "plan-test": 3 devices change (eos-bare, leaf1, onyx-down); 2 fabric-wide changes.

fabric-wide
  class roce: ECN 150,000..1,500,000 B at 100 % -> 204,800..1,500,000 B at 100 %
  VLAN 200: added: name spare
` + device("eos-bare") + device("leaf1") + device("onyx-down")
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestPlanVLANRemoved: a VLAN the fabric no longer has is taken off the
// fabric's ports, but push does not delete the VLAN itself (a port
// outside the fabric may be in it); plan says so, with the commands.
func TestPlanVLANRemoved(t *testing.T) {
	base := baseHCL(t)
	withSpare := edit(t, base, "vlan \"compute\" {\n  id = 10\n}\n", "vlan \"compute\" {\n  id = 10\n}\n\nvlan \"spare\" {\n  id = 200\n}\n")
	var b bytes.Buffer
	if err := WriteText(&b, Compare(compileHCL(t, withSpare), compileHCL(t, base))); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  VLAN 200: removed: name spare (push takes VLAN 200 off the fabric's ports but leaves it defined on the switches, which may have ports outside the fabric in it: once nothing uses it, remove it there (EOS and Onyx: no vlan 200; Cumulus Linux: nv unset bridge domain br_default vlan 200))\n",
		"  VLANs 10, 200 -> 10 (push leaves VLAN 200 defined on the switch; see the fabric-wide change), because of VLAN 200 removed: name spare\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("plan lacks\n%s\nin:\n%s", want, b.String())
		}
	}
}

// TestPlanFormats checks the Markdown and JSON forms of the cable change.
func TestPlanFormats(t *testing.T) {
	base := baseHCL(t)
	p := Compare(compileHCL(t, base), compileHCL(t, edit(t, base, "length = 3\n", "length = 30\n")))
	var md, js bytes.Buffer
	if err := WriteMarkdown(&md, p, CommentLimit); err != nil {
		t.Fatal(err)
	}
	wantMD := `<!-- fabricc-plan -->
### fabricc plan: plan-test

Fabric "plan-test": 2 devices change (leaf1, h1); 1 switch with disruptive changes.

Hosts to run their script: 1 (h1).

#### leaf1 (switch)

- **swp1**: cable 3 m dac -\> 30 m aoc, so PG3 in flight after PAUSE 75,776 -\> 82,944 B, PG3 buffer 95,232 -\> 102,400 B
- **ingress lossless pool**: demand 190,464 -\> 197,632 B (+7,168 B, used 2.7 % -\> 2.8 %), because of the port changes above
- impact: reprograms the buffer (priority-group or queue reservations change on swp1, pool sizes stay): momentary packet loss on the whole switch possible (NVIDIA Cumulus Linux User Guide, Quality of Service, switchd and QoS)

#### h1 (host)

- **roce0**: cable 3 m dac -\> 30 m aoc
- script changes: roce0 cable length 3 -\> 30 m (mlnx\_qos --cable\_len); run it
`
	if md.String() != wantMD {
		t.Errorf("markdown:\n%s\nwant:\n%s", md.String(), wantMD)
	}
	if err := WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"changed": true`,
		`"name": "leaf1",
      "kind": "switch",
      "status": "changed",`,
		`"subject": "swp1",
          "changes": [
            {
              "field": "cable",
              "before": "3 m dac",
              "after": "30 m aoc"
            }
          ],
          "effects": [
            {
              "field": "PG3 in flight after PAUSE",
              "before": "75,776",
              "after": "82,944",
              "unit": "B",
              "before_value": 75776,
              "after_value": 82944
            },`,
		`"field": "demand",
              "before": "190,464",
              "after": "197,632",
              "unit": "B",
              "note": "+7,168 B, used 2.7 % -> 2.8 %",
              "before_value": 190464,
              "after_value": 197632`,
		`"because": [
            "the port changes above"
          ]`,
		`"script": "changes",
      "script_settings": [
        {
          "field": "roce0 cable length",
          "before": "3",
          "after": "30",
          "unit": "m",
          "note": "mlnx_qos --cable_len",
          "before_value": 3,
          "after_value": 30
        }
      ]`,
	} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("JSON lacks:\n%s\n--- in:\n%s", want, js.String())
		}
	}
	var empty bytes.Buffer
	if err := WriteJSON(&empty, Compare(compileHCL(t, base), compileHCL(t, base))); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"fabric\": \"plan-test\",\n  \"changed\": false,\n  \"fabric_changes\": [],\n  \"devices\": [],\n  \"disruptive_switches\": 0,\n  \"disruptive_hosts\": 0,\n  \"hosts_to_run\": [],\n  \"rollout\": [],\n  \"new_warnings\": [],\n  \"gone_warnings\": []\n}\n"; empty.String() != want {
		t.Errorf("empty plan JSON = %q, want %q", empty.String(), want)
	}
}

// TestPlanHostileNames: names in the Markdown form are escaped.
func TestPlanHostileNames(t *testing.T) {
	p := &Plan{Fabric: "f|<x>", Devices: []Device{{Name: "sw*1", Kind: "switch", Status: "changed",
		Items: []Item{{Subject: "p`1`", Changes: []Change{{Field: "description", Before: "a|b", After: "<img>"}}}}}}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, p, CommentLimit); err != nil {
		t.Fatal(err)
	}
	want := "<!-- fabricc-plan -->\n### fabricc plan: f\\|\\<x\\>\n\nFabric \"f\\|\\<x\\>\": 1 device changes (sw\\*1).\n\n#### sw\\*1 (switch)\n\n- **p\\`1\\`**: description a\\|b -\\> \\<img\\>\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}

// manyDevices is a plan with fabric-wide changes and n changed
// switches, each with two changed ports.
func manyDevices(n int) *Plan {
	p := &Plan{Fabric: "big", FabricItems: []Item{{Subject: "class roce", Changes: []Change{{Field: "ECN minimum", Before: "150,000", After: "200,000", Unit: "B"}}}}}
	for i := range n {
		d := Device{Name: fmt.Sprintf("leaf%04d", i), Kind: "switch", Status: "changed"}
		for _, port := range []string{"Ethernet1", "Ethernet2"} {
			d.Items = append(d.Items, Item{Subject: port, Effects: []Change{{Field: "ECN minimum", Before: "150,000", After: "200,000", Unit: "B"}}, Because: []string{"class roce"}})
		}
		p.Devices = append(p.Devices, d)
	}
	return p
}

// TestPlanMarkdownLimit: a Markdown plan longer than the limit keeps
// its heading, summary and the whole sections that fit, and ends with
// the line that says what is left out; one that fits is whole.
func TestPlanMarkdownLimit(t *testing.T) {
	p := manyDevices(500)
	var whole bytes.Buffer
	if err := WriteMarkdown(&whole, p, 0); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCount(whole.Bytes()); n <= CommentLimit {
		t.Fatalf("the whole plan is %d characters; the test needs more than the limit", n)
	}
	for _, limit := range []int{CommentLimit, 5000, 1000} {
		var b bytes.Buffer
		if err := WriteMarkdown(&b, p, limit); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if n := utf8.RuneCountInString(got); n > limit {
			t.Errorf("limit %d: %d characters", limit, n)
		}
		shown := strings.Count(got, "\n#### leaf")
		why := "A pull-request comment holds 65,536 characters"
		if limit != CommentLimit {
			why = "This comment is limited to " + docs.Thousands(int64(limit)) + " characters (--markdown-limit)"
		}
		want := fmt.Sprintf("\n_Not shown: %d more devices, from leaf%04d on. %s; `fabricc plan` with `--format text` or `--json` prints the whole plan._\n",
			500-shown, shown, why)
		if !strings.HasSuffix(got, want) {
			t.Errorf("limit %d: the plan ends:\n%s\nwant:\n%s", limit, got[max(0, len(got)-300):], want)
		}
		// Whole sections only, in order: the output is the whole plan up
		// to the last section shown.
		kept := strings.TrimSuffix(got, want)
		if !strings.HasPrefix(whole.String(), kept) || !strings.HasPrefix(whole.String()[len(kept):], "\n#### leaf") {
			t.Errorf("limit %d: not the whole plan up to a section boundary", limit)
		}
		// The next section would not have fitted with the line.
		next := whole.String()[len(kept):]
		if end := strings.Index(next[1:], "\n#### "); end > 0 && utf8.RuneCountInString(kept)+utf8.RuneCountInString(next[:end+1])+utf8.RuneCountInString(want) <= limit {
			t.Errorf("limit %d: the next section would have fitted", limit)
		}
	}
	// A limit the heading and the fabric-wide part fill: both are cut.
	var small bytes.Buffer
	if err := WriteMarkdown(&small, p, 100); err != nil {
		t.Fatal(err)
	}
	if want := "Not shown: the fabric-wide changes and 500 more devices, from leaf0000 on."; !strings.Contains(small.String(), want) {
		t.Errorf("got:\n%s\nwant it to contain %q", small.String(), want)
	}
	// Exactly at the limit: whole, no last line. One character less: cut.
	size := utf8.RuneCount(whole.Bytes())
	for limit, cut := range map[int]bool{size: false, size - 1: true} {
		var b bytes.Buffer
		if err := WriteMarkdown(&b, p, limit); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "Not shown:"); got != cut || !cut && b.String() != whole.String() {
			t.Errorf("limit %d of a %d-character plan: cut %v, want %v", limit, size, got, cut)
		}
	}
}

// TestPlanMarkdownLimitCountsCharacters: the limit counts characters, as
// GitHub does, not bytes: a plan of names in two-byte letters fits by
// its count of characters. Its sections are shorter than the line a cut
// plan ends with, so the last ones fit only as the whole rest.
func TestPlanMarkdownLimitCountsCharacters(t *testing.T) {
	p := &Plan{Fabric: "f"}
	for i := range 4 {
		p.Devices = append(p.Devices, Device{Name: strings.Repeat("é", 40) + strconv.Itoa(i), Kind: "switch", Status: "changed",
			Items: []Item{{Subject: "p", Changes: []Change{{Field: "x", Before: "1", After: "2"}}}}})
	}
	var whole bytes.Buffer
	if err := WriteMarkdown(&whole, p, 0); err != nil {
		t.Fatal(err)
	}
	chars := utf8.RuneCount(whole.Bytes())
	if chars == whole.Len() {
		t.Fatal("the plan has no multi-byte character")
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, p, chars); err != nil {
		t.Fatal(err)
	}
	if b.String() != whole.String() {
		t.Errorf("a plan of %d characters (%d bytes) was cut at a limit of %d:\n%s", chars, whole.Len(), chars, b.String())
	}
	b.Reset()
	if err := WriteMarkdown(&b, p, chars-1); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCount(b.Bytes()); n > chars-1 || !strings.Contains(b.String(), "Not shown: ") {
		t.Errorf("a limit one under the plan: %d characters:\n%s", n, b.String())
	}
}

// TestPlanSummaryNames: the summary names the first ten devices and
// counts the rest.
func TestPlanSummaryNames(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, manyDevices(12)); err != nil {
		t.Fatal(err)
	}
	want := `Fabric "big": 12 devices change (leaf0000, leaf0001, leaf0002, leaf0003, leaf0004, leaf0005, leaf0006, leaf0007, leaf0008, leaf0009 and 2 more); 1 fabric-wide change.` + "\n"
	if first, _, _ := strings.Cut(b.String(), "\n"); first+"\n" != want {
		t.Errorf("summary %q, want %q", first, want)
	}
}

// TestPlanNotes: notes follow the summary line in text and Markdown.
func TestPlanNotes(t *testing.T) {
	p := &Plan{Fabric: "f", Notes: []string{`The base revision HEAD~1 has no fabric at "fabric"; every device is added.`},
		Devices: []Device{{Name: "sw1", Kind: "switch", Status: "added", Items: []Item{{Changes: added("cumulus 5.9.2 on SN2700, 2 ports")}}}}}
	var text, md bytes.Buffer
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, p, CommentLimit); err != nil {
		t.Fatal(err)
	}
	wantText := `Fabric "f": 1 device changes (sw1).
The base revision HEAD~1 has no fabric at "fabric"; every device is added.

sw1 (switch, added)
  added: cumulus 5.9.2 on SN2700, 2 ports
`
	wantMD := `<!-- fabricc-plan -->
### fabricc plan: f

Fabric "f": 1 device changes (sw1).

The base revision HEAD\~1 has no fabric at "fabric"; every device is added.

#### sw1 (switch, added)

- added: cumulus 5.9.2 on SN2700, 2 ports
`
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	if md.String() != wantMD {
		t.Errorf("markdown:\n%s\nwant:\n%s", md.String(), wantMD)
	}
}

// TestAmountValues: a program reading plan --json compares numbers, not
// the text with its thousands separators; a side that has no amount
// ("none") has no number.
func TestAmountValues(t *testing.T) {
	q := &model.EgressQueue{ReservedBytes: 10240}
	for _, c := range []struct {
		name   string
		got    []Change
		before string
		after  string
	}{
		{"amount", amountChange("PG3 in flight after PAUSE", 72704, 79872, "B"), `"before_value":72704`, `"after_value":79872`},
		{"queue added", reservedChange("TC3 queue reserved", nil, q), ``, `"after_value":10240`},
		{"queue removed", reservedChange("TC3 queue reserved", q, nil), `"before_value":10240`, ``},
	} {
		if len(c.got) != 1 {
			t.Fatalf("%s: %d changes, want 1", c.name, len(c.got))
		}
		js := mustJSON(t, c.got[0])
		for key, want := range map[string]string{"before_value": c.before, "after_value": c.after} {
			if want == "" && strings.Contains(js, key) || want != "" && !strings.Contains(js, want) {
				t.Errorf("%s: %s: want %q in %s", c.name, key, want, js)
			}
		}
	}
	if got := amountChange("cell", 144, 144, "B"); got != nil {
		t.Errorf("equal amounts: %v, want no change", got)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// On an Onyx switch in traffic-pool mode fabricc configures no per-port
// headroom: the plan keeps the numbers and says they are fabricc's, for
// comparison, and what to check on the switch after the recable.
func TestPlanHeadroomNotConfigured(t *testing.T) {
	onyx := edit(t, baseHCL(t),
		`platform   = "cumulus"`, `platform   = "onyx"`,
		`os_version = "5.9.2"`, `os_version = "3.10.4000"`,
		`"swp1"`, `"1/1"`, `"swp2"`, `"1/2"`, `leaf1:swp1`, `leaf1:1/1`, `leaf1:swp2`, `leaf1:1/2`)
	var b bytes.Buffer
	if err := WriteText(&b, Compare(compileHCL(t, onyx), compileHCL(t, edit(t, onyx, "length = 3\n", "length = 30\n")))); err != nil {
		t.Fatal(err)
	}
	want := `Fabric "plan-test": 2 devices change (leaf1, h1).
Hosts to run their script: 1 (h1).

leaf1 (switch)
  1/1: cable 3 m dac -> 30 m aoc, so PG3 in flight after PAUSE 75,776 -> 82,944 B, PG3 buffer 95,232 -> 102,400 B (fabricc's computed values for comparison, not configured: Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later; after a recable check the switch's own headroom, on the switch: show buffers details interfaces ethernet 1/1)
  ingress lossless pool: demand 190,464 -> 197,632 B (+7,168 B, used 2.7 % -> 2.8 %), because of the port changes above (the demand counts fabricc's computed headroom, not a configured one: Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later)

h1 (host)
  roce0: cable 3 m dac -> 30 m aoc
  script changes: roce0 cable length 3 -> 30 m (mlnx_qos --cable_len); run it
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPlanMarkdownMarker: every Markdown plan, with changes or without,
// starts with the fixed marker line by which docs/review.md's workflow
// finds its own comment to update.
func TestPlanMarkdownMarker(t *testing.T) {
	base := baseHCL(t)
	for _, c := range []struct {
		name string
		p    *Plan
		want string
	}{
		{"no changes", Compare(compileHCL(t, base), compileHCL(t, base)), "<!-- fabricc-plan -->\n### fabricc plan: plan-test\n\nNo changes: fabric \"plan-test\" means the same in both revisions.\n"},
		{"changes", Compare(compileHCL(t, base), compileHCL(t, edit(t, base, "length = 3\n", "length = 30\n"))), "<!-- fabricc-plan -->\n### fabricc plan: plan-test\n\nFabric \"plan-test\": 2 devices change"},
	} {
		var b bytes.Buffer
		if err := WriteMarkdown(&b, c.p, 100); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), c.want) {
			t.Errorf("%s:\n%s\nwant it to start\n%s", c.name, b.String(), c.want)
		}
	}
}
