package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxTrafficPoolsShareOneBuffer: a switch priority belongs to one
// traffic pool, so mapping it to another takes it out of the first
// (NVIDIA Onyx User Manual 3.10, Shared Buffer Commands, `traffic pool
// NAME map switch-priority`), and the pools' shares may not add up to
// more than 100 % (review rsw #10: the simulator held priority 3 in two
// pools and 148.6 % of the buffer).
func TestOnyxTrafficPoolsShareOneBuffer(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	configs(t, drv,
		"traffic pool lossy-default type lossy",
		"traffic pool lossy-default memory percent 43.60",
		"traffic pool lossy-default map switch-priority 0 1 2 4 5 6 7",
		"traffic pool roce-lossless type lossless",
		"traffic pool roce-lossless memory percent 55.00",
		"traffic pool roce-lossless map switch-priority 3",
		// the operator's pool, as mellanox.onyx onyx_buffer_pool's example
		"traffic pool roce type lossless",
		"traffic pool roce map switch-priority 3")
	r, err := drv.SendConfig("traffic pool roce memory percent 50.00")
	if err != nil {
		t.Fatal(err)
	}
	if want := "% Error: traffic pools would use 148.60% of the buffer; the total may not exceed 100%"; r.Failed == nil || !strings.Contains(r.Result, want) {
		t.Errorf("a share taking the pools to 148.6 %%: %q, want %q", r.Result, want)
	}
	configs(t, drv, "traffic pool roce memory percent 1.40")
	var got []string
	for _, l := range strings.Split(d.Running(), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "traffic pool") {
			got = append(got, l)
		}
	}
	want := []string{
		"traffic pool lossy-default type lossy",
		"traffic pool lossy-default memory percent 43.60",
		"traffic pool lossy-default map switch-priority 0 1 2 4 5 6 7",
		"traffic pool roce type lossless",
		"traffic pool roce memory percent 1.40",
		"traffic pool roce map switch-priority 3",
		"traffic pool roce-lossless type lossless",
		"traffic pool roce-lossless memory percent 55.00",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("running-config pools:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sps := path(t, jsonOf(t, drv, "show traffic pool | json-print"), "roce-lossless", "0", "Switch Priorities"); sps != "" {
		t.Errorf("roce-lossless still lists switch priorities %q", sps)
	}
}

// TestOnyxRoCEMode: `roce [mode]`, `no roce` and `show roce` (NVIDIA Onyx
// User Manual 3.10, RoCE Commands; since 3.8.2000), where the simulator
// answered "not simulated"; a release before 3.8.2000 does not know the
// word.
func TestOnyxRoCEMode(t *testing.T) {
	d := startWith(t, sim.Options{Platform: model.PlatformOnyx, OSVersion: "3.10.4206"})
	drv := mustOpen(t, d, onyxDef(t))
	if got := cmd(t, drv, "show roce"); strings.TrimSpace(got) != "RoCE mode: N/A" {
		t.Errorf("show roce with RoCE mode off: %q", got)
	}
	configs(t, drv, "roce")
	// LLDP is on by default from 3.8.2000 (NVIDIA Onyx User Manual, Link
	// Layer Discovery Protocol (LLDP)); the manual's example, "LLDP :
	// disabled", is of a switch where it is off.
	want := "RoCE mode      : lossless\nLLDP : enabled\nPort trust mode: L3\n\n" +
		"Application TLV:\nSelector: udp\nProtocol: 4791\nPriority: 3\n\n" +
		"Port congestion-control:\nMode: ecn, absolute\nMin : 150\nMax : 1500\n\n" +
		"PFC : enabled\nswitch-priority 3: enabled\n\n" +
		"RoCE used TCs:\n----------------------------------------------\nSwitch-Priority TC Application ETS\n" +
		"----------------------------------------------\n3 3 RoCE WRR 50%\n6 6 CNP Strict"
	if got := strings.TrimSpace(cmd(t, drv, "show roce")); got != want {
		t.Errorf("show roce after `roce`:\n%s\nwant\n%s", got, want)
	}
	configs(t, drv, "roce lossy", "no lldp")
	if got := cmd(t, drv, "show roce"); !strings.HasPrefix(got, "RoCE mode      : lossy\nLLDP : disabled\n") || !strings.Contains(got, "PFC : disabled\n") {
		t.Errorf("show roce after `roce lossy`: %q", got)
	}
	configs(t, drv, "no roce")
	if got := cmd(t, drv, "show roce"); strings.TrimSpace(got) != "RoCE mode: N/A" {
		t.Errorf("show roce after `no roce`: %q", got)
	}

	old := startWith(t, sim.Options{Platform: model.PlatformOnyx, OSVersion: "3.6.8130"})
	odrv := mustOpen(t, old, onyxDef(t))
	for _, c := range []string{"show roce", "configure terminal", "roce", "no roce"} {
		r, err := odrv.SendCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		const unknown = `% Unrecognized command "roce".`
		if c != "configure terminal" && !strings.Contains(r.Result, unknown) {
			t.Errorf("%s on 3.6.8130: %q, want %q", c, r.Result, unknown)
		}
	}
}
