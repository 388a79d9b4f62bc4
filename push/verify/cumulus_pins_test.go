package verify

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tests that pin the NVUE readback where hand mutation testing (review
// mutants2) changed a parse step with no test failing.

// TestCumulusPinsForeignQoS: ForeignQoS reads NVIDIA's RoCE mode
// from `nv config show -o json` (`nv set qos roce`, lossless unless a
// mode is set: Cumulus Linux User Guide, RDMA over Converged Ethernet -
// RoCE) and a roce-lossless pool with switch priorities; a document
// that is not JSON is an error, not "nothing foreign".
func TestCumulusPinsForeignQoS(t *testing.T) {
	got, err := foreignQoS(`[{"header": {"model": "vx"}}, {"set": {"qos": {"roce": {},
	  "traffic-pool": {"roce-lossless": {"switch-priority": {"3": {}}}}}}}]`)
	want := map[string]string{"qos roce": "RoCE mode lossless", "qos traffic-pool roce-lossless": "lossless pool of switch priority 3"}
	if d := cmp.Diff(want, got); err != nil || d != "" {
		t.Errorf("err %v, (-want +got):\n%s", err, d)
	}
	// RoCE mode off: `enable off` up to 5.14, `state disabled` from 5.15
	// (NVUE Command Reference, QoS, `nv set qos roce state`).
	for _, roce := range []string{`{"enable": "off"}`, `{"state": "disabled", "mode": "lossless"}`} {
		if got, err := foreignQoS(`[{"set": {"qos": {"roce": ` + roce + `}}}]`); err != nil || got != nil {
			t.Errorf("RoCE mode off (%s): %v, %v; want none", roce, got, err)
		}
	}
	for _, roce := range []string{`{"enable": "on"}`, `{"state": "enabled", "mode": "lossy"}`} {
		got, err := foreignQoS(`[{"set": {"qos": {"roce": ` + roce + `}}}]`)
		mode := map[bool]string{true: "RoCE mode lossy", false: "RoCE mode lossless"}[roce != `{"enable": "on"}`]
		if d := cmp.Diff(map[string]string{"qos roce": mode}, got); err != nil || d != "" {
			t.Errorf("RoCE mode on (%s): err %v, (-want +got):\n%s", roce, err, d)
		}
	}
	if _, err := foreignQoS(`{not json`); err == nil {
		t.Error("no error for a document that is not JSON")
	}
}

// TestCumulusPinsOwnKeyWins: `nv config show` groups interfaces under
// one key where their settings are the same and keeps what differs
// under the interface's own key (NVUE Command Reference, `nv config
// show`, the "bond1" and "bond1-3" example), so the interface's own key
// wins whichever way the keys sort: swp1's own MTU beside the
// "swp1-2" group's.
func TestCumulusPinsOwnKeyWins(t *testing.T) {
	s, err := ParseNVUE([]byte(`[{"set": {"interface": {
	  "swp1": {"type": "swp", "link": {"mtu": 9216}},
	  "swp1-2": {"type": "swp", "link": {"mtu": 1500}},
	  "swp3": {"type": "swp", "link": {"mtu": 9000}},
	  "swp2-3": {"type": "swp", "link": {"mtu": 1500}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, n := range []string{"swp1", "swp2", "swp3"} {
		got[n] = s.Ports[n].MTU
	}
	if d := cmp.Diff(map[string]int{"swp1": 9216, "swp2": 1500, "swp3": 9000}, got); d != "" {
		t.Errorf("MTUs (-want +got):\n%s", d)
	}
}

// TestCumulusPinsNameRanges: NVUENames expands a range by its count of
// names, as its doc says (more than 4096 names is kept as one name): an
// SVI range high in the VLAN space ("vlan4000-4001", NVUE Command
// Reference, `nv set interface <interface-id>`) is two interfaces, and
// a range of exactly 4096 names is expanded while 4097 is not.
func TestCumulusPinsNameRanges(t *testing.T) {
	if got := NVUENames("vlan4000-4001"); !slices.Equal(got, []string{"vlan4000", "vlan4001"}) {
		t.Errorf("vlan4000-4001: %q", got)
	}
	if got := NVUENames("swp1-4096"); len(got) != 4096 || got[4095] != "swp4096" {
		t.Errorf("swp1-4096: %d names", len(got))
	}
	if got := NVUENames("swp1-4097"); !slices.Equal(got, []string{"swp1-4097"}) {
		t.Errorf("swp1-4097: %d names, want it kept as one", len(got))
	}
}

// TestCumulusPinsTrustL3DefaultMap: a mapping profile that trusts DSCP
// and maps no value runs NVUE's default, DSCP 8n..8n+7 to switch
// priority n ("If you configure the trust to be l3 but do not specify
// any DSCP to switch priority mappings, Cumulus Linux uses the default
// values": Cumulus Linux 5.9 User Guide, Quality of Service,
// Classification, Trust DSCP; `both` trusts DSCP too), and switch priority n to traffic class n
// (same guide, Egress Queues). The map is read, so it is compared: a
// nil map would leave the DSCP map unverified.
func TestCumulusPinsTrustL3DefaultMap(t *testing.T) {
	for _, trust := range []string{"l3", "both"} {
		s, err := ParseNVUE([]byte(`[{"set": {"interface": {"swp1": {"type": "swp"}},
		  "qos": {"mapping": {"default-global": {"trust": "` + trust + `"}}}}}]`))
		if err != nil {
			t.Fatal(err)
		}
		m := s.Ports["swp1"].DSCPToTC
		got := map[int]int{0: m[0], 7: m[7], 8: m[8], 26: m[26], 46: m[46], 63: m[63]}
		if d := cmp.Diff(map[int]int{0: 0, 7: 0, 8: 1, 26: 3, 46: 5, 63: 7}, got); len(m) != 64 || d != "" {
			t.Errorf("trust %s: %d entries, (-want +got):\n%s", trust, len(m), d)
		}
	}
}

// TestCumulusPinsPoolsFabricFirst: with NVIDIA's roce-lossless pool
// beside fabricc's default-lossless (RoCE mode on: Cumulus Linux User
// Guide, Quality of Service, Traffic Pools), the lossless pool compared
// is default-lossless, fabricc's; the other is reported as foreign QoS
// (ForeignQoS), not read as the fabric's pool.
func TestCumulusPinsPoolsFabricFirst(t *testing.T) {
	s, err := ParseNVUE([]byte(`[{"set": {"interface": {"swp1": {"type": "swp"}}, "qos": {"traffic-pool": {
	  "default-lossless": {"memory-percent": 50, "switch-priority": {"3": {}}},
	  "roce-lossless": {"memory-percent": 20, "switch-priority": {"4": {}}},
	  "mc-lossy": {"memory-percent": 5}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Pool{"lossless": {Percent: 50, Priorities: []int{3}}}
	if d := cmp.Diff(want, s.Pools); d != "" {
		t.Errorf("pools (-want +got):\n%s", d)
	}
}

// TestCumulusPinsBondMLAG: BondMembers reads a bond's `bond mlag id` while
// MLAG is on, in both forms NVUE writes (NVUE Command Reference, MLAG,
// `nv set interface <interface-id> bond mlag state`: "In Cumulus Linux
// 5.14 and earlier, you specify enable on or enable off instead of state
// enabled or state disabled"), and not when it is off in either form or
// the id is 0 ("A value of 0 disables MLAG on the bond"); a numeric ID is
// written as the number, "1". MLAG on with no id is an MLAG bond of id
// "auto" (`bond mlag id`: "The default setting is auto"), as is an id of
// auto; an mlag object with neither is a plain bond (the state's
// "default setting is disabled"). The peer link is the bond NVUE types
// `peerlink` (the user guide's `interface peerlink`).
func TestCumulusPinsBondMLAG(t *testing.T) {
	conf, err := ParseNVUEConfig([]byte(`[{"set": {"interface": {
	  "bond1": {"type": "bond", "bond": {"member": {"swp1": {}}, "mlag": {"enable": "on", "id": 1}}},
	  "bond2": {"type": "bond", "bond": {"member": {"swp2": {}}, "mlag": {"enable": "off", "id": 2}}},
	  "bond3": {"type": "bond", "bond": {"member": {"swp3": {}}}},
	  "bond4": {"type": "bond", "bond": {"member": {"swp4": {}}, "mlag": {"state": "enabled", "id": 4}}},
	  "bond5": {"type": "bond", "bond": {"member": {"swp5": {}}, "mlag": {"state": "disabled", "id": 5}}},
	  "bond6": {"type": "bond", "bond": {"member": {"swp6": {}}, "mlag": {"id": 0}}},
	  "bond7": {"type": "bond", "bond": {"member": {"swp7": {}}, "mlag": {"state": "enabled"}}},
	  "bond8": {"type": "bond", "bond": {"member": {"swp8": {}}, "mlag": {"enable": "on"}}},
	  "bond9": {"type": "bond", "bond": {"member": {"swp9": {}}, "mlag": {"id": "auto"}}},
	  "bond10": {"type": "bond", "bond": {"member": {"swp10": {}}, "mlag": {"state": "enabled", "id": 0}}},
	  "bond11": {"type": "bond", "bond": {"member": {"swp11": {}}, "mlag": {}}},
	  "peerlink": {"type": "peerlink", "bond": {"member": {"swp49": {}, "swp50": {}}}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	got := conf.BondMembers()
	want := map[string]BondMember{"swp1": {"bond1", "1", false}, "swp2": {"bond2", "", false}, "swp3": {"bond3", "", false},
		"swp4": {"bond4", "4", false}, "swp5": {"bond5", "", false}, "swp6": {"bond6", "", false},
		"swp7": {"bond7", "auto", false}, "swp8": {"bond8", "auto", false}, "swp9": {"bond9", "auto", false},
		"swp10": {"bond10", "", false}, "swp11": {"bond11", "", false},
		"swp49": {"peerlink", "", true}, "swp50": {"peerlink", "", true}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("members (-want +got):\n%s", d)
	}
}

// foreignQoS is ParseNVUEConfig(doc).ForeignQoS(), the decode's error
// if any.
func foreignQoS(doc string) (map[string]string, error) {
	c, err := ParseNVUEConfig([]byte(doc))
	if err != nil {
		return nil, err
	}
	return c.ForeignQoS(), nil
}
