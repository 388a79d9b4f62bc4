package sim_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

var eosBlock = []string{
	"vlan 100",
	"   name rdma",
	"!",
	"qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 3",
	"qos map dscp 48 49 50 51 52 53 54 55 to traffic-class 6",
	"priority-flow-control pause watchdog action drop",
	"qos profile ROCE",
	"   qos trust dscp",
	"   uc-tx-queue 3",
	"      no priority",
	"      bandwidth percent 50",
	"      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100",
	"   uc-tx-queue 6",
	"      priority strict",
	"   priority-flow-control on",
	"   priority-flow-control priority 3 no-drop",
	"   priority-flow-control pause watchdog",
	"interface Ethernet1/1",
	"   description host01-nic0",
	"   mtu 9214",
	"   speed 100g-4",
	"   switchport mode trunk",
	"   switchport trunk allowed vlan 100",
	"   service-profile ROCE",
}

func TestEOSModesAndPrompts(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	if got := cmd(t, drv, "show version"); !strings.Contains(got, "4.32.2F") {
		t.Errorf("show version = %q", got)
	}
	configs(t, drv, "interface Ethernet33", "mtu 9000")
	if drv.CurrentPriv != "configuration" {
		t.Errorf("priv = %q", drv.CurrentPriv)
	}
	if got := cmd(t, drv, "show running-config"); !strings.Contains(got, "interface Ethernet33\n   mtu 9000\n") {
		t.Errorf("running-config lacks the MTU:\n%s", got)
	}
}

func TestEOSBlockChangesShowOutput(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	configs(t, drv, eosBlock...)
	st := jsonOf(t, drv, "show interfaces status | json")
	checks := []struct {
		v    any
		want any
	}{
		{path(t, st, "interfaceStatuses", "Ethernet1/1", "description"), "host01-nic0"},
		{path(t, st, "interfaceStatuses", "Ethernet1/1", "vlanInformation", "interfaceMode"), "trunk"},
		{path(t, st, "interfaceStatuses", "Ethernet1/1", "bandwidth"), 100e9},
		{path(t, jsonOf(t, drv, "show interfaces Ethernet1/1 | json"), "interfaces", "Ethernet1/1", "mtu"), 9214.0},
		{path(t, jsonOf(t, drv, "show vlan | json"), "vlans", "100", "name"), "rdma"},
	}
	pfc := jsonOf(t, drv, "show priority-flow-control | json")
	checks = append(checks, []struct{ v, want any }{
		{path(t, pfc, "interfaceStatuses", "Ethernet1/1", "pfcEnabled"), true},
		{path(t, pfc, "interfaceStatuses", "Ethernet1/1", "priorities", "0"), 3.0},
		{path(t, pfc, "interfaceStatuses", "Ethernet1/1", "watchdogEnabled"), true},
		{path(t, pfc, "watchdog", "action"), "drop"},
	}...)
	q := jsonOf(t, drv, "show qos interfaces Ethernet1/1 | json")
	checks = append(checks, []struct{ v, want any }{
		{path(t, q, "intfQosDetails", "Ethernet1/1", "trustMode"), "DSCP"},
		{path(t, q, "intfQosDetails", "Ethernet1/1", "txQueues", "3", "schedulingMode"), "roundRobin"},
		{path(t, q, "intfQosDetails", "Ethernet1/1", "txQueues", "3", "bandwidthPercent"), 50.0},
		{path(t, q, "intfQosDetails", "Ethernet1/1", "txQueues", "3", "ecn", "minThreshold"), 150.0},
		{path(t, q, "intfQosDetails", "Ethernet1/1", "txQueues", "3", "ecn", "unit"), "kbytes"},
		{path(t, q, "intfQosDetails", "Ethernet1/1", "txQueues", "6", "schedulingMode"), "strictPriority"},
		{path(t, jsonOf(t, drv, "show qos maps | json"), "dscpToTcMap", "26"), 3.0},
		{path(t, jsonOf(t, drv, "show qos maps | json"), "dscpToTcMap", "0"), 1.0},
	}...)
	for i, c := range checks {
		if c.v != c.want {
			t.Errorf("check %d: got %v (%T), want %v", i, c.v, c.v, c.want)
		}
	}
	rc := jsonOf(t, drv, "show running-config | json")
	if path(t, rc, "cmds", "interface Ethernet1/1", "cmds", "mtu 9214") != nil {
		t.Error("running-config json: mtu not a leaf")
	}
	if _, ok := path(t, rc, "cmds", "interface Ethernet1/1", "cmds").(map[string]any)["service-profile ROCE"]; !ok {
		t.Errorf("running-config json lacks service-profile: %v", rc)
	}
}

