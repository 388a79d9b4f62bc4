package sim_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestCumulusRoCEModeOneLosslessPool: `nv set qos roce` is RoCE lossless
// mode (Cumulus Linux user guide, RDMA over Converged Ethernet - RoCE:
// "nv set qos roce and nv set qos roce mode lossless are equivalent"),
// whose roce-lossless pool holds switch priority 3; a default-lossless
// pool beside it is refused at `nv config apply` ("You can only have a
// single lossless pool configured on the switch at a time", Quality of
// Service, "Traffic Pools"), and taken once RoCE mode is unset in the
// same revision (rsw #1).
func TestCumulusRoCEModeOneLosslessPool(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	cmd(t, drv, "nv set qos roce")
	cmd(t, drv, "nv config apply -y")
	show := jsonOf(t, drv, "nv config show -o json")
	roce := path(t, show, "1", "set", "qos", "roce")
	if m, _ := roce.(map[string]any); m["enable"] != "on" || m["mode"] != "lossless" {
		t.Errorf("qos roce applied as %v, want enable on, mode lossless", roce)
	}
	if sp := path(t, jsonOf(t, drv, "nv show qos traffic-pool -o json"), "roce-lossless", "switch-priority", "3"); sp == nil {
		t.Error("nv show qos traffic-pool: no roce-lossless pool holding switch priority 3")
	}
	applied := d.Running()
	cmd(t, drv, "nv set qos traffic-pool default-lossless switch-priority 3")
	r, err := drv.SendCommand("nv config apply -y")
	// NVUE's refusal form (invalidConfig): no "Error:" in it.
	const want = "Invalid config [rev_id: 3]\n  Config invalid at qos.traffic-pool: only a single lossless pool can be configured on the switch at a time; the configuration has " +
		"default-lossless (qos traffic-pool default-lossless) and roce-lossless (qos roce mode lossless): " +
		"unset one (nv unset qos roce, or nv unset qos traffic-pool <pool> switch-priority)"
	if err != nil || r.Failed == nil || r.Result != want {
		t.Fatalf("apply of a second lossless pool: %v %q, want %q", err, r.Result, want)
	}
	if d.Running() != applied {
		t.Error("the refused apply changed the applied configuration")
	}
	cmd(t, drv, "nv unset qos roce")
	if out := cmd(t, drv, "nv config apply -y"); !strings.HasPrefix(out, "applied [rev_id: ") {
		t.Errorf("apply without RoCE mode: %q", out)
	}
}

// TestCumulusSchedulerSum: `nv config apply` refuses an egress scheduler
// whose DWRR shares sum to more than 100, counting a traffic class left
// unset at its default 12 or 13 % (Cumulus Linux 5.9 user guide, Quality
// of Service, "Egress Scheduler"): fabricc's old 50/50/strict profile
// made 163 % (rsw #7). Every class written, the idle ones at bw-percent 0,
// is taken.
func TestCumulusSchedulerSum(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	cmd(t, drv, "nv set qos egress-scheduler default-global traffic-class 0,3 mode dwrr")
	cmd(t, drv, "nv set qos egress-scheduler default-global traffic-class 0,3 bw-percent 50")
	cmd(t, drv, "nv set qos egress-scheduler default-global traffic-class 6 mode strict")
	r, err := drv.SendCommand("nv config apply -y")
	const want = "Invalid config [rev_id: 2]\n  Config invalid at qos.egress-scheduler.default-global: the bw-percent of its dwrr traffic classes sum to 163 " +
		"(a class left unset keeps its default 12 or 13); the total must be 100 or less"
	if err != nil || r.Failed == nil || r.Result != want {
		t.Fatalf("apply of 50+50+defaults: %v %q, want %q", err, r.Result, want)
	}
	cmd(t, drv, "nv set qos egress-scheduler default-global traffic-class 1,2,4,5,7 mode dwrr")
	cmd(t, drv, "nv set qos egress-scheduler default-global traffic-class 1,2,4,5,7 bw-percent 0")
	if out := cmd(t, drv, "nv config apply -y"); !strings.HasPrefix(out, "applied [rev_id: ") {
		t.Errorf("apply of every class: %q", out)
	}
}

