package compiler

import (
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// headroomCableWarnings compiles f's physics and checks, and returns the
// warnings of the two cable-length headroom checks as "summary @ key:
// detail".
func headroomCableWarnings(t *testing.T, f *model.Fabric) []string {
	t.Helper()
	src := testSources(f)
	for _, sw := range f.Switches {
		for i, p := range sw.Ports {
			if _, ok := src.spans[Key("switch", sw.Name, "port", p.Name, "link", "length")]; !ok {
				src.spans[Key("switch", sw.Name, "port", p.Name, "link", "length")] = SpanOf(lineRange(900 + 10*len(sw.Name) + i))
			}
		}
	}
	physics(t, f, src)
	var got []string
	for _, d := range check(f, src) {
		if d.Severity == hcl.DiagWarning && (d.Summary == "PFC port without a cable length" || d.Summary == "Long cable on a switch that sizes its own headroom") {
			got = append(got, d.Summary+" @ "+keyAt(src, d.Subject)+": "+d.Detail)
		}
	}
	return got
}

// TestPFCPortWithoutCableLength: leaf1 1/50 has PFC and no link, so its
// headroom assumes 5 m, and a warning says so and how to fix it; a
// shut-down port or one without PFC does not warn.
func TestPFCPortWithoutCableLength(t *testing.T) {
	const detail = `Port leaf1:1/50 has PFC on but no link with a length, so the PFC headroom assumes a 5 m cable (SONiC's default cable length, its shortest class); a longer cable needs more, and frames arriving after PAUSE beyond it are dropped. Write a link block for each such port with its length (link { a = "<switch>:<port>" b = "<peer>" length = <metres> }), or turn PFC off on a port that carries no lossless traffic.`
	for _, tc := range []struct {
		name   string
		change func(p *model.Port)
		want   []string
	}{
		{"uncabled PFC port", func(p *model.Port) { p.Shutdown = false }, []string{"PFC port without a cable length @ switch/leaf1/port/1/50: " + detail}},
		{"shut down", func(*model.Port) {}, nil},
		{"no PFC", func(p *model.Port) { p.Shutdown, p.PFCPriorities = false, nil }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := testFabric()
			tc.change(&f.Switches[0].Ports[3])
			if d := cmp.Diff(tc.want, headroomCableWarnings(t, f)); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
		})
	}
}

// TestLongCableOnSelfSizingSwitch: a 1500 m lossless link between two
// Onyx switches in traffic-pool mode warns at each end (neither switch is
// told the length); at 300 m, or on Onyx with advanced buffers (whose
// headroom fabricc writes), it does not.
func TestLongCableOnSelfSizingSwitch(t *testing.T) {
	warn := func(sw, port, peer string, xoff string) string {
		return "Long cable on a switch that sizes its own headroom @ switch/" + sw + "/port/" + port + "/link/length: Link " + sw + ":" + port + " - " + peer + " is 1500 m long and carries lossless traffic, but Onyx sizes each port's headroom itself in traffic-pool mode (MLNX-OS 3.6.5000 and later) and is told no cable length: fabricc's configuration has no headroom line for it, and no public document gives the length the switch assumes. fabricc computes " + xoff + " bytes in flight after PAUSE for this cable (the switch document lists it). Check the switch's own headroom for the port after cabling it, shorten the link to 300 m or less, or use a switch whose headroom fabricc writes (Cumulus Linux, Onyx before 3.6.5000 with advanced buffers, EOS on Trident or Tomahawk)."
	}
	for _, tc := range []struct {
		name    string
		meters  float64
		version string // of leaf1
		want    []string
	}{
		{"1500 m, traffic pools", 1500, "3.6.8190", []string{warn("leaf1", "1/49", "spine1:1/1", "238592"), warn("spine1", "1/1", "leaf1:1/49", "238592")}},
		{"300 m, traffic pools", 300, "3.6.8190", nil},
		{"1500 m, leaf1 advanced", 1500, "3.6.4006", []string{warn("spine1", "1/1", "leaf1:1/49", "238592")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := testFabric()
			f.Switches[0].OSVersion = tc.version
			f.Switches[0].Ports[2].Peer.CableMeters = tc.meters
			f.Switches[1].Ports[0].Peer.CableMeters = tc.meters
			if d := cmp.Diff(tc.want, headroomCableWarnings(t, f)); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
		})
	}
}

// TestHeadroomWriter: the one split of the switches by who sizes their
// headroom gives every Onyx and EOS switch exactly one of the two
// answers, so a buffer style or ASIC added later cannot fall between
// "sizes it itself" (the long-cable warning) and "mode platform
// refused": an Onyx switch of a style that is not traffic-pool is
// refused, as advanced buffer management is. Cumulus gets neither:
// fabricc writes its headroom unless mode "platform" leaves it to
// switchd.
func TestHeadroomWriter(t *testing.T) {
	onyx := func(style string) *model.Switch {
		return &model.Switch{Platform: model.PlatformOnyx, OSVersion: "3.6.4006", BufferStyle: style}
	}
	eos := func(m, asic string) *model.Switch {
		return &model.Switch{Platform: model.PlatformEOS, BufferStyle: "profile", Hardware: model.Hardware{Model: m, ASIC: asic}}
	}
	const advanced = "Onyx 3.6.4006, advanced buffer management: each lossless ingress-buffer line takes reserved, xoff and xon bytes; traffic pools, where Onyx sizes headroom itself, need MLNX-OS 3.6.5000"
	tests := []struct {
		name               string
		sw                 *model.Switch
		selfSized, refused string
	}{
		{"Onyx traffic pools", onyx("traffic-pool"), "Onyx sizes each port's headroom itself in traffic-pool mode (MLNX-OS 3.6.5000 and later)", ""},
		{"Onyx advanced", onyx("advanced"), "", advanced},
		{"Onyx without a style", onyx(""), "", advanced},
		{"EOS Jericho", eos("7280CR3-32D4", "Jericho2"), "EOS sizes PFC headroom itself on Jericho2", ""},
		{"EOS Trident", eos("7050CX3-32S", "Trident3"), "", "EOS on 7050CX3-32S (Trident3): the MMU queue profile's ingress headroom bytes"},
		{"EOS Tomahawk", eos("7060CX-32S", "Tomahawk"), "", "EOS on 7060CX-32S (Tomahawk): the MMU queue profile's ingress headroom bytes"},
		{"Cumulus", &model.Switch{Platform: model.PlatformCumulus, BufferStyle: "profile"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			selfSized, refused := headroomWriter(tt.sw)
			if selfSized != tt.selfSized || refused != tt.refused {
				t.Errorf("headroomWriter = %q, %q\nwant            %q, %q", selfSized, refused, tt.selfSized, tt.refused)
			}
		})
	}
}
