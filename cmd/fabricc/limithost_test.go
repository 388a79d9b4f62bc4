package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
)

// TestVerifyLimitHost: --limit naming a host of the fabric that the
// inventory does not list selects the switch its NIC is cabled to, with
// a note naming it and its port, for verify and diff; a term that is no
// device, group, tag or host is refused as before.
func TestVerifyLimitHost(t *testing.T) {
	dir, _ := labWith(t, nil)
	inv := filepath.Join(dir, "inventory.hcl")
	const note = "note: --limit gpu02 is a host of the fabric; it selects the switches its NICs are cabled to: gpu02: leaf1 (swp2)\n"
	code, stdout, stderr := fabricc(t, "verify", clos, "-i", inv, "--limit", "gpu02")
	if code != 2 || !strings.HasPrefix(stderr, note) || !strings.Contains(stdout, "\nleaf1   cumulus   mismatch") ||
		!strings.HasSuffix(stdout, "verify: 1 of 6 switches: 1 mismatch\n") {
		t.Errorf("verify --limit gpu02: exit %d\n%s\n--- stderr\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = fabricc(t, "diff", clos, "-i", inv, "--limit", "gpu02")
	if code != 2 || !strings.HasPrefix(stderr, note) || !strings.HasPrefix(stdout, "=== leaf1 (cumulus)\n") {
		t.Errorf("diff --limit gpu02: exit %d\n%s\n--- stderr\n%s", code, stdout, stderr)
	}
	code, _, stderr = fabricc(t, "verify", clos, "-i", inv, "--limit", "gpu99")
	if want := `--limit term "gpu99" matches no device name, group or tag in `; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("verify --limit gpu99: exit %d, want 1 and %q\n%s", code, want, stderr)
	}
}

// TestHostLimit: a dual-homed host's term becomes its switches (and the
// host, when the inventory lists it), each switch once with its ports in
// the note; a switch the inventory lacks is named and left out; globs,
// exclusions, intersections and switch names stay as they are.
func TestHostLimit(t *testing.T) {
	hostPeer := func(nic string) *model.Peer { return &model.Peer{Kind: "host", Device: "gpu09", Port: nic} }
	f := &model.Fabric{Switches: []model.Switch{
		{Name: "leaf3", Ports: []model.Port{{Name: "1/1", Peer: hostPeer("ens1f0")}, {Name: "1/3", Peer: hostPeer("ens1f2")}, {Name: "1/2"}}},
		{Name: "leaf4", Ports: []model.Port{{Name: "1/2", Peer: hostPeer("ens1f1")}}},
		{Name: "leaf5", Ports: []model.Port{{Name: "swp1", Peer: hostPeer("ens2f0")}}},
	}}
	inv := &inventory.Inventory{Devices: []*inventory.Device{{Name: "leaf3"}, {Name: "leaf4"}, {Name: "gpu09"}}}
	for _, tc := range []struct{ limit, want, note string }{
		{"gpu09", "leaf3,leaf4,gpu09",
			"note: --limit gpu09 is a host of the fabric; it selects the switches its NICs are cabled to: gpu09: leaf3 (1/1, 1/3), leaf4 (1/2), leaf5 (swp1); and gpu09 itself; not in the inventory, so left out: leaf5\n"},
		{"spine1, gpu09", "spine1,leaf3,leaf4,gpu09",
			"note: --limit gpu09 is a host of the fabric; it selects the switches its NICs are cabled to: gpu09: leaf3 (1/1, 1/3), leaf4 (1/2), leaf5 (swp1); and gpu09 itself; not in the inventory, so left out: leaf5\n"},
		{"!gpu09,&gpu09,gpu*,leaf3", "!gpu09,&gpu09,gpu*,leaf3", ""},
		{"", "", ""},
	} {
		var note strings.Builder
		if got := hostLimit(&note, f, inv, tc.limit); got != tc.want || note.String() != tc.note {
			t.Errorf("hostLimit(%q) = %q, note %q\nwant %q, note %q", tc.limit, got, note.String(), tc.want, tc.note)
		}
	}
}
