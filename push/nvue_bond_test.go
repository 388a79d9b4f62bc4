package push

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPushRefusesNVUEBondMembers: a fabric port that the switch's applied
// configuration lists under `interface <bond> bond member` (the NVUE
// object model of the Cumulus Linux user guide, NVUE CLI, "Search for a
// Specific Configuration") is refused before anything is staged, naming
// the bond and whether it is an MLAG bond (`bond mlag id`), as push
// refuses an Onyx LAG member; once the port leaves the bond the push
// goes through (rcum #2). Before, push wrote the bridge domain, MTU and
// PFC profile on the member.
//
// MLAG on with no id, `bond mlag enable on` (Cumulus Linux 5.14 and
// earlier) or `bond mlag state enabled` (5.15 and later), makes an MLAG
// bond whose id is auto (NVUE Command Reference, Set and Unset Commands,
// MLAG: `bond mlag id`, "The default setting is auto"): refused as MLAG,
// with no removal command. Before, those members were plain bond members
// and push gave the `nv unset ... bond member` that cuts the host.
func TestPushRefusesNVUEBondMembers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release string // the fabric's os_version and the simulator's release
		hand    []string
		found   string
		member  map[string]string // verify's actual for each bonded fabric port
	}{
		{"bond", "5.9.2", []string{"nv set interface bond1 type bond", "nv set interface bond1 bond member swp2"},
			"fabric ports are bond members on the switch: swp2 is a member of bond bond1 (`nv unset interface bond1 bond member swp2` takes it out); " +
				"a member takes its bridge domain, MTU and QoS from its bond, " +
				"which fabricc does not manage, so fabricc cannot configure the port: take it out of the bond (then nv config apply -y) or leave the port out of the fabric",
			// swp1, a fabric port not yet pushed, is not in the configuration.
			map[string]string{"swp1": "not in the switch's configuration", "swp2": "a member of bond bond1"}},
		// An MLAG bond's member gets no removal command.
		{"mlag", "5.9.2", []string{"nv set interface bond3 type bond", "nv set interface bond3 bond member swp1-2", "nv set interface bond3 bond mlag id 7"},
			"fabric ports are part of an MLAG on the switch: swp1 is a member of MLAG bond bond3 (bond mlag id 7); " +
				"swp2 is a member of MLAG bond bond3 (bond mlag id 7); taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, " +
				"and fabricc does not configure MLAG, so leave the port out of the fabric",
			map[string]string{"swp1": "a member of MLAG bond bond3 (bond mlag id 7)", "swp2": "a member of MLAG bond bond3 (bond mlag id 7)"}},
		// The peer link, as NVIDIA's MLAG guide names and NVUE types it.
		{"peerlink", "5.9.2", []string{"nv set interface peerlink type bond", "nv set interface peerlink bond member swp1", "nv set interface peerlink type peerlink"},
			"fabric ports are part of an MLAG on the switch: swp1 is a member of the MLAG peer link peerlink; " +
				"taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, " +
				"and fabricc does not configure MLAG, so leave the port out of the fabric",
			map[string]string{"swp1": "a member of the MLAG peer link peerlink", "swp2": "not in the switch's configuration"}},
		{"mlag enable on, no id", "5.9.2", []string{"nv set interface bond1 type bond", "nv set interface bond1 bond member swp2", "nv set interface bond1 bond mlag enable on"},
			"fabric ports are part of an MLAG on the switch: swp2 is a member of MLAG bond bond1 (bond mlag id auto); " +
				"taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, " +
				"and fabricc does not configure MLAG, so leave the port out of the fabric",
			map[string]string{"swp1": "not in the switch's configuration", "swp2": "a member of MLAG bond bond1 (bond mlag id auto)"}},
		{"mlag state enabled, no id", "5.15.0", []string{"nv set interface bond1 type bond", "nv set interface bond1 bond member swp2", "nv set interface bond1 bond mlag state enabled"},
			"fabric ports are part of an MLAG on the switch: swp2 is a member of MLAG bond bond1 (bond mlag id auto); " +
				"taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, " +
				"and fabricc does not configure MLAG, so leave the port out of the fabric",
			map[string]string{"swp1": "not in the switch's configuration", "swp2": "a member of MLAG bond bond1 (bond mlag id auto)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, set := buildExample(t, cumulusRelease(t, tc.release))
			sw := f.Switch("leaf1")
			cfg := config(t, set, sw)
			l := startLabWith(t, sw, func(o *sim.Options) { o.OSVersion = tc.release })
			l.hand(t, append(tc.hand, "nv config apply -y")...)
			running := l.sim.Running()
			r := l.run(t, ActionPush, f, sw, cfg)
			want := "staging: " + tc.found + ", and push again; nothing was changed"
			if r.Status != StatusFailed || r.Error != want {
				t.Errorf("push onto a bond member: %s %q, want failed with %q", r.Status, r.Error, want)
			}
			if l.sim.Running() != running {
				t.Error("the refused push changed the applied configuration")
			}
			// verify names the bond, as push does, not a missing port.
			v := l.run(t, ActionVerify, f, sw, cfg)
			got := map[string]string{}
			for _, d := range v.Differences {
				if d.Field == "port" {
					got[d.Port] = d.Actual
				}
			}
			if !maps.Equal(got, tc.member) {
				t.Errorf("verify of the bond members: %v, want %v", got, tc.member)
			}
			bond := tc.hand[0][len("nv set interface ") : len(tc.hand[0])-len(" type bond")]
			l.hand(t, "nv unset interface "+bond, "nv config apply -y")
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
				t.Errorf("push after the bond is gone: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}

// cumulusRelease is the tutorial fabric on Cumulus Linux with os_version
// release (the tutorial's own is 5.9.2), in a folder of its own.
func cumulusRelease(t *testing.T, release string) string {
	t.Helper()
	dir := tutorialOn(t, model.PlatformCumulus, 3)
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `os_version = "5.9.2"`, `os_version = "`+release+`"`, 1)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}
