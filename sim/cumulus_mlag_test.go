package sim_test

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestCumulusMLAGLines: the simulator takes NVIDIA's own MLAG lines (Cumulus
// Linux user guide, Multi-Chassis Link Aggregation - MLAG; NVUE Command
// Reference, MLAG) and shows them back in `nv config show`, so that a
// brownfield MLAG switch can be rehearsed in fabricc lab:
// the peer link bond named `peerlink`, its `type peerlink`, the `mlag`
// settings (the simulator's 5.9 takes `bond mlag enable`; `state` only
// from 5.15, TestCumulusMLAGStateFrom515).
func TestCumulusMLAGLines(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	for _, c := range []string{
		"nv set interface peerlink bond member swp49-50",
		"nv set interface peerlink type peerlink",
		"nv set interface hostbond_3 bond member swp3",
		"nv set interface hostbond_3 bond mlag id 3",
		"nv set interface hostbond_3 bond mlag enable on",
		"nv set mlag mac-address 44:38:39:BE:EF:AA",
		"nv set mlag backup 10.10.10.2",
		"nv set mlag peer-ip linklocal",
		"nv set mlag priority 2084",
		"nv config apply -y",
	} {
		cmd(t, drv, c)
	}
	set := path(t, jsonOf(t, drv, "nv config show -o json"), "1", "set")
	for i, c := range []struct{ got, want any }{
		{path(t, set, "interface", "peerlink", "type"), "peerlink"},
		{path(t, set, "interface", "peerlink", "bond", "member", "swp49") != nil, true},
		{path(t, set, "interface", "hostbond_3", "bond", "mlag", "id"), 3.0},
		{path(t, set, "interface", "hostbond_3", "bond", "mlag", "enable"), "on"},
		{path(t, set, "mlag", "mac-address"), "44:38:39:BE:EF:AA"},
		{path(t, set, "mlag", "backup", "10.10.10.2") != nil, true},
		{path(t, set, "mlag", "peer-ip"), "linklocal"},
		{path(t, set, "mlag", "priority"), 2084.0},
	} {
		if c.got != c.want {
			t.Errorf("check %d: got %v, want %v", i, c.got, c.want)
		}
	}
}

// TestCumulusMLAGStateFrom515: `bond mlag state enabled|disabled` is
// NVUE's from Cumulus Linux 5.15 (NVUE Command Reference, MLAG); 5.14
// refuses it.
func TestCumulusMLAGStateFrom515(t *testing.T) {
	for _, tc := range []struct {
		release string
		ok      bool
	}{{"5.14.0", false}, {"5.15.0", true}} {
		d := startWith(t, sim.Options{Platform: model.PlatformCumulus, Model: "SN2100", OSVersion: tc.release})
		drv := mustOpen(t, d, cumulusDef(t))
		r, err := drv.SendCommand("nv set interface bond1 bond mlag state disabled")
		if err != nil {
			t.Fatal(err)
		}
		if (r.Failed == nil) != tc.ok {
			t.Errorf("%s: %q failed=%v, want accepted=%v", tc.release, r.Result, r.Failed, tc.ok)
		}
	}
}
