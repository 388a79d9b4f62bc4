package sim_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxLLDPState: the global `lldp` switch is on by default from
// 3.8.2000 and off before (NVIDIA Onyx User Manual, Link Layer Discovery
// Protocol (LLDP)); `show lldp local | json-print` says which in the
// element "LLDP" of the mellanox.onyx fixture onyx_lldp_show.cfg, `show
// lldp interfaces | json-print` each port's Receive and Transmit as in
// onyx_lldp_interface_show.cfg, and the running-config prints the
// switch only where it is not the release's default.
func TestOnyxLLDPState(t *testing.T) {
	global := func(v any) any { return v.([]any)[0] }
	port := func(v any, p string) any { return v.(map[string]any)[p] }
	d := startWith(t, sim.Options{Platform: model.PlatformOnyx, OSVersion: "3.10.4206"})
	drv := mustOpen(t, d, onyxDef(t))
	if got := global(jsonOf(t, drv, "show lldp local | json-print")); !cmp.Equal(got, map[string]any{"LLDP": "enabled"}) {
		t.Errorf("3.10.4206, fresh: show lldp local %v, want LLDP enabled", got)
	}
	if run := cmd(t, drv, "show running-config"); strings.Contains(run, "lldp") {
		t.Errorf("3.10.4206, fresh: the running-config names lldp:\n%s", run)
	}
	configs(t, drv, "no lldp", "interface ethernet 1/1 no lldp transmit", "interface ethernet 1/2 no lldp receive")
	if got := global(jsonOf(t, drv, "show lldp local | json-print")); !cmp.Equal(got, map[string]any{"LLDP": "disabled"}) {
		t.Errorf("after no lldp: show lldp local %v, want LLDP disabled", got)
	}
	if got := cmd(t, drv, "show lldp local"); !strings.HasPrefix(got, "LLDP is Disabled\n\nLocal global configuration\n  Chassis sub type: macAddress (4)\n") {
		t.Errorf("after no lldp: show lldp local text %q", got)
	}
	ifs := jsonOf(t, drv, "show lldp interfaces | json-print")
	tlvs := "PD, SN, SD, SC, MA, PFC, AP, ETS-C, ETS-R"
	for p, want := range map[string]map[string]any{
		"Eth1/1": {"Receive": "Enabled", "Transmit": "Disabled", "TLVs": tlvs},
		"Eth1/2": {"Receive": "Disabled", "Transmit": "Enabled", "TLVs": tlvs},
		"Eth1/3": {"Receive": "Enabled", "Transmit": "Enabled", "TLVs": tlvs},
	} {
		if d := cmp.Diff([]any{map[string]any(want)}, port(ifs, p)); d != "" {
			t.Errorf("show lldp interfaces %s (-want +got):\n%s", p, d)
		}
	}
	run := cmd(t, drv, "show running-config")
	for _, l := range []string{"\nno lldp\n", "\n   interface ethernet 1/1 no lldp transmit\n", "\n   interface ethernet 1/2 no lldp receive\n"} {
		if !strings.Contains(run, l) {
			t.Errorf("the running-config lacks %q:\n%s", l, run)
		}
	}
	configs(t, drv, "lldp", "interface ethernet 1/1 lldp transmit", "interface ethernet 1/2 lldp receive")
	if run := cmd(t, drv, "show running-config"); strings.Contains(run, "lldp") {
		t.Errorf("3.10.4206, LLDP back on: the running-config names lldp:\n%s", run)
	}

	old := startWith(t, sim.Options{Platform: model.PlatformOnyx, OSVersion: "3.6.8130"})
	odrv := mustOpen(t, old, onyxDef(t))
	if got := global(jsonOf(t, odrv, "show lldp local | json-print")); !cmp.Equal(got, map[string]any{"LLDP": "disabled"}) {
		t.Errorf("3.6.8130, fresh: show lldp local %v, want LLDP disabled", got)
	}
	configs(t, odrv, "lldp")
	if run := cmd(t, odrv, "show running-config"); !strings.Contains(run, "\nlldp\n") {
		t.Errorf("3.6.8130 after lldp: the running-config lacks lldp:\n%s", run)
	}
}