// TestCumulusAutoSave: `nv config apply` saves startup.yaml from Cumulus
// Linux 5.9 unless auto save is off (NVUE Command Reference, Config
// Commands, `nv config apply`: "In Cumulus Linux 5.9 and later, auto save
// is on by default"; 5.9 user guide, NVUE CLI, "Auto Save"), before only
// when it is on (rsw #8). With --confirm the simulator saves at once and
// a rollback leaves startup.yaml as it is (what NVUE does is not
// documented; push/nvue.go copes with it).
func TestCumulusAutoSave(t *testing.T) {
	for _, tc := range []struct {
		version, setting string
		saves            bool
	}{
		{"5.9.2", "", true},
		{"5.9.2", "nv set system config auto-save enable off", false},
		{"5.13.0", "nv set system config auto-save state disabled", false},
		{"5.8.0", "", false},
		{"5.8.0", "nv set system config auto-save enable on", true},
	} {
		t.Run(tc.version+" "+tc.setting, func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: model.PlatformCumulus, OSVersion: tc.version})
			drv := mustOpen(t, d, cumulusDef(t))
			if tc.setting != "" {
				cmd(t, drv, tc.setting)
			}
			cmd(t, drv, "nv set interface swp20 description note")
			cmd(t, drv, "nv config apply -y")
			if got := d.Saved() == d.Running(); got != tc.saves {
				t.Errorf("apply saved startup.yaml: %v, want %v", got, tc.saves)
			}
			cmd(t, drv, "nv config save")
			before := d.Saved()
			cmd(t, drv, "nv set interface swp20 description timed")
			cmd(t, drv, "nv config apply --confirm 300s -y")
			if got := strings.Contains(d.Saved(), "timed"); got != tc.saves {
				t.Errorf("apply --confirm saved the unconfirmed revision: %v, want %v", got, tc.saves)
			}
			cmd(t, drv, "nv config apply --confirm-no -y")
			if strings.Contains(d.Running(), "timed") {
				t.Error("--confirm-no left the revision applied")
			}
			if got := d.Saved() != before; got != tc.saves {
				t.Errorf("startup.yaml after the rollback differs from before: %v, want %v", got, tc.saves)
			}
		})
	}
}

// TestCumulusReleaseDialect: the simulated switch reports the fabric's
// model and release in the header of `nv config show` and takes only
// its release's keywords and objects, as NVIDIA documents them: PFC
// tx/rx and the PFC watchdog `enable`/`disable` in every release (NVUE
// Command Reference, QoS: `nv set qos pfc default-global tx enable`);
// ECN/RED `enable`/`disable` before 5.15 and `enabled`/`disabled` from
// it (`... ecn enabled`); `qos roce enable on|off` before 5.15 and
// `qos roce state enabled|disabled` from it (Cumulus Linux 5.15 New and
// Changed NVUE Commands, "On/Off"); no qos pfc-watchdog before 5.6
// (Version History) (rcum #3, #9). Before, it said SN2700 / 5.9.2
// whatever the fabric declared and took both dialects; then its 5.15
// took `tx enabled` and refused `tx enable`, fabricc's guess rather
// than NVIDIA's reference, and refused `qos roce state disabled`.
func TestCumulusReleaseDialect(t *testing.T) {
	for _, tc := range []struct {
		version, takes, refuses, why string
	}{
		{"5.9.2", "nv set qos pfc p1 tx enable", "nv set qos pfc p1 tx enabled", "Error: tx: 'enabled' is not one of [enable, disable]"},
		{"5.15.0", "nv set qos pfc p1 tx enable", "nv set qos pfc p1 tx enabled", "Error: tx: 'enabled' is not one of [enable, disable]"},
		{"5.15.0", "nv set interface swp1 qos pfc-watchdog state enable", "nv set interface swp1 qos pfc-watchdog state enabled", "Error: state: 'enabled' is not one of [enable, disable]"},
		{"5.14.1", "nv set qos congestion-control default-global traffic-class 3 ecn enable", "nv set qos congestion-control default-global traffic-class 3 ecn enabled", "Error: ecn: 'enabled' is not one of [enable, disable]"},
		{"5.15.0", "nv set qos congestion-control default-global traffic-class 3 ecn enabled", "nv set qos congestion-control default-global traffic-class 3 ecn enable", "Error: ecn: 'enable' is not one of [enabled, disabled]"},
		{"5.14.1", "nv set qos roce enable off", "nv set qos roce state disabled", "Error: 'state' is not a valid command argument here"},
		{"5.15.0", "nv set qos roce state disabled", "nv set qos roce enable off", "Error: 'enable' is not a valid command argument here"},
		{"5.5.0", "nv set qos pfc p1 tx enable", "nv set qos pfc-watchdog polling-interval 100", "Error: 'pfc-watchdog' is not a valid command argument here"},
	} {
		t.Run(tc.version+" "+tc.takes, func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: model.PlatformCumulus, Model: "SN2100", OSVersion: tc.version})
			drv := mustOpen(t, d, cumulusDef(t))
			header := path(t, jsonOf(t, drv, "nv config show -o json"), "0", "header")
			want := map[string]any{"model": "SN2100", "nvue-api-version": "nvue_v1", "rev-id": 1.0, "version": "Cumulus Linux " + tc.version}
			if !reflect.DeepEqual(header, want) {
				t.Errorf("nv config show header: %v, want %v", header, want)
			}
			cmd(t, drv, tc.takes)
			if r, err := drv.SendCommand(tc.refuses); err != nil || r.Result != tc.why {
				t.Errorf("%s on %s: %v %q, want %q", tc.refuses, tc.version, err, r.Result, tc.why)
			}
		})
	}
}
