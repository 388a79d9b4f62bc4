package compiler

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLinkOverride: a link with override = true replaces the links that
// cable one of its ends, whichever comes first in the source; the port a
// moved cable leaves is uncabled; an override that replaces nothing is a
// warning at its override attribute; two overrides on one end are
// "Cabled twice".
func TestLinkOverride(t *testing.T) {
	moved := "link {\n  a        = \"gpu01:roce0\"\n  b        = \"leaf1:swp3\"\n  length   = 5\n  override = true\n}\n"
	tests := []struct {
		name  string
		src   string
		links []string // "a - b length"
		diags []string
	}{
		{"cable moved to another port, override after", edit(moved), []string{"leaf1:swp3 - gpu01:roce0 5"}, nil},
		{"cable moved, override first", strings.Replace(edit(""), "link {", moved+"\nlink {", 1), []string{"leaf1:swp3 - gpu01:roce0 5"}, nil},
		{"same ends, longer cable", edit(strings.Replace(moved, "swp3", "swp2", 1)), []string{"leaf1:swp2 - gpu01:roce0 5"}, nil},
		{"replaces nothing", edit("host \"gpu02\" {\n  os = \"linux\"\n  nic \"roce0\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f0\"\n    vlan      = 100\n    addresses = [\"192.168.100.12/24\"]\n  }\n}\n" +
			strings.Replace(moved, "gpu01", "gpu02", 1)), []string{"leaf1:swp2 - gpu01:roce0 3", "leaf1:swp3 - gpu02:roce0 5"}, []string{
			`45:14: Link override replaces nothing: the link "gpu02:roce0" - "leaf1:swp3" has override = true, but no other link cables either end, so it replaces nothing; remove override = true (it would hide the next link written on these ends).`,
		}},
		{"two overrides on one end", edit(moved + strings.Replace(moved, "swp3", "swp4", 1)), nil, []string{
			`39:14: Cabled twice: nic "roce0" of host "gpu01" is already cabled by another link; one end takes one cable.`,
			"  note 33:14: the other link is here",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _, diags := lowerSrc(t, tc.src)
			if d := cmp.Diff(tc.diags, diags); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if tc.links == nil {
				return
			}
			var got []string
			for _, l := range f.Links {
				got = append(got, l.A.Device+":"+l.A.Port+" - "+l.B.Device+":"+l.B.Port+" "+strconv.FormatFloat(l.CableMeters, 'g', -1, 64))
			}
			if d := cmp.Diff(tc.links, got); d != "" {
				t.Errorf("links (-want +got):\n%s", d)
			}
			// The port the cable left has no peer.
			if tc.name == "cable moved to another port, override after" {
				sw := f.Switch("leaf1")
				if p := sw.Port("swp2"); p == nil || p.Peer != nil {
					t.Errorf("swp2 after the move: %+v, want no peer", p)
				}
				if p := sw.Port("swp3"); p == nil || p.Peer == nil || p.Peer.Device != "gpu01" {
					t.Errorf("swp3 after the move: %+v, want gpu01", p)
				}
			}
		})
	}
}
