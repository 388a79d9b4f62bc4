package compiler

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// modeFabric is oneLinkFabric with qos headroom mode (none for ""), its
// switch running platform on model at release os ("" for the
// platform's default) with its port named port.
func modeFabric(mode, platform, swModel, os, port string) string {
	text := oneLinkFabric("")
	if mode != "" {
		text = strings.Replace(text, "    lossless_mtu = 4096 # the RoCE path MTU of the MTU 9000 NIC\n",
			"    lossless_mtu = 4096 # the RoCE path MTU of the MTU 9000 NIC\n    mode         = \""+mode+"\"\n", 1)
	}
	release := ""
	if os != "" {
		release = "\n  os_version = \"" + os + "\""
	}
	return strings.NewReplacer(`platform = "eos"`, `platform = "`+platform+`"`+release, `model    = "7050CX3-32S"`, `model    = "`+swModel+`"`,
		"Ethernet1/1", port).Replace(text)
}

// TestHeadroomMode: qos headroom mode is "computed" (the default) or
// "platform"; another value is an error at the value with the nearest
// mode. "platform" marks Cumulus switches (their PFC profiles then carry
// the cable only) and leaves the model's priority groups as computed, so
// the pools and the buffer budget still count fabricc's headroom; it is
// refused, at the mode with the switch's platform as a related place, on
// the switches whose configuration writes headroom bytes: Onyx advanced
// buffer management and EOS with an MMU queue profile. Onyx traffic
// pools and EOS on Jericho size headroom themselves already.
func TestHeadroomMode(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     []string // compact diagnostics, errors only
		leftToSw bool
	}{
		{"unknown mode", modeFabric("platfrom", "cumulus", "SN2700", "", "swp1"), []string{
			`37:20: Invalid headroom mode: headroom mode "platfrom" is not known; write "computed" (fabricc writes the PFC headroom it computes, the default) or "platform" (each switch derives it from the cable length; see docs/language.md, Headroom). Did you mean "platform"?`}, false},
		{"Cumulus: left to switchd", modeFabric("platform", "cumulus", "SN2700", "", "swp1"), nil, true},
		{"Cumulus: computed, written", modeFabric("computed", "cumulus", "SN2700", "", "swp1"), nil, false},
		{"Onyx traffic pools: already the switch's", modeFabric("platform", "onyx", "SN2700", "3.10.4206", "1/1"), nil, false},
		{"EOS Jericho: already the switch's", modeFabric("platform", "eos", "7280CR3-32D4", "", "Ethernet1/1"), nil, false},
		{"Onyx advanced buffers: refused", modeFabric("platform", "onyx", "SN2700", "3.6.4006", "1/1"), []string{
			`38:20: Headroom mode platform not possible: headroom mode "platform" leaves each lossless port's headroom to the switch, but fabricc writes it on spine1 (Onyx 3.6.4006, advanced buffer management: each lossless ingress-buffer line takes reserved, xoff and xon bytes; traffic pools, where Onyx sizes headroom itself, need MLNX-OS 3.6.5000). Remove mode (or write "computed"), or move those switches to a release or model that sizes headroom itself.`,
			`  note 9:14: switch spine1: Onyx 3.6.4006, advanced buffer management: each lossless ingress-buffer line takes reserved, xoff and xon bytes; traffic pools, where Onyx sizes headroom itself, need MLNX-OS 3.6.5000`}, false},
		{"EOS MMU queue profile: refused", modeFabric("platform", "eos", "7050CX3-32S", "", "Ethernet1/1"), []string{
			`37:20: Headroom mode platform not possible: headroom mode "platform" leaves each lossless port's headroom to the switch, but fabricc writes it on spine1 (EOS on 7050CX3-32S (Trident3): the MMU queue profile's ingress headroom bytes). Remove mode (or write "computed"), or move those switches to a release or model that sizes headroom itself.`,
			`  note 9:14: switch spine1: EOS on 7050CX3-32S (Trident3): the MMU queue profile's ingress headroom bytes`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := Compile(parseFabric(t, tt.src))
			var errs hcl.Diagnostics
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					errs = append(errs, d)
				}
			}
			got := compactDiags(errs)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Fatalf("errors (-want +got):\n%s", d)
			}
			if f == nil {
				return
			}
			if sw := f.Switch("spine1"); sw.HeadroomLeftToSwitch != tt.leftToSw {
				t.Errorf("HeadroomLeftToSwitch = %v, want %v", sw.HeadroomLeftToSwitch, tt.leftToSw)
			}
		})
	}
}

// TestHeadroomModeKeepsPhysics: mode "platform" changes what Cumulus is
// told, not the model: the priority groups, pools and buffer budget are
// those of the default mode.
func TestHeadroomModeKeepsPhysics(t *testing.T) {
	computed, diags := Compile(parseFabric(t, modeFabric("", "cumulus", "SN2700", "", "swp1")))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	left, diags := Compile(parseFabric(t, modeFabric("platform", "cumulus", "SN2700", "", "swp1")))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if left.QoS.Headroom.Mode != model.HeadroomPlatform || computed.QoS.Headroom.Mode != "" {
		t.Errorf("modes %q and %q", computed.QoS.Headroom.Mode, left.QoS.Headroom.Mode)
	}
	a, b := computed.Switch("spine1"), left.Switch("spine1")
	if d := cmp.Diff(a.Ports, b.Ports); d != "" {
		t.Errorf("ports (-computed +platform):\n%s", d)
	}
	if d := cmp.Diff(a.Pools, b.Pools); d != "" || a.Buffer != b.Buffer {
		t.Errorf("pools (-computed +platform):\n%s\nbudget %+v vs %+v", d, a.Buffer, b.Buffer)
	}
	if b.Buffer.HeadroomBytes == 0 {
		t.Error("the budget counts no headroom")
	}
}