func TestEOSRunningConfigRoundTrip(t *testing.T) {
	a := start(t, model.PlatformEOS, sim.Faults{})
	configs(t, mustOpen(t, a, "arista_eos"), eosBlock...)
	want := a.Running()
	b := start(t, model.PlatformEOS, sim.Faults{})
	var lines []string
	for _, l := range strings.Split(want, "\n") {
		if l != "" && l != "end" {
			lines = append(lines, l)
		}
	}
	configs(t, mustOpen(t, b, "arista_eos"), lines...)
	if got := b.Running(); got != want {
		t.Errorf("replaying running-config changed it:\n--- want\n%s\n--- got\n%s", want, got)
	}
}

func TestEOSInvalidInputChangesNothing(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	configs(t, drv, "interface Ethernet34", "mtu 9000")
	before := d.Running()
	for _, bad := range []string{"mtu 99999", "switchport mode hybrid", "qos map dscp 64 to traffic-class 3"} {
		mr, err := drv.SendConfigs([]string{"interface Ethernet34", bad})
		if err != nil {
			t.Fatal(err)
		}
		if mr.Failed == nil || !strings.Contains(mr.JoinedResult(), "% Invalid input") {
			t.Errorf("%q: not refused: %q", bad, mr.JoinedResult())
		}
	}
	// A first word no mode has is not the device's invalid input: the
	// simulator cannot tell a command EOS lacks from one it does not
	// model (review rsim #7).
	mr, err := drv.SendConfigs([]string{"interface Ethernet34", "bogus command"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(mr.JoinedResult(), "% This command is not simulated") {
		t.Errorf("bogus command: %q", mr.JoinedResult())
	}
	if got := d.Running(); got != before {
		t.Errorf("refused commands changed the config:\n%s", got)
	}
}

// TestEOSMMUProfilePrintsWhatWasSet: the running-config prints an MMU
// queue profile's lines as configured (AVD platform-trident.j2 order),
// a priority group given only a threshold without a reserved line, and
// a changed value as changed: what verify reads back.
func TestEOSMMUProfilePrintsWhatWasSet(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	configs(t, drv, "platform trident mmu queue profile fabricc",
		"    ingress headroom bytes 144384",
		"    ingress priority-group 0 reserved bytes 10240",
		"    ingress priority-group 3 threshold 2",
		"    egress unicast queue 3 reserved bytes 0",
		"exit",
		"platform trident mmu queue profile fabricc apply")
	want := "platform trident mmu queue profile fabricc\n" +
		"    ingress headroom bytes 144384\n" +
		"    ingress priority-group 0 reserved bytes 10240\n" +
		"    ingress priority-group 3 threshold 2\n" +
		"    egress unicast queue 3 reserved bytes 0\n" +
		"!\nplatform trident mmu queue profile fabricc apply\n"
	if got := cmd(t, drv, "show running-config"); !strings.Contains(got, want) {
		t.Errorf("running-config lacks\n%s\nit is:\n%s", want, got)
	}
	configs(t, drv, "platform trident mmu queue profile fabricc", "    ingress headroom bytes 157696")
	if got := cmd(t, drv, "show running-config"); !strings.Contains(got, "    ingress headroom bytes 157696\n") || strings.Contains(got, "144384") {
		t.Errorf("a changed headroom does not show as changed:\n%s", got)
	}
}

// TestEOSNoFormsClearECNAndMMU: the no-forms targets/eos writes for a
// class without ECN and for MMU queue profile groups and queues the
// fabric does not use take those settings off the running-config, and an
// index outside the profile's 0-7 is refused.
func TestEOSNoFormsClearECNAndMMU(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	configs(t, drv,
		"interface Ethernet1/1", "uc-tx-queue 3", "no priority",
		"random-detect ecn count",
		"random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100",
		"exit", "exit",
		"platform trident mmu queue profile fabricc",
		"ingress headroom bytes 47104",
		"ingress priority-group 0 reserved bytes 10240", "ingress priority-group 0 threshold 8",
		"ingress priority-group 3 threshold 1/2",
		"egress unicast queue 6 reserved bytes 9216", "egress unicast queue 6 threshold 8")
	configs(t, drv,
		"interface Ethernet1/1", "uc-tx-queue 3",
		"no random-detect ecn count", "no random-detect ecn minimum-threshold",
		"exit", "exit",
		"platform trident mmu queue profile fabricc",
		"no ingress headroom",
		"no ingress priority-group 0 reserved", "no ingress priority-group 0 threshold",
		"no egress unicast queue 6 reserved", "no egress unicast queue 6 threshold",
		"no egress unicast queue 7 reserved")
	got := d.Running()
	for _, want := range []string{
		"interface Ethernet1/1\n   !\n   uc-tx-queue 3\n      no priority\n   !\n!\n",
		"platform trident mmu queue profile fabricc\n    ingress priority-group 3 threshold 1/2\n!\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("running-config lacks\n%s\n--- got:\n%s", want, got)
		}
	}
	mr, err := drv.SendConfigs([]string{"platform trident mmu queue profile fabricc", "no ingress priority-group 8 reserved"})
	if err != nil {
		t.Fatal(err)
	}
	if mr.Failed == nil {
		t.Errorf("priority-group 8 not refused: %q", mr.JoinedResult())
	}
}

// TestEOSPFCQueueTie (review rsw, findings 2 and 4): PFC on a priority
// pauses the tx-queues whose traffic class maps to that CoS, by EOS's
// default map (TC N -> CoS N from TC2 up) unless `qos map traffic-class T
// to cos P` says otherwise; and the watchdog monitors only such a queue
// that has `bandwidth guaranteed percent N`. The RoCE class here sits in
// TC4, on the default model, a Trident3 (`uc-tx-queue`).
func TestEOSPFCQueueTie(t *testing.T) {
	base := []string{
		"qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 4",
		"interface Ethernet1/1",
		"   qos trust dscp",
		"   uc-tx-queue 4",
		"      no priority",
		"   priority-flow-control on",
		"   priority-flow-control priority 3 no-drop",
		"   priority-flow-control pause watchdog",
	}
	for _, tt := range []struct {
		name            string
		extra           []string
		paused, watched string
		running         []string
	}{
		{name: "default map: priority 3 pauses the empty TC3", paused: "3", watched: ""},
		{name: "traffic-class 4 to cos 3 ties the RoCE queue", extra: []string{"qos map traffic-class 4 to cos 3"},
			paused: "3,4", watched: "", running: []string{"qos map traffic-class 4 to cos 3\n"}},
		{name: "guaranteed bandwidth arms the watchdog", extra: []string{
			"qos map traffic-class 4 to cos 3", "interface Ethernet1/1", "   uc-tx-queue 4", "      bandwidth guaranteed percent 1"},
			paused: "3,4", watched: "4", running: []string{"   uc-tx-queue 4\n      no priority\n      bandwidth guaranteed percent 1\n"}},
		{name: "its no-form disarms it", extra: []string{
			"qos map traffic-class 4 to cos 3", "interface Ethernet1/1", "   uc-tx-queue 4", "      bandwidth guaranteed percent 1", "      no bandwidth guaranteed"},
			paused: "3,4", watched: "", running: []string{"   uc-tx-queue 4\n      no priority\n   !\n"}},
		{name: "the map's no-form restores the default", extra: []string{"qos map traffic-class 4 to cos 3", "no qos map traffic-class 4 to cos 3"},
			paused: "3", watched: ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := start(t, model.PlatformEOS, sim.Faults{})
			drv := mustOpen(t, d, "arista_eos")
			configs(t, drv, append(append([]string(nil), base...), tt.extra...)...)
			pfc := jsonOf(t, drv, "show priority-flow-control status | json")
			for key, want := range map[string]string{"pausedTxQueues": tt.paused, "watchdogTxQueues": tt.watched} {
				var got []string
				for _, v := range path(t, pfc, "interfaceStatuses", "Ethernet1/1", key).([]any) {
					got = append(got, strconv.Itoa(int(v.(float64))))
				}
				if strings.Join(got, ",") != want {
					t.Errorf("%s = %v, want %s", key, got, want)
				}
			}
			running := d.Running()
			for _, want := range tt.running {
				if !strings.Contains(running, want) {
					t.Errorf("running-config lacks %q:\n%s", want, running)
				}
			}
			if tt.running == nil && strings.Contains(running, "to cos") {
				t.Errorf("running-config shows a traffic-class map:\n%s", running)
			}
		})
	}
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	for _, bad := range []string{"qos map traffic-class 4 to cos 8", "qos map traffic-class 8 to cos 3"} {
		mr, err := drv.SendConfigs([]string{bad})
		if err != nil {
			t.Fatal(err)
		}
		if mr.Failed == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := path(t, jsonOf(t, drv, "show qos maps | json"), "tcToCosMap", "0"); got != 1.0 {
		t.Errorf("default TC0 -> CoS %v, want 1", got)
	}
}

// TestEOSQueueKeywordByASIC (review reos, findings 2, 3 and 6): the
// simulator takes the egress-queue sub-mode of the model's ASIC family
// only (Trident and Tomahawk `uc-tx-queue`, Jericho `tx-queue`), and the
// guaranteed bandwidth only in its documented percent form.
func TestEOSQueueKeywordByASIC(t *testing.T) {
	for _, tt := range []struct{ model, good, bad string }{
		{"7050CX3-32S", "uc-tx-queue 3", "tx-queue 3"},
		{"7060CX-32S", "uc-tx-queue 3", "tx-queue 3"},
		{"7280CR3-32P4", "tx-queue 3", "uc-tx-queue 3"},
	} {
		d := startWith(t, sim.Options{Platform: model.PlatformEOS, Model: tt.model})
		drv := mustOpen(t, d, "arista_eos")
		configs(t, drv, "interface Ethernet1/1", tt.good, "bandwidth guaranteed percent 1")
		if want := "   " + tt.good + "\n      bandwidth guaranteed percent 1\n"; !strings.Contains(d.Running(), want) {
			t.Errorf("%s: running-config lacks %q:\n%s", tt.model, want, d.Running())
		}
		for _, bad := range [][]string{{tt.bad}, {tt.good, "bandwidth guaranteed 739"}} {
			before := d.Running()
			mr, err := drv.SendConfigs(append([]string{"interface Ethernet1/1"}, bad...))
			if err != nil {
				t.Fatal(err)
			}
			if mr.Failed == nil || !strings.Contains(mr.JoinedResult(), "% Invalid input") {
				t.Errorf("%s: %q not refused: %q", tt.model, bad, mr.JoinedResult())
			}
			if d.Running() != before {
				t.Errorf("%s: refused %q changed the running-config", tt.model, bad)
			}
		}
	}
}

// TestEOSPlatformCommandsByASIC (review reos, finding 6): the platform
// commands exist per ASIC family, so the simulator refuses the other
// family's at its family keyword, in EOS's own error form: the MMU
// queue profile fabricc writes on Trident and Tomahawk is invalid input
// on a Jericho switch (7280R3, 7800R3), and `platform sand` commands on
// a Trident or Tomahawk one (its own family's are known, not simulated).
// Nothing refused reaches the configuration.
func TestEOSPlatformCommandsByASIC(t *testing.T) {
	for _, tt := range []struct{ model, line, want string }{
		{"7280CR3-32P4", "platform trident mmu queue profile fabricc", "% Invalid input (at token 1: 'trident')"},
		{"7808R3", "platform trident mmu queue profile fabricc apply", "% Invalid input (at token 1: 'trident')"},
		{"7808R3", "platform trident forwarding-table partition flexible", "% Invalid input (at token 1: 'trident')"},
		{"7050CX3-32S", "platform sand lag hardware-only", "% Invalid input (at token 1: 'sand')"},
		{"7060X6-64PE", "platform sand lag hardware-only", "% Invalid input (at token 1: 'sand')"},
		{"7808R3", "platform sand lag hardware-only", "% This command is not simulated"},
	} {
		d := startWith(t, sim.Options{Platform: model.PlatformEOS, Model: tt.model})
		drv := mustOpen(t, d, "arista_eos")
		before := d.Running()
		mr, err := drv.SendConfigs([]string{tt.line})
		if err != nil {
			t.Fatal(err)
		}
		refused := strings.HasPrefix(tt.want, "% Invalid input")
		if got := mr.JoinedResult(); (mr.Failed != nil) != refused || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q answered %q, want %q", tt.model, tt.line, got, tt.want)
		}
		if d.Running() != before {
			t.Errorf("%s: refused %q changed the running-config", tt.model, tt.line)
		}
	}
	// The family's own MMU profile is taken on a Tomahawk5 switch.
	d := startWith(t, sim.Options{Platform: model.PlatformEOS, Model: "7060X6-64PE"})
	configs(t, mustOpen(t, d, "arista_eos"), "platform trident mmu queue profile fabricc", "ingress headroom bytes 1024", "exit", "platform trident mmu queue profile fabricc apply")
	if want := "platform trident mmu queue profile fabricc apply\n"; !strings.Contains(d.Running(), want) {
		t.Errorf("7060X6-64PE: running-config lacks %q:\n%s", want, d.Running())
	}
}

// TestEOSRunningConfigJSONShape is review rsim #8: `show running-config
// | json` prints a mode without children as {"comments": [], "cmds": {}},
// a command that opens no mode as null, and one "! device:" header line
// without its newline, as cEOS 4.34.2F does in a public containerlab
// eAPI capture (`"interface Ethernet3": {"comments": [], "cmds": {}}`,
// `"hostname ceos1": null`, `"header": ["! device: ceos1 (cEOSLab,
// EOS-4.34.2F-...)"]`).
func TestEOSRunningConfigJSONShape(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	configs(t, drv, "interface Ethernet1/1", "description x", "exit", "interface Ethernet2/1", "exit")
	run := jsonOf(t, drv, "show running-config | json")
	got, _ := json.Marshal(map[string]any{
		"empty": path(t, run, "cmds", "interface Ethernet2/1"),
		"leaf":  path(t, run, "cmds", "hostname leaf1"),
		"child": path(t, run, "cmds", "interface Ethernet1/1", "cmds", "description x"),
	})
	if want := `{"child":null,"empty":{"cmds":{},"comments":[]},"leaf":null}`; string(got) != want {
		t.Errorf("running-config JSON: %s, want %s", got, want)
	}
	for _, k := range [][]string{{"hostname leaf1"}, {"interface Ethernet1/1", "cmds", "description x"}} {
		parent, _ := path(t, run, append([]string{"cmds"}, k[:len(k)-1]...)...).(map[string]any)
		if _, ok := parent[k[len(k)-1]]; !ok {
			t.Errorf("running-config JSON lacks %q", k)
		}
	}
	h, _ := path(t, run, "header").([]any)
	if len(h) != 1 || !strings.HasPrefix(h[0].(string), "! device: ") || strings.Contains(h[0].(string), "\n") {
		t.Errorf("header %q, want one \"! device:\" line without a newline", h)
	}
}
